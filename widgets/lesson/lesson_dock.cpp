// SPDX-License-Identifier: Apache-2.0
// installLessonDock (see lesson_dock.h).
#include "lesson/lesson_dock.h"

#include "common/feature_host.h"
#include "lesson/lesson_panel.h"

#include <QAction>
#include <QDockWidget>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QScrollArea>
#include <QTimer>
#include <algorithm>

namespace tsw {

LessonPanel* installLessonDock(FeatureHost* host) {
    QMainWindow* window = host->hostWindow();
    auto* dock = new QDockWidget(QStringLiteral("Lesson steps"), window);
    dock->setObjectName(QStringLiteral("lessonDock"));
    auto* panel = new LessonPanel(host->document(), host->bus());
    // In a scroll area, as the analysis panels are: the window keeps fitting a small screen with
    // every panel open, and a short dock scrolls.
    auto* scroll = new QScrollArea(dock);
    scroll->setWidget(panel);
    scroll->setWidgetResizable(true);
    dock->setWidget(scroll);
    // A tab beside the Layouts list (the same layouts, as steps), over the mapping it edits:
    // stacked as a third dock in that column, the window would no longer fit a 1024x700 screen
    // with every panel open. The Layouts dock is found by name, as the window made it. Shown,
    // the tab takes room enough to read a few steps.
    window->addDockWidget(Qt::LeftDockWidgetArea, dock);
    if (auto* layouts = window->findChild<QDockWidget*>(QStringLiteral("layoutsDock"),
                                                        Qt::FindDirectChildrenOnly))
        window->tabifyDockWidget(layouts, dock);
    QObject::connect(dock, &QDockWidget::visibilityChanged, dock, [window, dock](bool shown) {
        if (!shown || dock->isFloating() || window->dockWidgetArea(dock) != Qt::LeftDockWidgetArea)
            return;
        QTimer::singleShot(0, dock, [window, dock] {
            const int want = std::min(380, int(window->height() * 0.4));
            if (dock->height() < want) window->resizeDocks({dock}, {want}, Qt::Vertical);
        });
    });
    dock->hide();
    dock->toggleViewAction()->setText(QStringLiteral("&Lesson Steps"));
    host->panelsMenu()->addAction(dock->toggleViewAction());
    QMenu* menu = window->menuBar()->addMenu(QStringLiteral("&Lesson"));
    menu->setObjectName(QStringLiteral("lessonMenu"));
    menu->addAction(dock->toggleViewAction());
    menu->addSeparator();
    for (QAction* a : {panel->saveStepAction(), panel->addStepAction(), panel->moveUpAction(),
                       panel->moveDownAction(), panel->deleteStepAction()}) {
        menu->addAction(a);
        window->addAction(a); // the shortcuts work with the dock closed
    }
    // An action on the active step shows the list it changed.
    for (QAction* a : {panel->saveStepAction(), panel->addStepAction()})
        QObject::connect(a, &QAction::triggered, dock, [dock] {
            dock->show();
            dock->raise();
        });
    return panel;
}

} // namespace tsw
