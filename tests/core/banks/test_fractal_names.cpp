// SPDX-License-Identifier: Apache-2.0
// Fractal names in both conventions (CATLASS zN/nZ, tilelang-ascend NZ/ZN), never one read as the
// other, and the tilelang-ascend code each arrangement is exported as.
#include "tilescope/banks/fractal.h"
#include "tilescope/notation/mapping.h"
#include "tilescope/support/errors.h"

#include <gtest/gtest.h>

using namespace ts;

TEST(FractalNames, BothConventionsUnambiguous) {
    EXPECT_EQ(parseFractalKind("zN"), FractalKind::zN);
    EXPECT_EQ(parseFractalKind("NZ"), FractalKind::zN); // tilelang-ascend "NZ" is CATLASS zN
    EXPECT_EQ(parseFractalKind("nZ"), FractalKind::nZ);
    EXPECT_EQ(parseFractalKind("ZN"), FractalKind::nZ);
    EXPECT_EQ(parseFractalKind("zZ"), FractalKind::zZ);
    EXPECT_EQ(parseFractalKind("ZZ"), FractalKind::zZ);
    EXPECT_EQ(parseFractalKind("l0c"), FractalKind::L0C);
    EXPECT_EQ(parseFractalKind("zN (NZ)"), FractalKind::zN); // the panel's labels
    EXPECT_EQ(parseFractalKind("nZ (ZN)"), FractalKind::nZ);
    for (const char* amb : {"nz", "zn", "Nz", "Zn"}) {
        try {
            parseFractalKind(amb);
            ADD_FAILURE() << amb << " accepted";
        } catch (const InputError& e) {
            EXPECT_NE(std::string(e.what()).find("ambiguous"), std::string::npos) << e.what();
        }
    }
    EXPECT_THROW(parseFractalKind("zq"), InputError);
    for (FractalKind k : {FractalKind::zN, FractalKind::nZ, FractalKind::zZ, FractalKind::L0C}) {
        EXPECT_EQ(parseFractalKind(fractalKindName(k)), k);
        EXPECT_EQ(parseFractalKind(fractalKindAscendName(k)), k);
        EXPECT_EQ(parseFractalKind(fractalKindLabel(k)), k);
    }
    EXPECT_EQ(fractalKindLabel(FractalKind::zN), "zN (NZ)");
    EXPECT_EQ(fractalKindLabel(FractalKind::nZ), "nZ (ZN)");
    // "NZ" previews the layout ND2NZ produces in L1: element (0, 16) of a float16 tile sits in
    // the second C0 column block, after all row fractals of the first.
    EXPECT_EQ(fractalView(parseFractalKind("NZ"), 32, 32, "float16").offset[16], 2 * 256);
}

TEST(FractalNames, CopyAsTileLangAscend) {
    const std::string zn = ascendFractalCode(FractalKind::zN, 32, 64, "float16");
    EXPECT_NE(zn.find("from tilelang.intrinsics import make_zn_layout"), std::string::npos);
    EXPECT_NE(zn.find("T.annotate_layout({buf: make_zn_layout(buf)})"), std::string::npos);
    EXPECT_NE(zn.find("T.alloc_L1((32, 64), \"float16\")"), std::string::npos);
    EXPECT_NE(zn.find("\"NZ\""), std::string::npos);
    const std::string nz = ascendFractalCode(FractalKind::nZ, 32, 64, "float16");
    EXPECT_NE(nz.find("make_nz_layout(buf)"), std::string::npos);
    EXPECT_NE(nz.find("\"ZN\""), std::string::npos);
    const std::string zz = ascendFractalCode(FractalKind::zZ, 32, 64, "int8");
    EXPECT_NE(zz.find("T.Layout("), std::string::npos);
    EXPECT_NE(zz.find(", layout_tag=3)"), std::string::npos) << zz;
    // The tagged layout is the zZ formula: strip the tag and it parses to the same table.
    std::string body = zz.substr(zz.find("T.Layout("));
    body.erase(body.find(", layout_tag=3"), 14);
    while (!body.empty() && (body.back() == '\n' || body.back() == ' '))
        body.pop_back();
    EXPECT_EQ(std::get<Layout>(parseMapping(body)).evaluate().out,
              std::get<Layout>(parseMapping("make_zz_layout((32, 64), \"int8\")")).evaluate().out)
        << body;
    const std::string l0c = ascendFractalCode(FractalKind::L0C, 32, 32, "float32");
    EXPECT_NE(l0c.find("no L0C layout tag"), std::string::npos);
    EXPECT_EQ(l0c.find("layout_tag="), std::string::npos);
}
