// SPDX-License-Identifier: Apache-2.0
// A seeded monkey on the real main window: it types, deletes, pastes layouts (valid, broken,
// huge, other notations), undoes and redoes, switches layouts, triggers menu actions, opens
// samples and sample logs, opens and closes panels from View > Panels, resizes the window,
// zooms, clicks, hovers and drags the grid (pans), drags the dock separators, drops files and
// text on the window, drives the bank panel (access, dtype, store, steps, its slider) and the
// inference trace (rows, Layouts/Differences, Hide repeats, dragging its grids). After every
// step, once everything has settled, it checks that every number on screen belongs to the
// current input, recomputed here from core, not read back from the widgets' own state:
//  - the editor shows the active layout's text;
//  - a current grid is exactly what evaluating that text gives (its title), and the status bar
//    (layout summary, hovered cell, zoom) and the Details pane (title, repr, hovered cell,
//    highlight with its cell count) describe that same grid; an error state means the text
//    really fails, and the editor's error is that failure's;
//  - the bank panel's totals and step line are what its shown inputs give, it names a layout
//    of the project whose text those inputs are, and follows the active T.Layout;
//  - the trace viewer's event, conflict, problem and line counts are core's parse of the log
//    the monkey loaded last, and a conflict's difference counts are core's diff of the two
//    layouts of the event selected in its list.
// And a screen audit, of what names or depicts the document wherever it is shown:
//  - every visible label that names a layout («name») names a layout of the project by its
//    current name (the monkey renames layouts through the list, as F2 does);
//  - a highlight on the grid belongs to the revision of the active layout the grid shows, and
//    covers at least one of its cells;
//  - a file exported (Export View) is exactly the picture of the current text's layout, or the
//    export is refused while the grid shows another (an error's last valid layout);
//  - after File > New or Open, the Run panel shows no access of the closed project.
// Any Qt warning (a dangling object, a bad connection, a painter on a dead device) fails it.
// TILESCOPE_MONKEY_STEPS / TILESCOPE_MONKEY_SEED run it longer or from another seed
// (docs/hardening.md, `make monkey-long`); the default is a short seeded run for CI.
// TILESCOPE_MONKEY_MIX=docks weights the steps towards the docks (float, dock, tabify, show,
// hide, View > Panels, the Inference Trace panel in the arrangement of the newcomer's report,
// and Quit > Save > Esc in the Save As dialog): the hunt for the unexplained exit
// (docs/hardening.md, "The unexplained exit (problem 5)"). The default mix is unchanged.
#include "test_gui_common.h"

#include "banks/bank_analysis.h"
#include "banks/bank_panel.h"
#include "common/result_state.h"
#include "document/documentmodel.h"
#include "editor/evaluator.h"
#include "editor/mappingeditor.h"
#include "grid/gridview.h"
#include "run/run_panel.h"
#include "trace/trace_viewer.h"
#include "window/detailspane.h"
#include "window/mainwindow.h"
#include "window/window_panels.h"

#include "grid/gridrenderer.h"

#include "tilescope/banks/access.h"
#include "tilescope/layout/layout_diff.h"
#include "tilescope/notation/mapping.h"
#include "tilescope/trace/dump.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSlider>
#include <QSpinBox>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTextDocumentFragment>
#include <QTimer>
#include <QToolButton>
#include <QUrl>
#include <QtTest>
#include <map>
#include <random>

using namespace tsw;

namespace {

QStringList& qtWarnings() {
    static QStringList w;
    return w;
}

// Messages that are about this test machine, not the app: no XDG runtime directory, and the
// offscreen platform's missing features.
bool benign(const QString& m) {
    return m.contains(QLatin1String("XDG_RUNTIME_DIR")) ||
           m.contains(QLatin1String("This plugin does not support")) ||
           m.contains(QLatin1String("propagateSizeHints"));
}

void messageHandler(QtMsgType type, const QMessageLogContext&, const QString& msg) {
    if (type == QtInfoMsg) fprintf(stderr, "QINFO: %s\n", qPrintable(msg));
    if (type == QtDebugMsg || type == QtInfoMsg) return;
    if (benign(msg)) return;
    qtWarnings() << msg;
    fprintf(stderr, "Qt message: %s\n", qPrintable(msg));
}

// What a user pastes: every kind of text the editor reads, and the ways it goes wrong.
const QStringList kPastes = {
    QStringLiteral("T.Layout([8, 8], lambda i, j: (j, i))"),
    QStringLiteral("T.Fragment([8, 8], forward_thread_fn=lambda i, j: i * 4 + j // 2, "
                   "forward_index_fn=lambda i, j: j % 2)"),
    QStringLiteral("make_gemm_c_fragment((32, 32), 128)"),
    QStringLiteral("make_mma_load_base_layout(dtype=\"float16\", matrix=\"A\")"),
    QStringLiteral("T.Fragment([8, 8], forward_thread_fn=lambda i, j: i, "
                   "forward_index_fn=lambda i, j: j % 4)"),
    QStringLiteral("T.Fragment([16], forward_thread_fn=lambda i: i ^ (i >> 2))"),
    QStringLiteral("make_full_bank_swizzled_layout(32, 64, 16)"),
    QStringLiteral("make_linear_layout((32, 32), \"float32\")"),
    QStringLiteral("T.Layout([32, 33], lambda i, j: i * 33 + j)"),
    QStringLiteral("((2,4),8):((1,16),2)"),
    QStringLiteral("Sw<3,3,3> o 0 o (8,64):(64,1)"),
    QStringLiteral("DistributedLinearLayout(reg_bases=[[0, 1], [8, 0]], lane_bases=[[0, 2], "
                   "[0, 4], [1, 0], [2, 0], [4, 0]], warp_bases=[], block_bases=[], "
                   "shape=[16, 8])"),
    QStringLiteral("T.Layout([8, 8], lambda i, j: (j, i) +)"),
    QStringLiteral("T.Fragment([8, 8], forward_thread_fn=lambda i, j: i // 0)"),
    QStringLiteral("make_gemm_c_fragment((96, 96), 3)"),
    QStringLiteral("T.Layout([100000, 100000], lambda i, j: (i, j))"),
    QStringLiteral("make_fully_replicated_fragment((256, 256), 32)"),
    QStringLiteral(""),
    QStringLiteral("# only a comment"),
    QStringLiteral("T.Layout([4, 4], lambda i, j: (i, j)"),
    QStringLiteral("((("),
};

// What a user types as the bank panel's access: fitting, misfitting and broken ones.
const QStringList kAccesses = {
    QStringLiteral("ldmatrix:x4"),
    QStringLiteral("ldmatrix:x1"),
    QStringLiteral("ldmatrix:x2.trans"),
    QStringLiteral("stmatrix:x4"),
    QStringLiteral("lanes:lambda t: (t, 0)"),
    QStringLiteral("lanes:lambda t: (0, t)"),
    QStringLiteral("lanes:lambda t, k: (t, k)"),
    QStringLiteral("lanes:lambda t: (t + 32, 0)"),
    QStringLiteral("lanes:lambda t: ("),
    QStringLiteral("nonsense"),
};

// Actions whose job is a modal dialog, leaving the app, or a child process: not the monkey's.
// Sample logs are opened by their own step, which knows which log it loaded.
bool monkeyMayTrigger(const QAction* a) {
    const QString t = a->text();
    if (!a->isEnabled() || a->isSeparator() || a->menu() || t.isEmpty()) return false;
    for (const char* no :
         {"…",      "...",         "Quit",      "Close",  "Exit",         "Open",    "Save",
          "Export", "Print",       "About",     "Run",    "Import",       "Recover", "New Window",
          "Follow", "Full Screen", "Presenter", "Recent", "Clear Recent", "Log",     "Compile"})
        if (t.contains(QString::fromUtf8(no), Qt::CaseInsensitive)) return false;
    for (const QObject* p = a->parent(); p; p = p->parent())
        if (auto* m = qobject_cast<const QMenu*>(p); m && m->title().contains(QLatin1String("Log")))
            return false;
    return true;
}

QString plain(const QString& richText) {
    QString t = QTextDocumentFragment::fromHtml(richText).toPlainText();
    t.replace(QChar(0x00a0), QLatin1Char(' '));
    return t;
}

// A sub-menu of the menu bar by its title ("&View" > "&Panels").
QMenu* subMenu(QMainWindow& w, const QString& top, const QString& sub) {
    for (QAction* a : w.menuBar()->actions())
        if (a->menu() && a->text() == top)
            for (QAction* b : a->menu()->actions())
                if (b->menu() && b->text() == sub) return b->menu();
    return nullptr;
}

// What core makes of a log file, computed once per file: the events as the viewer lists them,
// and the line count.
struct LogTruth {
    std::vector<ts::dump::Event> events;
    std::size_t lines = 0;
};

const LogTruth& logTruth(const QString& path) {
    static std::map<QString, LogTruth> cache;
    auto it = cache.find(path);
    if (it != cache.end()) return it->second;
    QFile f(path);
    const QByteArray bytes = f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    ts::dump::Parser p;
    LogTruth t;
    t.events = p.feed(std::string_view(bytes.constData(), std::size_t(bytes.size())));
    for (auto& e : p.finish())
        t.events.push_back(std::move(e));
    t.lines = p.lines();
    return cache.emplace(path, std::move(t)).first->second;
}

} // namespace

