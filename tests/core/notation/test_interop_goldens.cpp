// SPDX-License-Identifier: Apache-2.0
// Every golden layout (TileLang's, CuTe's, Triton's, CATLASS's: all families of
// tests/data/goldens) converted to each notation Tilescope writes, and read back: where a
// conversion is given it must give the same cells, and where it is refused the refusal must say
// why. This is the round trip on layouts no one picked by hand.
#include "golden_files.h"
#include "tilescope/layout/table_json.h"
#include "tilescope/notation/interop.h"
#include "tilescope/notation/mapping.h"
#include "tilescope/support/errors.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <map>
#include <nlohmann/json.hpp>

namespace {

using nlohmann::json;

struct Target {
    const char* name;
    std::string (*convert)(const ts::Mapping&);
};

std::string viaCuTe(const ts::Mapping& m) {
    return ts::toCuTe(m).text;
}
std::string viaLinear(const ts::Mapping& m) {
    return ts::toTritonLinear(m).text;
}
std::string viaTileLang(const ts::Mapping& m) {
    return ts::toTileLangCode(m);
}

} // namespace

TEST(InteropGoldens, EveryGoldenRoundTripsOrIsRefusedWithAReason) {
    const Target targets[] = {{"cute", viaCuTe}, {"linear", viaLinear}, {"tilelang", viaTileLang}};
    // family -> target -> {converted, refused}
    std::map<std::string, std::map<std::string, std::pair<int, int>>> tally;
    std::size_t cases = 0;
    for (const auto& file : tstest::goldenFiles()) {
        const json d = tstest::readGoldenFile(file);
        const std::string family = tstest::goldenFamily(file);
        for (const json& c : d.at("cases")) {
            if (c.contains("tilescope_refused")) continue; // not read here at all
            const std::string spec = c.at("spec");
            ts::Mapping m;
            try {
                m = ts::parseMapping(spec);
            } catch (const std::exception& e) {
                ADD_FAILURE() << family << "/" << c.at("name") << ": " << e.what();
                continue;
            }
            const json cells = ts::tableJson(m).at("cells");
            // A large table is checked once, not three times over (the goldens test has it).
            if (cells.size() > 1024) continue;
            ++cases;
            for (const Target& t : targets) {
                std::string text;
                try {
                    text = t.convert(m);
                } catch (const ts::InputError& e) {
                    EXPECT_GT(std::string(e.what()).size(), 15u)
                        << family << "/" << c.at("name") << " to " << t.name << ": " << e.what();
                    ++tally[family][t.name].second;
                    continue;
                }
                ++tally[family][t.name].first;
                json back;
                try {
                    back = ts::tableJson(ts::parseMapping(text)).at("cells");
                } catch (const std::exception& e) {
                    ADD_FAILURE() << family << "/" << c.at("name") << " to " << t.name
                                  << " does not read back: " << e.what() << "\n"
                                  << text;
                    continue;
                }
                // CuTe and Triton have no replica index, only the threads that hold an
                // element: their round trip keeps each cell's set of threads, in thread order.
                json want = cells;
                if (std::string(t.name) != "tilelang") {
                    for (json* side : {&back, &want})
                        for (json& cell : *side)
                            if (cell.contains("threads"))
                                std::sort(cell["threads"].begin(), cell["threads"].end());
                }
                EXPECT_EQ(back, want) << family << "/" << c.at("name") << " to " << t.name << ":\n"
                                      << text;
            }
        }
    }
    EXPECT_GT(cases, 1000u);
    // The notations that describe these families convert their own layouts back.
    EXPECT_EQ(tally["cute"]["cute"].second, 0) << "a CuTe golden with no exact CuTe form";
    EXPECT_GT(tally["triton"]["linear"].first, 15);
    EXPECT_GT(tally["handwritten"]["tilelang"].first, 50);
    for (const auto& [family, byTarget] : tally)
        for (const auto& [target, n] : byTarget)
            std::printf("%-24s to %-8s converted %4d, refused %4d\n", family.c_str(),
                        target.c_str(), n.first, n.second);
}
