// SPDX-License-Identifier: Apache-2.0
// The tilelang-ascend round-trip kernels: shapes and dtypes from the run spec, only the data
// paths A2/A3 has, only API names the released branch defines, and (where the PyPI ascendnpu-ir
// wheel is installed in .venv-ascend) the npuir route's HIVM IR pushed through the real
// bishengir-compile up to the step that needs CANN.
#include "tilescope/device/ascend_kernel.h"
#include "tilescope/device/subprocess.h"
#include "tilescope/support/errors.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <unistd.h>

namespace fs = std::filesystem;

namespace {

// Memory space of every buffer the script names: kernel parameters are GM, T.alloc_X is X.
std::map<std::string, std::string> bufferSpaces(const std::string& script) {
    std::map<std::string, std::string> space;
    const std::regex param(R"((\w+): T\.Tensor\()");
    for (std::sregex_iterator it(script.begin(), script.end(), param), end; it != end; ++it)
        space[(*it)[1]] = "GM";
    const std::regex alloc(R"((\w+) = T\.alloc_(\w+)\()");
    for (std::sregex_iterator it(script.begin(), script.end(), alloc), end; it != end; ++it)
        space[(*it)[1]] = (*it)[2];
    return space;
}

// Every T.copy's (source space, destination space): the leading name of its first two
// top-level arguments (slices such as A[0:ROWS, 0:COLS] contain commas of their own).
std::vector<std::pair<std::string, std::string>> copyPaths(const std::string& script) {
    const auto space = bufferSpaces(script);
    std::vector<std::pair<std::string, std::string>> out;
    for (std::size_t at = script.find("T.copy("); at != std::string::npos;
         at = script.find("T.copy(", at + 1)) {
        std::vector<std::string> args(1);
        int depth = 0;
        for (std::size_t k = at + 7; k < script.size() && depth >= 0; ++k) {
            const char ch = script[k];
            if (ch == '(' || ch == '[') ++depth;
            if (ch == ')' || ch == ']') --depth;
            if (depth == 0 && ch == ',')
                args.emplace_back();
            else if (depth >= 0)
                args.back() += ch;
        }
        EXPECT_GE(args.size(), 2u);
        if (args.size() < 2) continue;
        std::pair<std::string, std::string> names;
        for (int a = 0; a < 2; ++a) {
            std::smatch m;
            std::regex_search(args[std::size_t(a)], m, std::regex(R"(\w+)"));
            const std::string n = m.str();
            EXPECT_TRUE(space.count(n)) << "unknown buffer '" << n << "'";
            (a == 0 ? names.first : names.second) = space.count(n) ? space.at(n) : "?";
        }
        out.push_back(names);
    }
    return out;
}

std::set<std::string> tNames(const std::string& script) {
    std::set<std::string> names;
    const std::regex r(R"(\bT\.(\w+))");
    for (std::sregex_iterator it(script.begin(), script.end(), r), end; it != end; ++it)
        names.insert("T." + (*it)[1].str());
    return names;
}

} // namespace

