// SPDX-License-Identifier: Apache-2.0
// The boundary between `tilescope-cli render` and its Qt module (tilescope-render-qt), which the
// CLI loads with dlopen only for what needs Qt's painter (SVG, PDF, JPEG, BMP, and PNGs the raster
// picture does not draw: cells under a pixel, images over the pixel limit). Plain C so that
// nothing of the CLI's C++ objects crosses it.
#pragma once

#include <cstddef>

extern "C" {

struct TilescopeRenderRequest {
    const char* mappingText; // the mapping language, already resolved from a file if need be
    const char* output;      // path; the format comes from its extension
    const char* view;        // "input" / "output"
    const char* color;       // "thread" / "warp" / "slot" / "replica"
    double cell;             // scene units per cell (> 0)
    double scale;            // device pixels per scene unit
    int legend, title;       // 0 or 1
};

// 0 when written; else 2 (bad input) or 1 (internal), with the message in error.
int tilescope_render_qt(const TilescopeRenderRequest* request, char* error, std::size_t errorSize);

using TilescopeRenderQtFn = int (*)(const TilescopeRenderRequest*, char*, std::size_t);

// The lesson handout (widgets/banks/lesson_handout.h) of the project file `project`, written to
// `output` (a PDF): 0 when written (*pages set), else 2 (bad input: a step whose text has an
// error, named) or 1 (internal), with the message in error.
int tilescope_handout_qt(const char* project, const char* output, int* pages, char* error,
                         std::size_t errorSize);

using TilescopeHandoutQtFn = int (*)(const char*, const char*, int*, char*, std::size_t);
}

// The module's file name, in the CLI's directory in a build and under
// <prefix>/lib/tilescope when installed.
inline constexpr const char* kTilescopeRenderQtModule = "tilescope-render-qt.so";
