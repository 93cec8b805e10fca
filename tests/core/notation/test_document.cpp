// SPDX-License-Identifier: Apache-2.0
// The project file: JSON round trip, and every kind of broken file names its JSON path.
#include "tilescope/notation/document.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>

namespace {

ts::Document sample() {
    ts::Document d;
    d.layouts.push_back({"transpose",
                         "T.Layout([4, 4], lambda i, j: (j, i))",
                         {"output", "thread", 1.5},
                         "a note"});
    d.layouts.push_back({"acc", "make_gemm_c_fragment((32, 32), 128)", {"input", "warp", 2.0}, ""});
    d.active = 1;
    return d;
}

TEST(Document, JsonRoundTrip) {
    ts::Document d = sample();
    EXPECT_EQ(ts::parseDocument(ts::serializeDocument(d)), d);
}

TEST(Document, LessonStepsKeepCaptionAndAnalysis) {
    ts::Document d = sample();
    d.layouts[0].caption = "Column access: 32 wavefronts";
    d.layouts[0].analysis.panel = "banks";
    d.layouts[0].analysis.access = "lanes:lambda t: (t, 0)";
    d.layouts[0].analysis.dtype = "float32";
    d.layouts[0].analysis.step = 0;
    d.layouts[0].analysis.store = true;
    d.layouts[0].analysis.vector = 2;
    d.layouts[1].analysis.panel = "fractal";
    d.layouts[1].analysis.dtype = "float16";
    d.layouts[1].analysis.fractal = "nZ";
    const ts::Document back = ts::parseDocument(ts::serializeDocument(d));
    EXPECT_EQ(back, d);
    EXPECT_EQ(back.layouts[0].analysis.access, "lanes:lambda t: (t, 0)");
    EXPECT_EQ(back.layouts[1].analysis.fractal, "nZ");
    EXPECT_TRUE(ts::parseDocument(ts::serializeDocument(sample())).layouts[0].analysis.empty());
}

struct Broken {
    const char* json;
    const char* path;
    const char* message;
};

// Found by fuzz_document: a fractal analysis with a banks field ("step") loaded with step 0, was
// saved without it and reloaded with step -1, so a save changed the document. Each panel now
// reads only its own fields; the other panel's are ignored like unknown keys.
TEST(Document, AnalysisKeepsOnlyItsPanelsFieldsSoSavingDoesNotChangeIt) {
    const std::string head = "{\"format\": \"tilescope-project\", \"version\": 1, \"layouts\": "
                             "[{\"name\": \"a\", \"text\": \"x\", \"analysis\": ";
    for (const std::string an :
         {"{\"panel\": \"fractal\", \"fractal\": \"nZ\", \"step\": 0, \"vector\": 4, "
          "\"store\": true, \"access\": \"ldmatrix:x4\"}",
          "{\"panel\": \"banks\", \"access\": \"ldmatrix:x4\", \"fractal\": \"L0C\"}"}) {
        SCOPED_TRACE(an);
        const ts::Document d = ts::parseDocument(head + an + "}]}");
        EXPECT_EQ(d, ts::parseDocument(ts::serializeDocument(d)));
    }
    const ts::Document f =
        ts::parseDocument(head + "{\"panel\": \"fractal\", \"fractal\": \"nZ\", \"step\": 0}}]}");
    EXPECT_EQ(f.layouts[0].analysis.step, -1);
    EXPECT_EQ(f.layouts[0].analysis.fractal, "nZ");
}

TEST(Document, ErrorsNameTheJsonPath) {
    const Broken cases[] = {
        {"{\"format\": \"tilescope-project\", \"version\": 1, \"layouts\": [", "",
         "not valid JSON at line 1, column"},
        {"[1, 2]", "/", "expected a JSON object"},
        {"{\"format\": \"something-else\", \"version\": 1, \"layouts\": []}", "/format",
         "is not a Tilescope project"},
        {"{\"format\": \"tilescope-project\", \"version\": 99, \"layouts\": []}", "/version",
         "newer than this Tilescope"},
        {"{\"format\": \"tilescope-project\", \"version\": 1}", "/layouts",
         "missing or not an array"},
        {"{\"format\": \"tilescope-project\", \"version\": 1, \"layouts\": [{\"name\": \"a\", "
         "\"text\": 5}]}",
         "/layouts/0/text", "expected a string"},
        {"{\"format\": \"tilescope-project\", \"version\": 1, \"layouts\": [{\"name\": \"a\", "
         "\"text\": \"x\", "
         "\"view\": {\"color\": \"rainbow\"}}]}",
         "/layouts/0/view/color", "expected thread, warp, slot or replica"},
        {"{\"format\": \"tilescope-project\", \"version\": 1, \"active\": 3, \"layouts\": "
         "[{\"name\": \"a\", \"text\": \"x\"}]}",
         "/active", "out of range"},
        {"{\"format\": \"tilescope-project\", \"version\": 1, \"layouts\": [{\"name\": \"a\", "
         "\"text\": \"x\", \"analysis\": {\"panel\": \"charts\"}}]}",
         "/layouts/0/analysis/panel", "expected \"banks\" or \"fractal\""},
        {"{\"format\": \"tilescope-project\", \"version\": 1, \"layouts\": [{\"name\": \"a\", "
         "\"text\": \"x\", \"analysis\": {\"panel\": \"banks\"}}]}",
         "/layouts/0/analysis", "missing \"access\""},
        {"{\"format\": \"tilescope-project\", \"version\": 1, \"layouts\": [{\"name\": \"a\", "
         "\"text\": \"x\", \"analysis\": {\"panel\": \"banks\", \"access\": \"ldmatrix:x4\", "
         "\"step\": -7}}]}",
         "/layouts/0/analysis/step", "out of range"},
    };
    for (const auto& c : cases) {
        try {
            ts::parseDocument(c.json, "f.json");
            ADD_FAILURE() << "accepted " << c.json;
        } catch (const ts::DocumentError& e) {
            EXPECT_EQ(e.jsonPath(), c.path) << e.what();
            EXPECT_NE(std::string(e.what()).find(c.message), std::string::npos) << e.what();
            EXPECT_EQ(std::string(e.what()).rfind("f.json", 0), 0u) << e.what();
        }
    }
}

TEST(Document, SpecResolvesFileAndName) {
    auto dir = std::filesystem::temp_directory_path() / "tilescope-doc-test";
    std::filesystem::create_directories(dir);
    auto file = (dir / "p.json").string();
    std::ofstream(file) << ts::serializeDocument(sample());
    EXPECT_EQ(ts::resolveSpecText(file + ":transpose"), "T.Layout([4, 4], lambda i, j: (j, i))");
    EXPECT_EQ(ts::resolveSpecText(file),
              "make_gemm_c_fragment((32, 32), 128)"); // the active layout
    EXPECT_THROW(ts::resolveSpecText(file + ":nosuch"), ts::DocumentError);
    EXPECT_THROW(ts::resolveSpecText((dir / "missing.json").string()), ts::DocumentError);
    EXPECT_EQ(ts::resolveSpecText("T.Layout([2], lambda i: i)"), "T.Layout([2], lambda i: i)");
    std::filesystem::remove_all(dir);
}

TEST(Document, EverySampleProjectLoadsAndEvaluates) {
    std::filesystem::path dir = std::filesystem::path(TILESCOPE_SOURCE_DIR) / "samples";
    int files = 0;
    for (const auto& e : std::filesystem::directory_iterator(dir)) {
        if (e.path().string().find(".tilescope.json") == std::string::npos) continue;
        ++files;
        ts::Document d;
        ASSERT_NO_THROW(d = ts::loadDocumentFile(e.path().string())) << e.path();
        EXPECT_FALSE(d.layouts.empty()) << e.path();
    }
    EXPECT_GE(files, 1);
}

} // namespace
