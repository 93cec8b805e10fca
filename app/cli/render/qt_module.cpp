// SPDX-License-Identifier: Apache-2.0
// tilescope-render-qt: the GUI's grid renderer behind a C entry point (qt_module.h). Runs
// headless (QT_QPA_PLATFORM=offscreen unless set).
#include "render/qt_module.h"

#include "banks/lesson_handout.h"
#include "grid/gridrenderer.h"

#include "tilescope/notation/document.h"
#include "tilescope/notation/mapping.h"

#include <QGuiApplication>
#include <cstdio>
#include <cstring>
#include <exception>
#include <memory>

namespace {

int fail(int code, const std::string& what, char* error, std::size_t size) {
    if (error && size) {
        std::strncpy(error, what.c_str(), size - 1);
        error[size - 1] = '\0';
    }
    return code;
}

// Qt warns on stderr when XDG_RUNTIME_DIR is unset (containers, CI, su, cron) and uses
// /tmp/runtime-$USER instead; the CLI keeps nothing there, and its stderr is for its own
// diagnostics. Every other message goes where it would have gone.
QtMessageHandler previousHandler = nullptr;

void withoutRuntimeDirWarning(QtMsgType type, const QMessageLogContext& context,
                              const QString& message) {
    if (type == QtWarningMsg &&
        message.startsWith(QLatin1String("QStandardPaths: XDG_RUNTIME_DIR not set")))
        return;
    if (previousHandler)
        previousHandler(type, context, message);
    else
        std::fprintf(stderr, "%s\n", qPrintable(qFormatLogMessage(type, context, message)));
}

// A headless QGuiApplication for painting, unless the process has an application already.
std::unique_ptr<QGuiApplication> ensureApplication() {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    static const bool quiet = [] {
        previousHandler = qInstallMessageHandler(withoutRuntimeDirWarning);
        return true;
    }();
    (void)quiet;
    static int argc = 1;
    static char name[] = "tilescope-cli";
    static char* argv[] = {name, nullptr};
    std::unique_ptr<QGuiApplication> app;
    if (!QCoreApplication::instance()) app = std::make_unique<QGuiApplication>(argc, argv);
    return app;
}

} // namespace

extern "C" __attribute__((visibility("default"))) int tilescope_handout_qt(const char* project,
                                                                           const char* output,
                                                                           int* pages, char* error,
                                                                           std::size_t errorSize) {
    try {
        const ts::Document doc = ts::loadDocumentFile(project);
        std::unique_ptr<QGuiApplication> app = ensureApplication();
        const tsw::HandoutOutcome r = tsw::writeLessonHandout(doc, QString::fromUtf8(output));
        if (!r.ok) return fail(2, r.error.toStdString(), error, errorSize);
        if (pages) *pages = r.pages;
        return 0;
    } catch (const std::exception& e) {
        return fail(2, e.what(), error, errorSize);
    }
}

extern "C" __attribute__((visibility("default"))) int
tilescope_render_qt(const TilescopeRenderRequest* q, char* error, std::size_t errorSize) {
    try {
        const ts::Mapping m = ts::parseMapping(q->mappingText);
        tsw::GridModel grid = tsw::GridModel::fromMapping(m, tsw::viewModeFromString(q->view),
                                                          tsw::colorModeFromString(q->color));
        grid.setAxisNote(tsw::GridModel::axisNoteFor(q->mappingText));
        std::unique_ptr<QGuiApplication> app = ensureApplication();
        tsw::GridRenderer::Style style;
        style.cell = q->cell;
        style.legendInScene = q->legend != 0;
        style.title = q->title != 0;
        style.exportPage = true;
        tsw::GridRenderer r(grid, style);
        QString err;
        if (!r.exportFile(QString::fromUtf8(q->output), &err, q->scale))
            return fail(2, err.toStdString(), error, errorSize);
        return 0;
    } catch (const std::exception& e) {
        return fail(2, e.what(), error, errorSize);
    }
}
