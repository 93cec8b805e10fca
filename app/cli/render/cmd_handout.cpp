// SPDX-License-Identifier: Apache-2.0
// `handout`: a lesson project's PDF handout, one page per step (docs/teaching.md), as File >
// Export Lesson Handout… writes it; drawn by the Qt module (qt_module.h). Built only with
// TILESCOPE_GUI.
#include "../cli.h"
#include "render/qt_module.h"
#include "render/qt_module_loader.h"

#include "tilescope/support/errors.h"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>

namespace {

struct HandoutArgs {
    std::string project, out;
};

int handout(const HandoutArgs& a) {
    std::string ext = std::filesystem::path(a.out).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char c) { return std::tolower(c); });
    if (ext != ".pdf") throw ts::InputError("a handout is a PDF: name the output .pdf");
    auto fn = reinterpret_cast<TilescopeHandoutQtFn>(
        cli::requireQtModuleSymbol("tilescope_handout_qt", "a handout"));
    if (!fn) return cli::kInternal;
    char error[4096] = {};
    int pages = 0;
    const int rc = fn(a.project.c_str(), a.out.c_str(), &pages, error, sizeof error);
    if (rc != 0) {
        std::cerr << "tilescope-cli: error: " << error << "\n";
        return rc == 2 ? cli::kBadInput : cli::kInternal;
    }
    std::cout << "wrote " << a.out << ": " << pages << (pages == 1 ? " page" : " pages") << "\n";
    return cli::kOk;
}

cli::Run declareHandout(CLI::App& sub) {
    auto a = std::make_shared<HandoutArgs>();
    sub.add_option("PROJECT", a->project, "a project file (.tilescope.json): the lesson")
        ->required();
    sub.add_option("-o,--output", a->out, "the PDF")->required()->type_name("FILE");
    return [a] { return handout(*a); };
}

cli::Register reg({"handout",
                   "write a lesson's handout: a PDF with one page per layout (caption, grid, "
                   "bank heat map or fractal, numbers, mapping), as the GUI's File > Export "
                   "Lesson Handout",
                   declareHandout});

} // namespace
