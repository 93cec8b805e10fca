// SPDX-License-Identifier: Apache-2.0
// File > Export Panel Picture: every picture the window's open panels offer (their
// PanelExporters, found under the window when the menu opens), so a panel's picture is reachable
// from the window as well as from the panel's own context menu.
#pragma once

class QMainWindow;
class QMenu;

namespace tsw {

void installPanelPictureMenu(QMainWindow* window, QMenu* fileMenu);

} // namespace tsw