TEST(AscendKernel, TileFollowsTheRunSpecIncludingInt4) {
    auto t = ts::ascendRoundTripTile({100, 60, "float16"});
    EXPECT_EQ(t.m, 112);
    EXPECT_EQ(t.k, 64);
    EXPECT_EQ(t.n, 64);
    EXPECT_EQ(t.accum, "float32");
    t = ts::ascendRoundTripTile({33, 7, "float32"});
    EXPECT_EQ(t.m, 48);
    // K = 16, not C0 = 8: CATLASS's f32 L1 -> L0A/L0B load3dv2 rounds K up to 16.
    EXPECT_EQ(t.k, 16);
    EXPECT_EQ(t.n, 16);
    for (std::int64_t c = 1; c <= 200; ++c)
        EXPECT_EQ(ts::ascendRoundTripTile({16, c, "float32"}).k % 16, 0) << c;
    t = ts::ascendRoundTripTile({20, 40, "int8"});
    EXPECT_EQ(t.k, 64);
    EXPECT_EQ(t.accum, "int32");
    t = ts::ascendRoundTripTile({16, 70, "int4"});
    EXPECT_EQ(t.k, 128); // C0 = 64 for int4
    EXPECT_EQ(ts::ndToNzShape(16, 70, "int4"), (std::vector<std::int64_t>{2, 1, 16, 64}));
    EXPECT_THROW(ts::ascendRoundTripTile({16, 7, "int4"}), ts::InputError); // odd: not packable
    EXPECT_THROW(ts::ascendRoundTripTile({0, 7, "float16"}), ts::InputError);
    EXPECT_THROW(ts::ascendRoundTripTile({16, 16, "int16"}), ts::InputError); // no mmad type

    const std::string s = ts::generateAscendNdToNzKernel({33, 7, "bfloat16"});
    EXPECT_NE(s.find("ROWS, COLS = 33, 7\n"), std::string::npos);
    EXPECT_NE(s.find("M, K, N = 48, 16, 16"), std::string::npos);
    EXPECT_NE(s.find("DTYPE, ACCUM = \"bfloat16\", \"float32\""), std::string::npos);
    const std::string f32 = ts::generateAscendNdToNzKernel({33, 7, "float32"});
    EXPECT_NE(f32.find("M, K, N = 48, 16, 16"), std::string::npos);
    EXPECT_NE(f32.find("C0 = 8"), std::string::npos); // the NZ preview keeps C0 = 8
}

// int4 on the released route: refused with the adapter's reason, not generated.
// The Run panel's footprint and the run take their tile from one function: the layout's 2-D
// input shape, with the user's dtype, back end and chip.
TEST(AscendKernel, OptionsForALayoutTakeItsInputShapeAndRefuseOthers) {
    const ts::AscendKernelOptions o = ts::ascendKernelOptionsFor(
        "T.Layout([48, 80], lambda i, j: i * 80 + j)", "bfloat16", "npuir", "950");
    EXPECT_EQ(o.rows, 48);
    EXPECT_EQ(o.cols, 80);
    EXPECT_EQ(o.dtype, "bfloat16");
    EXPECT_EQ(o.backend, ts::AscendBackend::Npuir);
    EXPECT_EQ(o.chip, ts::AscendChip::Ascend950);
    // A fragment's input shape is its tile too.
    const ts::AscendKernelOptions f = ts::ascendKernelOptionsFor(
        "T.Fragment([16, 32], forward_thread_fn=lambda i, j: i, forward_index_fn=lambda i, j: j)",
        "float16", "ascendc_pto", "a2a3");
    EXPECT_EQ(f.rows, 16);
    EXPECT_EQ(f.cols, 32);
    auto message = [](const std::string& text, const std::string& backend,
                      const std::string& chip) {
        try {
            ts::ascendKernelOptionsFor(text, "float16", backend, chip);
        } catch (const std::exception& e) { // InputError, or the parser's error
            return std::string(e.what());
        }
        return std::string("(accepted)");
    };
    EXPECT_NE(message("T.Layout([64], lambda i: i)", "ascendc_pto", "a2a3")
                  .find("takes a 2-D tile; this layout's input shape is [64]"),
              std::string::npos);
    EXPECT_NE(message("T.Layout([8, 8], lambda i, j: i * 8 + j)", "cuda", "a2a3"), "(accepted)");
    EXPECT_NE(message("T.Layout([8, 8], lambda i, j: i * 8 + j)", "npuir", "h200"), "(accepted)");
    EXPECT_NE(message("T.Layout([8, 8], lambda i, j: i * 8 +", "npuir", "950"), "(accepted)");
}

