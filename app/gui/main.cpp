// SPDX-License-Identifier: Apache-2.0
// tilescope: the desktop explorer.
//   tilescope [PROJECT...]                   open projects (default: the default sample); the
//                                            first here, each further one in a window of its own
//   tilescope --screenshot FILE [PROJECT]    render the main window offscreen to FILE and exit
//   tilescope --bench                        keystroke-to-repainted-grid timings, then exit
//   tilescope --text TEXT                    show mapping-language text as a new layout
// While a Tilescope window is open, `tilescope FILE` and `--text` hand the request to it
// (single_instance.h); --new-window opens another window instead.
#include "bench_first_open.h"
#include "common/result_state.h"
#include "document/action_trail.h"
#include "document/crash_report.h"
#include "document/documentmodel.h"
#include "document/recovery.h"
#include "editor/evaluator.h"
#include "editor/mappingeditor.h"
#include "grid/gridview.h"
#include "single_instance.h"
#include "termination.h"
#include "tilescope/notation/mapping.h"
#include "trace/trace_viewer.h"
#include "window/mainwindow.h"

#include <QAction>
#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QIcon>
#include <QImage>
#include <QJsonArray>
#include <QJsonObject>
#include <QMenuBar>
#include <QMessageBox>
#include <QProcess>
#include <QSettings>
#include <QStyleFactory>
#include <QThread>
#include <QTimer>
#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <sys/resource.h>

namespace {

bool wantsOffscreen(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        const QByteArray a(argv[i]);
        if (a == "--") break;
        if (a == "--screenshot" || a.startsWith("--screenshot=") || a == "--bench") return true;
    }
    return false;
}

// --version and --help print and exit: they must work with no display (over SSH, in a container,
// in a script), where the default platform plugin would abort the process.
bool onlyPrints(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        const QByteArray a(argv[i]);
        if (a == "--") break;
        if (a == "-v" || a == "--version" || a == "-h" || a == "--help" || a == "-?" ||
            a == "--help-all")
            return true;
    }
    return false;
}

// Qt warns on stderr when XDG_RUNTIME_DIR is unset (ssh, containers, cron) while it sets up the
// platform; printing --version or --help needs no runtime directory, and no such noise.
void withoutRuntimeDirWarning(QtMsgType type, const QMessageLogContext& context,
                              const QString& message) {
    if (type == QtWarningMsg &&
        message.startsWith(QLatin1String("QStandardPaths: XDG_RUNTIME_DIR not set")))
        return;
    std::fprintf(stderr, "%s\n", qPrintable(qFormatLogMessage(type, context, message)));
}

// Each project after the first opens in a window of its own (`tilescope --new-window FILE`, a
// process as --new-window makes it), so that `tilescope a b` and a file manager's "open with"
// on several files (Exec=tilescope %F) drop none of them.
void openInNewWindows(const QStringList& projects) {
    for (const QString& file : projects) {
        qint64 pid = 0;
        if (QProcess::startDetached(QCoreApplication::applicationFilePath(),
                                    {QStringLiteral("--new-window"), QStringLiteral("--"), file},
                                    QString(), &pid))
            std::printf("tilescope: opening %s in a new window (process %lld)\n", qPrintable(file),
                        static_cast<long long>(pid));
        else
            std::fprintf(stderr, "tilescope: cannot start a window for %s\n", qPrintable(file));
    }
    std::fflush(stdout);
}

