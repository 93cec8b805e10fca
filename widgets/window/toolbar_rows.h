// SPDX-License-Identifier: Apache-2.0
// The toolbar in one row while it fits the window, in two when it does not: the second toolbar
// (Zoom to Fit, Copy as TileLang Code, Export View, Run on Device) moves to a row of its own
// instead of hiding its actions behind the » overflow of a narrow window (1024 px).
#pragma once

class QMainWindow;
class QToolBar;

namespace tsw {

// Keeps `second` after `first` on one row while both fit the window's width, else on the next
// row; follows resizes and actions added later.
void keepToolBarsInView(QMainWindow* window, QToolBar* first, QToolBar* second);

// Whether `second` is on a row of its own now.
bool toolBarOnSecondRow(const QMainWindow* window, const QToolBar* second);

} // namespace tsw
