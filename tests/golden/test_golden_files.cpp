// SPDX-License-Identifier: Apache-2.0
// The reader of the gzipped goldens (tests/support): what it inflates, and what it says about a
// file it cannot read, naming the file.
#include "golden_files.h"
#include "test_file.h"

#include <fstream>
#include <gtest/gtest.h>
#include <string>
#include <zlib.h>

namespace {

// One gzip member made by zlib's own deflate (windowBits 16 + 15: gzip header and trailer).
std::string gzipMember(const std::string& text) {
    z_stream s{};
    EXPECT_EQ(deflateInit2(&s, 9, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY), Z_OK);
    std::string out(deflateBound(&s, text.size()) + 64, '\0');
    s.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
    s.avail_in = static_cast<uInt>(text.size());
    s.next_out = reinterpret_cast<Bytef*>(out.data());
    s.avail_out = static_cast<uInt>(out.size());
    EXPECT_EQ(deflate(&s, Z_FINISH), Z_STREAM_END);
    out.resize(s.total_out);
    deflateEnd(&s);
    return out;
}

std::string tempFile(const std::string& name, const std::string& bytes) {
    const std::string path = ::testing::TempDir() + "/golden_files_" + name;
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
}

std::string errorOf(const std::string& path) {
    try {
        tstest::readTestFile(path);
    } catch (const std::runtime_error& e) {
        return e.what();
    }
    return "(read without an error)";
}

TEST(GoldenFiles, InflatesEveryMemberAndReadsPlainFilesAsTheyAre) {
    // Large enough to need more than one output buffer.
    std::string text;
    for (int k = 0; k < 200000; ++k)
        text +=
            "{\"in\":[" + std::to_string(k) + ",0],\"threads\":[" + std::to_string(k % 97) + "]}\n";
    EXPECT_EQ(tstest::readTestFile(tempFile("one.json.gz", gzipMember(text))), text);
    EXPECT_EQ(tstest::readTestFile(tempFile("two.json.gz", gzipMember("ab") + gzipMember("cd"))),
              "abcd");
    EXPECT_EQ(tstest::readTestFile(tempFile("plain.json", "{\"cases\": []}")), "{\"cases\": []}");
}

TEST(GoldenFiles, ADamagedFileIsRefusedNamingIt) {
    const std::string whole = gzipMember(std::string(5000, 'x'));
    const std::string cut = tempFile("cut.json.gz", whole.substr(0, whole.size() / 2));
    EXPECT_EQ(errorOf(cut), cut + ": not a whole gzip stream (it ends before its trailer)");
    const std::string plain = tempFile("plain.json.gz", "{\"cases\": []}");
    EXPECT_EQ(errorOf(plain).rfind(plain + ": not a whole gzip stream (", 0), 0u) << errorOf(plain);
    const std::string trailing = tempFile("trailing.json.gz", whole + "junk");
    EXPECT_EQ(errorOf(trailing).rfind(trailing + ": not a whole gzip stream (", 0), 0u)
        << errorOf(trailing);
    EXPECT_EQ(errorOf("/nonexistent/x.json.gz"), "/nonexistent/x.json.gz: cannot open it");
    const std::string notJson = tempFile("not_json.json.gz", gzipMember("{\"cases\": [1,"));
    try {
        tstest::readGoldenFile(notJson);
        ADD_FAILURE() << "a cut-short JSON text was parsed";
    } catch (const std::runtime_error& e) {
        EXPECT_EQ(std::string(e.what()).rfind(notJson + ": [json.exception.parse_error", 0), 0u)
            << e.what();
    }
}

TEST(GoldenFiles, FamilyNamesDropTheSuffixes) {
    EXPECT_EQ(tstest::goldenFamily("tests/data/goldens/cute.json.gz"), "cute");
    EXPECT_EQ(tstest::goldenFamily("cute_dsl.json"), "cute_dsl");
    EXPECT_EQ(tstest::goldenFamily("infer_heldout_wide.json.gz"), "infer_heldout_wide");
}

} // namespace