class TestGuiMonkey : public QObject {
    Q_OBJECT

    std::mt19937 rng_;
    int pick(int n) { return n <= 1 ? 0 : int(rng_() % unsigned(n)); }
    int steps_ = 0;     // steps taken (the first ones tour every kind of action)
    QString loadedLog_; // the log the monkey last opened in the trace viewer
    // How often each part of the invariant found something to check (none may stay at zero).
    int checkedGrid_ = 0, checkedBank_ = 0, checkedTraceStatus_ = 0, checkedTraceDiff_ = 0,
        checkedHover_ = 0, checkedHighlight_ = 0;
    // How often a drag moved what it dragged.
    int pans_ = 0, separatorDrags_ = 0, panelsOpened_ = 0;
    // The dock storm (TILESCOPE_MONKEY_MIX=docks): steps that changed the docks' arrangement
    // (shown, floating, area, tabs), times the Inference Trace panel came on screen (by any
    // step) and was switched on from View > Panels, the report's arrangement set up, and quits
    // cancelled in the Save As dialog. Counted in either mix.
    bool docksMix_ = false;
    int dockChanges_ = 0, traceShown_ = 0, traceFromMenu_ = 0, reportArrangements_ = 0,
        quitsCancelled_ = 0;
    bool lastWindowClosed_ = false;
    QString quitFailure_; // what went wrong in a cancelled quit ("" when nothing)
    // The screen audit's counts: labels naming a layout, highlights checked against their
    // revision, exports compared (and refused), Run panels checked after New/Open, renames.
    int checkedNames_ = 0, checkedHighlightRevision_ = 0, checkedExports_ = 0, refusedExports_ = 0,
        checkedRunReset_ = 0, renames_ = 0;
    quint64 projectSerial_ = 0; // the project the audit saw last (DocumentModel::projectSerial)
    QTemporaryDir exportDir_;
    QString exported_; // the file the last export step wrote ("" when none)
    bool exportRefused_ = false;
    QString exportRefusedState_; // the grid's state when the export was asked for

    static BankPanel* bankPanel(MainWindow& w) { return w.findChild<BankPanel*>(); }
    static QDockWidget* dockOf(QWidget* inside) {
        for (QWidget* p = inside; p; p = p->parentWidget())
            if (auto* d = qobject_cast<QDockWidget*>(p)) return d;
        return nullptr;
    }
    static bool shown(QWidget* inside) {
        QDockWidget* d = dockOf(inside);
        return d && d->isVisible() && inside->isVisible();
    }

    // Waits until the evaluation of the current text, the bank analysis and the trace import
    // have settled (or a long evaluation is visibly in progress, which is itself a state the
    // views must describe honestly).
    static void settle(MainWindow& w) {
        QElapsedTimer t;
        t.start();
        QTest::qWait(5);
        BankPanel* bank = bankPanel(w);
        while (t.elapsed() < 30000) {
            const auto s = w.gridState()->state();
            const auto b = bank->resultState()->state();
            if (s != ResultState::State::Pending && s != ResultState::State::Stale &&
                !w.editor()->isBusy() && !bank->analysisPending() &&
                b != ResultState::State::Pending && !w.traceViewer()->busy())
                break;
            QTest::qWait(10);
        }
        QCoreApplication::processEvents();
    }

    static QLabel* label(QWidget& w, const char* name) {
        return w.findChild<QLabel*>(QLatin1String(name));
    }

    // The grid part: grid, status bar and Details pane against an evaluation of the text.
    QString gridViolation(MainWindow& w) {
        DocumentModel* d = w.document();
        const ts::DocLayout* active = d->activeLayout();
        const auto state = w.gridState()->state();
        if (!active) {
            if (!w.gridView()->model().isEmpty() && state == ResultState::State::Current)
                return QStringLiteral("a grid is shown as current with no layout open");
            return {};
        }
        const QString text = QString::fromStdString(active->text);
        if (w.editor()->text() != text)
            return QStringLiteral("editor shows other text than the active layout");
        if (state == ResultState::State::Pending || state == ResultState::State::Stale) {
            // Still evaluating (a slow one): the views must say so, not pass old numbers off.
            if (state == ResultState::State::Stale &&
                !w.statusSummary().contains(QStringLiteral("evaluating")))
                return QStringLiteral("stale grid without 'evaluating' in the status bar");
            return {};
        }
        GridView* grid = w.gridView();
        const GridModel& shownGrid = grid->model();
        const EvalResult want = LayoutEvaluator::compute(
            text, shownGrid.isEmpty() ? ViewMode::Input : shownGrid.viewMode(),
            shownGrid.isEmpty() ? ColorMode::Thread : shownGrid.colorMode(), CancelToken(),
            nullptr);
        const QString zoom =
            QStringLiteral("zoom %1%").arg(int(std::round(grid->zoomRelative() * 100)));
        const QStringList statusLabels = [&] {
            QStringList s;
            for (QLabel* l : w.statusBar()->findChildren<QLabel*>())
                s << l->text();
            return s;
        }();
        if (!shownGrid.isEmpty() && !statusLabels.contains(zoom))
            return QStringLiteral("the status bar's zoom is not '%1': %2")
                .arg(zoom, statusLabels.join(QStringLiteral(" | ")));
        const QString details = w.details()->plainText();
        // The hovered cell, in the status bar and the Details pane, is a cell of the grid shown;
        // the highlight's cell count is that grid's.
        const GridModel& truth =
            state == ResultState::State::Current && want.ok ? want.grid : shownGrid;
        QLabel* statusCell = label(w, "statusCell");
        if (!statusCell) return QStringLiteral("no status-bar cell label");
        if (const auto hv = grid->hoveredCell(); hv && !shownGrid.isEmpty()) {
            const CellInfo info = truth.info(hv->y(), hv->x());
            const QString cellLine = QStringLiteral("cell %1   %2").arg(info.logical, info.label);
            if (statusCell->text() != cellLine)
                return QStringLiteral("status bar cell '%1', the hovered cell is '%2'")
                    .arg(statusCell->text(), cellLine);
            const QString where = QStringLiteral("row %1, col %2").arg(info.row).arg(info.col);
            if (!details.contains(where) || !details.contains(info.logical) ||
                (!info.threads.isEmpty() && !details.contains(info.threads)) ||
                (!info.physical.isEmpty() && !details.contains(info.physical)))
                return QStringLiteral("Details do not describe the hovered cell %1 (%2 %3 %4):\n%5")
                    .arg(where, info.logical, info.threads, info.physical, details);
            ++checkedHover_;
        } else if (!statusCell->text().isEmpty() ||
                   !details.contains(QStringLiteral("hover over the grid"))) {
            return QStringLiteral("no cell is hovered, but the status bar says '%1' and the "
                                  "Details:\n%2")
                .arg(statusCell->text(), details);
        }
        if (const Highlight h = grid->highlight(); h.active() && !shownGrid.isEmpty()) {
            int n = 0;
            for (int r = 0; r < truth.rows(); ++r)
                for (int c = 0; c < truth.cols(); ++c)
                    n += truth.matches(r, c, h);
            const QString want = QStringLiteral("%1: %2 cell%3")
                                     .arg(truth.describe(h))
                                     .arg(n)
                                     .arg(n == 1 ? QString() : QStringLiteral("s"));
            if (w.details()->highlightText() != want || !details.contains(want))
                return QStringLiteral("Details highlight '%1', the grid's is '%2'")
                    .arg(w.details()->highlightText(), want);
            ++checkedHighlight_;
        }
        if (state == ResultState::State::Current) {
            if (!want.ok)
                return QStringLiteral("shown as current, but the text fails: ") + want.error;
            if (shownGrid.title() != want.grid.title())
                return QStringLiteral("grid '%1' is not the text's '%2'")
                    .arg(shownGrid.title(), want.grid.title());
            if (!w.statusSummary().contains(shownGrid.title()))
                return QStringLiteral("status bar '%1' does not describe grid '%2'")
                    .arg(w.statusSummary(), shownGrid.title());
            if (w.details()->layoutTitle() != shownGrid.title() ||
                !details.contains(want.grid.title()))
                return QStringLiteral("details pane '%1' does not describe grid '%2'")
                    .arg(w.details()->layoutTitle(), shownGrid.title());
            if (!want.repr.isEmpty() && !details.simplified().contains(want.repr.simplified()))
                return QStringLiteral("details pane does not show the text's repr '%1':\n%2")
                    .arg(want.repr, details);
            if (!w.editor()->errorText().isEmpty())
                return QStringLiteral("an error beside a current grid: ") + w.editor()->errorText();
            ++checkedGrid_;
        } else if (state == ResultState::State::Error) {
            if (want.ok) return QStringLiteral("error state, but the text evaluates");
            if (w.editor()->errorText().isEmpty() && !want.tooLarge)
                return QStringLiteral("error state without an error in the editor");
            if (!shownGrid.isEmpty() && !grid->dimmed())
                return QStringLiteral("a grid under an error is not marked");
            if (w.statusSummary().contains(QStringLiteral("Fragment")) &&
                !w.statusSummary().contains(QStringLiteral("last valid")))
                return QStringLiteral("status bar shows a layout summary under an error: ") +
                       w.statusSummary();
        }
        return {};
    }

