// SPDX-License-Identifier: Apache-2.0
// MainWindow's evaluation of the active layout: the request when it or its text changes, and
// the result handed to the grid, the details pane and the status bar as one state.
#include "window/mainwindow.h"

#include "common/result_state.h"
#include "document/documentmodel.h"
#include "document/layoutlistmodel.h"
#include "editor/mappingeditor.h"
#include "grid/gridview.h"
#include "window/detailspane.h"

#include <QLabel>
#include <QListView>
#include <QProgressBar>

namespace tsw {

void MainWindow::onActiveChanged() {
    const ts::DocLayout* l = doc_->activeLayout();
    if (!l) {
        // No layout at all: nothing may describe the one that was shown.
        eval_->cancel();
        gridState_->clear();
        mapping_.reset();
        shownLayout_ = 0;
        editor_->setText({});
        editor_->clearError();
        grid_->setModel(GridModel());
        grid_->setMessage(QStringLiteral("No layout: add one with Edit ▸ New Layout"));
        details_->setLayoutSummary({}, {});
        statusShape_->clear();
        statusEval_->clear();
        return;
    }
    const QModelIndex ix = list_->index(doc_->active());
    if (listView_->currentIndex() != ix) listView_->setCurrentIndex(ix);
    editor_->setText(QString::fromStdString(l->text));
    updateViewActions();
    applyZoom_ = true;
    requestEvaluation(true);
}

void MainWindow::requestEvaluation(bool now) {
    const ts::DocLayout* l = doc_->activeLayout();
    if (!l) return;
    const QString text = QString::fromStdString(l->text);
    const ViewMode v = viewModeFromString(l->view.view);
    const ColorMode c = colorModeFromString(l->view.color);
    viewOnly_ = shownLayout_ == doc_->activeId() && text == shownText_ && !shownText_.isEmpty();
    if (now)
        eval_->evaluateNow(text, v, c);
    else
        eval_->request(text, v, c);
    // What is on screen now belongs to the previous input. Another layout (or project): marked
    // at once. The same layout edited: marked when the evaluation is slow (eval_->slow), so a
    // quick edit does not flash.
    if (shownLayout_ != doc_->activeId())
        gridState_->invalidateNow();
    else
        gridState_->invalidate();
}

void MainWindow::onEvaluated(const EvalResult& r) {
    const LayoutId active = doc_->activeId();
    const bool sameLayout = shownLayout_ == active;
    // The revision the result depicts: the evaluator runs the newest request, the active
    // layout's text now, so a result for another text is not published (gridState_).
    const GridView::Source source{active, doc_->revisionAt(doc_->active())};
    const quint64 gen = gridState_->generation();
    lastEvalMillis_ = r.reused ? r.builtMillis : r.millis;
    lastEvalUnchangedEdit_ = r.reused && sameLayout && r.text != shownText_;
    if (r.ok) {
        mapping_ = r.mapping;
        grid_->setMessage({});
        grid_->setModel(r.grid, sameLayout && !applyZoom_, source);
        if (applyZoom_ && doc_->activeLayout())
            grid_->setZoomRelative(doc_->activeLayout()->view.zoom);
        applyZoom_ = false;
        shownLayout_ = active;
        shownText_ = r.text;
        undrawable_.clear();
        editor_->clearError();
        editor_->syncFields(r.text, *r.mapping);
        // The banner elides a long note; the details pane shows it whole.
        const QString notes = r.grid.notesLine();
        details_->setLayoutSummary(
            r.grid.title(), notes.isEmpty() ? r.repr : r.repr + QStringLiteral("\n\n") + notes);
        gridState_->publish(gen);
        updateViewActions();
    } else if (r.tooLarge && !r.key.isEmpty()) {
        // The text is valid; only this view of it cannot be drawn. Not a text error: the editor
        // stays clean and the grid says why, whole, and what can be shown instead.
        editor_->clearError();
        mapping_.reset();
        grid_->setModel(GridModel());
        undrawable_ = r.error;
        QString msg =
            QStringLiteral("This view cannot be drawn (the text is valid):\n%1").arg(r.error);
        if (r.view == ViewMode::Output)
            msg += QStringLiteral("\n\nThe input view can: View ▸ Input View.");
        grid_->setMessage(msg);
        shownLayout_ = active;
        shownText_ = r.text;
        details_->setLayoutSummary({}, {});
        gridState_->publish(gen);
        updateViewActions();
    } else {
        editor_->setError(r.column, r.error, r.errorLong);
        if (r.tooLarge || !sameLayout) {
            // Nothing valid of this layout to keep: clear everything that described another.
            mapping_.reset();
            grid_->setModel(GridModel());
            grid_->setMessage(r.tooLarge
                                  ? r.error
                                  : QStringLiteral("This layout has an error:\n%1").arg(r.error));
            shownLayout_ = r.tooLarge ? active : 0;
            details_->setLayoutSummary({}, {});
        }
        gridState_->fail(gen, r.error);
    }
    onResultState();
    updateStatus();
}

// Presents the evaluation's state on every view bound to it: the grid's banner, the status bar's
// summary and busy bar, the editor's busy label and error, the details pane.
void MainWindow::onResultState() {
    const ResultState::State st = gridState_->state();
    const bool stale = st == ResultState::State::Stale;
    const bool error = st == ResultState::State::Error;
    const bool shown = !grid_->model().isEmpty();
    busyBar_->setVisible(stale);
    editor_->setBusy(stale);
    editor_->setErrorStale(stale);
    if (stale) {
        grid_->setBanner(!shown ? QString()
                         : viewOnly_
                             ? QStringLiteral("Drawing the new view… the grid shows the "
                                              "previous one")
                             : QStringLiteral("Evaluating… the grid shows the previous text"));
        if (!shown) grid_->setMessage(QStringLiteral("Evaluating…"));
        details_->setLayoutStale(viewOnly_ ? QStringLiteral("drawing the new view; this is the "
                                                            "previous one")
                                           : QStringLiteral("evaluating the new text; this is the "
                                                            "previous one"));
        statusShape_->setText(shown ? QStringLiteral("previous: %1").arg(grid_->model().title())
                                    : QString());
        statusShape_->setStyleSheet(QStringLiteral("color: #9ca3af;"));
        statusEval_->setText(QStringLiteral("evaluating…"));
        return;
    }
    if (error) {
        grid_->setBanner(shown ? QStringLiteral("The mapping has an error — showing the last "
                                                "valid layout")
                               : QString());
        details_->setLayoutStale(shown ? QStringLiteral("the last valid layout: the text has an "
                                                        "error")
                                       : QString());
        statusShape_->setText(shown ? QStringLiteral("last valid: %1").arg(grid_->model().title())
                                    : QString());
        statusShape_->setStyleSheet(QStringLiteral("color: #9ca3af;"));
        statusEval_->setText(QStringLiteral("error"));
        return;
    }
    grid_->setBanner(grid_->model().notesLine());
    details_->setLayoutStale({});
    statusShape_->setStyleSheet({});
    if (st == ResultState::State::Current) {
        statusShape_->setText(undrawable_.isEmpty() ? grid_->model().title()
                                                    : QStringLiteral("this view cannot be drawn"));
        statusEval_->setText(lastEvalUnchangedEdit_
                                 ? QStringLiteral("unchanged (comments or spacing)")
                                 : QStringLiteral("evaluated in %1 ms")
                                       .arg(lastEvalMillis_, 0, 'f', lastEvalMillis_ < 1 ? 2 : 1));
    } else if (st == ResultState::State::Empty) {
        statusShape_->clear();
        statusEval_->clear();
    }
}

QString MainWindow::statusSummary() const {
    return QStringLiteral("%1 | %2").arg(statusShape_->text(), statusEval_->text());
}

void MainWindow::updateStatus() {
    statusZoom_->setText(
        QStringLiteral("zoom %1%").arg(int(std::round(grid_->zoomRelative() * 100))));
}

} // namespace tsw
