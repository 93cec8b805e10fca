// SPDX-License-Identifier: Apache-2.0
// The user's recent commands for a crash report (crash::noteAction): every action triggered from
// the menu bar's menus, whether clicked or reached by its shortcut (a shortcut triggers the
// action, and its menu reports it), named by menu and text ("View ▸ Zoom In (Ctrl++)"). Menus a
// feature adds to the menu bar later are followed too.
#pragma once

class QMenuBar;

namespace tsw {

void trailMenuActions(QMenuBar* bar);

} // namespace tsw
