// SPDX-License-Identifier: Apache-2.0
// Reads a test data file whole, inflating it where it is stored gzipped (the golden families are:
// tools/golden_file.py writes them).
#pragma once

#include <filesystem>
#include <string>

namespace tstest {

// The file's content; a name ending in .gz is inflated (every gzip member, as gzip -d reads
// them). Throws std::runtime_error naming the file when it cannot be read or its gzip stream is
// damaged or cut short.
std::string readTestFile(const std::filesystem::path& path);

} // namespace tstest