    // The bank panel: its totals and step line are what its shown inputs give, and the layout
    // it names is the project's layout with that text.
    QString bankViolation(MainWindow& w) {
        BankPanel* bank = bankPanel(w);
        if (!shown(bank)) return {};
        const QString totals = plain(label(*bank, "bankTotals")->text());
        const QString source = plain(bank->sourceText());
        const auto state = bank->resultState()->state();
        if (state == ResultState::State::Error && !totals.isEmpty())
            return QStringLiteral("bank totals '%1' beside the error '%2'")
                .arg(totals, bank->errorText());
        if (state != ResultState::State::Current || totals.isEmpty()) return {};
        BankInput in;
        in.layoutText = bank->layoutText();
        in.accessText = bank->accessText();
        in.autoAccess = bank->autoAccess();
        in.dtype = bank->dtype();
        in.vector = bank->findChild<QSpinBox*>()->value();
        in.store = bank->storeBox()->isChecked();
        const BankAnalysis a = analyzeBanks(in);
        if (!a.ok || !a.cost)
            return QStringLiteral("bank totals '%1' shown, but its inputs fail: %2")
                .arg(totals, a.error);
        const ts::PlanCost& c = *a.cost;
        const auto n = qint64(c.instructions.size());
        const QString want =
            QStringLiteral("%1 instruction%2: %3 wavefront%4, ideal %5, excess %6 (ncu \"bank "
                           "conflicts\"), efficiency %7%")
                .arg(n)
                .arg(n == 1 ? QString() : QStringLiteral("s"))
                .arg(c.wavefronts)
                .arg(c.wavefronts == 1 ? QString() : QStringLiteral("s"))
                .arg(c.ideal)
                .arg(c.excess)
                .arg(100.0 * c.efficiency(), 0, 'f', 1);
        if (totals != want)
            return QStringLiteral("bank totals '%1', its inputs give '%2'").arg(totals, want);
        // The step line: the instruction the slider is on.
        const int step = bank->slider()->value();
        const QString stepLine = label(*bank, "bankStepLabel")->text();
        if (step >= 0 && step < int(n)) {
            const ts::InstructionCost& ic = c.instructions[std::size_t(step)];
            const QString head = QStringLiteral("%1/%2 ").arg(step + 1).arg(n);
            const QString wf = QStringLiteral(": %1 wavefront%2, ideal %3, excess %4")
                                   .arg(ic.wavefronts)
                                   .arg(ic.wavefronts == 1 ? QString() : QStringLiteral("s"))
                                   .arg(ic.ideal)
                                   .arg(ic.excess);
            if (!stepLine.startsWith(head) || !stepLine.contains(wf))
                return QStringLiteral("bank step line '%1', instruction %2 gives '%3…%4'")
                    .arg(stepLine)
                    .arg(step + 1)
                    .arg(head, wf);
        }
        // Whose numbers: a layout of the project with exactly the analysed text, by its name.
        if (!source.contains(QStringLiteral("typed below"))) {
            bool found = false;
            for (int i = 0; i < w.document()->count() && !found; ++i) {
                const ts::DocLayout& l = w.document()->layout(i);
                found =
                    source.contains(QStringLiteral("«%1»").arg(QString::fromStdString(l.name))) &&
                    QString::fromStdString(l.text) == in.layoutText;
            }
            if (!found)
                return QStringLiteral("bank panel '%1' shows current numbers for '%2', which is "
                                      "no layout of the project by that name")
                    .arg(source, in.layoutText);
        }
        // The active layout, when it is a T.Layout the grid shows, is the one analysed.
        const ts::DocLayout* active = w.document()->activeLayout();
        const GridModel& g = w.gridView()->model();
        if (active && w.gridState()->state() == ResultState::State::Current &&
            (g.kind() == GridModel::Kind::LayoutInput ||
             g.kind() == GridModel::Kind::LayoutOutput) &&
            in.layoutText != QString::fromStdString(active->text))
            return QStringLiteral(
                       "bank panel analyses '%1' as current, the active T.Layout is '%2'")
                .arg(in.layoutText, QString::fromStdString(active->text));
        ++checkedBank_;
        return {};
    }

    // The trace viewer: its counts are core's parse of the log loaded last, and a conflict's
    // difference counts are core's diff of the selected event's two layouts.
    QString traceViolation(MainWindow& w) {
        TraceViewer* tv = w.traceViewer();
        if (!shown(tv) || loadedLog_.isEmpty() || tv->busy()) return {};
        const LogTruth& truth = logTruth(loadedLog_);
        int conflicts = 0, problems = 0;
        for (const auto& e : truth.events) {
            if (!e.ok()) ++problems;
            if (!e.repeatOf && ts::dump::isConflict(e.kind)) ++conflicts;
        }
        const QString status = label(*tv, "traceStatus")->text();
        static const QRegularExpression re(QStringLiteral(
            "^(\\d+) events?, (\\d+) conflicts?, (\\d+) problems? · (\\d+) lines? · (.+)$"));
        const auto m = re.match(status);
        if (!m.hasMatch()) return QStringLiteral("trace status '%1' unreadable").arg(status);
        const QString wantStatus = QStringLiteral("%1 events %2 conflicts %3 problems %4 lines %5")
                                       .arg(truth.events.size())
                                       .arg(conflicts)
                                       .arg(problems)
                                       .arg(truth.lines)
                                       .arg(QFileInfo(loadedLog_).fileName());
        const QString gotStatus =
            QStringLiteral("%1 events %2 conflicts %3 problems %4 lines %5")
                .arg(m.captured(1), m.captured(2), m.captured(3), m.captured(4), m.captured(5));
        if (gotStatus != wantStatus)
            return QStringLiteral("trace status '%1', core's parse of %2 gives '%3'")
                .arg(status, loadedLog_, wantStatus);
        ++checkedTraceStatus_;

        // The selected row, as core's events listed with repeats hidden or not.
        bool hide = false;
        for (QCheckBox* b : tv->findChildren<QCheckBox*>())
            if (b->text() == QLatin1String("Hide repeats")) hide = b->isChecked();
        std::vector<const ts::dump::Event*> rows;
        for (const auto& e : truth.events)
            if (!hide || !e.repeatOf) rows.push_back(&e);
        if (tv->list()->model()->rowCount() != int(rows.size()))
            return QStringLiteral("trace list has %1 rows, core's parse %2 (hide repeats %3)")
                .arg(tv->list()->model()->rowCount())
                .arg(rows.size())
                .arg(hide);
        const QModelIndex cur = tv->list()->currentIndex();
        if (!cur.isValid() || tv->pages()->currentIndex() != 2) return {};
        if (cur.row() >= int(rows.size())) return QStringLiteral("trace row past the end");
        const ts::dump::Event* e = rows[std::size_t(cur.row())];
        // An exception that reports a conflict is shown with that conflict's layouts.
        if (e->kind == ts::dump::EventKind::Error)
            for (const auto& c : truth.events)
                if (c.line == e->line && ts::dump::isConflict(c.kind)) {
                    e = &c;
                    break;
                }
        const auto [a, b] = e->comparedLayouts();
        if (!a || !b || !a->value || !b->value)
            return QStringLiteral("trace shows a comparison for line %1, which has no pair")
                .arg(e->line);
        std::optional<ts::LayoutDiff> diff;
        try {
            diff = ts::diffLayouts(*a->value, *b->value);
        } catch (const std::exception&) {
            return {}; // the view says why instead of counts (checked by its own tests)
        }
        const QString counts = plain(label(*tv, "diffCounts")->text());
        const auto& c = diff->counts;
        const QString want = QStringLiteral("%1 of %2 cell%3 differ")
                                 .arg(c.differing())
                                 .arg(c.cells)
                                 .arg(c.cells == 1 ? QString() : QStringLiteral("s"));
        const QString chips =
            QStringLiteral("thread %1 %2 %3 replica count %4 shape %5")
                .arg(c.thread)
                .arg(diff->fragments ? QStringLiteral("slot") : QStringLiteral("offset"))
                .arg(c.slot)
                .arg(c.replica)
                .arg(c.shape);
        if (!counts.startsWith(want) || !counts.simplified().contains(chips))
            return QStringLiteral("trace counts '%1' for line %2; core's diff gives '%3 … %4'")
                .arg(counts.simplified())
                .arg(e->line)
                .arg(want, chips);
        if (tv->currentMappingText(0) != QString::fromStdString(a->mapping) ||
            tv->currentMappingText(1) != QString::fromStdString(b->mapping))
            return QStringLiteral("trace grids are not the layouts of line %1").arg(e->line);
        ++checkedTraceDiff_;
        return {};
    }