TEST(AscendKernel, Int4IsRefusedOnTheReleasedRouteWithTheAdaptersReason) {
    const auto f = ts::ascendFootprint({16, 70, "int4"});
    ASSERT_EQ(f.problems.size(), 1u);
    EXPECT_NE(f.problems[0].find("Buffer dtype mismatch"), std::string::npos);
    EXPECT_NE(f.problems[0].find("cython_wrapper.pyx"), std::string::npos);
    try {
        ts::generateAscendNdToNzKernel({16, 70, "int4"});
        ADD_FAILURE() << "int4 generated on ascendc_pto";
    } catch (const ts::InputError& e) {
        EXPECT_NE(std::string(e.what()).find("getattr(torch, \"int4\")"), std::string::npos);
    }
    // int8, the type the adapter takes, is generated.
    EXPECT_NO_THROW(ts::generateAscendNdToNzKernel({16, 70, "int8"}));
}

// Every buffer the script allocates is counted against the chip, and a tile that does not
// fit is refused naming the buffer and both sizes.
TEST(AscendKernel, FootprintFollowsTheScriptsBuffersAndRefusesWhatDoesNotFit) {
    // 100 x 60 float16 on A2/A3, released: M, K, N = 112, 64, 64.
    auto f = ts::ascendFootprint({100, 60, "float16"});
    ASSERT_TRUE(f.ok());
    std::map<std::string, ts::AscendBufferUse> by;
    for (const auto& b : f.buffers)
        by[b.space] = b;
    ASSERT_EQ(by.size(), 5u);
    EXPECT_EQ(by["L1"].bytes, 112 * 64 * 2 + 64 * 64 * 2);
    EXPECT_EQ(by["L1"].chip_bytes, 512 * 1024);
    EXPECT_EQ(by["L1"].usable_bytes, 524032); // tilelang-ascend's L1 TBuf
    EXPECT_EQ(by["L0A"].bytes, 112 * 64 * 2);
    EXPECT_EQ(by["L0B"].bytes, 64 * 64 * 2);
    EXPECT_EQ(by["L0C"].bytes, 112 * 64 * 4);
    EXPECT_EQ(by["L0C"].chip_bytes, 128 * 1024);
    EXPECT_EQ(by["UB"].bytes, 0);
    EXPECT_EQ(by["UB"].usable_bytes, 196352);
    // The script's allocations are what the footprint counts.
    const std::string s = ts::generateAscendNdToNzKernel({100, 60, "float16"});
    EXPECT_NE(s.find("A_L1 = T.alloc_L1((M, K), DTYPE)"), std::string::npos);
    EXPECT_NE(s.find("I_L1 = T.alloc_L1((K, N), DTYPE)"), std::string::npos);
    EXPECT_NE(s.find("A_L0 = T.alloc_L0A((M, K), DTYPE)"), std::string::npos);
    EXPECT_NE(s.find("I_L0 = T.alloc_L0B((K, N), DTYPE)"), std::string::npos);
    EXPECT_NE(s.find("C_L0 = T.alloc_L0C((M, N), ACCUM)"), std::string::npos);
    EXPECT_EQ(s.find("T.alloc_UB"), std::string::npos);
    EXPECT_NE(s.find("#   L0C 28 KB of 128 KB"), std::string::npos) << s.substr(0, 800);

    // The largest square float16 tile: 176 x 176 (L0C 176*176*4 = 121 KB); 177 pads to 192.
    EXPECT_TRUE(ts::ascendFootprint({176, 176, "float16"}).ok());
    f = ts::ascendFootprint({177, 177, "float16"});
    ASSERT_FALSE(f.ok());
    // M = N = K = 192: L0A and L0B 72 KB > 64 KB, L0C 144 KB > 128 KB.
    ASSERT_EQ(f.problems.size(), 3u);
    EXPECT_EQ(f.problems[0].rfind("L0A needs 72 KB, the chip has 64 KB", 0), 0u) << f.problems[0];
    EXPECT_EQ(f.problems[2].rfind("L0C needs 144 KB, the chip has 128 KB", 0), 0u);
    // The largest squares of the other types, as docs/ascend.md gives them.
    EXPECT_TRUE(ts::ascendFootprint({128, 128, "float32"}).ok()); // L0A exactly 64 KB
    EXPECT_FALSE(ts::ascendFootprint({129, 129, "float32"}).ok());
    EXPECT_TRUE(ts::ascendFootprint({160, 160, "int8"}).ok());  // L0C 100 KB
    EXPECT_FALSE(ts::ascendFootprint({161, 161, "int8"}).ok()); // M 176, N 192: L0C 132 KB
    for (auto be : {ts::AscendBackend::AscendcPto, ts::AscendBackend::Npuir}) {
        EXPECT_TRUE(ts::ascendFootprint({176, 176, "bfloat16", be}).ok());
        EXPECT_FALSE(ts::ascendFootprint({177, 177, "bfloat16", be}).ok());
    }
    // 256 x 256 float16: L0A 128 KB > 64, L0B 128 KB > 64, L0C 256 KB > 128.
    f = ts::ascendFootprint({256, 256, "float16"});
    ASSERT_EQ(f.problems.size(), 3u);
    EXPECT_EQ(f.problems[0].rfind("L0A needs 128 KB, the chip has 64 KB", 0), 0u) << f.problems[0];
    EXPECT_EQ(f.problems[2].rfind("L0C needs 256 KB, the chip has 128 KB", 0), 0u) << f.problems[2];
    EXPECT_NE(f.problems[2].find("CATLASS Arch::AtlasA2"), std::string::npos);
    try {
        ts::generateAscendNdToNzKernel({256, 256, "float16"});
        ADD_FAILURE() << "256 x 256 generated";
    } catch (const ts::InputError& e) {
        EXPECT_NE(std::string(e.what()).find("L0C needs 256 KB, the chip has 128 KB"),
                  std::string::npos);
    }
    // 256 x 160 float16: L0C 160 KB, over A2/A3's 128 KB, within the 950's 256 KB (its L0A,
    // 80 KB, is over 64 KB on both).
    ts::AscendKernelOptions o{256, 160, "float16"};
    f = ts::ascendFootprint(o);
    ASSERT_FALSE(f.ok());
    EXPECT_NE(f.problems.back().find("L0C needs 160 KB, the chip has 128 KB"), std::string::npos)
        << f.problems.back();
    o.chip = ts::AscendChip::Ascend950;
    f = ts::ascendFootprint(o);
    EXPECT_TRUE(std::none_of(f.problems.begin(), f.problems.end(),
                             [](const std::string& p) { return p.rfind("L0C", 0) == 0; }));
    // L1 on the released route: the codegen's 524032-byte buffer, not the chip's 524288.
    // int8 512 x 512 would need L1 256 + 256 KB = 512 KB: over 524032, named with both sizes.
    f = ts::ascendFootprint({512, 512, "int8"});
    bool l1 = false;
    for (const auto& p : f.problems)
        if (p.rfind("L1 needs 512 KB, the chip has 512 KB and tilelang-ascend", 0) == 0) l1 = true;
    EXPECT_TRUE(l1) << f.describe();
    // Every accepted tile of a sweep fits every buffer; every refused one names a buffer.
    int accepted = 0, refused = 0;
    for (const char* dt : {"float16", "bfloat16", "float32", "int8"})
        for (auto be : {ts::AscendBackend::AscendcPto, ts::AscendBackend::Npuir})
            for (auto chip : {ts::AscendChip::A2A3, ts::AscendChip::Ascend950})
                for (std::int64_t r = 1; r <= 400; r += 37)
                    for (std::int64_t c = 1; c <= 400; c += 41) {
                        const auto g = ts::ascendFootprint({r, c, dt, be, chip});
                        bool fits = true;
                        for (const auto& b : g.buffers)
                            fits =
                                fits && b.bytes <= b.usable_bytes && b.usable_bytes <= b.chip_bytes;
                        const bool intOnNpuir =
                            be == ts::AscendBackend::Npuir && std::string(dt) == "int8";
                        EXPECT_EQ(g.ok(), fits && !intOnNpuir) << g.describe();
                        (g.ok() ? accepted : refused)++;
                    }
    EXPECT_GT(accepted, 100);
    EXPECT_GT(refused, 100);
}