// The largest drawable grid: open (evaluate + model + first paint at fit, the overview), then
// zoom and pan frames, each a full synchronous paint of the view.
int runLargeGridBench(tsw::GridView& view, QImage& target) {
    const QString text = QStringLiteral("make_gemm_c_fragment((4096, 4096), 128)");
    QElapsedTimer t;
    t.start();
    tsw::EvalResult r =
        tsw::LayoutEvaluator::compute(text, tsw::ViewMode::Input, tsw::ColorMode::Thread);
    if (!r.ok) {
        std::fprintf(stderr, "bench: %s\n", qPrintable(r.error));
        return 1;
    }
    const double evalMs = t.nsecsElapsed() / 1e6;
    view.setModel(r.grid, false);
    view.render(&target);
    const double openMs = t.nsecsElapsed() / 1e6;
    std::printf("  %s (16M cells): open %.0f ms (parse+evaluate+model %.0f ms, first paint "
                "%.0f ms)\n",
                qPrintable(text), openMs, evalMs, openMs - evalMs);
    // Input at 60 Hz, as a wheel or a drag delivers it: each frame is a full synchronous paint,
    // then the rest of its 16.7 ms passes with the event loop running (results of background
    // work, such as overviews built off the UI thread, arrive there as they would in use).
    auto frames = [&](const char* what, int n, const std::function<void(int)>& step) {
        std::vector<double> ms;
        for (int k = 0; k < n; ++k) {
            QElapsedTimer f;
            f.start();
            step(k);
            view.render(&target);
            ms.push_back(f.nsecsElapsed() / 1e6);
            const qint64 left = 16667 - f.nsecsElapsed() / 1000;
            if (left > 0) QThread::usleep(static_cast<unsigned long>(left));
            QCoreApplication::processEvents();
        }
        std::sort(ms.begin(), ms.end());
        std::printf("    %s: %d frames, median %.2f ms, p90 %.2f ms, max %.2f ms\n", what, n,
                    ms[ms.size() / 2], ms[ms.size() * 9 / 10], ms.back());
    };
    const QPointF centre(view.width() / 2.0, view.height() / 2.0);
    // 1.25x per wheel step: fit (an 8x8-cell overview) down to labelled cells and back.
    frames("zoom in (wheel steps of 1.25x)", 40, [&](int) { view.zoomBy(1.25, centre); });
    frames("pan at high zoom (120 px steps)", 40, [&](int k) {
        view.setViewTransform(view.scale(), view.pan() + QPointF(k % 2 ? 120 : -60, 90));
    });
    frames("zoom out", 40, [&](int) { view.zoomBy(1 / 1.25, centre); });
    view.zoomToFit();
    frames("pan at fit (overview)", 40, [&](int k) {
        view.setViewTransform(view.scale(), view.pan() + QPointF(k % 2 ? 120 : -120, 60));
    });
    struct rusage ru {};
    getrusage(RUSAGE_SELF, &ru);
    std::printf("  peak RSS %.0f MB\n", ru.ru_maxrss / 1024.0);
    {
        // Where an open's time goes, stage by stage (after the open above, which
        // met the memory fresh; these stages reuse it).
        QElapsedTimer s;
        s.start();
        const ts::Mapping m = ts::parseMapping(text.toStdString());
        const double parseMs = s.nsecsElapsed() / 1e6;
        ts::FragmentTable table = std::get<ts::Fragment>(m).evaluate();
        const double evalMs = s.nsecsElapsed() / 1e6;
        const tsw::GridModel g =
            tsw::GridModel::fromFragment(std::move(table), tsw::ColorMode::Thread);
        const double modelMs = s.nsecsElapsed() / 1e6;
        std::printf("  stages: parse %.0f ms, evaluate %.0f ms, model %.0f ms\n", parseMs,
                    evalMs - parseMs, modelMs - evalMs);
    }

    return 0;
}

