// The project file: a versioned JSON document of named layouts with their mapping text and
// view settings. The text is the source of truth; tables are always recomputed.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace ts {

struct ViewSettings {
    std::string view = "input";   // input | output
    std::string color = "thread"; // thread | warp | slot | replica
    double zoom = 1.0;
    bool operator==(const ViewSettings&) const = default;
};

struct DocLayout {
    std::string name;
    std::string text;
    ViewSettings view;
    std::string notes;
    bool operator==(const DocLayout&) const = default;
};

struct Document {
    static constexpr int kFormatVersion = 1;
    std::vector<DocLayout> layouts;
    int active = 0;
    bool operator==(const Document&) const = default;

    const DocLayout* find(const std::string& name) const;
};

// Throws DocumentError with the JSON path ("/layouts/2/text") of the first problem.
Document parseDocument(const std::string& jsonText, const std::string& fileName = "");
std::string serializeDocument(const Document& d);
Document loadDocumentFile(const std::string& path);

class DocumentError : public std::runtime_error {
public:
    DocumentError(const std::string& file, const std::string& path, const std::string& message);
    const std::string& jsonPath() const { return path_; }

private:
    std::string path_;
};

// Resolves a CLI SPEC: mapping text, or FILE.json[:NAME] (first layout when no NAME).
// Returns the mapping text; throws DocumentError / std::runtime_error.
std::string resolveSpecText(const std::string& spec);

} // namespace ts
