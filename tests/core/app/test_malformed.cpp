// SPDX-License-Identifier: Apache-2.0
// The malformed-input corpus (tests/data/malformed/manifest.json): every input, through
// tilescope-cli (or tilescope-probe for probe requests), exits 2 with the expected message and
// never crashes, hangs or reports an internal error.
#include "tilescope/device/subprocess.h"

#include <fstream>
#include <gtest/gtest.h>
#include <iterator>
#include <nlohmann/json.hpp>
#include <set>

namespace {

const std::string kDir = TILESCOPE_SOURCE_DIR "/tests/data/malformed/";

std::string slurp(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(f), {}};
}

std::vector<std::string> command(const std::string& parser, const std::string& path) {
    const std::string text = slurp(path);
    if (parser == "expr")
        return {TILESCOPE_CLI, "table", "T.Layout([4, 4], lambda i, j: (" + text + ",))"};
    if (parser == "mapping") return {TILESCOPE_CLI, "table", text};
    if (parser == "project") return {TILESCOPE_CLI, "table", path};
    if (parser == "dump") return {TILESCOPE_CLI, "import-dump", path, "--strict"};
    if (parser == "banks")
        return {TILESCOPE_CLI, "banks",   "make_linear_layout((16, 64), \"float16\")",
                "--dtype",     "float16", "--access",
                text};
    if (parser == "probe") return {TILESCOPE_PROBE, "--compile-only", path};
    return {};
}

TEST(Malformed, EveryInputGivesItsErrorAndExitTwo) {
    const nlohmann::json m = nlohmann::json::parse(slurp(kDir + "manifest.json"));
    std::set<std::string> parsers;
    std::size_t n = 0;
    for (const auto& c : m.at("cases")) {
        const std::string file = c.at("file"), parser = c.at("parser"), want = c.at("message");
        SCOPED_TRACE(file);
        auto argv = command(parser, kDir + file);
        ASSERT_FALSE(argv.empty()) << "unknown parser " << parser;
        ts::ProcessResult r = ts::runProcess(argv, {}, 120);
        ASSERT_TRUE(r.started) << r.error;
        EXPECT_FALSE(r.timed_out);
        EXPECT_EQ(r.exit_code, c.at("exit").get<int>()) << r.err << r.out.substr(0, 2000);
        EXPECT_EQ(r.exit_code, 2);
        // The probe answers in JSON: its message is the "error" field, quotes unescaped.
        std::string where = r.err;
        if (parser == "probe") {
            auto j = nlohmann::json::parse(r.out, nullptr, false);
            where = j.is_object() && j.contains("error") ? j["error"].get<std::string>() : r.out;
        }
        EXPECT_NE(where.find(want), std::string::npos)
            << "expected: " << want << "\ngot: " << where.substr(0, 2000);
        EXPECT_EQ(r.err.find("internal error"), std::string::npos) << r.err;
        EXPECT_EQ(r.err.find("Sanitizer"), std::string::npos) << r.err;
        parsers.insert(parser);
        ++n;
    }
    EXPECT_GE(n, 50u);
    EXPECT_EQ(parsers.size(), 6u);
}

} // namespace
