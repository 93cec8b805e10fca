// SPDX-License-Identifier: Apache-2.0
// File > Import Measurements and dropped probe results: tilescope-probe result files measured
// elsewhere (a headless GPU box) become Run history records on the layout they measured, and the
// Run history travels with the project. Matching and reading are in core (measurements.h).
#pragma once

#include <QString>
#include <QStringList>

namespace tsw {

class FeatureHost;
class RunHistoryModel;

struct ImportReport {
    int added = 0;
    // One paragraph per file and measured layout that was not imported: which layout it was
    // measured on, why it does not match here, and what to do.
    QStringList problems;
    QString headline() const; // "Imported 0 measurements; 1 not imported"
    QString summary() const;  // the headline and the first problem (the status bar)
};

// Adds File > Import Measurements… and keeps `history` and the project's runs in step (a
// project's runs replace the history when it is opened; new runs are saved with it).
void installMeasurementImport(FeatureHost* host, RunHistoryModel* history);

// Whether a file is a tilescope-probe result (and not a project): decides what a drop does.
bool isProbeResultFile(const QString& path);

// Reads each file, matches every result to a layout of the open project (by rebuilding its plan
// from the layout's text), adds the matched ones to the Run history, activates the last matched
// layout and shows the Run panel on its access. Reports what was not imported and why.
ImportReport importMeasurements(FeatureHost* host, const QStringList& files);

} // namespace tsw
