// SPDX-License-Identifier: Apache-2.0
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

// An analysis saved with a layout (a lesson step): which panel shows it and its inputs. The
// panel's layout is the DocLayout's own text (banks) or its shape (fractal).
struct AnalysisSettings {
    std::string panel;          // "" (none) | "banks" | "fractal"
    std::string access;         // banks: the ACCESS text (access.h)
    std::string dtype;          // element type ("float16")
    int vector = 0;             // banks: elements per lane access, 0 = automatic
    bool store = false;         // banks: stores instead of loads
    int step = -1;              // banks: the instruction shown, -1 = all
    std::string fractal = "zN"; // fractal: zN, nZ, zZ, L0C or tilelang-ascend NZ, ZN, ZZ
    bool operator==(const AnalysisSettings&) const = default;
    bool empty() const { return panel.empty(); }
};

struct DocLayout {
    std::string name;
    std::string text;
    ViewSettings view;
    std::string notes;
    std::string caption;       // one line shown above the grid (lesson steps)
    AnalysisSettings analysis; // shown with the layout when set
    bool operator==(const DocLayout&) const = default;
};

struct Document {
    static constexpr int kFormatVersion = 1;
    std::string title; // optional display title ("MMA operand A"); empty: derived from the file
    std::vector<DocLayout> layouts;
    int active = 0;
    // The Run history kept with the project (measurements are part of the work): a JSON array
    // of run records, kept as text (their fields belong to the GUI's RunRecord); "" when none.
    std::string runs;
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
