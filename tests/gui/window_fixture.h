// SPDX-License-Identifier: Apache-2.0
// A main window as most GUI tests start one: no question on close, shown (at `size` when given)
// and exposed, with `path` open. False (and a warning naming the step) if any step fails, for the
// caller's QVERIFY.
#pragma once

#include "window/mainwindow.h"

#include <QSize>
#include <QTest>

inline bool showWithFile(tsw::MainWindow& w, const QString& path, QSize size = {}) {
    w.setConfirmOnClose(false);
    if (size.isValid()) w.resize(size);
    w.show();
    if (!QTest::qWaitForWindowExposed(&w)) {
        qWarning("showWithFile: the window was not exposed");
        return false;
    }
    if (!w.openFile(path)) {
        qWarning("showWithFile: could not open %s", qPrintable(path));
        return false;
    }
    return true;
}
