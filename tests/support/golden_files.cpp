// SPDX-License-Identifier: Apache-2.0
#include "golden_files.h"

#include "test_file.h"

#include <algorithm>
#include <stdexcept>

namespace tstest {

namespace {

bool endsWith(const std::string& s, const std::string& tail) {
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

} // namespace

std::filesystem::path goldenDir() {
    return std::filesystem::path(TILESCOPE_SOURCE_DIR) / "tests/data/goldens";
}

std::vector<std::filesystem::path> goldenFiles() {
    std::vector<std::filesystem::path> out;
    for (const auto& entry : std::filesystem::directory_iterator(goldenDir())) {
        if (endsWith(entry.path().filename().string(), ".json.gz")) out.push_back(entry.path());
    }
    std::sort(out.begin(), out.end());
    return out;
}

std::string goldenFamily(const std::filesystem::path& file) {
    std::string name = file.filename().string();
    for (const char* tail : {".gz", ".json"})
        if (endsWith(name, tail)) name.resize(name.size() - std::string(tail).size());
    return name;
}

nlohmann::json readGoldenFile(const std::filesystem::path& file) {
    const std::string text = readTestFile(file);
    try {
        return nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
        throw std::runtime_error(file.string() + ": " + e.what());
    }
}

nlohmann::json readGolden(const std::string& family) {
    return readGoldenFile(goldenDir() / (family + ".json.gz"));
}

} // namespace tstest
