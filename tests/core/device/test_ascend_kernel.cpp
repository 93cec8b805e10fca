// SPDX-License-Identifier: Apache-2.0
// The tilelang-ascend round-trip kernels: shapes and dtypes from the run spec, only the data
// paths A2/A3 has, only API names the released branch defines, and (where the PyPI ascendnpu-ir
// wheel is installed in .venv-ascend) the npuir route's HIVM IR pushed through the real
// bishengir-compile up to the step that needs CANN.
#include "tilescope/device/ascend_kernel.h"
#include "tilescope/device/subprocess.h"
#include "tilescope/support/errors.h"

#include <gtest/gtest.h>

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
    EXPECT_EQ(t.k, 8);
    EXPECT_EQ(t.n, 16); // L0B's N rounds up to 16 even when C0 = 8
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
    const std::string i4 = ts::generateAscendNdToNzKernel({16, 70, "int4"});
    EXPECT_NE(i4.find("C0 = 64"), std::string::npos);
    EXPECT_NE(i4.find("DTYPE, ACCUM = \"int4\", \"int32\""), std::string::npos);
}

TEST(AscendKernel, ReleasedScriptUsesOnlyLegalDataPathsAndReleasedNames) {
    for (const char* dt : {"float16", "bfloat16", "float32", "int8", "int4"}) {
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

TEST(AscendKernel, NpuirScriptStoresL0CBothWaysAndRefusesIntegerAccumulators) {
    ts::AscendKernelOptions o{100, 60, "float16", ts::AscendBackend::Npuir};
    const std::string s = ts::generateAscendNdToNzKernel(o);
    EXPECT_NE(s.find("target=\"npuir\""), std::string::npos);
    EXPECT_NE(s.find("with T.Scope(\"Cube\"):"), std::string::npos);
    EXPECT_NE(s.find("enable_nz2nd=True"), std::string::npos);
    EXPECT_NE(s.find("enable_nz2nd=False"), std::string::npos);
    EXPECT_NE(s.find("TILESCOPE_L0C_ORDER"), std::string::npos);
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
    // The HIVM IR carries the same tile as the script.
    const std::string ir = ts::ascendNpuirMlir({100, 60, "float16"});
    EXPECT_NE(ir.find("memref<112x64xf16, strided<[64, 1]>, #hivm.address_space<cbuf>>"),
              std::string::npos);
    EXPECT_NE(ir.find("hivm.hir.fixpipe {enable_nz2nd}"), std::string::npos);
    EXPECT_EQ(ir.find("memref.copy"), std::string::npos);
    EXPECT_NE(ts::ascendNpuirMlir({100, 60, "float16"}, true).find("memref.copy %a1, %A"),
              std::string::npos);
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
        for (auto [r, c] : {std::pair{100, 60}, {16, 16}, {33, 7}, {1, 1}, {64, 128}}) {
            SCOPED_TRACE(std::string(dt) + " " + std::to_string(r) + "x" + std::to_string(c));
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
    EXPECT_EQ(runs, 30);
    fs::remove_all(dir);
}
#endif
