// SPDX-License-Identifier: Apache-2.0
#include "document/recent_files.h"

#include <QDir>
#include <QFileInfo>
#include <QSet>

namespace tsw {

QString canonicalRecentPath(const QString& path) {
    const QFileInfo fi(path);
    const QString c = fi.canonicalFilePath();
    return c.isEmpty() ? QDir::cleanPath(fi.absoluteFilePath()) : c;
}

QStringList dedupeRecentPaths(const QStringList& recent) {
    QStringList out;
    QSet<QString> seen;
    for (const QString& p : recent) {
        const QString c = canonicalRecentPath(p);
        if (seen.contains(c)) continue;
        seen.insert(c);
        out << c;
    }
    return out;
}

QStringList addRecentPath(const QStringList& recent, const QString& path, int max) {
    QStringList r = dedupeRecentPaths(QStringList{path} + recent);
    while (r.size() > max)
        r.removeLast();
    return r;
}

QStringList recentLabels(const QStringList& paths) {
    auto nameOf = [](const QString& p) { return QFileInfo(p).fileName(); };
    auto folderOf = [](const QString& p) {
        return QFileInfo(QFileInfo(p).absolutePath()).fileName();
    };
    auto dirOf = [](const QString& p) {
        QString d = QFileInfo(p).absolutePath();
        const QString home = QDir::homePath();
        if (d == home || d.startsWith(home + QLatin1Char('/')))
            d = QLatin1Char('~') + d.mid(home.size());
        return d;
    };
    QStringList labels;
    for (const QString& p : paths) {
        const QString name = nameOf(p);
        bool nameClash = false, folderClash = false;
        for (const QString& q : paths) {
            if (q == p || nameOf(q) != name) continue;
            nameClash = true;
            if (folderOf(q) == folderOf(p)) folderClash = true;
        }
        if (!nameClash)
            labels << name;
        else
            labels << QStringLiteral("%1 — %2").arg(name, folderClash ? dirOf(p) : folderOf(p));
    }
    return labels;
}

} // namespace tsw