TEST(AscendKernel, ReleasedScriptUsesOnlyLegalDataPathsAndReleasedNames) {
    for (const char* dt : {"float16", "bfloat16", "float32", "int8"}) {
        const std::string s = ts::generateAscendNdToNzKernel({100, 60, dt});
        SCOPED_TRACE(dt);
        // The A2/A3 cube core's channels: GM -> L1 (ND2NZ), L1 -> L0A/L0B, L0C -> GM (fixpipe).
        const std::set<std::pair<std::string, std::string>> legal = {
            {"GM", "L1"}, {"L1", "L0A"}, {"L1", "L0B"}, {"L0C", "GM"}};
        const auto paths = copyPaths(s);
        EXPECT_EQ(paths.size(), 5u);
        std::set<std::pair<std::string, std::string>> used;
        for (const auto& p : paths) {
            EXPECT_TRUE(legal.count(p)) << p.first << " -> " << p.second << " does not exist";
            used.insert(p);
        }
        EXPECT_EQ(used, legal); // the round trip uses each of them
        std::set<std::string> released;
        for (const auto& n : ts::ascendReleasedApi())
            released.insert(n.name);
        for (const auto& n : tNames(s))
            EXPECT_TRUE(released.count(n)) << n << " is not in the released API list";
        for (const auto& n : ts::ascendReleasedMissingApi())
            EXPECT_EQ(s.find(n.name + "("), std::string::npos) << n.name << ": " << n.citation;
        EXPECT_NE(s.find("target=\"ascendc\""), std::string::npos);
        EXPECT_NE(s.find("with T.Scope(\"C\"):"), std::string::npos);
        EXPECT_NE(s.find("T.mma(A_L0, I_L0, C_L0, init=True)"), std::string::npos);
        EXPECT_EQ(s.find("target=\"npuir\""), std::string::npos);
    }
    // Every listed name is cited to a released source file and line.
    for (const auto& n : ts::ascendReleasedApi())
        EXPECT_TRUE(std::regex_search(n.citation, std::regex(R"(\.py:\d+)"))) << n.name;
}

