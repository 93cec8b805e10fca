// SPDX-License-Identifier: Apache-2.0
// The TileLang path of a device run: a self-contained Python script that uses a shared
// layout through T.annotate_layout (global -> shared -> fragment -> global), lowers it with the
// layout-visualization pass on (so TileLang prints its inferred layouts and any conflict), and,
// when a CUDA device is present, compiles and runs it, checks the round trip and prints latency.
//
// Lines the script prints for tilescope (everything else is TileLang's own log):
//   TILESCOPE_LOWERED <seconds>
//   TILESCOPE_ROUNDTRIP pass|fail
//   TILESCOPE_LATENCY_MS <ms>
//   TILESCOPE_NO_GPU <reason>
//   TILESCOPE_ERROR <message>
// The script is written into a private temporary directory and run with an argument list only
// when the user presses Run; nothing here executes anything by itself.
#pragma once

#include "tilescope/layout/layout.h"

#include <optional>
#include <string>
#include <vector>

namespace ts {

struct TileLangKernelOptions {
    std::string name = "tile";     // used in comments only
    std::string dtype = "float16"; // TileLang dtype name
    int threads = 128;
    std::string target_arch = "sm_80"; // for lowering without a GPU (target dict)
    std::string fragment_code;         // optional T.Fragment(...) annotated on the fragment
    bool run_on_gpu = true;            // compile + run + time when torch sees a CUDA device
    int bench_reps = 100;
};

// `layout` must be a T.Layout (not tabulated); throws InputError otherwise.
std::string generateTileLangKernel(const Layout& layout, const TileLangKernelOptions& opt = {});

struct TileLangRunReport {
    bool lowered = false;
    double lower_seconds = 0;
    std::optional<bool> roundtrip;
    std::optional<double> latency_ms;
    std::string no_gpu;              // reason, when no GPU was used
    std::vector<std::string> errors; // TILESCOPE_ERROR lines and Python tracebacks' last line
};
TileLangRunReport parseTileLangOutput(const std::string& log);

// Python that can import tilelang: $TILESCOPE_PYTHON, then <dir>/.venv/bin/python for each
// given directory, then python3 on PATH. Returns the first candidate for which
// `python -c "import tilelang"` succeeds (run with an argument list and a timeout), or empty
// with *why saying what was tried.
std::string findTileLangPython(const std::vector<std::string>& searchDirs, std::string* why,
                               double timeout_s = 60);

// Where a TileLang file's Python is looked for: the file's folder and every folder above it (a
// project's .venv at its root), then the working directory.
std::vector<std::string> tileLangSearchDirs(const std::string& file);

} // namespace ts
