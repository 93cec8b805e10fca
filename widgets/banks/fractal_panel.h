// SPDX-License-Identifier: Apache-2.0
// FractalPanel: an Ascend logical tile next to its zN / nZ / zZ / L0C storage (core fractal.h):
// logical cells coloured by fractal block and labelled with their storage offset, the physical
// view (fractals of 16 x C0 in storage order, one band per C0 column block / row block) labelled
// with the logical coordinates, fractal blocks outlined, padding cells marked, the footprint.
// Each arrangement is shown by both names (CATLASS "zN", tilelang-ascend "NZ"); "Copy as
// tilelang-ascend" puts the code that gives a buffer this arrangement on the clipboard. Below,
// for zN, what L1 holds when the tile is filled by several T.copy calls (NzSpliceView).
#pragma once

#include "grid/panel_picture.h"

#include <QWidget>
#include <optional>

class QBoxLayout;
class QComboBox;
class QLabel;
class QSpinBox;

namespace tsw {

class GridView;
class NzSpliceView;
class ResultState;

class FractalPanel : public QWidget {
    Q_OBJECT
public:
    explicit FractalPanel(QWidget* parent = nullptr);
    // `kind` in either convention ("zN" or "NZ", ...; fractal.h); an unknown name is shown as
    // the error and leaves the arrangement as it was.
    void setTile(int rows, int cols, const QString& dtype, const QString& kind);
    bool refresh();
    QString footprintText() const;
    QString errorText() const { return error_; }
    // tilelang-ascend Python for the current tile (ascendFractalCode), empty on an error.
    QString ascendCode() const;
    GridView* logicalView() const { return logical_; }
    GridView* physicalView() const { return physical_; }
    ResultState* resultState() const { return state_; }
    // What Export Picture writes (preview_pictures.cpp); nullopt and *whyNot when the panel's
    // numbers are not current.
    std::optional<PanelPicture> picture(QString* whyNot) const;
    // Several DMAs into the tile (zN only), under the grids.
    NzSpliceView* spliceView() const { return splice_; }

protected:
    void resizeEvent(QResizeEvent* e) override;

private:
    QBoxLayout* grids_;
    QSpinBox *rows_, *cols_;
    QComboBox *dtype_, *kind_;
    QLabel* info_;
    GridView *logical_, *physical_;
    ResultState* state_;
    NzSpliceView* splice_;
    QString error_;
};

} // namespace tsw