// Keystroke to repainted grid: text edit -> evaluate -> model -> synchronous repaint.
int runBench() {
    // First: this process has evaluated nothing yet.
    if (tsapp::benchFirstOpen() != 0) return 1;
    tsw::GridView view;
    view.resize(1100, 800);
    view.show();
    QImage target(view.size(), QImage::Format_RGB32);
    std::printf("keystroke -> repainted grid (evaluate + model + paint, %dx%d view)\n",
                view.width(), view.height());
    for (int n : {128, 1024}) {
        std::vector<double> ms, evalMs, paintMs;
        const int iters = n <= 128 ? 60 : 12;
        for (int k = 0; k < iters; ++k) {
            // Alternate two texts, as a keystroke does (threads 128 <-> 256).
            const QString text =
                QStringLiteral("make_gemm_c_fragment((%1, %1), %2)").arg(n).arg(k % 2 ? 256 : 128);
            QElapsedTimer t;
            t.start();
            tsw::EvalResult r =
                tsw::LayoutEvaluator::compute(text, tsw::ViewMode::Input, tsw::ColorMode::Thread);
            if (!r.ok) {
                std::fprintf(stderr, "bench: %s\n", qPrintable(r.error));
                return 1;
            }
            evalMs.push_back(t.nsecsElapsed() / 1e6);
            view.setModel(r.grid, true);
            view.render(&target); // a full synchronous paint of the view
            ms.push_back(t.nsecsElapsed() / 1e6);
            paintMs.push_back(view.lastPaintMs());
        }
        for (auto* v : {&ms, &evalMs, &paintMs})
            std::sort(v->begin(), v->end());
        std::printf(
            "  make_gemm_c_fragment((%d, %d), 128|256): median %.2f ms, p90 %.2f ms, min %.2f ms "
            "(%d runs; median parse+evaluate+model %.2f ms, paint %.2f ms)\n",
            n, n, ms[ms.size() / 2], ms[ms.size() * 9 / 10], ms.front(), iters,
            evalMs[evalMs.size() / 2], paintMs[paintMs.size() / 2]);
    }
    return runLargeGridBench(view, target);
}

QJsonObject failure(const QString& error) {
    return {{QStringLiteral("ok"), false}, {QStringLiteral("error"), error}};
}

// A request from another `tilescope` or the Python bridge (single_instance.h has the protocol).
QJsonObject handleInstanceRequest(tsw::MainWindow& w, const QJsonObject& r) {
    QJsonObject ok{{QStringLiteral("ok"), true}};
    if (r.contains(QStringLiteral("open"))) {
        const QString path = r.value(QStringLiteral("open")).toString();
        if (!QFileInfo::exists(path)) return failure(QStringLiteral("no such file: %1").arg(path));
        if (w.document()->isDirty()) {
            // Never drop unsaved edits: the window asks first, after this answer.
            QTimer::singleShot(0, &w, [&w, path] { w.openFileAskingToSave(path); });
            ok.insert(QStringLiteral("note"), QStringLiteral("asking to save changes first"));
        } else if (!w.openFile(path)) {
            return failure(w.lastError());
        }
    } else if (r.contains(QStringLiteral("text"))) {
        const QString text = r.value(QStringLiteral("text")).toString();
        if (text.trimmed().isEmpty()) return failure(QStringLiteral("empty layout text"));
        QString name = r.value(QStringLiteral("name")).toString();
        if (name.isEmpty()) name = QStringLiteral("layout");
        ok.insert(QStringLiteral("layout"), w.document()->receiveLayout(name, text));
    } else if (r.contains(QStringLiteral("trace"))) {
        // A log to show in the Trace panel (the Python bridge's trace() writes it as TileLang
        // compiles); "follow" keeps reading it as it grows.
        const QString path = r.value(QStringLiteral("trace")).toString();
        if (!QFileInfo(path).isFile()) return failure(QStringLiteral("no such log: %1").arg(path));
        w.openTraceLog(QFileInfo(path).absoluteFilePath(),
                       r.value(QStringLiteral("follow")).toBool());
    } else if (r.contains(QStringLiteral("status"))) {
        QJsonArray names;
        for (int i = 0; i < w.document()->count(); ++i)
            names.append(QString::fromStdString(w.document()->layout(i).name));
        ok.insert(QStringLiteral("file"), w.document()->filePath());
        ok.insert(QStringLiteral("layouts"), names);
        ok.insert(QStringLiteral("active"), w.document()->active());
        if (w.document()->count() > 0)
            ok.insert(QStringLiteral("text"),
                      QString::fromStdString(w.document()->layout(w.document()->active()).text));
        const tsw::TraceViewer* tv = w.traceViewer();
        ok.insert(QStringLiteral("trace"),
                  QJsonObject{{QStringLiteral("source"), tv->importer()->source()},
                              {QStringLiteral("following"),
                               tv->importer()->state() == tsw::TraceImporter::State::Following},
                              {QStringLiteral("events"), tv->model()->eventCount()},
                              {QStringLiteral("visible"), tv->isVisible()}});
        return ok; // a query: the window stays where it is
    } else if (!r.contains(QStringLiteral("raise"))) {
        return failure(
            QStringLiteral("unknown request (expected open, text, trace, status or raise)"));
    }
    w.setWindowState(w.windowState() & ~Qt::WindowMinimized);
    w.show();
    w.raise();
    w.activateWindow();
    return ok;
}

} // namespace

