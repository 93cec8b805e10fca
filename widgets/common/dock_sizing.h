// SPDX-License-Identifier: Apache-2.0
// Docks that open too small to read: a panel docked below the grid opens as a strip of the
// default height, where grids show a few pixels per cell. growWhenShown() makes such a dock take
// a fraction of the window's height (up to a limit) each time it is shown while smaller.
#pragma once

class QDockWidget;
class QMainWindow;

namespace tsw {

void growWhenShown(QMainWindow* window, QDockWidget* dock, double fraction = 0.45,
                   int maxPixels = 460);

} // namespace tsw
