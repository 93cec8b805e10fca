// SPDX-License-Identifier: Apache-2.0
// File > Export Panel Picture (see panel_picture_menu.h).
#include "window/panel_picture_menu.h"

#include "grid/panel_export.h"

#include <QMainWindow>
#include <QMenu>
#include <QWidget>

namespace tsw {

void installPanelPictureMenu(QMainWindow* window, QMenu* fileMenu) {
    QMenu* menu = fileMenu->addMenu(QStringLiteral("Export &Panel Picture"));
    menu->setObjectName(QStringLiteral("exportPanelPictureMenu"));
    QObject::connect(menu, &QMenu::aboutToShow, menu, [window, menu] {
        menu->clear();
        for (PanelExporter* ex : window->findChildren<PanelExporter*>()) {
            QWidget* panel = ex->panel();
            // A panel in a hidden dock (or a closed tab) shows nothing to the user.
            if (!panel || !panel->isVisible()) continue;
            for (int k = 0; k < ex->pictureCount(); ++k) {
                QAction* a = menu->addAction(
                    QStringLiteral("%1: %2…").arg(ex->panelTitle(), ex->pictureTitle(k)));
                QObject::connect(a, &QAction::triggered, ex, [ex, k] { ex->exportDialog(k); });
            }
        }
        if (menu->isEmpty()) {
            QAction* none =
                menu->addAction(QStringLiteral("No panel is open (View > Panels opens one)"));
            none->setEnabled(false);
        }
    });
}

} // namespace tsw