int main(int argc, char** argv) {
    if (onlyPrints(argc, argv)) {
        qputenv("QT_QPA_PLATFORM", "offscreen"); // nothing is shown, whatever the session
        qInstallMessageHandler(withoutRuntimeDirWarning);
    } else if (wantsOffscreen(argc, argv) && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("Tilescope"));
    QApplication::setApplicationName(QStringLiteral("Tilescope"));
    QApplication::setApplicationVersion(QStringLiteral(TILESCOPE_VERSION));
    QApplication::setDesktopFileName(QStringLiteral(TILESCOPE_APP_ID));
    QApplication::setWindowIcon(
        QIcon(QStringLiteral(":/tilescope/resources/icons/" TILESCOPE_APP_ID ".svg")));
    QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));

    QCommandLineParser p;
    p.setApplicationDescription(
        QStringLiteral("Tilescope: an explorer of TileLang GPU tile layouts"));
    p.addHelpOption();
    p.addVersionOption();
    QCommandLineOption shot(
        QStringLiteral("screenshot"),
        QStringLiteral("Render the main window offscreen to FILE (PNG) and exit."),
        QStringLiteral("FILE"));
    QCommandLineOption size(QStringLiteral("size"),
                            QStringLiteral("Window size for --screenshot (WxH)."),
                            QStringLiteral("WxH"), QStringLiteral("1440x900"));
    QCommandLineOption bench(QStringLiteral("bench"),
                             QStringLiteral("Print keystroke-to-grid timings and exit."));
    p.addOption(shot);
    p.addOption(size);
    p.addOption(bench);
    QCommandLineOption layoutOpt(QStringLiteral("layout"),
                                 QStringLiteral("Show this layout of the project (name or index)."),
                                 QStringLiteral("NAME"));
    p.addOption(layoutOpt);
    QCommandLineOption textOpt(
        QStringLiteral("text"),
        QStringLiteral("Show this mapping-language text (a T.Layout or T.Fragment, or TileLang's "
                       "printed repr of one) as a new layout."),
        QStringLiteral("TEXT"));
    p.addOption(textOpt);
    // Qt on X11 takes -name/--name for itself (the X resource name) before this parser sees it,
    // so --layout-name is the spelling that works everywhere; --name stays for other platforms.
    QCommandLineOption nameOpt({QStringLiteral("layout-name"), QStringLiteral("name")},
                               QStringLiteral("The layout's name for --text."),
                               QStringLiteral("NAME"), QStringLiteral("from the command line"));
    p.addOption(nameOpt);
    QCommandLineOption traceOpt(
        QStringLiteral("trace"),
        QStringLiteral("Open this TileLang compiler log in the Trace panel."),
        QStringLiteral("LOG"));
    p.addOption(traceOpt);
    QCommandLineOption followOpt(QStringLiteral("follow"),
                                 QStringLiteral("With --trace: keep reading the log as it grows."));
    p.addOption(followOpt);
    QCommandLineOption newWindow(
        QStringLiteral("new-window"),
        QStringLiteral("Open a new window even when Tilescope is already running."));
    p.addOption(newWindow);
    p.addPositionalArgument(QStringLiteral("PROJECT"),
                            QStringLiteral("A .tilescope.json project to open; each further one "
                                           "opens in a new window."),
                            QStringLiteral("[PROJECT...]"));
    p.process(app);

    if (p.isSet(bench)) return runBench();

    const bool screenshot = p.isSet(shot);
    if (screenshot) {
        // Deterministic screenshots: no saved panel arrangement, no recovery prompts.
        QSettings::setDefaultFormat(QSettings::IniFormat);
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope,
                           QDir::tempPath() + QStringLiteral("/tilescope-shot-settings"));
        qputenv("TILESCOPE_NO_DIALOGS", "1");
    }

    QStringList projects = p.positionalArguments();
    for (QString& f : projects)
        if (!f.startsWith(QLatin1Char(':'))) f = QFileInfo(f).absoluteFilePath();
    if (screenshot && projects.size() > 1) {
        std::fprintf(stderr, "tilescope: --screenshot takes one PROJECT, not %lld\n",
                     static_cast<long long>(projects.size()));
        return 2;
    }
    QString project = projects.value(0);
    const QStringList furtherProjects = projects.mid(1);
    const bool single = !screenshot && !p.isSet(newWindow) && tsapp::singleInstanceWanted();
    if (single) {
        QJsonObject request{{QStringLiteral("raise"), true}};
        if (p.isSet(textOpt))
            request = {{QStringLiteral("text"), p.value(textOpt)},
                       {QStringLiteral("name"), p.value(nameOpt)}};
        else if (!project.isEmpty())
            request = {{QStringLiteral("open"), project}};
        else if (p.isSet(traceOpt))
            request = {{QStringLiteral("trace"), QFileInfo(p.value(traceOpt)).absoluteFilePath()},
                       {QStringLiteral("follow"), p.isSet(followOpt)}};
        QJsonObject reply;
        if (tsapp::sendToRunningInstance(request, &reply)) {
            if (reply.value(QStringLiteral("ok")).toBool()) {
                std::printf("tilescope: handed to the running window\n");
                openInNewWindows(furtherProjects);
                return 0;
            }
            std::fprintf(stderr, "tilescope: %s\n",
                         qPrintable(reply.value(QStringLiteral("error")).toString()));
            return 2;
        }
    }

    // A crash leaves a report next to the autosave (the next start offers both), naming what
    // the user did last: the menu bar's commands, clicked or by shortcut.
    if (!tsw::crash::install(tsw::RecoveryManager::directory(), QStringLiteral(TILESCOPE_VERSION)))
        std::fprintf(stderr, "tilescope: cannot create %s: no crash report will be written\n",
                     qPrintable(tsw::RecoveryManager::directory()));
    tsw::MainWindow w;
    tsw::trailMenuActions(w.menuBar());
    // SIGTERM is a normal end, not a crash (termination.h): the session ends without asking and
    // leaves no recovery file. exit() rather than quit(): quit() would close the window, whose
    // close event asks about unsaved changes; exit() also ends a modal dialog's loop that runs.
    QString termError;
    if (!tsapp::onTerminationSignal(
            &w,
            [&w] {
                w.endSession();
                QCoreApplication::exit(0);
            },
            &termError))
        std::fprintf(stderr, "tilescope: %s\n", qPrintable(termError));
    if (project.isEmpty() && !p.isSet(textOpt)) {
        const QString dir = tsw::MainWindow::samplesDirectory();
        if (!dir.isEmpty() && QFileInfo::exists(dir + QStringLiteral("/default.tilescope.json")))
            project = dir + QStringLiteral("/default.tilescope.json");
    }
    // Shown before a project is opened, so that an error dialog about it (window-modal, a child
    // of this window) is mapped above the window rather than under it; a screenshot is shown
    // once its size is set, below.
    if (!screenshot) w.show();
    bool opened = true;
    if (!project.isEmpty()) opened = w.openFile(project);
    if (!screenshot) openInNewWindows(furtherProjects);
    if (p.isSet(textOpt)) {
        // A fresh document holds one placeholder layout: the text replaces it.
        const bool fresh = project.isEmpty() && w.document()->count() == 1;
        w.document()->receiveLayout(p.value(nameOpt), p.value(textOpt), fresh ? 0 : -1);
    }
    if (p.isSet(traceOpt))
        w.openTraceLog(QFileInfo(p.value(traceOpt)).absoluteFilePath(), p.isSet(followOpt));
    if (p.isSet(layoutOpt)) {
        const QString want = p.value(layoutOpt);
        bool isIndex = false;
        const int ix = want.toInt(&isIndex);
        for (int i = 0; i < w.document()->count(); ++i)
            if ((isIndex && i == ix) ||
                QString::fromStdString(w.document()->layout(i).name) == want)
                w.document()->setActive(i);
    }

    if (screenshot) {
        w.setConfirmOnClose(false);
        const QStringList wh = p.value(size).split(QLatin1Char('x'));
        if (wh.size() == 2) w.resize(wh[0].toInt(), wh[1].toInt());
        w.show();
        QTimer::singleShot(300, &w, [&] {
            QApplication::processEvents();
            const QString file = p.value(shot);
            const bool ok = w.grab().save(file);
            if (!ok)
                std::fprintf(stderr, "tilescope: cannot write %s\n", qPrintable(file));
            else
                std::printf("wrote %s (project %s)\n", qPrintable(file),
                            qPrintable(w.document()->filePath()));
            app.exit(ok ? (opened ? 0 : 2) : 1);
        });
        return app.exec();
    }
    std::unique_ptr<tsapp::InstanceServer> server;
    if (single) {
        server = std::make_unique<tsapp::InstanceServer>(
            [&w](const QJsonObject& r) { return handleInstanceRequest(w, r); });
        QString err;
        if (!server->listen(&err)) std::fprintf(stderr, "tilescope: %s\n", qPrintable(err));
    }
    if (!opened && !p.positionalArguments().isEmpty())
        std::fprintf(stderr, "tilescope: %s\n", qPrintable(w.lastError()));
    // Test hooks (tests/gui/test_recovery_kill.cpp), so a script can drive the crash-recovery
    // path without dialogs: TILESCOPE_RECOVERY_ANSWER=recover|discard answers the recovery prompt
    // (printing "nothing to recover" when no prompt would be shown);
    // TILESCOPE_TEST_EDIT=TEXT replaces the active layout's text once started (an undoable edit).
    const QByteArray answer = qgetenv("TILESCOPE_RECOVERY_ANSWER");
    QTimer::singleShot(0, &w, [&w, answer] {
        if (answer.isEmpty()) {
            w.offerRecovery();
            // Two dialogs at start-up (the recovery prompt, then the project's error): once the
            // first is answered, the one still open comes to the front, never left behind the
            // window it blocks.
            for (QMessageBox* box : w.findChildren<QMessageBox*>())
                if (box->isVisible()) {
                    box->raise();
                    box->activateWindow();
                }
            return;
        }
        // Crash reports are offered with the recovery prompt: listed here, not shown.
        for (const tsw::crash::Report& r : tsw::crash::pending(tsw::RecoveryManager::directory()))
            std::printf("tilescope: crash report %s\n", qPrintable(r.file));
        const QList<tsw::RecoveryEntry> entries = tsw::RecoveryManager::pending();
        if (entries.isEmpty()) {
            std::printf("tilescope: nothing to recover\n");
            std::fflush(stdout);
            return;
        }
        if (answer == "recover" && w.recoverFrom(entries.first()))
            std::printf("tilescope: recovered %s\n", qPrintable(entries.first().file));
        else if (answer == "discard")
            for (const auto& e : entries)
                tsw::RecoveryManager::discard(e);
        std::fflush(stdout);
    });
    // TILESCOPE_TEST_CRASH=segv|abort (tests/gui/test_crash_report.cpp): once started, trigger
    // the menu bar's actions named in TILESCOPE_TEST_ACTIONS (texts without '&', ';' between),
    // as a user's clicks would, then die of that signal.
    if (qEnvironmentVariableIsSet("TILESCOPE_TEST_CRASH"))
        QTimer::singleShot(500, &w, [&w] {
            const QStringList wanted = qEnvironmentVariable("TILESCOPE_TEST_ACTIONS")
                                           .split(QLatin1Char(';'), Qt::SkipEmptyParts);
            for (const QString& name : wanted)
                for (QAction* a : w.findChildren<QAction*>())
                    if (QString(a->text()).remove(QLatin1Char('&')) == name && !a->menu() &&
                        !a->associatedObjects().isEmpty()) {
                        a->trigger();
                        break;
                    }
            std::printf("tilescope: crashing now\n");
            std::fflush(stdout);
            if (qEnvironmentVariable("TILESCOPE_TEST_CRASH") == QLatin1String("abort"))
                std::abort();
            std::raise(SIGSEGV);
        });
    if (qEnvironmentVariableIsSet("TILESCOPE_TEST_EDIT"))
        QTimer::singleShot(0, &w, [&w] {
            if (w.document()->count() == 0) return;
            w.document()->setText(w.document()->active(),
                                  qEnvironmentVariable("TILESCOPE_TEST_EDIT"));
            std::printf("tilescope: edited layout %d\n", w.document()->active());
            std::fflush(stdout);
        });
    // TILESCOPE_TEST_SAVE_LOOP=EXPORT.png (tests/gui/test_fault_atomicity.cpp): edit and save
    // the project, edit again and autosave, then (once the grid is current) export a PNG, over
    // and over, so that a SIGKILL lands inside the writes.
    if (qEnvironmentVariableIsSet("TILESCOPE_TEST_SAVE_LOOP")) {
        static const auto announce = [](const char* what, int k) {
            std::printf("tilescope: %s %d\n", what, k);
            std::fflush(stdout);
        };
        auto* loop = new QTimer(&w);
        QObject::connect(loop, &QTimer::timeout, &w, [&w, k = 0, phase = 0]() mutable {
            tsw::DocumentModel* doc = w.document();
            if (doc->count() == 0 || doc->filePath().isEmpty()) return;
            if (phase == 0) {
                ++k;
                // About 300 KB per save (3000 comment lines: one line that long would make the
                // editor's layout, not the save, the slow part).
                QString text =
                    QStringLiteral("T.Layout([4, 8], lambda i, j: (j, i))  # fault-%1").arg(k);
                const QString line =
                    QStringLiteral("\n# ") + QString(96, QLatin1Char('0' + k % 10));
                for (int n = 0; n < 3000; ++n)
                    text += line;
                doc->setText(doc->active(), text);
                // Each write is announced before it starts, so that the test knows which one a
                // kill interrupted (the announcement without its result).
                announce("saving", k);
                std::printf("tilescope: saved %d %s\n", k,
                            w.saveFile(doc->filePath()) ? "ok" : "failed");
                phase = 1;
            } else if (phase == 1) {
                doc->setText(doc->active(),
                             QString::fromStdString(doc->activeLayout()->text) + QLatin1Char(' '));
                announce("autosaving", k);
                std::printf("tilescope: autosaved %d %d\n", k, int(w.recovery()->autosaveNow()));
                phase = 2;
            } else {
                if (w.gridState()->state() != tsw::ResultState::State::Current) return;
                announce("exporting", k);
                std::printf("tilescope: exported %d %d\n", k,
                            int(w.exportView(qEnvironmentVariable("TILESCOPE_TEST_SAVE_LOOP"), 4)));
                phase = 0;
            }
            std::fflush(stdout);
        });
        loop->start(0);
    }
    return app.exec();
}
