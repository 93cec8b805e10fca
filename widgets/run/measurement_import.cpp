// SPDX-License-Identifier: Apache-2.0
#include "run/measurement_import.h"

#include "common/feature_host.h"
#include "document/documentmodel.h"
#include "run/run_history.h"
#include "run/run_panel.h"

#include "tilescope/device/measurements.h"

#include <QAction>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPointer>
#include <QStatusBar>

#include <algorithm>
#include <memory>

namespace tsw {

QString ImportReport::headline() const {
    QString s = QStringLiteral("Imported %1 measurement%2").arg(added).arg(added == 1 ? "" : "s");
    if (!problems.isEmpty()) s += QStringLiteral("; %1 not imported").arg(problems.size());
    return s;
}

QString ImportReport::summary() const {
    return problems.isEmpty() ? headline() : headline() + QStringLiteral(": ") + problems.first();
}

namespace {

RunHistoryModel* historyOf(QMainWindow* w) {
    return w->findChild<RunHistoryModel*>(QStringLiteral("runHistoryModel"));
}

RunRecord recordOf(const ts::Measurement& m, const QString& layout, const QString& file) {
    RunRecord r;
    r.when = QDateTime::fromString(QString::fromStdString(m.date), Qt::ISODate);
    r.layout = layout;
    r.pattern = QString::fromStdString(m.access);
    if (m.vector) r.pattern += QStringLiteral(" (vec %1)").arg(m.vector);
    if (m.store) r.pattern += QStringLiteral(" (store)");
    r.target = QStringLiteral("imported");
    r.dtype = QString::fromStdString(m.dtype);
    r.ok = m.ok;
    r.predictedWf = m.predicted_wf;
    r.measuredWf = m.measured_wf;
    r.cyclesPerInstr = m.cycles_per_instr;
    r.nsPerInstr = m.ns_per_instr;
    r.nsPerWavefront = m.ns_per_wavefront;
    r.roundTrip = QString::fromStdString(m.roundtrip);
    r.verdict = QString::fromStdString(m.verdict);
    r.device = QString::fromStdString(m.device);
    if (m.device_index >= 0) r.device += QStringLiteral(" #%1").arg(m.device_index);
    r.driver = QString::fromStdString(m.driver);
    r.ncuVersion = QString::fromStdString(m.ncu_version);
    r.source = file;
    return r;
}

// Why a file's results for one layout were not imported, and what to do: they belong to the
// project that has that layout (a result records the layout's name and text, not its project).
QString unmatchedText(const QString& file, const QString& layout, const QStringList& patterns,
                      const QString& nameMismatch) {
    const QString what = patterns.size() == 1
                             ? QStringLiteral("%1 was measured on layout '%2' (%3)")
                                   .arg(file, layout, patterns.first())
                             : QStringLiteral("%1 holds %2 measurements of layout '%3' (%4)")
                                   .arg(file)
                                   .arg(patterns.size())
                                   .arg(layout, patterns.join(QStringLiteral(", ")));
    if (!nameMismatch.isEmpty())
        return what + QStringLiteral(", but this project's '%1' is not the layout it measured: "
                                     "%2. Open the project it was measured on, or give '%1' "
                                     "the text it was measured with, then import again.")
                          .arg(layout, nameMismatch);
    return what + QStringLiteral(", which this project does not have (no layout of that name, "
                                 "and none with the same addresses). Open the project it was "
                                 "measured on (the one with layout '%1'), then import again.")
                      .arg(layout);
}

} // namespace

bool isProbeResultFile(const QString& path) {
    QFile f(path);
    if (!path.endsWith(QStringLiteral(".json"), Qt::CaseInsensitive) || f.size() > (64 << 20) ||
        !f.open(QIODevice::ReadOnly))
        return false;
    const QJsonObject o = QJsonDocument::fromJson(f.readAll()).object();
    return !o.contains(QStringLiteral("format")) &&
           (o.contains(QStringLiteral("predicted")) || o.contains(QStringLiteral("patterns")));
}

ImportReport importMeasurements(FeatureHost* host, const QStringList& files) {
    ImportReport rep;
    QMainWindow* w = host->hostWindow();
    RunHistoryModel* history = historyOf(w);
    DocumentModel* doc = host->document();
    if (!history) {
        rep.problems << QStringLiteral("the Run panel is not installed");
        return rep;
    }
    int lastLayout = -1;
    QString lastAccess;
    for (const QString& path : files) {
        const QString name = QFileInfo(path).fileName();
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly) || f.size() > (64 << 20)) {
            rep.problems << QStringLiteral("%1: cannot read it (%2)").arg(name, f.errorString());
            continue;
        }
        std::vector<ts::Measurement> ms;
        try {
            ms = ts::readProbeResult(f.readAll().toStdString(), name.toStdString());
        } catch (const std::exception& e) {
            rep.problems << QString::fromUtf8(e.what());
            continue;
        }
        // Results this project has no layout for, per layout they were measured on: said once
        // per file and layout, not once per pattern.
        std::vector<std::pair<std::string, QStringList>> unmatched; // layout -> patterns
        std::vector<std::string> reasons;                           // per unmatched layout
        for (const ts::Measurement& m : ms) {
            // The layout it names first (fast and the usual case), then every other layout: a
            // renamed layout still matches by its addresses.
            std::vector<int> order;
            for (int i = 0; i < doc->count(); ++i)
                if (doc->layout(i).name == m.layout) order.push_back(i);
            for (int i = 0; i < doc->count(); ++i)
                if (doc->layout(i).name != m.layout) order.push_back(i);
            int found = -1;
            std::string why; // only the reason of the layout of the measured name helps
            for (int i : order) {
                const std::string problem =
                    ts::measurementMismatch(m, doc->layout(i).name, doc->layout(i).text);
                if (problem.empty()) {
                    found = i;
                    break;
                }
                if (doc->layout(i).name == m.layout && why.empty()) why = problem;
            }
            if (found < 0) {
                auto it = std::find_if(unmatched.begin(), unmatched.end(),
                                       [&](const auto& u) { return u.first == m.layout; });
                if (it == unmatched.end()) {
                    unmatched.push_back({m.layout, {}});
                    reasons.push_back(why);
                    it = unmatched.end() - 1;
                }
                it->second << QString::fromStdString(m.access);
                continue;
            }
            history->add(recordOf(m, QString::fromStdString(doc->layout(found).name), name));
            ++rep.added;
            lastLayout = found;
            lastAccess = QString::fromStdString(m.access);
        }
        for (std::size_t u = 0; u < unmatched.size(); ++u)
            rep.problems << unmatchedText(name, QString::fromStdString(unmatched[u].first),
                                          unmatched[u].second, QString::fromStdString(reasons[u]));
    }
    if (lastLayout >= 0) {
        doc->setActive(lastLayout);
        if (RunPanel* panel = runPanelOf(w)) {
            panel->setAccess(lastAccess);
            if (auto* dock = qobject_cast<QDockWidget*>(panel->parentWidget())) dock->show();
            panel->rebuildChart();
            if (!rep.problems.isEmpty())
                panel->log()->appendPlainText(QStringLiteral("Not imported:\n") +
                                              rep.problems.join('\n'));
        }
    }
    w->statusBar()->showMessage(rep.summary(), 15000);
    return rep;
}