TEST(AscendKernel, NpuirScriptStoresL0CAsUpstreamDoesAndRefusesIntegerAccumulators) {
    ts::AscendKernelOptions o{100, 60, "float16", ts::AscendBackend::Npuir};
    const std::string s = ts::generateAscendNdToNzKernel(o);
    EXPECT_NE(s.find("target=\"npuir\""), std::string::npos);
    EXPECT_NE(s.find("with T.Scope(\"Cube\"):"), std::string::npos);
    // Only the form tilelang-ascend's npuir examples use: one store, with nz2nd.
    EXPECT_NE(s.find("T.store_fixpipe(C_L0, C[0, 0], size=[M, N], enable_nz2nd=True)"),
              std::string::npos);
    EXPECT_EQ(s.find("enable_nz2nd=False"), std::string::npos);
    EXPECT_EQ(s.find("TILESCOPE_L0C_ORDER"), std::string::npos);
    EXPECT_NE(s.find("kernel(dev_pad, dev_i, c)"), std::string::npos);
    EXPECT_EQ(s.find("T.copy("), std::string::npos);
    EXPECT_EQ(s.find("T.clear("), std::string::npos);
    o.dtype = "int8";
    try {
        ts::generateAscendNdToNzKernel(o);
        ADD_FAILURE() << "int8 accepted on npuir";
    } catch (const ts::InputError& e) {
        EXPECT_NE(std::string(e.what()).find("ascendc_pto"), std::string::npos) << e.what();
    }
    EXPECT_EQ(ts::parseAscendBackend("npuir"), ts::AscendBackend::Npuir);
    EXPECT_EQ(ts::parseAscendBackend("ascendc_pto"), ts::AscendBackend::AscendcPto);
    EXPECT_THROW(ts::parseAscendBackend("pto2"), ts::InputError);
    // The HIVM IR carries the same tile as the script, inside the npuir codegen's function:
    // FFTS base address, sync-lock and workspace arguments, set_ffts_base_addr, subviews.
    const std::string ir = ts::ascendNpuirMlir({100, 60, "float16"});
    EXPECT_NE(ir.find("memref<112x64xf16, strided<[64, 1]>, #hivm.address_space<cbuf>>"),
              std::string::npos);
    EXPECT_NE(ir.find("@nd2nz_roundtrip(%arg0: i64 {hacc.arg_type = "
                      "#hacc.arg_type<ffts_base_address>}, %arg1: memref<?xi8>, %arg2: "
                      "memref<?xi8>, %a: memref<?xf16, #hivm.address_space<gm>>"),
              std::string::npos);
    EXPECT_NE(ir.find("SyncBlockLockArgIdx = 0 : i64, WorkspaceArgIdx = 1 : i64"),
              std::string::npos);
    EXPECT_NE(ir.find("mix_mode = \"aic\""), std::string::npos);
    EXPECT_NE(ir.find("    hivm.hir.set_ffts_base_addr %arg0\n"), std::string::npos);
    // Whole-buffer regions: the codegen passes the buffers themselves, no subviews.
    EXPECT_EQ(ir.find("memref.subview"), std::string::npos);
    EXPECT_NE(ir.find("hivm.hir.nd2nz {dst_continuous} ins(%A : "), std::string::npos);
    EXPECT_NE(ir.find("hivm.hir.fixpipe {enable_nz2nd, pre_quant"), std::string::npos);
    EXPECT_EQ(std::count(ir.begin(), ir.end(), '\n') > 20, true);
    // One fixpipe only.
    EXPECT_EQ(ir.find("hivm.hir.fixpipe", ir.find("hivm.hir.fixpipe") + 1), std::string::npos);
    EXPECT_EQ(ir.find("memref.copy"), std::string::npos);
    EXPECT_NE(ts::ascendNpuirMlir({100, 60, "float16"}, true).find("memref.copy %a1, %A"),
              std::string::npos);
}

