// SPDX-License-Identifier: Apache-2.0
#include "trace/sample_logs.h"

#include <QAction>
#include <QDir>
#include <QMenu>
#include <algorithm>

namespace tsw {

QString sampleLogTitle(const QString& fileName) {
    QString t = fileName;
    if (t.endsWith(QLatin1String(".log"))) t.chop(4);
    t.replace(QLatin1Char('_'), QLatin1Char(' '));
    if (!t.isEmpty()) t[0] = t[0].toUpper();
    return t;
}

QList<SampleLog> sampleLogs(const QString& samplesDir) {
    QList<SampleLog> logs;
    if (samplesDir.isEmpty()) return logs;
    const QDir dir(samplesDir + QStringLiteral("/logs"));
    for (const QString& f : dir.entryList({QStringLiteral("*.log")}, QDir::Files))
        logs.append({sampleLogTitle(f), dir.filePath(f)});
    std::sort(logs.begin(), logs.end(), [](const SampleLog& a, const SampleLog& b) {
        return QString::localeAwareCompare(a.title, b.title) < 0;
    });
    return logs;
}

void fillSampleLogsMenu(QMenu* m, const QString& samplesDir,
                        const std::function<void(const QString&)>& open) {
    m->clear();
    const QList<SampleLog> logs = sampleLogs(samplesDir);
    for (const SampleLog& l : logs) {
        QAction* a = m->addAction(l.title);
        a->setToolTip(l.path);
        a->setData(l.path);
        QObject::connect(a, &QAction::triggered, m, [open, path = l.path] { open(path); });
    }
    m->setEnabled(!logs.isEmpty());
}

} // namespace tsw