    // Every visible label that names a layout («name») names one of the project, as it is
    // called now. Found generically: any label in any window, by its guillemets.
    QString nameViolation(MainWindow& w) {
        QSet<QString> names;
        for (int i = 0; i < w.document()->count(); ++i)
            names.insert(QString::fromStdString(w.document()->layout(i).name));
        static const QRegularExpression re(QStringLiteral("«([^»]*)»"));
        for (QWidget* top : QApplication::topLevelWidgets()) {
            if (!top->isVisible()) continue;
            for (QLabel* l : top->findChildren<QLabel*>()) {
                if (!l->isVisible()) continue;
                // As the label shows it: rich text rendered, plain text as it is.
                const bool rich =
                    l->textFormat() == Qt::RichText ||
                    (l->textFormat() == Qt::AutoText && Qt::mightBeRichText(l->text()));
                const QString t = rich ? plain(l->text()) : l->text();
                // Said of a layout that is gone, by the name it had: true as written.
                // The Lesson panel's note after Delete Step says so too (and goes at the next
                // change of the document: an undo brings the layout back and clears it).
                if (t.contains(QLatin1String("no longer in the project")) ||
                    t.contains(QLatin1String("removed from the project")) ||
                    t.startsWith(QLatin1String("Deleted step «")))
                    continue;
                for (auto it = re.globalMatch(t); it.hasNext();) {
                    const QString n = it.next().captured(1);
                    if (!names.contains(n))
                        return QStringLiteral("label '%1' names «%2», which no layout of the "
                                              "project is called now: %3")
                            .arg(l->objectName(), n, t);
                    ++checkedNames_;
                }
            }
        }
        return {};
    }

    // A highlight belongs to the revision of the layout it was made on.
    QString highlightRevisionViolation(MainWindow& w) {
        GridView* g = w.gridView();
        const Highlight h = g->highlight();
        if (!h.active() || w.gridState()->state() != ResultState::State::Current) return {};
        DocumentModel* d = w.document();
        const GridView::Source now{d->activeId(), d->revisionAt(d->active())};
        if (g->highlightSource() != now)
            return QStringLiteral("the grid's highlight (%1) was made on layout %2 revision %3; "
                                  "the grid shows layout %4 revision %5")
                .arg(g->model().describe(h))
                .arg(g->highlightSource().layout)
                .arg(g->highlightSource().revision)
                .arg(now.layout)
                .arg(now.revision);
        const GridModel& m = g->model();
        bool covers = false;
        for (int r = 0; r < m.rows() && !covers; ++r)
            for (int c = 0; c < m.cols() && !covers; ++c)
                covers = m.matches(r, c, h);
        if (!covers)
            return QStringLiteral("the grid's highlight (%1) covers no cell of the layout shown")
                .arg(m.describe(h));
        ++checkedHighlightRevision_;
        return {};
    }

    // The file the export step wrote is the picture of the current text's layout, drawn here
    // from an evaluation of that text; a refusal happened only while the grid showed another.
    QString exportViolation(MainWindow& w) {
        if (exportRefused_) {
            exportRefused_ = false;
            if (exportRefusedState_ == QLatin1String("Current"))
                return QStringLiteral("Export View refused while the grid was current");
            ++refusedExports_;
            return {};
        }
        if (exported_.isEmpty()) return {};
        const QString file = std::exchange(exported_, QString());
        const ts::DocLayout* active = w.document()->activeLayout();
        if (!active) return QStringLiteral("a file was exported with no layout open");
        const GridModel& shown = w.gridView()->model();
        const EvalResult want =
            LayoutEvaluator::compute(QString::fromStdString(active->text), shown.viewMode(),
                                     shown.colorMode(), CancelToken(), nullptr);
        if (!want.ok)
            return QStringLiteral("exported %1 although the text fails: %2").arg(file, want.error);
        GridRenderer::Style st;
        st.legendInScene = true;
        st.exportPage = true;
        GridRenderer r(want.grid, st);
        r.setHighlight(w.gridView()->highlight());
        const QString truth = exportDir_.filePath(QStringLiteral("truth.png"));
        QString err;
        if (!r.exportFile(truth, &err, 1.0)) return QStringLiteral("cannot draw the truth: ") + err;
        QFile a(file), b(truth);
        if (!a.open(QIODevice::ReadOnly) || !b.open(QIODevice::ReadOnly) ||
            a.readAll() != b.readAll())
            return QStringLiteral("the exported %1 is not the picture of the current text '%2'")
                .arg(file, QString::fromStdString(active->text).left(80));
        ++checkedExports_;
        return {};
    }

    // After New or Open, the Run panel keeps nothing of the closed project: its access is
    // empty (fitted when it runs) or the one fitted to the new project's active T.Layout.
    QString runResetViolation(MainWindow& w) {
        const quint64 serial = w.document()->projectSerial();
        if (serial == projectSerial_) return {};
        projectSerial_ = serial;
        auto* run = w.findChild<RunPanel*>();
        if (!run) return {};
        if (!run->fitAccess())
            return QStringLiteral("after New/Open the Run panel keeps a chosen access '%1'")
                .arg(run->access());
        const ts::DocLayout* active = w.document()->activeLayout();
        if (!run->access().isEmpty() && active) {
            QString fitted;
            try {
                const ts::Mapping m = ts::parseMapping(active->text);
                if (const auto* lay = std::get_if<ts::Layout>(&m)) {
                    std::string dtype = ts::mappingDtype(active->text);
                    if (dtype.empty()) dtype = run->dtype().toStdString();
                    fitted = QString::fromStdString(ts::defaultAccess(ts::SharedTile(*lay, dtype)));
                }
            } catch (const std::exception&) {
            }
            if (run->access() != fitted)
                return QStringLiteral("after New/Open the Run panel shows the access '%1'; the "
                                      "new project's active layout fits '%2'")
                    .arg(run->access(), fitted);
        }
        ++checkedRunReset_;
        return {};
    }

    // The invariant: what is on screen belongs to the current input.
    QString violation(MainWindow& w) {
        QString v = gridViolation(w);
        if (v.isEmpty()) v = bankViolation(w);
        if (v.isEmpty()) v = traceViolation(w);
        if (v.isEmpty()) v = nameViolation(w);
        if (v.isEmpty()) v = highlightRevisionViolation(w);
        if (v.isEmpty()) v = exportViolation(w);
        if (v.isEmpty()) v = runResetViolation(w);
        return v;
    }

