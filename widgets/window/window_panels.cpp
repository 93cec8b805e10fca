// SPDX-License-Identifier: Apache-2.0
#include "window/window_panels.h"

#include <QAction>
#include <QDockWidget>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QScreen>
#include <QVariant>
#include <algorithm>
#include <vector>

namespace tsw {

namespace {
const char* kRaiseHooked = "tilescopeRaiseHooked";
const char* kPanelSide = "tilescopePanelSide"; // docked left/right when the menu first saw it
} // namespace

void raiseWhenOpened(QDockWidget* d) {
    if (!d || d->property(kRaiseHooked).toBool()) return;
    d->setProperty(kRaiseHooked, true);
    // The toggle action's own slot shows the dock first; a tabified dock then still sits behind
    // the tab that was in front, so bring it forward.
    QObject::connect(d->toggleViewAction(), &QAction::triggered, d, [d](bool on) {
        if (!on) return;
        d->show();
        d->raise();
    });
}

void rebuildPanelsMenu(QMainWindow* w, QMenu* panels) {
    panels->clear();
    // A fixed order, so the menu does not reorder itself as panels open, close or move (a key
    // pressed from memory must hit the same entry): the editing panels (docked left or right
    // when first seen) first, then the tools below or floating; each group alphabetical.
    struct Entry {
        bool side;
        QString name;
        QDockWidget* dock;
    };
    std::vector<Entry> entries;
    for (QDockWidget* d : w->findChildren<QDockWidget*>(QString(), Qt::FindDirectChildrenOnly)) {
        QVariant side = d->property(kPanelSide);
        if (!side.isValid()) {
            const Qt::DockWidgetArea a = w->dockWidgetArea(d);
            side = a == Qt::LeftDockWidgetArea || a == Qt::RightDockWidgetArea;
            d->setProperty(kPanelSide, side);
        }
        raiseWhenOpened(d);
        entries.push_back(
            {side.toBool(), d->toggleViewAction()->text().remove(QLatin1Char('&')), d});
    }
    std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
        if (a.side != b.side) return a.side;
        return QString::localeAwareCompare(a.name, b.name) < 0;
    });
    for (std::size_t k = 0; k < entries.size(); ++k) {
        if (k > 0 && entries[k].side != entries[k - 1].side) panels->addSeparator();
        panels->addAction(entries[k].dock->toggleViewAction());
    }
}

void setUpPanelsMenu(QMainWindow* w, QMenu* panels) {
    rebuildPanelsMenu(w, panels);
    QObject::connect(panels, &QMenu::aboutToShow, w, [w, panels] { rebuildPanelsMenu(w, panels); });
}

void tabifyArea(QMainWindow* w, Qt::DockWidgetArea area) {
    QDockWidget* first = nullptr;
    for (QDockWidget* d : w->findChildren<QDockWidget*>(QString(), Qt::FindDirectChildrenOnly)) {
        if (d->isFloating() || w->dockWidgetArea(d) != area) continue;
        if (!first)
            first = d;
        else if (!w->tabifiedDockWidgets(first).contains(d))
            w->tabifyDockWidget(first, d);
    }
}

void keepHelpMenuLast(QMainWindow* w) {
    QMenuBar* bar = w->menuBar();
    for (QAction* a : bar->actions())
        if (a->menu() && a->text() == QStringLiteral("&Help")) {
            if (bar->actions().last() == a) return;
            bar->removeAction(a);
            bar->addAction(a);
            return;
        }
}

void fitIntoScreen(QWidget* w) {
    QScreen* screen = w->screen();
    if (!screen || w->isMaximized() || w->isFullScreen()) return;
    const QRect avail = screen->availableGeometry();
    const QRect frame = w->frameGeometry();
    const QRect inner = w->geometry();
    int fw = frame.width() - inner.width(), fh = frame.height() - inner.height();
    if (!w->isVisible()) { // no frame yet: leave room for a typical title bar and border
        fw = std::max(fw, 16);
        fh = std::max(fh, 48);
    }
    const int width = std::min(inner.width(), std::max(avail.width() - fw, w->minimumWidth()));
    const int height = std::min(inner.height(), std::max(avail.height() - fh, w->minimumHeight()));
    if (width != inner.width() || height != inner.height()) w->resize(width, height);
    QPoint pos = w->frameGeometry().topLeft();
    const QSize outer(width + fw, height + fh);
    pos.setX(std::clamp(pos.x(), avail.left(),
                        std::max(avail.left(), avail.right() + 1 - outer.width())));
    pos.setY(std::clamp(pos.y(), avail.top(),
                        std::max(avail.top(), avail.bottom() + 1 - outer.height())));
    if (pos != w->frameGeometry().topLeft()) w->move(pos);
}

} // namespace tsw
