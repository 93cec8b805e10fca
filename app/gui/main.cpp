// tilescope: the desktop explorer.
//   tilescope [PROJECT]                      open a project (default: the default sample)
//   tilescope --screenshot FILE [PROJECT]    render the main window offscreen to FILE and exit
//   tilescope --bench                        keystroke-to-repainted-grid timings, then exit
#include "documentmodel.h"
#include "evaluator.h"
#include "gridview.h"
#include "mainwindow.h"
#include "mappingeditor.h"
#include "recovery.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QIcon>
#include <QImage>
#include <QSettings>
#include <QStyleFactory>
#include <QTimer>
#include <algorithm>
#include <cstdio>

namespace {

bool wantsOffscreen(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        const QByteArray a(argv[i]);
        if (a == "--screenshot" || a.startsWith("--screenshot=") || a == "--bench") return true;
    }
    return false;
}

// Keystroke to repainted grid: text edit -> evaluate -> model -> synchronous repaint.
int runBench() {
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
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    if (wantsOffscreen(argc, argv) && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
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
    p.addPositionalArgument(QStringLiteral("PROJECT"),
                            QStringLiteral("A .tilescope.json project to open."));
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

    tsw::MainWindow w;
    QString project = p.positionalArguments().value(0);
    if (project.isEmpty()) {
        const QString dir = tsw::MainWindow::samplesDirectory();
        if (!dir.isEmpty() && QFileInfo::exists(dir + QStringLiteral("/default.tilescope.json")))
            project = dir + QStringLiteral("/default.tilescope.json");
    }
    bool opened = true;
    if (!project.isEmpty()) opened = w.openFile(project);
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
    w.show();
    if (!opened && !p.positionalArguments().isEmpty())
        std::fprintf(stderr, "tilescope: %s\n", qPrintable(w.lastError()));
    // Test hooks (tests/gui/test_recovery_kill.cpp), so a script can drive the crash-recovery
    // path without dialogs: TILESCOPE_RECOVERY_ANSWER=recover|discard answers the recovery prompt;
    // TILESCOPE_TEST_EDIT=TEXT replaces the active layout's text once started (an undoable edit).
    const QByteArray answer = qgetenv("TILESCOPE_RECOVERY_ANSWER");
    QTimer::singleShot(0, &w, [&w, answer] {
        if (answer.isEmpty()) return w.offerRecovery();
        const QList<tsw::RecoveryEntry> entries = tsw::RecoveryManager::pending();
        if (entries.isEmpty()) return;
        if (answer == "recover" && w.recoverFrom(entries.first()))
            std::printf("tilescope: recovered %s\n", qPrintable(entries.first().file));
        else if (answer == "discard")
            for (const auto& e : entries)
                tsw::RecoveryManager::discard(e);
        std::fflush(stdout);
    });
    if (qEnvironmentVariableIsSet("TILESCOPE_TEST_EDIT"))
        QTimer::singleShot(0, &w, [&w] {
            if (w.document()->count() == 0) return;
            w.document()->setText(w.document()->active(),
                                  qEnvironmentVariable("TILESCOPE_TEST_EDIT"));
            std::printf("tilescope: edited layout %d\n", w.document()->active());
            std::fflush(stdout);
        });
    return app.exec();
}
