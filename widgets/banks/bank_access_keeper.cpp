// SPDX-License-Identifier: Apache-2.0
// BankAccessKeeper (see bank_access_keeper.h).
#include "banks/bank_access_keeper.h"

#include "banks/bank_panel.h"
#include "document/documentmodel.h"

namespace tsw {

namespace {

// The inputs that decide the numbers (the instruction shown is a view of them).
bool sameAccess(const ts::AnalysisSettings& a, const ts::AnalysisSettings& b) {
    return a.panel == b.panel && a.access == b.access && a.dtype == b.dtype &&
           a.vector == b.vector && a.store == b.store;
}

} // namespace

BankAccessKeeper::BankAccessKeeper(BankPanel* panel, DocumentModel* doc, QObject* parent)
    : QObject(parent), panel_(panel), doc_(doc) {
    setObjectName(QStringLiteral("bankAccessKeeper"));
    connect(panel, &BankPanel::userEdited, this, &BankAccessKeeper::userEdited);
    connect(doc, &DocumentModel::analysisChanged, this, &BankAccessKeeper::analysisChanged);
    connect(doc, &DocumentModel::documentReset, this, [this] { session_.clear(); });
}

bool BankAccessKeeper::isLessonStep(const ts::DocLayout& l) {
    return !l.caption.empty() && l.analysis.panel == "banks";
}

std::optional<ts::AnalysisSettings> BankAccessKeeper::sessionAccess(quint64 layout) const {
    const auto it = session_.constFind(layout);
    if (it == session_.cend()) return std::nullopt;
    return *it;
}

QString BankAccessKeeper::differenceFromStep(const ts::DocLayout& l) const {
    // The panel analyses this step's text (a step's analysis is applied before the evaluation
    // names the layout in the panel, so the text, not the name, says which layout it shows).
    if (!isLessonStep(l) || panel_->layoutText().toStdString() != l.text) return {};
    const ts::AnalysisSettings& a = l.analysis;
    const bool same = !panel_->autoAccess() && panel_->accessText().toStdString() == a.access &&
                      panel_->dtype().toStdString() == a.dtype && panel_->vector() == a.vector &&
                      panel_->store() == a.store;
    if (same) return {};
    return QStringLiteral("⚠ The Bank conflicts panel shows another access (%1%2), not this "
                          "step's (%3): the numbers in this caption are for the step's.")
        .arg(panel_->autoAccess() ? QStringLiteral("fitted: ") : QString(), panel_->accessText(),
             QString::fromStdString(a.access));
}

void BankAccessKeeper::describeShown(quint64 id, ts::AnalysisSettings* shown) const {
    if (!shown || id == 0 || panel_->sourceLayout() != id) return;
    if (panel_->autoAccess()) {
        if (shown->panel == "banks") *shown = {};
        return;
    }
    ts::AnalysisSettings s;
    s.panel = "banks";
    s.access = panel_->accessText().toStdString();
    s.dtype = panel_->dtype().toStdString();
    s.vector = panel_->vector();
    s.store = panel_->store();
    s.step = panel_->currentStep();
    *shown = s;
}

void BankAccessKeeper::userEdited() {
    const int i = doc_->indexOf(panel_->sourceLayout());
    if (i < 0) return; // a layout typed into the panel is not the project's
    ts::AnalysisSettings s;
    if (!panel_->autoAccess()) {
        s.panel = "banks";
        s.access = panel_->accessText().toStdString();
        s.dtype = panel_->dtype().toStdString();
        s.vector = panel_->vector();
        s.store = panel_->store();
        s.step = -1;
    }
    const ts::DocLayout& l = doc_->layout(i);
    if (isLessonStep(l)) {
        // The teacher's step stays as authored; the user's access is kept beside it.
        if (s.empty() || sameAccess(s, l.analysis))
            session_.remove(doc_->idAt(i));
        else
            session_.insert(doc_->idAt(i), s);
        return;
    }
    if (!s.empty() && l.analysis.panel == "banks") s.step = l.analysis.step;
    writing_ = true;
    doc_->setAnalysis(i, s);
    writing_ = false;
}

void BankAccessKeeper::analysisChanged(int i) {
    // An undo or a redo: the panel shows the layout's analysis as it is now.
    if (writing_) return;
    const ts::DocLayout& l = doc_->layout(i);
    // Saved as the user's own (the lesson panel's Save Current as Step): no longer a difference
    // kept beside the step.
    if (const auto it = session_.constFind(doc_->idAt(i));
        it != session_.cend() && sameAccess(*it, l.analysis))
        session_.erase(it);
    if (doc_->idAt(i) != panel_->sourceLayout()) return;
    if (l.analysis.panel != "banks") {
        panel_->setAutoAccess(true);
        return;
    }
    const ts::AnalysisSettings& a = l.analysis;
    panel_->applyView(QString::fromStdString(l.text), QString::fromStdString(a.access),
                      QString::fromStdString(a.dtype), a.vector, a.store, a.step);
}

} // namespace tsw
