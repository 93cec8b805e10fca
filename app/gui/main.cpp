// tilescope: the desktop explorer.
//   tilescope [PROJECT]                      open a project (default: the default sample)
//   tilescope --screenshot FILE [PROJECT]    render the main window offscreen to FILE and exit
//   tilescope --bench                        keystroke-to-repainted-grid timings, then exit
#include "documentmodel.h"
#include "evaluator.h"
#include "gridview.h"
#include "mainwindow.h"
#include "mappingeditor.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
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
    std::printf("keystroke -> repainted grid (evaluate + model + paint, %dx%d view)\n", view.width(),
                view.height());
    for (int n : {128, 1024}) {
        std::vector<double> ms;
        const int iters = n <= 128 ? 60 : 12;
        for (int k = 0; k < iters; ++k) {
            // Alternate two texts, as a keystroke does (threads 128 <-> 256).
            const QString text = QStringLiteral("make_gemm_c_fragment((%1, %1), %2)").arg(n).arg(k % 2 ? 256 : 128);
            QElapsedTimer t;
            t.start();
            tsw::EvalResult r =
                tsw::LayoutEvaluator::compute(text, tsw::ViewMode::Input, tsw::ColorMode::Thread);
            if (!r.ok) {
                std::fprintf(stderr, "bench: %s\n", qPrintable(r.error));
                return 1;
            }
            view.setModel(r.grid, true);
            view.repaint();
            ms.push_back(t.nsecsElapsed() / 1e6);
        }
        std::sort(ms.begin(), ms.end());
        std::printf("  make_gemm_c_fragment((%d, %d), 128): median %.2f ms, p90 %.2f ms, min %.2f ms "
                    "(%d runs; paint %.2f ms)\n",
                    n, n, ms[ms.size() / 2], ms[ms.size() * 9 / 10], ms.front(), iters, view.lastPaintMs());
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
    QApplication::setApplicationVersion(QStringLiteral("0.1.0"));
    QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));

    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral("Tilescope: an explorer of TileLang GPU tile layouts"));
    p.addHelpOption();
    p.addVersionOption();
    QCommandLineOption shot(QStringLiteral("screenshot"),
                            QStringLiteral("Render the main window offscreen to FILE (PNG) and exit."),
                            QStringLiteral("FILE"));
    QCommandLineOption size(QStringLiteral("size"), QStringLiteral("Window size for --screenshot (WxH)."),
                            QStringLiteral("WxH"), QStringLiteral("1440x900"));
    QCommandLineOption bench(QStringLiteral("bench"), QStringLiteral("Print keystroke-to-grid timings and exit."));
    p.addOption(shot);
    p.addOption(size);
    p.addOption(bench);
    p.addPositionalArgument(QStringLiteral("PROJECT"), QStringLiteral("A .tilescope.json project to open."));
    p.process(app);

    if (p.isSet(bench)) return runBench();

    const bool screenshot = p.isSet(shot);
    if (screenshot) {
        // Deterministic screenshots: no saved panel arrangement, no recovery prompts.
        QSettings::setDefaultFormat(QSettings::IniFormat);
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, QDir::tempPath() + QStringLiteral("/tilescope-shot-settings"));
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

    if (screenshot) {
        w.setConfirmOnClose(false);
        const QStringList wh = p.value(size).split(QLatin1Char('x'));
        if (wh.size() == 2) w.resize(wh[0].toInt(), wh[1].toInt());
        w.show();
        QTimer::singleShot(300, &w, [&] {
            QApplication::processEvents();
            const QString file = p.value(shot);
            const bool ok = w.grab().save(file);
            if (!ok) std::fprintf(stderr, "tilescope: cannot write %s\n", qPrintable(file));
            else std::printf("wrote %s\n", qPrintable(file));
            app.exit(ok ? (opened ? 0 : 2) : 1);
        });
        return app.exec();
    }
    w.show();
    if (!opened && !p.positionalArguments().isEmpty())
        std::fprintf(stderr, "tilescope: %s\n", qPrintable(w.lastError()));
    QTimer::singleShot(0, &w, [&w] { w.offerRecovery(); });
    return app.exec();
}