void installMeasurementImport(FeatureHost* host, RunHistoryModel* history) {
    QMainWindow* w = host->hostWindow();
    DocumentModel* doc = host->document();
    // The project's runs replace the history when it is opened (and stay with it when saved).
    auto syncing = std::make_shared<bool>(false);
    QObject::connect(doc, &DocumentModel::documentReset, history, [doc, history, syncing] {
        const QByteArray runs = doc->runsJson();
        std::vector<RunRecord> records;
        for (const QJsonValue& v : QJsonDocument::fromJson(runs).array())
            records.push_back(RunRecord::fromJson(v.toObject()));
        *syncing = true;
        history->setRecords(std::move(records));
        *syncing = false;
    });
    auto store = [doc, history, syncing] {
        if (!*syncing) doc->setRunsJson(history->recordsArrayJson());
    };
    QObject::connect(history, &QAbstractItemModel::rowsInserted, doc, store);
    QObject::connect(history, &QAbstractItemModel::rowsRemoved, doc, store);
    QObject::connect(history, &QAbstractItemModel::modelReset, doc, store);

    auto* act = new QAction(QStringLiteral("&Import Measurements…"), w);
    act->setObjectName(QStringLiteral("importMeasurementsAction"));
    act->setToolTip(QStringLiteral("Load tilescope-probe result files (measured on another "
                                   "machine) into the Run history of the matching layouts"));
    QObject::connect(act, &QAction::triggered, w, [w, host] {
        const QStringList files = QFileDialog::getOpenFileNames(
            w, QStringLiteral("Import measurements"), QString(),
            QStringLiteral("tilescope-probe results (*.json);;All files (*)"));
        if (files.isEmpty()) return;
        const ImportReport rep = importMeasurements(host, files);
        if (!rep.problems.isEmpty())
            QMessageBox::warning(w, QStringLiteral("Import measurements"),
                                 rep.headline() + QStringLiteral(".\n\n") +
                                     rep.problems.join(QStringLiteral("\n\n")));
    });
    // After Export View: the file commands that move results in and out of the project.
    QMenu* file = host->fileMenu();
    const QList<QAction*> acts = file->actions();
    for (int i = 0; i < acts.size(); ++i)
        if (acts[i]->objectName() == QStringLiteral("exportViewAction")) {
            file->insertAction(i + 1 < acts.size() ? acts[i + 1] : nullptr, act);
            return;
        }
    file->addAction(act);
}

} // namespace tsw
