// SPDX-License-Identifier: Apache-2.0
// Compare Layouts' default pair: the active layout and the nearest one of its kind (two
// fragments or two T.Layouts, in any notation), or a reason when there is none.
#include "tilescope/notation/compare_pair.h"

#include <gtest/gtest.h>

namespace {

const char* kFrag = "make_gemm_c_fragment((16, 16), 32)";
const char* kFrag2 =
    "T.Fragment([16, 16], forward_thread_fn=lambda i, j: i * 2 + j // 8, forward_index_fn=lambda "
    "i, j: j % 8)";
const char* kCuteTv = "Shape_MNK: (16,8,16)\nLayoutC_TV: ((4,8),(2,2)):((32,1),(16,8))";
const char* kLayout = "T.Layout([16, 16], lambda i, j: i * 16 + j)";
const char* kSwizzle = "make_full_bank_swizzled_layout((16, 64), \"float16\")";
const char* kBroken = "T.Layout([4, 4], lambda i, j: (j, i) +)";

std::vector<ts::DocLayout> project(std::initializer_list<const char*> texts) {
    std::vector<ts::DocLayout> v;
    int k = 0;
    for (const char* t : texts)
        v.push_back({"layout " + std::to_string(k++), t, {}, {}});
    return v;
}

} // namespace

TEST(ComparePair, TheNearestLayoutOfTheSameKind) {
    // The user's project: two fragments and a T.Layout, the T.Layout between them.
    auto p = project({kFrag, kLayout, kFrag2});
    EXPECT_EQ(ts::nearestComparable(p, 0).index, 2u);
    EXPECT_EQ(ts::nearestComparable(p, 2).index, 0u);
    EXPECT_TRUE(ts::nearestComparable(p, 0).why.empty());
    // The next one before the previous one at the same distance; nearer before farther.
    p = project({kLayout, kFrag, kSwizzle, kFrag2, kLayout});
    EXPECT_EQ(ts::nearestComparable(p, 2).index, 4u); // 0 and 4 are two away
    EXPECT_EQ(ts::nearestComparable(p, 0).index, 2u);
    EXPECT_EQ(ts::nearestComparable(p, 4).index, 2u);
    EXPECT_EQ(ts::nearestComparable(p, 1).index, 3u);
    // Any notation: a CuTe TV layout is a fragment; a text with an error is skipped.
    p = project({kFrag, kBroken, kLayout, kCuteTv});
    EXPECT_EQ(ts::nearestComparable(p, 0).index, 3u);
    EXPECT_EQ(ts::nearestComparable(p, 3).index, 0u);
}

TEST(ComparePair, NoneOfTheSameKindSaysWhy) {
    auto p = project({kFrag, kLayout, kSwizzle});
    p[0].name = "acc";
    const ts::ComparePartner c = ts::nearestComparable(p, 0);
    EXPECT_FALSE(c.index);
    EXPECT_EQ(c.why, "«acc» is the only T.Fragment of this project; a T.Fragment compares cell by "
                     "cell only with another T.Fragment");
    p = project({kLayout, kFrag, kCuteTv});
    EXPECT_FALSE(ts::nearestComparable(p, 0).index);
    EXPECT_NE(ts::nearestComparable(p, 0).why.find("only T.Layout"), std::string::npos);
    p = project({kFrag});
    EXPECT_FALSE(ts::nearestComparable(p, 0).index);
    EXPECT_NE(ts::nearestComparable(p, 0).why.find("one layout"), std::string::npos);
    // The active text does not read: its neighbour, so that the comparison shows the error.
    p = project({kLayout, kBroken, kFrag});
    EXPECT_EQ(ts::nearestComparable(p, 1).index, 2u);
}
