// SPDX-License-Identifier: Apache-2.0
// BankAccessKeeper: the access a user sets up in the Bank conflicts panel belongs to the layout
// it analyses. For a plain layout it is written into the layout's saved analysis (document.h
// AnalysisSettings: undoable, saved with the project, applied again when the layout is active);
// "fit the layout" clears it. A lesson step (a layout with a caption and a saved bank analysis)
// keeps its authored analysis: what the user types there is kept for the session, per step, so
// moving between steps does not throw it away, and the caption says that the panel no longer
// shows the step's access (differenceFromStep).
#pragma once

#include "tilescope/notation/document.h"

#include <QHash>
#include <QObject>
#include <optional>

namespace tsw {

class BankPanel;
class DocumentModel;

class BankAccessKeeper : public QObject {
    Q_OBJECT
public:
    BankAccessKeeper(BankPanel* panel, DocumentModel* doc, QObject* parent = nullptr);

    // A layout whose saved analysis is authored (a lesson step): a caption and a bank analysis.
    static bool isLessonStep(const ts::DocLayout& l);
    // What the user set up for a lesson step in this session (none: the step's own).
    std::optional<ts::AnalysisSettings> sessionAccess(quint64 layout) const; // by LayoutId
    // When the panel analyses lesson step `l` with another access than the step's: a sentence
    // saying so, for the caption; else empty.
    QString differenceFromStep(const ts::DocLayout& l) const;
    // What the panel shows for layout `id` as a saved analysis (FeatureBus
    // shownAnalysisRequested): *shown changes only when the panel analyses that layout, and a
    // fitted access replaces only a bank analysis (a fractal step stays one).
    void describeShown(quint64 id, ts::AnalysisSettings* shown) const;

private:
    void userEdited();
    void analysisChanged(int index);

    BankPanel* panel_;
    DocumentModel* doc_;
    QHash<quint64, ts::AnalysisSettings> session_; // by LayoutId: a rename keeps it
    bool writing_ = false;
};

} // namespace tsw
