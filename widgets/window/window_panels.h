// SPDX-License-Identifier: Apache-2.0
// Panel bookkeeping for a QMainWindow: one "Panels" menu that lists every dock (rebuilt when it
// opens, so docks installed later are listed too), a panel raised to the front whenever it is
// opened from any menu, Help kept as the last menu, and a window kept inside its screen.
#pragma once

#include <Qt>

class QDockWidget;
class QMainWindow;
class QMenu;
class QWidget;

namespace tsw {

// Fills `panels` with every dock's show/hide action and keeps it complete on every opening;
// every dock of `w` is raised when opened (see raiseWhenOpened). The order is fixed: the panels
// docked left or right when first listed, then the others, each group alphabetical by title.
void setUpPanelsMenu(QMainWindow* w, QMenu* panels);
void rebuildPanelsMenu(QMainWindow* w, QMenu* panels);

// Opening `d` (its toggle action, from any menu) shows it and brings its tab to the front.
// Idempotent.
void raiseWhenOpened(QDockWidget* d);

// Puts every (non-floating) dock of `area` into one tab group.
void tabifyArea(QMainWindow* w, Qt::DockWidgetArea area);

// Moves the menu whose title is "&Help" to the end of the menu bar.
void keepHelpMenuLast(QMainWindow* w);

// Shrinks and moves a top-level window so that its frame lies inside its screen's available
// area (as far as its minimum size allows).
void fitIntoScreen(QWidget* w);

} // namespace tsw
