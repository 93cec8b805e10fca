// SPDX-License-Identifier: Apache-2.0
// Facts about mapping text read from its syntax tree alone (no evaluation): a canonical key
// and the dtype it names.
#include "tilescope/lang/pyparse.h"
#include "tilescope/layout/builtins.h"
#include "tilescope/notation/interop.h"
#include "tilescope/notation/mapping.h"

#include <algorithm>

namespace ts {

namespace {

// Every field that changes the meaning, none that only records where it was written.
void writeKey(const py::Node& n, std::string& out) {
    out += static_cast<char>('A' + static_cast<int>(n.kind));
    switch (n.kind) {
    case py::NodeKind::Int:
        out += std::to_string(n.value);
        break;
    case py::NodeKind::Str:
        out += std::to_string(n.text.size());
        out += ':';
        out += n.text;
        break;
    default:
        out += n.text;
        break;
    }
    out += '(';
    for (const std::string& p : n.params) {
        out += p;
        out += ',';
    }
    out += '|';
    if (n.target) writeKey(*n.target, out);
    out += '|';
    for (const py::NodePtr& c : n.items) {
        if (c) writeKey(*c, out);
        out += ',';
    }
    out += ')';
}

void collectStrings(const py::Node& n, std::vector<std::string>& out) {
    if (n.kind == py::NodeKind::Str) out.push_back(n.text);
    if (n.target) collectStrings(*n.target, out);
    for (const py::NodePtr& c : n.items)
        if (c) collectStrings(*c, out);
}

} // namespace

std::string mappingSyntaxKey(std::string_view text) {
    // CuTe and Triton text have parsers of their own: keyed by the exact text (no edit of theirs
    // is taken for a comment).
    if (recognizeNotation(text) != Notation::TileLang) return "foreign:" + std::string(text);
    const py::NodePtr root = py::parse(text);
    std::string key;
    writeKey(*root, key);
    return key;
}

std::string mappingDtype(std::string_view text) {
    py::NodePtr root;
    try {
        root = py::parse(text);
    } catch (const std::exception&) {
        return {};
    }
    std::vector<std::string> strings;
    collectStrings(*root, strings);
    const std::vector<std::string> known = knownDtypes();
    std::string found;
    for (const std::string& s : strings) {
        if (std::find(known.begin(), known.end(), s) == known.end()) continue;
        if (!found.empty() && found != s) return {}; // two dtypes: no single answer
        found = s;
    }
    return found;
}

} // namespace ts
