// `render`: a mapping drawn to PNG/SVG/PDF (or a text table) by the GUI's own grid renderer.
// Built only with TILESCOPE_GUI; runs headless (QT_QPA_PLATFORM=offscreen unless set).
#include "../cli.h"

#include "grid/gridrenderer.h"

#include "tilescope/notation/document.h"
#include "tilescope/notation/mapping.h"
#include "tilescope/support/errors.h"

#include <QFileInfo>
#include <QGuiApplication>
#include <algorithm>
#include <cmath>
#include <iostream>

namespace {

constexpr double kDefaultGridPx = 2048;

const char* kUsage = "render SPEC -o FILE [--view input|output] [--color thread|warp|slot|replica] "
                     "[--cell PX (default 40; smaller for PNGs over 51 x 51)] [--scale S] "
                     "[--no-legend] [--no-title]";

int render(const std::vector<std::string>& args) {
    return cli::reportError([&] {
        std::string spec, out, view = "input", color = "thread";
        double cell = 0, scale = 1; // cell 0: chosen from the grid's size
        bool legend = true, title = true;
        auto need = [&](std::size_t& k) -> const std::string& {
            if (k + 1 >= args.size())
                throw ts::InputError("option " + args[k] + " needs a value (usage: " + kUsage +
                                     ")");
            return args[++k];
        };
        auto number = [&](const std::string& opt, const std::string& v, double lo, double hi) {
            try {
                std::size_t used = 0;
                const double d = std::stod(v, &used);
                if (used == v.size() && d >= lo && d <= hi) return d;
            } catch (...) {
            }
            throw ts::InputError("option " + opt + " expects a number in [" + std::to_string(lo) +
                                 ", " + std::to_string(hi) + "], got '" + v + "'");
        };
        for (std::size_t k = 0; k < args.size(); ++k) {
            const std::string& a = args[k];
            if (a == "-o" || a == "--output")
                out = need(k);
            else if (a == "--view")
                view = need(k);
            else if (a == "--color" || a == "--colour")
                color = need(k);
            else if (a == "--cell")
                cell = number(a, need(k), 2, 400);
            else if (a == "--scale")
                scale = number(a, need(k), 0.05, 16);
            else if (a == "--no-legend")
                legend = false;
            else if (a == "--no-title")
                title = false;
            else if (spec.empty() && (a.size() < 2 || a.rfind("--", 0) != 0))
                spec = a;
            else
                throw ts::InputError("unexpected argument '" + a + "' (usage: " + kUsage + ")");
        }
        if (spec.empty()) throw ts::InputError(std::string("missing SPEC (usage: ") + kUsage + ")");
        if (out.empty())
            throw ts::InputError(std::string("missing -o FILE (usage: ") + kUsage + ")");
        if (view != "input" && view != "output" && view != "in" && view != "out")
            throw ts::InputError("unknown --view '" + view + "' (input or output)");
        if (color != "thread" && color != "warp" && color != "slot" && color != "replica")
            throw ts::InputError("unknown --color '" + color + "' (thread, warp, slot, replica)");
        const QString ext = QFileInfo(QString::fromStdString(out)).suffix().toLower();
        if (!QStringList{"png", "svg", "pdf", "txt", "tsv", "jpg", "jpeg", "bmp"}.contains(ext))
            throw ts::InputError("cannot tell the format of '" + out +
                                 "' (use .png, .svg, .pdf or .txt)");

        const ts::Mapping m = ts::parseMapping(ts::resolveSpecText(spec));
        // Said on stderr whatever the output shows (a --no-title image has no subtitle).
        cli::warnSlotCollisions(m);
        const tsw::GridModel grid = tsw::GridModel::fromMapping(m, tsw::viewModeFromString(view),
                                                                tsw::colorModeFromString(color));
        if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
        static int argc = 1;
        static char name[] = "tilescope-cli";
        static char* argv[] = {name, nullptr};
        QGuiApplication app(argc, argv);
        tsw::GridRenderer::Style style;
        // Default: 40 px cells (labels comfortably legible); bitmaps of large grids get smaller
        // cells so the grid stays within about kDefaultGridPx on its longer side: a 512 x 512
        // fragment is a 4-megapixel PNG (its legend says when the labels no longer fit), not
        // 120 megapixels. --cell and --scale still give any size.
        const bool bitmap = ext != "svg" && ext != "pdf";
        if (cell <= 0 && !bitmap) cell = 40; // vector: labels are in the file, zoom to read
        if (cell <= 0)
            cell = std::clamp(
                std::floor(kDefaultGridPx / std::max(1, std::max(grid.rows(), grid.cols()))), 2.0,
                40.0);
        style.cell = cell;
        style.legendInScene = legend;
        style.title = title;
        tsw::GridRenderer r(grid, style);
        QString err;
        if (!r.exportFile(QString::fromStdString(out), &err, scale)) {
            std::cerr << "tilescope-cli: error: " << err.toStdString() << "\n";
            return cli::kBadInput;
        }
        return cli::kOk;
    });
}

cli::Register reg({"render", kUsage,
                   "draw the grid (T<thread>/L<slot> labels, colours as in the GUI) to PNG, SVG, "
                   "PDF or a text table; format from the extension",
                   render});

} // namespace