// Both scripts' `T.<name>` calls against what tilelang.language exports at the commit each is
// written for, as tools/tilelang_ascend_api.py derived it from tilelang-ascend's source.
TEST(AscendKernel, ScriptsUseOnlyNamesTilelangAscendExports) {
    for (auto [branch, backend] : {std::pair{"ascendc_pto", ts::AscendBackend::AscendcPto},
                                   std::pair{"npuir", ts::AscendBackend::Npuir}}) {
        SCOPED_TRACE(branch);
        std::ifstream in(std::string(TILESCOPE_SOURCE_DIR) + "/tests/data/tilelang_ascend/" +
                         branch + "_api.json");
        ASSERT_TRUE(in) << "run tools/tilelang_ascend_api.py";
        const nlohmann::json j = nlohmann::json::parse(in);
        // A list refreshed for another commit must come with scripts reviewed for it.
        EXPECT_EQ(j.at("commit").get<std::string>(), ts::ascendTilelangCommit(backend));
        const auto& exports = j.at("exports");
        EXPECT_GT(exports.size(), 100u); // the whole module, not a hand-picked few
        int checked = 0;
        for (const char* dt : {"float16", "bfloat16", "float32", "int8"}) {
            if (backend == ts::AscendBackend::Npuir && std::string(dt) == "int8") continue;
            const std::string s = ts::generateAscendNdToNzKernel({100, 60, dt, backend});
            EXPECT_NE(s.find(ts::ascendTilelangCommit(backend)), std::string::npos);
            for (const auto& n : tNames(s)) {
                EXPECT_TRUE(exports.contains(n.substr(2)))
                    << n << " is not exported by tilelang.language at " << branch << " @ "
                    << j.at("commit").get<std::string>();
                ++checked;
            }
        }
        EXPECT_GE(checked, 24);
        if (backend != ts::AscendBackend::AscendcPto) continue;
        // The cited list agrees with the derived one: same file and line for every T. name,
        // and none of the names said missing is exported.
        for (const auto& n : ts::ascendReleasedApi()) {
            if (n.name.rfind("T.", 0) != 0) continue;
            ASSERT_TRUE(exports.contains(n.name.substr(2))) << n.name;
            const std::string at = exports.at(n.name.substr(2)).get<std::string>();
            const std::string fileLine = at.substr(0, at.find(' '));
            const std::string shortFile = fileLine.substr(fileLine.find("language/") + 9);
            EXPECT_NE(n.citation.find(shortFile), std::string::npos)
                << n.name << ": cited " << n.citation << ", source says " << at;
        }
        for (const auto& n : ts::ascendReleasedMissingApi())
            if (n.name.rfind("T.", 0) == 0)
                EXPECT_FALSE(exports.contains(n.name.substr(2))) << n.name << " is exported";
    }
}

