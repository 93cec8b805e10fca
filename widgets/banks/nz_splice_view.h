// SPDX-License-Identifier: Apache-2.0
// NzSpliceView: several GM -> L1 copies into one zN tile (core nz_splice.h), under the fractal
// preview. The copies are typed as row ranges ("0:64, 64:128", or "0:64 x 0:32" with columns);
// two choices say how the DMAs behave (C0 stride: the buffer's rows as tilelang-ascend passes
// it, or the copy's rows as in the interleaving users reported; clear: only at offset 0 as
// released, or on every partial copy as before the fix). Two storage grids side by side: one
// T.copy of the whole tile, and the tile after the copies, each physical cell labelled with the
// logical element it holds and coloured by whether that is right; elements no longer anywhere in
// the tile are listed in rows below the storage.
#pragma once

#include <QWidget>

#include <cstdint>

class QComboBox;
class QLabel;
class QLineEdit;

namespace tsw {

class GridView;

class NzSpliceView : public QWidget {
    Q_OBJECT
public:
    explicit NzSpliceView(QWidget* parent = nullptr);
    // The tile of the fractal preview; `zn` false (another arrangement) hides the grids and says
    // why: the DMA writes zN.
    void setTile(std::int64_t rows, std::int64_t cols, const QString& dtype, bool zn);
    void setCopies(const QString& text); // the copies field
    void setBehaviour(const QString& stride,
                      const QString& clear); // "tile"/"copy", "offset0"/"every"
    bool refresh();
    QString summaryText() const;
    QString errorText() const { return error_; }
    GridView* singleView() const { return single_; }
    GridView* spliceView() const { return splice_; }

private:
    QLineEdit* copies_;
    QComboBox *stride_, *clear_;
    QLabel* info_;
    QWidget* grids_;
    GridView *single_, *splice_;
    std::int64_t rows_ = 0, cols_ = 0;
    QString dtype_;
    bool zn_ = false;
    QString error_;
};

} // namespace tsw
