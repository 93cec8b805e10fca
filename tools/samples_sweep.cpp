// SPDX-License-Identifier: Apache-2.0
// Builds the sample-layout sweep for tilescope-probe (tools/samples_sweep.json) from the
// sample projects' layouts and access patterns, through core's prepareRun (access.h plans,
// layout checks). Runs on the CPU; the device only runs the probe over the result.
//   g++ -std=c++20 $(printf -- "-Icore/%s/include " support lang layout notation banks trace
//   device) tools/samples_sweep.cpp \
//     -Wl,--start-group build-run/core/*/libts_*.a -Wl,--end-group -ldl
//   ./a.out samples > tools/samples_sweep.json
#include "tilescope/device/run_prepare.h"
#include "tilescope/notation/document.h"

#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

struct Pattern {
    std::string layoutName, layoutText, dtype, access;
    int vector = 0;
};

int main(int argc, char** argv) {
    const std::string samples = argc > 1 ? argv[1] : "samples";
    auto layoutOf = [&](const std::string& file, const std::string& name) {
        ts::Document d = ts::loadDocumentFile(samples + "/" + file);
        const ts::DocLayout* l = d.find(name);
        if (!l) throw std::runtime_error("no layout '" + name + "' in " + file);
        return l->text;
    };
    const std::string rm3264 = "T.Layout([32, 64], lambda i, j: (i, j))";
    const std::string pad3264 = "T.Layout([32, 64], lambda i, j: i * 72 + j)";
    const std::string sw3264 = layoutOf("swizzles.tilescope.json", "full-bank 128B, 32x64 fp16");
    const std::string sw864 = layoutOf("swizzles.tilescope.json", "full-bank 128B, 8x64 fp16");
    const std::string hb832 = layoutOf("swizzles.tilescope.json", "half-bank 64B, 8x32 fp16");
    const std::string qb816 = layoutOf("swizzles.tilescope.json", "quarter-bank 32B, 8x16 fp16");
    const std::string gemmC =
        layoutOf("gemm_fragments.tilescope.json", "accumulator 32x32, 128 threads");
    const std::string mmaA =
        layoutOf("mma_operand_a.tilescope.json", "1 base: one warp, 16x16 fp16");
    const std::string rm3232 = "T.Layout([32, 32], lambda i, j: (i, j))";
    const std::string pad3232 = "T.Layout([32, 32], lambda i, j: i * 33 + j)";
    const std::string rm1616 = "T.Layout([16, 16], lambda i, j: (i, j))";
    const std::string pad1616 = "T.Layout([16, 16], lambda i, j: i * 24 + j)";
    std::vector<Pattern> ps = {
        // gemm C accumulator fragment (128 threads) reading its fp32 shared tile.
        {"32x32 fp32 row-major", rm3232, "float32", "fragment:" + gemmC},
        {"32x32 fp32 padded pitch 33", pad3232, "float32", "fragment:" + gemmC},
        {"32x32 fp32 row-major", rm3232, "float32", "fragment:" + gemmC, 1},
        {"32x32 fp16 row-major", rm3232, "float16", "fragment:" + gemmC},
        // mma A operand fragment (one warp) on a 16x16 fp16 tile.
        {"16x16 fp16 row-major", rm1616, "float16", "fragment:" + mmaA},
        {"16x16 fp16 padded pitch 24", pad1616, "float16", "fragment:" + mmaA},
        // ldmatrix / stmatrix on unswizzled, padded and full-bank swizzled fp16 tiles.
        {"32x64 fp16 row-major", rm3264, "float16", "ldmatrix:x4"},
        {"32x64 fp16 padded pitch 72", pad3264, "float16", "ldmatrix:x4"},
        {"full-bank 128B, 32x64 fp16", sw3264, "float16", "ldmatrix:x4"},
        {"full-bank 128B, 32x64 fp16", sw3264, "float16", "ldmatrix:x4.trans@16,8"},
        {"32x64 fp16 row-major", rm3264, "float16", "ldmatrix:x2@0,16"},
        {"full-bank 128B, 32x64 fp16", sw3264, "float16", "ldmatrix:x1@8,32"},
        {"32x64 fp16 row-major", rm3264, "float16", "stmatrix:x4"},
        {"full-bank 128B, 32x64 fp16", sw3264, "float16", "stmatrix:x4"},
        {"full-bank 128B, 8x64 fp16", sw864, "float16", "lanes:lambda t: (t % 8, t // 8 * 8)", 8},
        {"half-bank 64B, 8x32 fp16", hb832, "float16", "lanes:lambda t: (t % 8, t // 8 * 8)", 8},
        {"quarter-bank 32B, 8x16 fp16", qb816, "float16", "lanes:lambda t: (t % 8, t // 8 % 2 * 8)",
         8},
        // Column reads with vector widths 4 / 8 / 16 bytes: row-major vs swizzled vs padded.
        {"32x64 fp16 row-major", rm3264, "float16", "lanes:lambda t: (t, 0)", 2},
        {"32x64 fp16 row-major", rm3264, "float16", "lanes:lambda t: (t, 0)", 4},
        {"32x64 fp16 row-major", rm3264, "float16", "lanes:lambda t: (t, 0)", 8},
        {"full-bank 128B, 32x64 fp16", sw3264, "float16", "lanes:lambda t: (t, 0)", 2},
        {"full-bank 128B, 32x64 fp16", sw3264, "float16", "lanes:lambda t: (t, 0)", 4},
        {"full-bank 128B, 32x64 fp16", sw3264, "float16", "lanes:lambda t: (t, 0)", 8},
        {"32x64 fp16 padded pitch 72", pad3264, "float16", "lanes:lambda t: (t, 0)", 2},
        {"32x64 fp16 padded pitch 72", pad3264, "float16", "lanes:lambda t: (t, 0)", 4},
        {"32x64 fp16 padded pitch 72", pad3264, "float16", "lanes:lambda t: (t, 0)", 8},
        // Row reads (consecutive 16-byte chunks) over several instructions.
        {"32x64 fp16 row-major", rm3264, "float16",
         "lanes:lambda t, k: (4 * k + t // 8, t % 8 * 8)", 8},
        {"full-bank 128B, 32x64 fp16", sw3264, "float16",
         "lanes:lambda t, k: (4 * k + t // 8, t % 8 * 8)", 8},
    };
    nlohmann::json sweep = {{"patterns", nlohmann::json::array()}};
    int bad = 0;
    for (const auto& p : ps) {
        ts::AccessOptions ao;
        ao.vector = p.vector;
        try {
            ts::PreparedRun r = ts::prepareRun(p.layoutName, p.layoutText, p.dtype, p.access, ao);
            nlohmann::json q = r.request;
            std::string name = p.layoutName + " | " + p.access;
            if (p.vector)
                name += " | vec " + std::to_string(p.vector * ts::dtypeBytes(p.dtype)) + "B";
            q["name"] = name;
            for (const char* k :
                 {"arch", "compiler", "iterations", "repetitions", "warmup", "timeout_s", "ncu"})
                q.erase(k);
            q["layout"] = p.layoutText;
            q["dtype"] = p.dtype;
            q["access"] = p.access;
            std::fprintf(
                stderr, "%-70s instr %2lld  wf %3lld  excess %3lld\n", name.c_str(),
                (long long)(r.predicted.load_instructions + r.predicted.store_instructions),
                (long long)r.predicted.wavefronts, (long long)r.predicted.excess);
            sweep["patterns"].push_back(q);
        } catch (const std::exception& e) {
            std::fprintf(stderr, "SKIP %s %s: %s\n", p.layoutName.c_str(), p.access.c_str(),
                         e.what());
            ++bad;
        }
    }
    sweep["iterations"] = 4096;
    sweep["repetitions"] = 10;
    sweep["warmup"] = 2;
    std::cout << sweep.dump(1) << "\n";
    return bad ? 1 : 0;
}