#ifdef TILESCOPE_BISHENGIR
// The real bishengir-compile (PyPI ascendnpu-ir) with the options tilelang-ascend's npuir JIT
// passes: the round trip passes every HIVM pass and stops only where hivmc (CANN) is needed;
// the same kernel plus an L1 -> GM store is rejected by HIVM's legality checks.
TEST(AscendKernel, BishengirAcceptsTheNpuirRouteUpToCann) {
    std::string dir = (fs::temp_directory_path() / "tilescope-hivm-XXXXXX").string();
    ASSERT_NE(::mkdtemp(dir.data()), nullptr);
    const bool haveHivmc = !ts::findOnPath("hivmc").empty();
    int runs = 0;
    for (const char* dt : {"float16", "bfloat16", "float32"})
        for (auto [r, c] : {std::pair{100, 60}, {16, 16}, {33, 7}, {1, 1}, {64, 128}, {176, 176}}) {
            SCOPED_TRACE(std::string(dt) + " " + std::to_string(r) + "x" + std::to_string(c));
            // float32 176 x 176 needs L0A 121 KB: refused before any IR is written.
            if (!ts::ascendFootprint({r, c, dt, ts::AscendBackend::Npuir}).ok()) continue;
            for (bool illegal : {false, true}) {
                const std::string f = dir + "/k.mlir";
                std::ofstream(f) << ts::ascendNpuirMlir({r, c, dt}, illegal);
                auto p = ts::runProcess(
                    ts::bishengirCompileArgs(TILESCOPE_BISHENGIR, f, dir + "/out"), {}, 120);
                ++runs;
                ASSERT_TRUE(p.started) << p.error;
                ASSERT_FALSE(p.timed_out);
                const std::string log = p.out + p.err;
                if (illegal) {
                    EXPECT_NE(p.exit_code, 0);
                    EXPECT_NE(log.find("'hivm.hir.store' op only support store ub to gm"),
                              std::string::npos)
                        << log.substr(0, 2000);
                } else if (haveHivmc) {
                    EXPECT_EQ(p.exit_code, 0) << log.substr(0, 2000);
                } else {
                    // Every bishengir pass ran; the failure is the external CANN compiler.
                    EXPECT_NE(log.find("External hivmc run fails"), std::string::npos)
                        << log.substr(0, 2000);
                    EXPECT_EQ(log.find("error: '"), std::string::npos) << log.substr(0, 2000);
                    EXPECT_LT(p.exit_code, 128) << "bishengir crashed";
                }
            }
        }
    EXPECT_EQ(runs, 34); // 3 dtypes x 6 shapes x 2, less float32 176 x 176
    fs::remove_all(dir);
}
#endif
