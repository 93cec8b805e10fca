// SPDX-License-Identifier: Apache-2.0
// The golden families of tests/data/goldens, for the tests that read them all or one by name.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace tstest {

std::filesystem::path goldenDir();

// Every family's file, <family>.json.gz, in name order. Anything else in the folder (a plain .json
// a generator wrote under a scratch --out name) is not read: GoldenSet.EveryFamilyIsStoredGzipped
// fails naming it.
std::vector<std::filesystem::path> goldenFiles();

// "cute" for cute.json.gz (and for cute.json).
std::string goldenFamily(const std::filesystem::path& file);

// One family parsed: goldenDir() / (family + ".json.gz"). Throws naming the file when it is
// missing, damaged or not JSON.
nlohmann::json readGolden(const std::string& family);
nlohmann::json readGoldenFile(const std::filesystem::path& file);

} // namespace tstest
