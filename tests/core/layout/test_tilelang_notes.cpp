// SPDX-License-Identifier: Apache-2.0
// What TileLang itself would do with a mapping that its cells do not show travels with the
// mapping as a note: an inverse TileLang refuses to build, a T.gemm fragment on threads the block
// does not have. tests/data/tilelang_inverse.json holds layouts whose inverse the real TileLang
// was asked to build (tools/inverse_sweep.py).
#include "tilescope/layout/table_json.h"
#include "tilescope/notation/mapping.h"
#include "tilescope/support/errors.h"

#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace {

std::string joinedNotes(const ts::Mapping& m) {
    std::string s;
    for (const std::string& n : ts::mappingNotes(m))
        s += n + "\n";
    return s;
}

TEST(TileLangNotes, AFragmentOnThreadsTheBlockLacksSaysSo) {
    // gfx942: 64x96 on 192 threads (3 wavefronts) is partitioned 3x1 and rows 48-63 land on a
    // fourth wavefront, threads 192-255, as TileLang builds it.
    const ts::Mapping m = ts::parseMapping("make_mfma_c_fragment((64, 96), threads=192)");
    EXPECT_EQ(std::get<ts::Fragment>(m).evaluate().threadExtent, 256);
    const std::string notes = joinedNotes(m);
    EXPECT_NE(notes.find("this fragment uses threads 192-255, beyond the block's 192"),
              std::string::npos)
        << notes;
    EXPECT_NE(ts::tableJson(m, true).dump().find("threads the kernel does not have"),
              std::string::npos);
    // A partition that fits says nothing.
    EXPECT_EQ(joinedNotes(ts::parseMapping("make_mfma_c_fragment((64, 64), threads=256)")), "");
    EXPECT_EQ(joinedNotes(ts::parseMapping("make_gemm_c_fragment((64, 64), 128)")), "");
    // A note belongs to the mapping it was made on: a derived one starts without it.
    EXPECT_EQ(
        joinedNotes(ts::parseMapping("make_mfma_c_fragment((64, 96), threads=192).repeat([2, 1])")),
        "");
}

TEST(TileLangNotes, AnInverseTileLangRefusesIsShownWithTheReason) {
    const ts::Mapping swz =
        ts::parseMapping("make_mma_swizzle_layout((32, 64), \"float16\").inverse()");
    const std::string notes = joinedNotes(swz);
    EXPECT_NE(notes.find("TileLang would not build this inverse"), std::string::npos) << notes;
    EXPECT_NE(notes.find("^"), std::string::npos) << notes; // names the xor it cannot represent
    EXPECT_EQ(joinedNotes(ts::parseMapping("T.Layout([8, 8], lambda i, j: j * 8 + i).inverse()")),
              "");
    EXPECT_EQ(joinedNotes(ts::parseMapping("T.Layout([8, 8], lambda i, j: j * 8 + i)")), "");
}

// Every layout of the sweep: where TileLang builds the inverse, Tilescope gives it with no note;
// where TileLang raises, Tilescope notes it or refuses it too (a layout that is not bijective).
TEST(TileLangNotes, InverseNotesAgreeWithTheRealTileLang) {
    std::ifstream in(std::string(TILESCOPE_SOURCE_DIR) + "/tests/data/tilelang_inverse.json");
    ASSERT_TRUE(in) << "tests/data/tilelang_inverse.json";
    const nlohmann::json doc = nlohmann::json::parse(in);
    int builds = 0, notes = 0, refuses = 0;
    for (const auto& c : doc.at("cases")) {
        const std::string text = c.at("text").get<std::string>() + ".inverse()";
        const bool tileLangBuilds = c.at("tilelang_builds_inverse").get<bool>();
        try {
            const ts::Mapping m = ts::parseMapping(text);
            const bool noted = !ts::mappingNotes(m).empty();
            EXPECT_EQ(noted, !tileLangBuilds)
                << text << "\nTileLang: " << c.at("tilelang_message").get<std::string>()
                << "\nTilescope's notes: " << joinedNotes(m);
            (noted ? notes : builds)++;
        } catch (const std::runtime_error& e) {
            EXPECT_FALSE(tileLangBuilds) << text << ": TileLang builds it, Tilescope: " << e.what();
            ++refuses;
        }
    }
    // The sweep covers every outcome.
    EXPECT_GT(builds, 50);
    EXPECT_GT(notes, 50);
    EXPECT_GT(refuses, 10);
}

} // namespace
