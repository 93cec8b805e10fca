// SPDX-License-Identifier: Apache-2.0
#include "window/install_paths.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

namespace tsw {

bool runningFromBuildTree() {
#ifdef TILESCOPE_BINARY_DIR
    const QString build = QFileInfo(QStringLiteral(TILESCOPE_BINARY_DIR)).canonicalFilePath();
    const QString app = QFileInfo(QCoreApplication::applicationDirPath()).canonicalFilePath();
    return !build.isEmpty() && (app == build || app.startsWith(build + QLatin1Char('/')));
#else
    return false;
#endif
}

QString sourceTreeDir() {
#ifdef TILESCOPE_SOURCE_DIR
    if (runningFromBuildTree()) return QStringLiteral(TILESCOPE_SOURCE_DIR);
#endif
    return {};
}

QString embeddedSamplesDir() {
    return QStringLiteral(":/tilescope/samples");
}

QString dialogStartDir(const QString& dir) {
    return dir.startsWith(QLatin1Char(':')) ? QDir::homePath() : dir;
}

} // namespace tsw
