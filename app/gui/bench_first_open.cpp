// SPDX-License-Identifier: Apache-2.0
#include "bench_first_open.h"

#include "editor/evaluator.h"
#include "grid/gridmodel.h"

#include "tilescope/notation/mapping.h"

#include <QElapsedTimer>
#include <cstdio>
#include <sys/resource.h>

namespace tsapp {

namespace {
// CPU time of the whole process (every thread), in ms: on a loaded VM wall time waits for cores.
double cpuMs() {
    struct rusage ru {};
    getrusage(RUSAGE_SELF, &ru);
    return (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
           (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
}
} // namespace

int benchFirstOpen() {
    // The user's first large fragment: 256 threads, as the README's example writes it.
    const QString text = QStringLiteral("make_gemm_c_fragment((4096, 4096), 256)");
    std::printf("first open in this process, then again (%s, 16M cells)\n", qPrintable(text));
    for (const char* which : {"first", "again"}) {
        // The window's whole evaluation (what its status bar reports as "evaluated in").
        QElapsedTimer t;
        t.start();
        const double cpu0 = cpuMs();
        const tsw::EvalResult r =
            tsw::LayoutEvaluator::compute(text, tsw::ViewMode::Input, tsw::ColorMode::Thread);
        const double whole = t.nsecsElapsed() / 1e6, cpu = cpuMs() - cpu0;
        if (!r.ok) {
            std::fprintf(stderr, "bench: %s\n", qPrintable(r.error));
            return 1;
        }
        // The same stages one by one (the result above is still held, as the grid holds it).
        QElapsedTimer s;
        s.start();
        const ts::Mapping m = ts::parseMapping(text.toStdString());
        const double parseMs = s.nsecsElapsed() / 1e6;
        ts::FragmentTable table = std::get<ts::Fragment>(m).evaluate();
        const double evalMs = s.nsecsElapsed() / 1e6;
        (void)ts::tilelangRepr(std::get<ts::Fragment>(m), table);
        const double reprMs = s.nsecsElapsed() / 1e6;
        const tsw::GridModel g =
            tsw::GridModel::fromFragment(std::move(table), tsw::ColorMode::Thread);
        const double modelMs = s.nsecsElapsed() / 1e6;
        std::printf("  %s: evaluated in %.0f ms (%.0f ms CPU); its stages once more: parse %.0f "
                    "ms, evaluate %.0f ms, repr %.0f ms, grid model %.0f ms\n",
                    which, whole, cpu, parseMs, evalMs - parseMs, reprMs - evalMs,
                    modelMs - reprMs);
    }
    return 0;
}

} // namespace tsapp
