// The bank model as it is now against what Nsight Compute measured on an H200
// (data/h200/*.json, docs/measurements.md): every recorded pattern's wavefronts per instruction,
// in the one-warp-per-SM pass where the counters are exact. A model change that breaks agreement
// with the hardware fails here, without a GPU.
#include "tilescope/access.h"
#include "tilescope/mapping.h"
#include "tilescope/subprocess.h"

#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <nlohmann/json.hpp>

namespace {

nlohmann::json load(const std::string& rel) {
    std::ifstream in(std::string(TILESCOPE_SOURCE_DIR) + "/" + rel);
    EXPECT_TRUE(in.good()) << rel;
    return nlohmann::json::parse(in);
}

// name -> wavefronts per instruction that ncu measured with one warp per SM
std::map<std::string, double> measured(const std::string& rel) {
    std::map<std::string, double> m;
    const nlohmann::json data = load(rel); // named: a range-for over load(rel)[...] would dangle
    for (const auto& p : data["patterns"]) {
        EXPECT_TRUE(p["ncu_1warp"]["exact"].get<bool>()) << p["name"];
        m[p["name"]] = p["ncu_1warp"]["measured_wavefronts_per_instruction"].get<double>();
    }
    return m;
}

} // namespace

TEST(H200Agreement, BuiltinSweepMatchesNcu) {
    const auto ncu = measured("data/h200/sweep.json");
    ASSERT_EQ(ncu.size(), 39u);
    ts::ProcessResult r = ts::runProcess({TILESCOPE_PROBE, "--list-sweep"}, "", 30);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const nlohmann::json listed = nlohmann::json::parse(r.out);
    int compared = 0;
    for (const auto& p : listed["patterns"]) {
        const std::string name = p["name"];
        const auto it = ncu.find(name);
        ASSERT_NE(it, ncu.end()) << "no H200 measurement for '" << name << "'";
        const double perInstruction =
            p["predicted_wavefronts"].get<double>() / p["instructions"].get<double>();
        EXPECT_DOUBLE_EQ(perInstruction, it->second) << name;
        ++compared;
    }
    EXPECT_EQ(compared, int(ncu.size()));
}

TEST(H200Agreement, SampleAccessesMatchNcu) {
    // The path the app and `tilescope-cli banks` take (layout text -> tile -> access -> model)
    // must rebuild exactly the plan that ran on the GPU, and predict what ncu counted.
    const auto ncu = measured("data/h200/samples_sweep.json");
    ASSERT_EQ(ncu.size(), 28u);
    const nlohmann::json samples = load("tools/samples_sweep.json");
    int compared = 0;
    for (const auto& p : samples["patterns"]) {
        const std::string name = p["name"];
        const auto it = ncu.find(name);
        ASSERT_NE(it, ncu.end()) << "no H200 measurement for '" << name << "'";
        const auto layout = std::get<ts::Layout>(ts::parseMapping(p["layout"].get<std::string>()));
        const ts::SharedTile tile(layout, p["dtype"].get<std::string>());
        ts::AccessOptions opt;
        if (name.find(" | vec ") != std::string::npos) // a forced vector width: bytes per lane
            opt.vector = p["plan"]["instructions"][0]["bytes"].get<int>() / tile.elementBytes();
        const ts::SharedAccess a = ts::buildAccess(tile, p["access"].get<std::string>(), opt);
        nlohmann::json rebuilt;
        ts::toJson(rebuilt, a.plan);
        EXPECT_EQ(rebuilt, p["plan"]) << name;
        const ts::PlanCost c = ts::analyzePlan(a.plan);
        EXPECT_DOUBLE_EQ(double(c.wavefronts) / double(a.plan.instructions.size()), it->second)
            << name;
        ++compared;
    }
    EXPECT_EQ(compared, int(ncu.size()));
}