    static void mouse(QWidget* target, QEvent::Type type, QPoint p, Qt::MouseButton button,
                      Qt::MouseButtons buttons, Qt::KeyboardModifiers mods = {}) {
        QMouseEvent ev(type, QPointF(p), QPointF(target->mapToGlobal(p)), button, buttons, mods);
        QApplication::sendEvent(target, &ev);
    }

    // Press, a few moves with the button held, release: a drag as a hand makes one.
    void drag(QWidget* target, QPoint from, QPoint to, Qt::MouseButton button) {
        mouse(target, QEvent::MouseButtonPress, from, button, button);
        const int moves = 2 + pick(6);
        for (int k = 1; k <= moves; ++k) {
            mouse(target, QEvent::MouseMove, from + (to - from) * k / moves, Qt::NoButton, button);
            // A hand takes time between moves: the main window moves a separator on a timer.
            QTest::qWait(1);
        }
        mouse(target, QEvent::MouseButtonRelease, to, button, Qt::NoButton);
    }

    QPoint anywhere(QWidget* wd) {
        return QPoint(pick(std::max(1, wd->width())), pick(std::max(1, wd->height())));
    }

    // A point over the grid's cells, 3 times in 4 (else anywhere in the view: headers, legend,
    // the margin around a small grid).
    QPoint overCells(GridView* grid) {
        const QRect cells = grid->cellArea().intersected(grid->gridRectOnScreen()).toAlignedRect();
        if (cells.isEmpty() || !pick(4)) return anywhere(grid);
        return cells.topLeft() +
               QPoint(pick(std::max(1, cells.width())), pick(std::max(1, cells.height())));
    }

    void openLog(MainWindow& w, QString* what) {
        // A sample log from its menu (as a user opens one), or one of the test logs through the
        // viewer's own entry point (no file dialog).
        if (pick(2)) {
            QMenu* m = subMenu(w, QStringLiteral("&File"), QStringLiteral("Sample &Logs"));
            if (!m || m->actions().isEmpty()) return;
            QAction* a = m->actions()[pick(int(m->actions().size()))];
            loadedLog_ = a->data().toString(); // the log's path (fillSampleLogsMenu)
            *what = QStringLiteral("sample log '%1'").arg(a->text());
            a->trigger();
        } else {
            const QString dir = QStringLiteral(TILESCOPE_SOURCE_DIR "/tests/data/logs");
            const QStringList logs = QDir(dir).entryList({QStringLiteral("*.log")}, QDir::Files);
            if (logs.isEmpty()) return;
            loadedLog_ = dir + QLatin1Char('/') + logs[pick(int(logs.size()))];
            *what = QStringLiteral("open log %1").arg(QFileInfo(loadedLog_).fileName());
            w.openTraceLog(loadedLog_, false);
        }
    }

    void traceStep(MainWindow& w, QString* what) {
        TraceViewer* tv = w.traceViewer();
        if (!shown(tv) || loadedLog_.isEmpty()) return openLog(w, what);
        switch (pick(5)) {
        case 0:
        case 1: { // click a row
            QListView* l = tv->list();
            const int n = l->model()->rowCount();
            if (n == 0) break;
            const int row = pick(n);
            *what = QStringLiteral("trace row %1").arg(row);
            l->scrollTo(l->model()->index(row, 0));
            const QRect r = l->visualRect(l->model()->index(row, 0));
            if (r.isValid() && l->viewport()->rect().contains(r.center()))
                QTest::mouseClick(l->viewport(), Qt::LeftButton, {}, r.center());
            else
                l->setCurrentIndex(l->model()->index(row, 0));
            break;
        }
        case 2: { // Layouts / Differences
            QToolButton* b =
                pick(2) ? tv->comparison()->layoutsButton() : tv->comparison()->differencesButton();
            *what = QStringLiteral("trace '%1'").arg(b->text());
            if (b->isVisible() && b->isEnabled()) QTest::mouseClick(b, Qt::LeftButton);
            break;
        }
        case 3: { // Hide repeats
            for (QCheckBox* b : tv->findChildren<QCheckBox*>())
                if (b->text() == QLatin1String("Hide repeats") && b->isEnabled()) {
                    *what = QStringLiteral("trace toggle Hide repeats");
                    b->click();
                }
            break;
        }
        case 4: { // drag one of the compared grids (both follow)
            GridView* g = pick(2) ? tv->comparison()->left() : tv->comparison()->right();
            if (!g->isVisible()) g = tv->singleView();
            if (!g->isVisible()) break;
            const QPoint a = anywhere(g), b = anywhere(g);
            *what = QStringLiteral("trace drag %1,%2 -> %3,%4")
                        .arg(a.x())
                        .arg(a.y())
                        .arg(b.x())
                        .arg(b.y());
            drag(g, a, b, Qt::LeftButton);
            break;
        }
        }
    }

    void bankStep(MainWindow& w, QString* what) {
        BankPanel* bank = bankPanel(w);
        QDockWidget* dock = dockOf(bank);
        if (!shown(bank)) {
            *what = QStringLiteral("open the bank panel");
            dock->toggleViewAction()->trigger();
            return;
        }
        switch (pick(6)) {
        case 0: { // type an access
            auto* e = bank->findChild<QLineEdit*>(QStringLiteral("bankAccess"));
            const QString t = kAccesses[pick(int(kAccesses.size()))];
            *what = QStringLiteral("bank access '%1'").arg(t);
            e->setFocus();
            e->selectAll();
            QTest::keyClicks(e, t);
            QTest::keyClick(e, Qt::Key_Return);
            break;
        }
        case 1: { // "fit the layout"
            auto* b = bank->findChild<QCheckBox*>(QStringLiteral("bankAutoAccess"));
            *what = QStringLiteral("bank toggle fit the layout");
            b->click();
            break;
        }
        case 2: { // dtype
            auto* box = bank->findChild<QComboBox*>();
            if (!box->isEnabled() || box->count() == 0) break;
            const int i = pick(box->count());
            *what = QStringLiteral("bank dtype %1").arg(box->itemText(i));
            box->setCurrentIndex(i);
            break;
        }
        case 3: // store
            if (!bank->storeBox()->isEnabled()) break;
            *what = QStringLiteral("bank toggle store");
            bank->storeBox()->click();
            break;
        case 4: { // step buttons
            QPushButton* b = pick(2) ? bank->stepForwardButton() : bank->stepBackButton();
            *what = QStringLiteral("bank '%1'").arg(b->text());
            if (b->isEnabled()) QTest::mouseClick(b, Qt::LeftButton);
            break;
        }
        case 5: { // drag the step slider
            QSlider* s = bank->slider();
            if (!s->isVisible() || s->width() < 4) break;
            const int y = s->height() / 2;
            const QPoint a(pick(s->width()), y), b(pick(s->width()), y);
            *what = QStringLiteral("bank slider drag %1 -> %2").arg(a.x()).arg(b.x());
            drag(s, a, b, Qt::LeftButton);
            break;
        }
        }
    }

    // The docks as a user sees them: which are shown, floating, where, and tabbed with how many.
    static QString dockArrangement(MainWindow& w) {
        QStringList s;
        for (QDockWidget* d : w.findChildren<QDockWidget*>())
            s << QStringLiteral("%1:%2%3%4%5")
                     .arg(d->objectName())
                     .arg(d->isVisible())
                     .arg(d->isFloating())
                     .arg(int(w.dockWidgetArea(d)))
                     .arg(w.tabifiedDockWidgets(d).size());
        return s.join(QLatin1Char(' '));
    }

    static QDockWidget* traceDock(MainWindow& w) { return dockOf(w.traceViewer()); }

    // The step kinds of the dock storm: mostly docks, the trace panel and what the report did
    // around the exit, and a fifth of the ordinary mix so that every check still applies.
    int dockStormKind() {
        const int r = pick(100);
        if (r < 30) return 25; // float, dock, tabify, show, hide any dock
        if (r < 45) return 15; // View > Panels
        if (r < 60) return 26; // the Inference Trace panel
        if (r < 68) return 16; // in the trace viewer
        if (r < 72) return 21; // open a log
        if (r < 75) return 9;  // resize
        if (r < 78) return 14; // drag a dock separator
        if (r < 80) return 27; // Quit > Save > Esc in the Save As dialog
        return pick(26);
    }

