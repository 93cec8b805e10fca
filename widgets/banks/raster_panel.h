// SPDX-License-Identifier: Apache-2.0
// RasterPanel: T.use_swizzle(panel_size, order) — the threadblock rasterization (core raster.h),
// NOT the shared-memory swizzle. The plain launch order next to row / column / mlx order on a
// grid of C tiles (cell = block (bx, by), label = launch index, colour = wave of resident
// blocks), and per wave the A row panels and B column panels it touches.
#pragma once

#include <QWidget>

class QComboBox;
class QLabel;
class QPlainTextEdit;
class QSpinBox;

namespace tsw {

class GridView;
class ResultState;

class RasterPanel : public QWidget {
    Q_OBJECT
public:
    explicit RasterPanel(QWidget* parent = nullptr);
    void setGrid(int gx, int gy, int panel, const QString& order, int sms, int perSm);
    bool refresh();
    QString wavesText() const;
    QString errorText() const { return error_; }
    GridView* plainView() const { return plain_; }
    GridView* swizzledView() const { return swizzled_; }
    ResultState* resultState() const { return state_; }

private:
    QSpinBox *gx_, *gy_, *panel_, *sms_, *perSm_;
    QComboBox* order_;
    QPlainTextEdit* waves_;
    QLabel* summary_;
    GridView *plain_, *swizzled_;
    ResultState* state_;
    QString error_;
};

} // namespace tsw
