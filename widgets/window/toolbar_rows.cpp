// SPDX-License-Identifier: Apache-2.0
// keepToolBarsInView (see toolbar_rows.h).
#include "window/toolbar_rows.h"

#include <QEvent>
#include <QMainWindow>
#include <QPointer>
#include <QTimer>
#include <QToolBar>

namespace tsw {

namespace {

class ToolBarRows : public QObject {
public:
    ToolBarRows(QMainWindow* w, QToolBar* first, QToolBar* second)
        : QObject(w), w_(w), first_(first), second_(second) {
        for (QObject* o : {static_cast<QObject*>(w), static_cast<QObject*>(first),
                           static_cast<QObject*>(second)})
            o->installEventFilter(this);
    }

    bool eventFilter(QObject*, QEvent* e) override {
        switch (e->type()) {
        case QEvent::Resize:
        case QEvent::Show:
        case QEvent::ActionAdded:
        case QEvent::ActionRemoved:
        case QEvent::ActionChanged:
            // After the event: an added action is in the toolbar's size hint only then.
            QTimer::singleShot(0, this, [this] { update(); });
            break;
        default:
            break;
        }
        return false;
    }

private:
    void update() {
        if (!w_ || !first_ || !second_) return;
        if (w_->toolBarArea(first_) != w_->toolBarArea(second_)) return; // the user moved one
        // sizeHint is every action's width, also of those an overflow would hide.
        const int need = first_->sizeHint().width() + second_->sizeHint().width() + 8;
        const bool split = w_->toolBarBreak(second_);
        if (need > w_->width() && !split)
            w_->insertToolBarBreak(second_);
        else if (need <= w_->width() && split)
            w_->removeToolBarBreak(second_);
    }

    QPointer<QMainWindow> w_;
    QPointer<QToolBar> first_, second_;
};

} // namespace

void keepToolBarsInView(QMainWindow* window, QToolBar* first, QToolBar* second) {
    new ToolBarRows(window, first, second);
}

bool toolBarOnSecondRow(const QMainWindow* window, const QToolBar* second) {
    return window->toolBarBreak(const_cast<QToolBar*>(second));
}

} // namespace tsw