    // The Inference Trace panel: on or off from View > Panels (as the report did), floated or
    // docked again, or the report's arrangement (the Run and the four analysis panels tabbed at
    // the bottom, the trace closed) followed by View > Panels > Inference Trace.
    void traceDockStep(MainWindow& w, QString* what) {
        QDockWidget* td = traceDock(w);
        QMenu* panels = subMenu(w, QStringLiteral("&View"), QStringLiteral("&Panels"));
        auto fromMenu = [&] {
            if (!panels) return;
            rebuildPanelsMenu(&w, panels); // what opening the menu does
            for (QAction* a : panels->actions())
                if (a->text().remove(QLatin1Char('&')) == QLatin1String("Inference Trace")) {
                    *what += QStringLiteral(" View > Panels > Inference Trace %1")
                                 .arg(a->isChecked() ? "off" : "on");
                    if (!a->isChecked()) ++traceFromMenu_;
                    a->trigger();
                    return;
                }
        };
        switch (pick(4)) {
        case 0:
        case 1:
            *what = QStringLiteral("trace panel:");
            fromMenu();
            break;
        case 2:
            if (!td->isVisible()) {
                *what = QStringLiteral("trace panel:");
                fromMenu();
                break;
            }
            *what = QStringLiteral("trace panel %1").arg(td->isFloating() ? "docked" : "floated");
            td->setFloating(!td->isFloating());
            break;
        case 3: {
            *what = QStringLiteral("the report's arrangement, then");
            static const QStringList tabbed = {
                QStringLiteral("Run on device"), QStringLiteral("Bank conflicts"),
                QStringLiteral("Ascend UB banks"), QStringLiteral("Swizzle"),
                QStringLiteral("Block rasterization")};
            QDockWidget* first = nullptr;
            for (const QString& title : tabbed)
                for (QDockWidget* d : w.findChildren<QDockWidget*>())
                    if (d->windowTitle() == title) {
                        if (d->isFloating()) d->setFloating(false);
                        if (w.dockWidgetArea(d) != Qt::BottomDockWidgetArea)
                            w.addDockWidget(Qt::BottomDockWidgetArea, d);
                        // Closed is unchecked; a tab behind another is not visible, yet open.
                        if (!d->toggleViewAction()->isChecked()) d->toggleViewAction()->trigger();
                        if (first)
                            w.tabifyDockWidget(first, d);
                        else
                            first = d;
                    }
            if (td->toggleViewAction()->isChecked()) td->toggleViewAction()->trigger();
            ++reportArrangements_;
            settle(w);
            fromMenu();
            break;
        }
        }
    }

    // Ctrl+Q with unsaved changes, Save in the prompt, Esc in the Save As dialog, as the report
    // did just before the exit: the window must stay, and nothing may be written.
    void cancelledQuit(MainWindow& w, QString* what) {
        DocumentModel* d = w.document();
        if (!d->activeLayout()) return;
        // Save goes to the Save As dialog only for a project without a file of its own (a new
        // one or a sample); with a file of its own it would write it.
        const QString samples = MainWindow::samplesDirectory();
        if (!d->filePath().isEmpty() && !d->filePath().startsWith(samples + QLatin1Char('/')))
            return;
        if (!d->isDirty()) { // an edit, so that Quit asks
            w.editor()->codeEdit()->setFocus();
            QTest::keyClick(w.editor()->codeEdit(), Qt::Key_Space);
            settle(w);
        }
        if (!d->isDirty()) return;
        // File > Quit, which Ctrl+Q triggers (found by its text: the offscreen platform has no
        // standard Quit key, so its shortcut is empty here).
        QAction* quit = nullptr;
        for (QAction* a : w.menuBar()->actions())
            if (a->menu() && a->text() == QLatin1String("&File"))
                for (QAction* b : a->menu()->actions())
                    if (b->text() == QLatin1String("&Quit")) quit = b;
        if (!quit) {
            quitFailure_ = QStringLiteral("no File > Quit");
            return;
        }
        *what = QStringLiteral("Quit > Save > Esc in the Save As dialog");
        // The modal dialogs run their own loops: answered from a timer, as a hand would.
        bool sawPrompt = false, sawSaveAs = false;
        QElapsedTimer clock;
        clock.start();
        QTimer hand;
        hand.setInterval(20);
        QObject::connect(&hand, &QTimer::timeout, [&] {
            QWidget* m = QApplication::activeModalWidget();
            if (auto* box = qobject_cast<QMessageBox*>(m)) {
                for (QAbstractButton* b : box->buttons())
                    if (b->text() == QLatin1String("&Save")) {
                        sawPrompt = true;
                        b->click();
                        return;
                    }
            } else if (auto* fd = qobject_cast<QFileDialog*>(m)) {
                if (!fd->isVisible()) return;
                sawSaveAs = true;
                QTest::keyClick(fd->focusWidget() ? fd->focusWidget() : fd, Qt::Key_Escape);
                return;
            }
            if (m && clock.elapsed() > 20000) { // not the dialogs of this story: say so, go on
                quitFailure_ =
                    QStringLiteral("a modal '%1' (%2) still open after 20 s")
                        .arg(m->windowTitle(), QString::fromLatin1(m->metaObject()->className()));
                if (auto* dlg = qobject_cast<QDialog*>(m))
                    dlg->reject();
                else
                    m->close();
            }
        });
        hand.start();
        w.setConfirmOnClose(true);
        quit->trigger();
        w.setConfirmOnClose(false);
        hand.stop();
        if (quitFailure_.isEmpty() && (!sawPrompt || !sawSaveAs))
            quitFailure_ = QStringLiteral("the quit did not go through the prompt (%1) and the "
                                          "Save As dialog (%2)")
                               .arg(sawPrompt)
                               .arg(sawSaveAs);
        if (quitFailure_.isEmpty() && !d->isDirty())
            quitFailure_ = QStringLiteral("the project is no longer marked unsaved");
        ++quitsCancelled_;
    }

