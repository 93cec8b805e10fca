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
#include <memory>

namespace {

constexpr double kDefaultGridPx = 2048;

struct RenderArgs {
    std::string spec, out, view = "input", color = "thread", cell, scale;
    bool noLegend = false, noTitle = false;
};

double number(const std::string& opt, const std::string& v, double lo, double hi) {
    try {
        std::size_t used = 0;
        const double d = std::stod(v, &used);
        if (used == v.size() && d >= lo && d <= hi) return d;
    } catch (...) {
    }
    throw ts::InputError("option " + opt + " expects a number in [" + std::to_string(lo) + ", " +
                         std::to_string(hi) + "], got '" + v + "'");
}

int render(const RenderArgs& a) {
    const std::string& out = a.out;
    const std::string& view = a.view;
    const std::string& color = a.color;
    const std::string& spec = a.spec;
    double cell = a.cell.empty() ? 0 : number("--cell", a.cell, 2, 400); // 0: from the grid's size
    const double scale = a.scale.empty() ? 1 : number("--scale", a.scale, 0.05, 16);
    const bool legend = !a.noLegend, title = !a.noTitle;
    if (view != "input" && view != "output" && view != "in" && view != "out")
        throw ts::InputError("unknown --view '" + view + "' (input or output)");
    if (color != "thread" && color != "warp" && color != "slot" && color != "replica")
        throw ts::InputError("unknown --color '" + color + "' (thread, warp, slot, replica)");
    const QString ext = QFileInfo(QString::fromStdString(out)).suffix().toLower();
    if (!QStringList{"png", "svg", "pdf", "txt", "tsv", "jpg", "jpeg", "bmp"}.contains(ext))
        throw ts::InputError("cannot tell the format of '" + out +
                             "' (use .png, .svg, .pdf or .txt)");

    const std::string text = ts::resolveSpecText(spec);
    const ts::Mapping m = ts::parseMapping(text);
    // Said on stderr whatever the output shows (a --no-title image has no subtitle).
    cli::warnSlotCollisions(m);
    tsw::GridModel grid = tsw::GridModel::fromMapping(m, tsw::viewModeFromString(view),
                                                      tsw::colorModeFromString(color));
    grid.setAxisNote(tsw::GridModel::axisNoteFor(text));
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
        cell =
            std::clamp(std::floor(kDefaultGridPx / std::max(1, std::max(grid.rows(), grid.cols()))),
                       2.0, 40.0);
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
}

cli::Run declareRender(CLI::App& sub) {
    auto a = std::make_shared<RenderArgs>();
    sub.add_option("SPEC", a->spec, "mapping text or FILE.json[:NAME]")->required();
    sub.add_option("-o,--output", a->out, "the image or table: .png, .svg, .pdf or .txt")
        ->required()
        ->type_name("FILE");
    sub.add_option("--view", a->view, "the input or output grid (default input)")
        ->type_name("input|output");
    sub.add_option("--color,--colour", a->color, "what the colours show (default thread)")
        ->type_name("thread|warp|slot|replica");
    sub.add_option("--cell", a->cell,
                   "cell size in pixels (default 40; smaller for PNGs over 51 x 51)")
        ->type_name("PX");
    sub.add_option("--scale", a->scale, "scale of the whole image (0.05..16)")->type_name("S");
    sub.add_flag("--no-legend", a->noLegend, "leave the legend out");
    sub.add_flag("--no-title", a->noTitle, "leave the title out");
    return [a] { return render(*a); };
}

cli::Register reg({"render",
                   "draw the grid (T<thread>/L<slot> labels, colours as in the GUI) to PNG, SVG, "
                   "PDF or a text table; format from the extension",
                   declareRender});

} // namespace
