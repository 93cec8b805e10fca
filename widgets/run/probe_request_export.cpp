// SPDX-License-Identifier: Apache-2.0
// Export Probe Request (see probe_request_export.h).
#include "run/probe_request_export.h"

#include "run/run_controller.h"

#include "tilescope/device/run_prepare.h"

#include <QFileInfo>
#include <QSaveFile>

namespace tsw {

bool writeProbeRequest(const RunSpec& spec, const RunSettings& settings, const QString& path,
                       QString* error) {
    auto fail = [&](const QString& m) {
        if (error) *error = m;
        return false;
    };
    std::string text;
    try {
        text = ts::probeRequestFor(probeRequestInput(spec, settings)).request.dump() + "\n";
    } catch (const std::exception& e) {
        return fail(QStringLiteral("Cannot write a request for '%1': %2")
                        .arg(spec.layoutName, QString::fromUtf8(e.what())));
    }
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) ||
        f.write(text.data(), qint64(text.size())) != qint64(text.size()) || !f.commit())
        return fail(QStringLiteral("Cannot write %1: %2").arg(path, f.errorString()));
    return true;
}

QString probeRequestNextSteps(const QString& path) {
    const QString file = QFileInfo(path).fileName();
    return QStringLiteral("Wrote the probe request %1. On the GPU machine run:\n"
                          "    tilescope-probe %2 --out result.json\n"
                          "then bring result.json back here with File ▸ Import Measurements… "
                          "(or drop it on the window): it lands in Run History next to this "
                          "layout's prediction.")
        .arg(path, file);
}

} // namespace tsw
