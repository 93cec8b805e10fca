// SPDX-License-Identifier: Apache-2.0
// `render`: a mapping drawn to PNG/SVG/PDF (or a text table). PNGs and text are made here with
// no Qt GUI library (grid_raster.h, the core's PNG encoder); the rest, and PNGs the raster
// picture does not draw, go to the GUI's renderer in the tilescope-render-qt module, loaded
// only then (qt_module.h). Built only with TILESCOPE_GUI.
#include "../cli.h"
#include "render/qt_module.h"
#include "render/qt_module_loader.h"

#include "grid/grid_raster.h"

#include "tilescope/image/png.h"
#include "tilescope/notation/document.h"
#include "tilescope/notation/mapping.h"
#include "tilescope/support/errors.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <memory>
#include <unistd.h>

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

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
}

// The Qt module's renderer (qt_module_loader.h).
int renderWithQt(const TilescopeRenderRequest& q) {
    auto fn = reinterpret_cast<TilescopeRenderQtFn>(
        cli::requireQtModuleSymbol("tilescope_render_qt", "this format"));
    if (!fn) return cli::kInternal;
    char error[4096] = {};
    const int rc = fn(&q, error, sizeof error);
    if (rc != 0) std::cerr << "tilescope-cli: error: " << error << "\n";
    return rc == 0 ? cli::kOk : rc == 2 ? cli::kBadInput : cli::kInternal;
}

int render(const RenderArgs& a) {
    double cell = a.cell.empty() ? 0 : number("--cell", a.cell, 2, 400); // 0: from the grid's size
    const double scale = a.scale.empty() ? 1 : number("--scale", a.scale, 0.05, 16);
    if (a.view != "input" && a.view != "output" && a.view != "in" && a.view != "out")
        throw ts::InputError("unknown --view '" + a.view + "' (input or output)");
    if (a.color != "thread" && a.color != "warp" && a.color != "slot" && a.color != "replica")
        throw ts::InputError("unknown --color '" + a.color + "' (thread, warp, slot, replica)");
    const std::string ext = lower(std::filesystem::path(a.out).extension().string());
    static const char* kFormats[] = {".png", ".svg", ".pdf",  ".txt",
                                     ".tsv", ".jpg", ".jpeg", ".bmp"};
    if (std::find(std::begin(kFormats), std::end(kFormats), ext) == std::end(kFormats))
        throw ts::InputError("cannot tell the format of '" + a.out +
                             "' (use .png, .svg, .pdf or .txt)");

    const std::string text = ts::resolveSpecText(a.spec);
    const ts::Mapping m = ts::parseMapping(text);
    // Said on stderr whatever the output shows (a --no-title image has no subtitle).
    cli::warnSlotCollisions(m);
    cli::sayNotes(m);
    tsw::GridModel grid = tsw::GridModel::fromMapping(m, tsw::viewModeFromString(a.view),
                                                      tsw::colorModeFromString(a.color));
    grid.setAxisNote(tsw::GridModel::axisNoteFor(text));
    // Default: 40 px cells (labels comfortably legible); bitmaps of large grids get smaller
    // cells so the grid stays within about kDefaultGridPx on its longer side: a 512 x 512
    // fragment is a 4-megapixel PNG (its legend says when the labels no longer fit), not
    // 120 megapixels. --cell and --scale still give any size.
    const bool bitmap = ext != ".svg" && ext != ".pdf";
    if (cell <= 0 && !bitmap) cell = 40; // vector: labels are in the file, zoom to read
    if (cell <= 0)
        cell =
            std::clamp(std::floor(kDefaultGridPx / std::max(1, std::max(grid.rows(), grid.cols()))),
                       2.0, 40.0);

    if (ext == ".txt" || ext == ".tsv") {
        const QByteArray t = grid.toTextTable().toUtf8();
        ts::image::writeFileAtomically(a.out, std::vector<std::uint8_t>(t.begin(), t.end()));
        return cli::kOk;
    }
    if (ext == ".png") {
        std::string whyNot;
        if (auto fonts = tsw::FontRaster::open(&whyNot)) {
            tsw::RasterOptions o;
            o.cell = cell;
            o.scale = scale;
            o.legend = !a.noLegend;
            o.title = !a.noTitle;
            if (auto pic = tsw::GridPicture::plan(grid, o, *fonts, &whyNot)) {
                // Drawn band by band by the encoder's workers, each with its own fonts (a
                // FreeType face is not shared between threads).
                std::vector<std::unique_ptr<tsw::FontRaster>> own(
                    ts::image::pngWorkers(pic->width(), pic->height()));
                own[0] = std::move(fonts);
                const auto png = ts::image::encodePngRows(
                    pic->width(), pic->height(),
                    [&](int y0, int y1, std::uint32_t* out, std::size_t worker) {
                        if (!own[worker]) own[worker] = tsw::FontRaster::open(nullptr);
                        if (!own[worker]) throw ts::InputError("no font for the labels");
                        pic->drawBand(y0, y1, out, *own[worker]);
                    });
                ts::image::writeFileAtomically(a.out, png);
                return cli::kOk;
            }
        }
        // Otherwise the Qt renderer draws it (whyNot says why, for a debugger).
    }
    const TilescopeRenderRequest q{
        text.c_str(), a.out.c_str(), a.view.c_str(),     a.color.c_str(),
        cell,         scale,         a.noLegend ? 0 : 1, a.noTitle ? 0 : 1};
    return renderWithQt(q);
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
