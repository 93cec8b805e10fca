// SPDX-License-Identifier: Apache-2.0
// installKernelDock (see kernel_dock.h).
#include "kernel/kernel_dock.h"

#include "common/dock_sizing.h"
#include "common/feature_bus.h"
#include "common/feature_host.h"
#include "kernel/kernel_panel.h"

#include <QAction>
#include <QDockWidget>
#include <QMainWindow>
#include <QMenu>

namespace tsw {

KernelPanel* installKernelDock(FeatureHost* host) {
    QMainWindow* w = host->hostWindow();
    auto* panel = new KernelPanel(w);
    auto* dock = new QDockWidget(QStringLiteral("Kernel"), w);
    dock->setObjectName(QStringLiteral("kernelDock"));
    dock->setWidget(panel);
    w->addDockWidget(Qt::BottomDockWidgetArea, dock);
    dock->hide();
    growWhenShown(w, dock, 0.7, 760); // tables beside the source and a grid
    host->panelsMenu()->addAction(dock->toggleViewAction());
    FeatureBus* bus = host->bus();
    QObject::connect(panel, &KernelPanel::openLayoutRequested, bus,
                     [bus](const QString& name, const QString& text) {
                         emit bus->openLayoutRequested(name, text, QStringLiteral("the kernel"));
                     });
    return panel;
}

} // namespace tsw
