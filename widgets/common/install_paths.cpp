// SPDX-License-Identifier: Apache-2.0
#include "common/install_paths.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace tsw {

namespace {

// The checkout this executable's build tree was configured from, read from the marker file that
// CMake writes at the top of every build tree (kBuildTreeMarker, holding the source directory).
// No path is compiled into the binary, so that an installed binary holds none of the machine it
// was built on (and two checkouts at different paths build the same package).
QString buildTreeSource() {
    QString dir = QFileInfo(QCoreApplication::applicationDirPath()).canonicalFilePath();
    // Executables lie at most three levels below the build directory (app/gui/tilescope,
    // tests/..., app/cli/...); an installed one in <prefix>/bin finds no marker.
    for (int up = 0; up < 4 && !dir.isEmpty(); ++up) {
        QFile marker(dir + QStringLiteral("/" TILESCOPE_BUILD_TREE_MARKER));
        if (marker.open(QIODevice::ReadOnly)) {
            const QString src = QString::fromUtf8(marker.readAll()).trimmed();
            return QFileInfo(src).isDir() ? src : QString();
        }
        if (dir == QLatin1String("/")) break;
        dir = QFileInfo(dir).path();
    }
    return {};
}

} // namespace

bool runningFromBuildTree() {
    return !buildTreeSource().isEmpty();
}

QString sourceTreeDir() {
    return buildTreeSource();
}

QString installedSamplesDir() {
#ifdef TILESCOPE_SAMPLES_RELATIVE_DIR
    // Relative to the binary, as the CLI finds its render module: right for the .deb's /usr/bin
    // and for the relocatable archive's bin/ alike.
    const QDir dir(QCoreApplication::applicationDirPath() +
                   QStringLiteral("/" TILESCOPE_SAMPLES_RELATIVE_DIR));
    if (dir.exists()) return dir.canonicalPath();
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
