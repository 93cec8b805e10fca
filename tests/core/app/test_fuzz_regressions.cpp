// SPDX-License-Identifier: Apache-2.0
// Every reproducer in tests/data/fuzz-regressions/<target>/ goes through the same calls as the
// fuzz target (fuzz/fuzz_<target>.cpp) and must end in success or a documented error.
#include "tilescope/banks/access.h"
#include "tilescope/kernel/kernel_xray.h"
#include "tilescope/notation/document.h"
#include "tilescope/notation/interop.h"
#include "tilescope/notation/mapping.h"
#include "tilescope/support/errors.h"
#include "tilescope/trace/dump.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <iterator>

namespace {

namespace fs = std::filesystem;
const fs::path kDir = fs::path(TILESCOPE_SOURCE_DIR) / "tests/data/fuzz-regressions";

std::string slurp(const fs::path& p) {
    std::ifstream f(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(f), {}};
}

// Runs f; documented errors are fine, anything else escaping fails the test.
template <class F> void clean(const fs::path& file, F&& f) {
    SCOPED_TRACE(file.string());
    try {
        f();
    } catch (const ts::ParseError&) {
    } catch (const ts::EvalError&) {
    } catch (const ts::InputError&) {
    } catch (const ts::DocumentError&) {
    } catch (const std::exception& e) {
        ADD_FAILURE() << "undocumented exception: " << e.what();
    }
}

void runOne(const std::string& target, const fs::path& file) {
    const std::string in = slurp(file);
    if (target == "expr") {
        clean(file, [&] {
            const std::vector<std::string> vars{"_i", "_j", "_k", "_rep", "i", "j", "t"};
            ts::Expr e = ts::parseExpr(in, vars);
            for (auto dialect : {ts::ExprDialect::Printed, ts::ExprDialect::Python})
                EXPECT_TRUE(
                    ts::structurallyEqual(e, ts::parseExpr(ts::printExpr(e), vars, dialect)));
        });
    } else if (target == "mapping") {
        clean(file, [&] {
            ts::Mapping m = ts::parseMapping(in);
            std::visit([](const auto& v) { (void)v.evaluate(); }, m);
            (void)ts::parseMapping(ts::dump::mappingText(m));
        });
    } else if (target == "dump") {
        if (in.size() < 2) return;
        const std::string log = in.substr(2);
        clean(file, [&] {
            ts::dump::Parser p;
            std::size_t events = 0;
            for (std::size_t pos = 0; pos < log.size(); pos += 7)
                events += p.feed(std::string_view(log).substr(pos, 7)).size();
            events += p.finish().size();
            EXPECT_EQ(events, ts::dump::parseText(log).size());
        });
    } else if (target == "document") {
        clean(file, [&] {
            ts::Document d = ts::parseDocument(in, "fuzz.json");
            EXPECT_EQ(d, ts::parseDocument(ts::serializeDocument(d), "fuzz.json"));
        });
    } else if (target == "banks") {
        if (in.size() < 2) return;
        clean(file, [&] {
            ts::Layout l =
                std::get<ts::Layout>(ts::parseMapping("T.Layout([32, 32], lambda i, j: (i, j))"));
            ts::SharedTile t(l, "float16");
            ts::SharedAccess a = ts::buildAccess(t, in.substr(2));
            (void)ts::formatAccessTable(a, ts::analyzePlan(a.plan));
        });
    } else if (target == "notation") {
        clean(file, [&] {
            if (const std::optional<ts::Mapping> m = ts::parseForeignNotation(in))
                std::visit([](const auto& v) { (void)v.inputShape(); }, *m);
        });
    } else if (target == "kernel") {
        clean(file, [&] {
            ts::kernel::XrayOptions opt;
            opt.max_lanes = 1 << 16;
            for (const auto& k : ts::kernel::xrayKernels(in, opt))
                (void)ts::kernel::formatXray(k);
        });
    } else {
        ADD_FAILURE() << "unknown fuzz target directory " << target;
    }
}

TEST(FuzzRegressions, EveryReproducerEndsCleanly) {
    std::size_t n = 0;
    for (const auto& dir : fs::directory_iterator(kDir)) {
        if (!dir.is_directory()) continue;
        for (const auto& f : fs::directory_iterator(dir.path())) {
            runOne(dir.path().filename().string(), f.path());
            ++n;
        }
    }
    EXPECT_GE(n, 1u);
}

} // namespace
