// Shared set-up for the GUI tests: isolated settings and recovery directory, no modal dialogs.
#pragma once

#include <QCoreApplication>
#include <QStandardPaths>
#include <QTemporaryDir>

inline QTemporaryDir& guiTestDir() {
    static QTemporaryDir dir;
    return dir;
}

inline void guiTestSetUp() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("TilescopeTest"));
    QCoreApplication::setApplicationName(QStringLiteral("TilescopeTest"));
    qputenv("TILESCOPE_NO_DIALOGS", "1");
    qputenv("TILESCOPE_RECOVERY_DIR",
            (guiTestDir().path() + QStringLiteral("/recovery")).toLocal8Bit());
}