    void step(MainWindow& w, QString* what) {
        CodeEdit* edit = w.editor()->codeEdit();
        GridView* grid = w.gridView();
        // The first steps visit every kind of action once, in order, so that even a short run
        // does each (the checks at the end require it); random choices after that.
        const bool touring = steps_ < 26;
        const int kind = touring ? steps_ : docksMix_ ? dockStormKind() : pick(26);
        ++steps_;
        switch (kind) {
        case 0:
        case 1: { // type a few characters somewhere in the text
            static const QString chars = QStringLiteral("0123456789()[],:+-*/%ijk T.^ ");
            QTextCursor c = edit->textCursor();
            c.setPosition(pick(int(edit->toPlainText().size()) + 1));
            edit->setTextCursor(c);
            QString s;
            for (int n = 1 + pick(4); n > 0; --n)
                s += chars[pick(int(chars.size()))];
            *what = QStringLiteral("type '%1'").arg(s);
            edit->setFocus();
            QTest::keyClicks(edit, s);
            break;
        }
        case 2: { // delete a few characters
            const int n = 1 + pick(5);
            *what = QStringLiteral("backspace x%1").arg(n);
            edit->setFocus();
            for (int k = 0; k < n; ++k)
                QTest::keyClick(edit, Qt::Key_Backspace);
            break;
        }
        case 3: { // select all and paste
            const QString t = kPastes[pick(int(kPastes.size()))];
            *what = QStringLiteral("paste '%1'").arg(t.left(60));
            QGuiApplication::clipboard()->setText(t);
            edit->setFocus();
            QTest::keyClick(edit, Qt::Key_A, Qt::ControlModifier);
            QTest::keyClick(edit, Qt::Key_V, Qt::ControlModifier);
            break;
        }
        case 4:
            *what = QStringLiteral("undo");
            w.document()->undoStack()->undo();
            break;
        case 5:
            *what = QStringLiteral("redo");
            w.document()->undoStack()->redo();
            break;
        case 6: { // another layout of the project
            const int n = w.document()->count();
            if (n == 0) break;
            const int i = pick(n);
            *what = QStringLiteral("select layout %1").arg(i);
            QListView* v = w.layoutListView();
            const QRect r = v->visualRect(v->model()->index(i, 0));
            if (r.isValid() && v->isVisible() && v->viewport()->rect().contains(r.center()))
                QTest::mouseClick(v->viewport(), Qt::LeftButton, {}, r.center());
            else
                w.document()->setActive(i);
            break;
        }
        case 7: { // a menu action
            QList<QAction*> acts;
            for (QAction* a : w.findChildren<QAction*>())
                if (monkeyMayTrigger(a)) acts << a;
            if (acts.isEmpty()) break;
            if (touring) { // the tour opens one
                QList<QAction*> closed;
                for (QAction* a : acts)
                    if (!a->isChecked()) closed << a;
                if (!closed.isEmpty()) acts = closed;
            }
            QAction* a = acts[pick(int(acts.size()))];
            *what = QStringLiteral("action '%1'").arg(a->text());
            a->trigger();
            break;
        }
        case 8: { // a sample
            const QStringList samples = QDir(MainWindow::samplesDirectory())
                                            .entryList({QStringLiteral("*.tilescope.json")});
            if (samples.isEmpty()) break;
            const QString s = samples[pick(int(samples.size()))];
            *what = QStringLiteral("open sample %1").arg(s);
            w.openFile(MainWindow::samplesDirectory() + QLatin1Char('/') + s);
            break;
        }
        case 9: { // resize
            const QSize sz(500 + pick(1100), 350 + pick(650));
            *what = QStringLiteral("resize %1x%2").arg(sz.width()).arg(sz.height());
            w.resize(sz);
            break;
        }
        case 10: { // wheel on the grid
            const QPoint p = anywhere(grid);
            const int delta = pick(2) ? 120 : -120;
            const auto mods = pick(3) ? Qt::ControlModifier : Qt::NoModifier;
            *what = QStringLiteral("wheel %1 at %2,%3%4")
                        .arg(delta)
                        .arg(p.x())
                        .arg(p.y())
                        .arg(mods ? QStringLiteral(" with Ctrl") : QString());
            QWheelEvent ev(p, grid->mapToGlobal(p), {}, {0, delta}, Qt::NoButton, mods,
                           Qt::NoScrollPhase, false);
            QApplication::sendEvent(grid, &ev);
            break;
        }
        case 11: { // click a cell: its thread, or (right button, Shift) its slot
            const QPoint p = overCells(grid);
            const int how = touring ? 0 : pick(3);
            *what = QStringLiteral("click grid at %1,%2 (%3)")
                        .arg(p.x())
                        .arg(p.y())
                        .arg(how == 0   ? "left"
                             : how == 1 ? "right"
                                        : "shift");
            QTest::mouseClick(grid, how == 1 ? Qt::RightButton : Qt::LeftButton,
                              how == 2 ? Qt::ShiftModifier : Qt::NoModifier, p);
            break;
        }
        case 12: { // hover: the mouse moves over the grid
            const QPoint p = overCells(grid);
            *what = QStringLiteral("hover grid at %1,%2").arg(p.x()).arg(p.y());
            mouse(grid, QEvent::MouseMove, p, Qt::NoButton, Qt::NoButton);
            break;
        }
        case 13: { // drag the grid (left or middle button pans)
            const QPoint a = anywhere(grid), b = anywhere(grid);
            const Qt::MouseButton button = pick(3) ? Qt::LeftButton : Qt::MiddleButton;
            *what = QStringLiteral("drag grid %1,%2 -> %3,%4%5")
                        .arg(a.x())
                        .arg(a.y())
                        .arg(b.x())
                        .arg(b.y())
                        .arg(button == Qt::MiddleButton ? QStringLiteral(" (middle)") : QString());
            // At fit the grid is centred and does not pan: zoom in first, half of the time.
            if (pick(2)) {
                QWheelEvent ev(a, grid->mapToGlobal(a), {}, {0, 240}, Qt::NoButton,
                               Qt::ControlModifier, Qt::NoScrollPhase, false);
                QApplication::sendEvent(grid, &ev);
                *what += QStringLiteral(" zoomed in");
            }
            const double zoom = grid->zoomRelative();
            const QPointF pan = grid->pan();
            drag(grid, a, b, button);
            if (grid->pan() != pan || grid->zoomRelative() != zoom) ++pans_;
            break;
        }
        case 14: { // drag the separator beside a visible dock
            QList<QDockWidget*> docks;
            for (QDockWidget* d : w.findChildren<QDockWidget*>())
                if (d->isVisible() && !d->isFloating() && w.rect().contains(d->geometry()))
                    docks << d;
            if (docks.isEmpty()) break;
            QDockWidget* d = docks[pick(int(docks.size()))];
            const QRect g = d->geometry();
            const QRect c = w.centralWidget()->geometry();
            // The separator is the gap between the dock and its neighbour towards the grid.
            QPoint p;
            const auto area = w.dockWidgetArea(d);
            if (area == Qt::LeftDockWidgetArea)
                p = QPoint(g.right() + 2, g.center().y());
            else if (area == Qt::RightDockWidgetArea)
                p = QPoint(g.left() - 2, g.center().y());
            else if (area == Qt::BottomDockWidgetArea)
                p = QPoint(g.center().x(), g.top() - 2);
            else
                p = QPoint(g.center().x(), g.bottom() + 2);
            const QPoint by(pick(161) - 80, pick(161) - 80);
            *what = QStringLiteral("drag the separator of '%1' by %2,%3")
                        .arg(d->windowTitle())
                        .arg(by.x())
                        .arg(by.y());
            const QRect before = c;
            drag(&w, p, p + by, Qt::LeftButton);
            if (w.centralWidget()->geometry() != before || d->geometry() != g) ++separatorDrags_;
            break;
        }
        case 15: { // a panel from View > Panels
            QMenu* panels = subMenu(w, QStringLiteral("&View"), QStringLiteral("&Panels"));
            if (!panels) break;
            rebuildPanelsMenu(&w, panels); // what opening the menu does
            QList<QAction*> acts;
            for (QAction* a : panels->actions())
                if (!a->isSeparator() && a->isEnabled() &&
                    !a->text().contains(QLatin1String("Run")))
                    acts << a;
            if (acts.isEmpty()) break;
            QAction* a = acts[pick(int(acts.size()))];
            *what = QStringLiteral("panel '%1' %2").arg(a->text(), a->isChecked() ? "off" : "on");
            if (!a->isChecked()) ++panelsOpened_;
            a->trigger();
            break;
        }
        case 16:
        case 17:
            traceStep(w, what);
            break;
        case 18:
        case 19:
            bankStep(w, what);
            break;
        case 20: { // drop a sample file or a mapping's text on the window
            auto* mime = new QMimeData;
            if (pick(2)) {
                const QStringList samples = QDir(MainWindow::samplesDirectory())
                                                .entryList({QStringLiteral("*.tilescope.json")});
                if (samples.isEmpty()) {
                    delete mime;
                    break;
                }
                const QString s = samples[pick(int(samples.size()))];
                mime->setUrls(
                    {QUrl::fromLocalFile(MainWindow::samplesDirectory() + QLatin1Char('/') + s)});
                *what = QStringLiteral("drop sample %1").arg(s);
            } else {
                const QString t = kPastes[pick(int(kPastes.size()))];
                mime->setText(t);
                *what = QStringLiteral("drop text '%1'").arg(t.left(60));
            }
            const QPoint p = w.rect().center();
            QDragEnterEvent enter(p, Qt::CopyAction, mime, Qt::LeftButton, {});
            QApplication::sendEvent(&w, &enter);
            if (enter.isAccepted()) {
                QDropEvent drop(QPointF(p), Qt::CopyAction, mime, Qt::LeftButton, {});
                QApplication::sendEvent(&w, &drop);
            }
            delete mime;
            break;
        }
        case 21: // open a log in the trace viewer
            openLog(w, what);
            break;
        case 22: { // rename the active layout in the list, as F2 does
            DocumentModel* d = w.document();
            if (!d->activeLayout()) break;
            const QString name = QStringLiteral("monkey name %1").arg(++renames_);
            *what = QStringLiteral("rename layout %1 to '%2'").arg(d->active()).arg(name);
            QListView* v = w.layoutListView();
            // The list can only open an editor where a user could (it is shown, not already
            // editing); elsewhere the rename goes through the model, as Edit > Rename's undo does.
            if (!v->isVisible() || v->viewport()->findChild<QLineEdit*>()) {
                d->rename(d->active(), name);
                break;
            }
            v->edit(v->model()->index(d->active(), 0));
            QTest::qWait(1);
            auto* e = v->viewport()->findChild<QLineEdit*>();
            if (!e || !e->isVisible()) {
                d->rename(d->active(), name);
                break;
            }
            e->selectAll();
            QTest::keyClicks(e, name);
            QTest::keyClick(e, Qt::Key_Return);
            break;
        }
        case 23: { // type an access in the Run panel, then File > New or open a sample
            if (auto* run = w.findChild<RunPanel*>()) {
                run->accessEdit()->setFocus();
                run->accessEdit()->selectAll();
                QTest::keyClicks(run->accessEdit(), QStringLiteral("lanes:lambda t: (t % 16, 0)"));
            }
            if (pick(2)) {
                *what = QStringLiteral("Run access typed, then File > New");
                w.newDocument();
            } else {
                const QStringList samples = QDir(MainWindow::samplesDirectory())
                                                .entryList({QStringLiteral("*.tilescope.json")});
                if (samples.isEmpty()) break;
                const QString sm = samples[pick(int(samples.size()))];
                *what = QStringLiteral("Run access typed, then open sample %1").arg(sm);
                w.openFile(MainWindow::samplesDirectory() + QLatin1Char('/') + sm);
            }
            break;
        }
        case 25: { // a dock floated or docked again, tabified with another, shown or hidden
            QList<QDockWidget*> docks = w.findChildren<QDockWidget*>();
            if (docks.size() < 2) break;
            QDockWidget* d = docks[pick(int(docks.size()))];
            switch (pick(4)) {
            case 0:
                *what = QStringLiteral("dock '%1' %2")
                            .arg(d->windowTitle(), d->isFloating() ? "docked" : "floated");
                d->setFloating(!d->isFloating());
                break;
            case 1: {
                QDockWidget* other = docks[pick(int(docks.size()))];
                if (other == d || d->isFloating() || other->isFloating()) break;
                *what = QStringLiteral("dock '%1' tabified with '%2'")
                            .arg(d->windowTitle(), other->windowTitle());
                w.tabifyDockWidget(other, d);
                break;
            }
            default:
                *what = QStringLiteral("dock '%1' %2")
                            .arg(d->windowTitle(), d->isVisible() ? "hidden" : "shown");
                d->toggleViewAction()->trigger();
                break;
            }
            break;
        }
        case 26:
            traceDockStep(w, what);
            break;
        case 27:
            cancelledQuit(w, what);
            break;
        case 24: { // Export View, once what was asked for has settled
            settle(w);
            const QString file = exportDir_.filePath(QStringLiteral("export-%1.png").arg(steps_));
            const auto state = w.gridState()->state();
            *what = QStringLiteral("Export View to %1 (grid %2)")
                        .arg(QFileInfo(file).fileName(),
                             QString::fromLatin1(
                                 QMetaEnum::fromType<ResultState::State>().valueToKey(int(state))));
            if (w.exportView(file)) {
                exported_ = file;
            } else if (!w.gridView()->model().isEmpty()) {
                exportRefused_ = true;
                exportRefusedState_ = QString::fromLatin1(
                    QMetaEnum::fromType<ResultState::State>().valueToKey(int(state)));
                if (QFile::exists(file))
                    exportRefusedState_ = QStringLiteral("Current"); // refused yet written
            }
            break;
        }
        }
    }

private slots:
    void initTestCase() {
        guiTestSetUp();
        qInstallMessageHandler(messageHandler);
    }

