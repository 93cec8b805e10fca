// SPDX-License-Identifier: Apache-2.0
// Shared set-up for the GUI tests: isolated settings and recovery directory, no modal dialogs.
#pragma once

#include <QCoreApplication>
#include <QFileInfo>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>

inline QTemporaryDir& guiTestDir() {
    static QTemporaryDir dir;
    return dir;
}

inline void guiTestSetUp() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("TilescopeTest"));
    // Each test binary has its own settings, empty at its start: the window saves its panels,
    // recent files and run history on close, and one test (the monkey opens panels at random)
    // must not decide what another test's window shows first.
    QCoreApplication::setApplicationName(
        QStringLiteral("TilescopeTest-") +
        QFileInfo(QCoreApplication::applicationFilePath()).baseName());
    QSettings().clear();
    qputenv("TILESCOPE_NO_DIALOGS", "1");
    qputenv("TILESCOPE_RECOVERY_DIR",
            (guiTestDir().path() + QStringLiteral("/recovery")).toLocal8Bit());
}
