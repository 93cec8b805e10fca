// SPDX-License-Identifier: Apache-2.0
// The TileLang compiler logs shipped with the samples (samples/logs; embedded in the binary, so an
// installed app has them too), listed for the menus that open one in the Trace panel.
#pragma once

#include <QList>
#include <QString>
#include <functional>

class QMenu;

namespace tsw {

struct SampleLog {
    QString title; // "Conflict gemm transpose A"
    QString path;  // samplesDir/logs/conflict_gemm_transpose_A.log
};

// The *.log files under samplesDir/logs, sorted by title (empty when there are none).
QList<SampleLog> sampleLogs(const QString& samplesDir);

// A menu title from a log's file name: extension dropped, underscores as spaces, first letter up.
QString sampleLogTitle(const QString& fileName);

// Replaces m's entries with one per sample log, each calling open(path); disabled when none.
void fillSampleLogsMenu(QMenu* m, const QString& samplesDir,
                        const std::function<void(const QString&)>& open);

} // namespace tsw
