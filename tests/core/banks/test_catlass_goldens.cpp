// SPDX-License-Identifier: Apache-2.0
// The CATLASS golden family (tests/data/goldens/catlass.json.gz, compared cell by cell with
// Tilescope by tests/golden) really is CATLASS's output: where the ascend-catlass-dsl wheel is in
// .venv-ascend, its headers are compiled with the generator's host program and every committed
// case must be reproduced exactly.
#include <gtest/gtest.h>

#ifdef TILESCOPE_CATLASS_INCLUDE
#include "golden_files.h"
#include "tilescope/device/subprocess.h"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <unistd.h>

namespace fs = std::filesystem;

TEST(CatlassGoldens, RegeneratedFromTheHeadersMatchTheCommittedFile) {
    std::string dir = (fs::temp_directory_path() / "tilescope-catlass-XXXXXX").string();
    ASSERT_NE(::mkdtemp(dir.data()), nullptr);
    const std::string src =
        std::string(TILESCOPE_SOURCE_DIR) + "/tools/catlass_goldens/catlass_offsets.cpp";
    auto build = ts::runProcess({TILESCOPE_HOST_CXX, "-std=c++17", "-O1",
                                 std::string("-I") + TILESCOPE_CATLASS_INCLUDE, src, "-o",
                                 dir + "/catlass_offsets"},
                                {}, 300);
    ASSERT_EQ(build.exit_code, 0) << build.err.substr(0, 3000);
    auto run = ts::runProcess({dir + "/catlass_offsets"}, {}, 120);
    ASSERT_EQ(run.exit_code, 0) << run.err; // it also stops when two CATLASS codes disagree
    const nlohmann::json fresh = nlohmann::json::parse(run.out);
    const nlohmann::json committed = tstest::readGolden("catlass");
    ASSERT_EQ(fresh.size(), committed.at("cases").size());
    std::size_t cells = 0;
    for (std::size_t k = 0; k < fresh.size(); ++k) {
        const auto& a = fresh[k];
        const auto& b = committed["cases"][k];
        EXPECT_EQ(a.at("name"), b.at("name"));
        EXPECT_EQ(a.at("spec"), b.at("spec"));
        EXPECT_EQ(a.at("table").at("cells"), b.at("table").at("cells")) << a.at("name");
        cells += a.at("table").at("cells").size();
    }
    EXPECT_GT(cells, 100000u);
    fs::remove_all(dir);
}
#endif
