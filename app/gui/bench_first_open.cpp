// SPDX-License-Identifier: Apache-2.0
#include "bench_first_open.h"

#include "editor/evaluator.h"
#include "grid/gridmodel.h"

#include "tilescope/notation/mapping.h"

#include <QElapsedTimer>
#include <cstdio>

namespace tsapp {

int benchFirstOpen() {
    // The user's first large fragment: 256 threads, as the README's example writes it.
    const QString text = QStringLiteral("make_gemm_c_fragment((4096, 4096), 256)");
    std::printf("first open in this process, then again (%s, 16M cells)\n", qPrintable(text));
    for (const char* which : {"first", "again"}) {
        // The window's whole evaluation (what its status bar reports as "evaluated in").
        QElapsedTimer t;
        t.start();
        const tsw::EvalResult r =
            tsw::LayoutEvaluator::compute(text, tsw::ViewMode::Input, tsw::ColorMode::Thread);
        const double whole = t.nsecsElapsed() / 1e6;
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
        std::printf("  %s: evaluated in %.0f ms; its stages once more: parse %.0f ms, evaluate "
                    "%.0f ms, repr %.0f ms, grid model %.0f ms\n",
                    which, whole, parseMs, evalMs - parseMs, reprMs - evalMs, modelMs - reprMs);
    }
    return 0;
}

} // namespace tsapp
