// SPDX-License-Identifier: Apache-2.0
// BankDocks: docks the analysis panels (bank conflicts, Ascend UB, swizzle, fractal,
// rasterization) into the host's window, with an "Analysis" menu to show them; the bank panel
// follows the active layout when it is a T.Layout, and shows the measurements that a device run
// reports on the FeatureBus next to its prediction.
#pragma once

#include <QObject>

class QDockWidget;

namespace tsw {

class FeatureHost;
class BankPanel;
class UbPanel;
class SwizzlePanel;
class FractalPanel;
class RasterPanel;
class BankAccessKeeper;

class BankDocks : public QObject {
    Q_OBJECT
public:
    explicit BankDocks(FeatureHost* host);
    BankPanel* bankPanel() const { return bank_; }
    UbPanel* ubPanel() const { return ub_; }
    SwizzlePanel* swizzlePanel() const { return swizzle_; }
    FractalPanel* fractalPanel() const { return fractal_; }
    RasterPanel* rasterPanel() const { return raster_; }
    QDockWidget* bankDock() const { return bankDock_; }
    QDockWidget* fractalDock() const { return fractalDock_; }
    BankAccessKeeper* accessKeeper() const { return keeper_; }

private:
    BankPanel* bank_;
    UbPanel* ub_;
    SwizzlePanel* swizzle_;
    FractalPanel* fractal_;
    RasterPanel* raster_;
    QDockWidget* bankDock_ = nullptr;
    QDockWidget* fractalDock_ = nullptr;
    BankAccessKeeper* keeper_ = nullptr;
};

} // namespace tsw
