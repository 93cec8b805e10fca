// SPDX-License-Identifier: Apache-2.0
#include "document/action_trail.h"

#include "document/crash_report.h"

#include <QAction>
#include <QActionEvent>
#include <QMenu>
#include <QMenuBar>

namespace tsw {

namespace {

void followMenu(QMenu* menu, const QString& path);

// Each action is followed once, by its own triggered signal (a click and a shortcut both emit
// it), named by the menus it was found in.
void followAction(QAction* a, const QString& path) {
    if (a->menu()) {
        followMenu(a->menu(), path + QStringLiteral(" ▸ ") +
                                  QString(a->menu()->title()).remove(QLatin1Char('&')));
        return;
    }
    if (a->isSeparator() || a->property("tilescopeTrailed").toBool()) return;
    a->setProperty("tilescopeTrailed", true);
    QObject::connect(a, &QAction::triggered, a, [a, path] {
        QString what = path + QStringLiteral(" ▸ ") + QString(a->text()).remove(QLatin1Char('&'));
        if (!a->shortcut().isEmpty())
            what += QStringLiteral(" (%1)").arg(a->shortcut().toString(QKeySequence::NativeText));
        crash::noteAction(what);
    });
}

// Actions added later (a feature's menu, the Samples and Recent menus filled when opened) are
// followed as they arrive.
class MenuWatcher : public QObject {
public:
    MenuWatcher(QObject* parent, QString path) : QObject(parent), path_(std::move(path)) {}
    bool eventFilter(QObject* o, QEvent* e) override {
        if (e->type() == QEvent::ActionAdded)
            if (QAction* a = static_cast<QActionEvent*>(e)->action()) followAction(a, path_);
        return QObject::eventFilter(o, e);
    }

private:
    QString path_;
};

void followMenu(QMenu* menu, const QString& path) {
    if (menu->property("tilescopeTrailed").toBool()) return;
    menu->setProperty("tilescopeTrailed", true);
    for (QAction* a : menu->actions())
        followAction(a, path);
    menu->installEventFilter(new MenuWatcher(menu, path));
}

class BarWatcher : public QObject {
public:
    using QObject::QObject;
    bool eventFilter(QObject* o, QEvent* e) override {
        if (e->type() == QEvent::ActionAdded)
            if (QAction* a = static_cast<QActionEvent*>(e)->action(); a && a->menu())
                followMenu(a->menu(), QString(a->menu()->title()).remove(QLatin1Char('&')));
        return QObject::eventFilter(o, e);
    }
};

} // namespace

void trailMenuActions(QMenuBar* bar) {
    for (QAction* a : bar->actions())
        if (a->menu()) followMenu(a->menu(), QString(a->menu()->title()).remove(QLatin1Char('&')));
    bar->installEventFilter(new BarWatcher(bar));
}

} // namespace tsw
