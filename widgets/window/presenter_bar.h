// SPDX-License-Identifier: Apache-2.0
// PresenterBar: the on-screen control of presenter mode, a slim dark strip under the grid (never
// over it) with what a teacher needs in front of a class: lesson step back / forward with "step
// 2 of 6", the bank step-through's instruction back / forward, the colourings, zoom, and leave.
// Each button is the window's own action (same shortcut, same enabled state), so the keyboard
// and the bar always agree. Its hint names only the keys that apply to what is shown.
#pragma once

#include <QToolBar>

class QAction;
class QLabel;
class QTimer;

namespace tsw {

class MainWindow;
class Presenter;

class PresenterBar : public QToolBar {
    Q_OBJECT
public:
    PresenterBar(MainWindow* w, Presenter* p);

    // The keys that apply now ("PgDn / PgUp: step · ..."), as the hint shows them.
    QString keysText() const;
    QString hintText() const;
    QString stepText() const;
    QAction* colourAction(int i) const; // Thread, Warp, Slot, Replica (null if absent)

public slots:
    // Shows the hint in the bar for `ms` (entering presenter mode).
    void flashHint(int ms = 6000);
    // Re-reads which controls apply: lesson steps, instructions, colourings.
    void refresh();

private:
    MainWindow* w_;
    Presenter* p_;
    QList<QAction*> colours_, zoom_; // the window's own actions
    QAction *stepLabelAct_, *instrSep_, *instrLabelAct_;
    QLabel *stepLabel_, *instrLabel_, *hint_;
    QTimer* hintTimer_;
};

} // namespace tsw
