// SPDX-License-Identifier: Apache-2.0
// resolvePython (see python_choice.h).
#include "common/python_choice.h"

#include "common/install_paths.h"

#include <QDir>
#include <QFileInfo>
#include <QSettings>
#include <QStandardPaths>

namespace tsw {

PythonChoice resolvePython(const QString& configured) {
    if (!configured.isEmpty()) return {configured, QStringLiteral("Run ▸ Settings")};
    const QString env = qEnvironmentVariable("TILESCOPE_PYTHON");
    if (!env.isEmpty()) return {env, QStringLiteral("TILESCOPE_PYTHON")};
    const QStringList dirs = {
        QDir::currentPath(),
        sourceTreeDir(), // a checkout's .venv, only from its build tree
    };
    for (const QString& d : dirs) {
        if (d.isEmpty()) continue;
        const QFileInfo venv(d + QStringLiteral("/.venv/bin/python"));
        if (venv.isExecutable())
            return {QDir::cleanPath(venv.absoluteFilePath()),
                    QStringLiteral(".venv in %1").arg(QDir::cleanPath(d))};
    }
    const QString sys = QStandardPaths::findExecutable(QStringLiteral("python3"));
    if (!sys.isEmpty()) return {sys, QStringLiteral("python3 on PATH")};
    return {};
}

QString configuredPython() {
    return QSettings().value(QStringLiteral("run/python")).toString();
}

} // namespace tsw
