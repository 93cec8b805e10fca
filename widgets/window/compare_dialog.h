// SPDX-License-Identifier: Apache-2.0
// "Compare Layouts…": two layouts of the project side by side with the cell-by-cell diff, in any
// notation each is written in (a TileLang fragment against the CuTe TV layout of the same MMA).
// Both sides follow their layout's text: an edit, a rename, a removal or another project redraws
// or clears the comparison, so no number on it belongs to text that is gone.
#pragma once

#include <QDialog>

class QComboBox;
class QLabel;

namespace tsw {

class ComparisonView;
class DocumentModel;

class CompareDialog : public QDialog {
    Q_OBJECT
public:
    CompareDialog(DocumentModel* doc, QWidget* parent = nullptr);
    // Layout indices of the two sides; b = -1: the nearest layout comparable with a (kept
    // looking for while there is none, so a layout added or edited into one is taken).
    void setPair(int a, int b);
    // The active layout and the nearest comparable one (two fragments or two T.Layouts); when
    // there is none, the right side is empty and the message says why.
    void showDefaultPair();
    int side(int k) const;
    ComparisonView* view() const { return view_; }
    QString messageText() const;

    // Larger layouts are compared with `tilescope-cli diff` (the comparison evaluates both on
    // the UI thread).
    static constexpr long long kMaxCells = 1 << 20;

private:
    void repopulate();
    void refresh();
    DocumentModel* doc_;
    QComboBox* boxes_[2];
    QLabel* message_;
    ComparisonView* view_;
};

} // namespace tsw
