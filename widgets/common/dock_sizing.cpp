// SPDX-License-Identifier: Apache-2.0
// growWhenShown (see dock_sizing.h).
#include "common/dock_sizing.h"

#include <QDockWidget>
#include <QMainWindow>
#include <QTimer>
#include <algorithm>

namespace tsw {

void growWhenShown(QMainWindow* window, QDockWidget* dock, double fraction, int maxPixels) {
    QObject::connect(dock, &QDockWidget::visibilityChanged, window,
                     [window, dock, fraction, maxPixels](bool visible) {
                         if (!visible || dock->isFloating()) return;
                         const Qt::DockWidgetArea area = window->dockWidgetArea(dock);
                         if (area != Qt::BottomDockWidgetArea && area != Qt::TopDockWidgetArea)
                             return;
                         const int want = std::min(maxPixels, int(window->height() * fraction));
                         // After the show has been laid out, so the height compared is real.
                         QTimer::singleShot(0, dock, [window, dock, want] {
                             if (dock->isVisible() && dock->height() < want)
                                 window->resizeDocks({dock}, {want}, Qt::Vertical);
                         });
                     });
}

} // namespace tsw
