// A seeded monkey on the real main window: it types, deletes, pastes layouts (valid, broken,
// huge, other notations), undoes and redoes, switches layouts, triggers menu actions, opens
// samples, resizes the window, zooms and clicks the grid. After every step, once the evaluation
// has settled, it checks that every number on screen belongs to the current input:
//  - the editor shows the active layout's text;
//  - a current grid is exactly what evaluating that text gives (its title), and the status bar
//    and the details pane describe the same grid; an error state means the text really fails,
//    and the editor's error is that failure's;
//  - a bank panel that shows totals analyses the active layout (or says which text it analyses).
// Any Qt warning (a dangling object, a bad connection, a painter on a dead device) fails it.
// TILESCOPE_MONKEY_STEPS / TILESCOPE_MONKEY_SEED run it longer or from another seed
// (docs/hardening.md); the default is a short seeded run for CI.
#include "test_gui_common.h"

#include "banks/bank_panel.h"
#include "common/result_state.h"
#include "document/documentmodel.h"
#include "editor/evaluator.h"
#include "editor/mappingeditor.h"
#include "grid/gridview.h"
#include "window/detailspane.h"
#include "window/mainwindow.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QElapsedTimer>
#include <QListView>
#include <QMenu>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QtTest>
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

// Actions whose job is a modal dialog, leaving the app, or a child process: not the monkey's.
bool monkeyMayTrigger(const QAction* a) {
    const QString t = a->text();
    if (!a->isEnabled() || a->isSeparator() || a->menu() || t.isEmpty()) return false;
    for (const char* no :
         {"…",      "...",         "Quit",      "Close",  "Exit",         "Open",    "Save",
          "Export", "Print",       "About",     "Run",    "Import",       "Recover", "New Window",
          "Follow", "Full Screen", "Presenter", "Recent", "Clear Recent", "Log"})
        if (t.contains(QString::fromUtf8(no), Qt::CaseInsensitive)) return false;
    return true;
}

} // namespace

class TestGuiMonkey : public QObject {
    Q_OBJECT

    std::mt19937 rng_;
    int pick(int n) { return n <= 1 ? 0 : int(rng_() % unsigned(n)); }

    // Waits until the evaluation of the current text has settled (or a long evaluation is
    // visibly in progress, which is itself a state the views must describe honestly).
    static void settle(MainWindow& w) {
        QElapsedTimer t;
        t.start();
        QTest::qWait(5);
        while (t.elapsed() < 20000) {
            const auto s = w.gridState()->state();
            if (s != ResultState::State::Pending && s != ResultState::State::Stale &&
                !w.editor()->isBusy())
                break;
            QTest::qWait(10);
        }
        QCoreApplication::processEvents();
    }

    // The invariant: what is on screen belongs to the current input.
    static QString violation(MainWindow& w) {
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
        const GridModel& shown = w.gridView()->model();
        const EvalResult want = LayoutEvaluator::compute(
            text, shown.isEmpty() ? ViewMode::Input : shown.viewMode(),
            shown.isEmpty() ? ColorMode::Thread : shown.colorMode(), CancelToken(), nullptr);
        if (state == ResultState::State::Current) {
            if (!want.ok)
                return QStringLiteral("shown as current, but the text fails: ") + want.error;
            if (shown.title() != want.grid.title())
                return QStringLiteral("grid '%1' is not the text's '%2'")
                    .arg(shown.title(), want.grid.title());
            if (!w.statusSummary().contains(shown.title()))
                return QStringLiteral("status bar '%1' does not describe grid '%2'")
                    .arg(w.statusSummary(), shown.title());
            if (w.details()->layoutTitle() != shown.title())
                return QStringLiteral("details pane '%1' does not describe grid '%2'")
                    .arg(w.details()->layoutTitle(), shown.title());
            if (!w.editor()->errorText().isEmpty())
                return QStringLiteral("an error beside a current grid: ") + w.editor()->errorText();
        } else if (state == ResultState::State::Error) {
            if (want.ok) return QStringLiteral("error state, but the text evaluates");
            if (w.editor()->errorText().isEmpty() && !want.tooLarge)
                return QStringLiteral("error state without an error in the editor");
            if (!shown.isEmpty() && !w.gridView()->dimmed())
                return QStringLiteral("a grid under an error is not marked");
            if (w.statusSummary().contains(QStringLiteral("Fragment")) &&
                !w.statusSummary().contains(QStringLiteral("last valid")))
                return QStringLiteral("status bar shows a layout summary under an error: ") +
                       w.statusSummary();
        }
        // A bank panel with totals on screen analyses this layout, or says what it analyses.
        if (auto* bank = w.findChild<BankPanel*>(); bank && bank->isVisible()) {
            const QString totals = bank->totalsText();
            // The line that names what is analysed and the note about the active layout under it
            // (rich text: names are HTML-escaped there).
            const QString source = bank->sourceText() + bank->noteText();
            if (!totals.isEmpty() && !bank->errorText().isEmpty())
                return QStringLiteral("bank totals '%1' beside the error '%2'")
                    .arg(totals, bank->errorText());
            if (!totals.isEmpty() &&
                !source.contains(QString::fromStdString(active->name).toHtmlEscaped()) &&
                !source.contains(QStringLiteral("typed below")))
                return QStringLiteral("bank panel analyses '%1', the active layout is '%2'")
                    .arg(source, QString::fromStdString(active->name));
        }
        return {};
    }

    void step(MainWindow& w, QString* what) {
        CodeEdit* edit = w.editor()->codeEdit();
        GridView* grid = w.gridView();
        switch (pick(12)) {
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
            if (r.isValid() && v->viewport()->rect().contains(r.center()))
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
            const QPoint p(pick(std::max(1, grid->width())), pick(std::max(1, grid->height())));
            const int delta = pick(2) ? 120 : -120;
            *what = QStringLiteral("wheel %1 at %2,%3").arg(delta).arg(p.x()).arg(p.y());
            QWheelEvent ev(p, grid->mapToGlobal(p), {}, {0, delta}, Qt::NoButton,
                           Qt::ControlModifier, Qt::NoScrollPhase, false);
            QApplication::sendEvent(grid, &ev);
            break;
        }
        case 11: { // click a cell
            const QPoint p(pick(std::max(1, grid->width())), pick(std::max(1, grid->height())));
            *what = QStringLiteral("click grid at %1,%2").arg(p.x()).arg(p.y());
            QTest::mouseClick(grid, Qt::LeftButton, {}, p);
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
        MainWindow w;
        w.setConfirmOnClose(false);
        w.resize(1200, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(
            w.openFile(MainWindow::samplesDirectory() + QStringLiteral("/default.tilescope.json")));
        settle(w);
        QStringList log;
        for (int i = 0; i < steps; ++i) {
            QString what = QStringLiteral("(nothing)");
            step(w, &what);
            log << what;
            settle(w);
            const QString v = violation(w);
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
        qInfo("%d monkey steps from seed %u, invariant held after each", steps, seed);
        w.close();
    }
};

QTEST_MAIN(TestGuiMonkey)
#include "test_gui_monkey.moc"