    void monkey() {
        const int steps = qEnvironmentVariableIntValue("TILESCOPE_MONKEY_STEPS") > 0
                              ? qEnvironmentVariableIntValue("TILESCOPE_MONKEY_STEPS")
                              : 150;
        const unsigned seed = qEnvironmentVariableIsSet("TILESCOPE_MONKEY_SEED")
                                  ? unsigned(qEnvironmentVariableIntValue("TILESCOPE_MONKEY_SEED"))
                                  : 20261201u;
        rng_.seed(seed);
        const QString mix = qEnvironmentVariable("TILESCOPE_MONKEY_MIX");
        if (!mix.isEmpty() && mix != QLatin1String("docks"))
            QFAIL(qPrintable(QStringLiteral("TILESCOPE_MONKEY_MIX=%1: the mixes are the default "
                                            "(unset) and docks")
                                 .arg(mix)));
        docksMix_ = mix == QLatin1String("docks");
        // The window vanishing is what the hunt is for: the last window closing is a failure.
        QObject::connect(qApp, &QGuiApplication::lastWindowClosed, this,
                         [this] { lastWindowClosed_ = true; });
        QElapsedTimer clock;
        clock.start();
        qputenv("TILESCOPE_NO_DIALOGS", "1"); // a refused export says so without a modal box
        QVERIFY(exportDir_.isValid());
        MainWindow w;
        w.setConfirmOnClose(false);
        w.resize(1200, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(
            w.openFile(MainWindow::samplesDirectory() + QStringLiteral("/default.tilescope.json")));
        settle(w);
        QStringList log;
        QString arrangement = dockArrangement(w);
        bool traceWasShown = traceDock(w)->isVisible();
        for (int i = 0; i < steps; ++i) {
            QString what = QStringLiteral("(nothing)");
            step(w, &what);
            log << what;
            settle(w);
            const QString now = dockArrangement(w);
            if (now != std::exchange(arrangement, now)) ++dockChanges_;
            const bool traceShown = traceDock(w)->isVisible();
            if (traceShown && !traceWasShown) ++traceShown_;
            traceWasShown = traceShown;
            QString v;
            if (!w.isVisible() || lastWindowClosed_)
                v = QStringLiteral("the main window is gone (visible %1, last window closed %2)")
                        .arg(w.isVisible())
                        .arg(lastWindowClosed_);
            else if (!quitFailure_.isEmpty())
                v = QStringLiteral("cancelled quit: ") + std::exchange(quitFailure_, QString());
            else
                v = violation(w);
            if (!v.isEmpty() || !qtWarnings().isEmpty()) {
                const QString last =
                    log.mid(std::max<qsizetype>(0, log.size() - 12)).join(QStringLiteral("\n  "));
                QFAIL(qPrintable(
                    QStringLiteral("seed %1, step %2 (%3): %4\nlast steps:\n  %5")
                        .arg(seed)
                        .arg(i)
                        .arg(what, v.isEmpty() ? qtWarnings().join(QLatin1Char('\n')) : v, last)));
            }
        }
        qInfo("%d monkey steps from seed %u in %.1f s, invariant held after each; checked: grid "
              "%d, hovered cell %d, highlight %d, bank totals %d, trace counts %d, trace diffs "
              "%d; grid pans %d, separator drags %d, panels opened %d",
              steps, seed, clock.elapsed() / 1000.0, checkedGrid_, checkedHover_, checkedHighlight_,
              checkedBank_, checkedTraceStatus_, checkedTraceDiff_, pans_, separatorDrags_,
              panelsOpened_);
        // Every part of the invariant had something to check, and the drags moved things: a
        // run where one never applied would pass without having looked.
        QVERIFY(checkedGrid_ > 0);
        QVERIFY(checkedHover_ > 0);
        QVERIFY(checkedHighlight_ > 0);
        QVERIFY(checkedBank_ > 0);
        QVERIFY(checkedTraceStatus_ > 0);
        QVERIFY(checkedTraceDiff_ > 0);
        QVERIFY(pans_ > 0);
        QVERIFY(separatorDrags_ > 0);
        QVERIFY(panelsOpened_ > 0);
        qInfo("docks (mix %s): arrangement changed by %d steps, Inference Trace came on screen %d "
              "times (%d by the storm's View > Panels step), the report's arrangement %d times, "
              "quits cancelled in Save As %d",
              docksMix_ ? "docks" : "default", dockChanges_, traceShown_, traceFromMenu_,
              reportArrangements_, quitsCancelled_);
        if (docksMix_) {
            QVERIFY(traceFromMenu_ > 0);
            QVERIFY(reportArrangements_ > 0);
            QVERIFY(quitsCancelled_ > 0);
        }
        qInfo("screen audit: layout names on labels %d, highlight revisions %d, exports compared "
              "%d, refused %d, Run panels after New/Open %d, renames %d",
              checkedNames_, checkedHighlightRevision_, checkedExports_, refusedExports_,
              checkedRunReset_, renames_);
        QVERIFY(checkedNames_ > 0);
        QVERIFY(checkedHighlightRevision_ > 0);
        QVERIFY(checkedExports_ > 0);
        QVERIFY(checkedRunReset_ > 0);
        QVERIFY(renames_ > 0);
        w.close();
    }
};

QTEST_MAIN(TestGuiMonkey)
#include "test_gui_monkey.moc"
