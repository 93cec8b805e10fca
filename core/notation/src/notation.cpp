// SPDX-License-Identifier: Apache-2.0
// Which layout language a text is written in, and the dispatch parseMapping uses (interop.h).
#include "tilescope/notation/interop.h"

#include "cute_dsl_text.h"
#include "interop_value.h"

#include <cctype>

namespace ts {

namespace {

std::string_view trimmed(std::string_view t) {
    // Leading whitespace and Python comment lines do not decide the notation.
    for (;;) {
        while (!t.empty() && std::isspace(static_cast<unsigned char>(t.front())))
            t.remove_prefix(1);
        if (t.size() > 1 && t[0] == '#' && t[1] != 't' && !interop::isTtgirText(t)) {
            std::size_t nl = t.find('\n');
            t = nl == std::string_view::npos ? std::string_view{} : t.substr(nl + 1);
            continue;
        }
        return t;
    }
}

bool startsWith(std::string_view t, std::string_view p) {
    return t.substr(0, p.size()) == p;
}

// `ttgl.BlockedLayout(`, `gl.to_linear_layout(`, ...: the callee after any module prefix.
std::string_view callee(std::string_view t) {
    std::size_t k = 0;
    while (k < t.size() &&
           (std::isalnum(static_cast<unsigned char>(t[k])) || t[k] == '_' || t[k] == '.'))
        ++k;
    if (k == t.size() || t[k] != '(') return {};
    std::string_view name = t.substr(0, k);
    std::size_t dot = name.rfind('.');
    return dot == std::string_view::npos ? name : name.substr(dot + 1);
}

} // namespace

Notation recognizeNotation(std::string_view text) {
    // The CuTe DSL's labels (`Tiler MN:`, `TV Layout A:`, ...) are read as CuTe C++'s.
    const std::string norm = cute::normalizeDslLabels(text);
    std::string_view t = trimmed(norm);
    if (t.empty()) return Notation::TileLang;
    const char c = t.front();
    // A tuple or integer is CuTe only with a stride after it: `42` or `(4, 4)` alone stay the
    // mapping language's "not a layout".
    const bool tupleStart =
        c == '(' || std::isdigit(static_cast<unsigned char>(c)) ||
        (c == '_' && t.size() > 1 && std::isdigit(static_cast<unsigned char>(t[1])));
    if ((tupleStart && t.find(':') != std::string_view::npos) || startsWith(t, "Sw<") ||
        startsWith(t, "Swizzle<") || startsWith(t, "SW_") || startsWith(t, "S<"))
        return Notation::CuTeLayout;
    for (std::string_view label : {"Tiler_MN:", "TiledLayout_TV:", "LayoutC_TV:", "LayoutA_TV:",
                                   "LayoutB_TV:", "Shape_MNK:"})
        if (t.find(label) != std::string_view::npos &&
            (startsWith(t, label) || startsWith(t, "TiledCopy") || startsWith(t, "TiledMMA") ||
             startsWith(t, "MMA_Atom") || startsWith(t, "Copy_Atom") || startsWith(t, "ThrID:") ||
             startsWith(t, "Tiler_MN:") || startsWith(t, "Shape_MNK:")))
            return Notation::CuTeTV;
    // TTGIR (`tensor<...>`, `#blocked = ...`) before CuTe's prints, which never start so.
    if (c == '-' || interop::isTtgirText(t)) return Notation::TritonLinear;
    // Other CuTe prints (a Copy_Atom alone, a tensor, a pointer): CuTe's, so that the reader can
    // say which print it is rather than fail on it as the mapping language.
    if (cute::looksLikeCutePrint(t)) return Notation::CuTeTV;
    std::string_view f = callee(t);
    for (std::string_view n : {"DistributedLinearLayout", "SharedLinearLayout", "to_linear_layout"})
        if (f == n) return Notation::TritonLinear;
    // Gluon's layout constructors (with the shape after them) are read as the linear layout
    // Triton makes of them, so they are Triton text too.
    if (interop::isGluonLayoutName(f)) return Notation::TritonLinear;
    return Notation::TileLang;
}

std::string notationName(Notation n) {
    switch (n) {
    case Notation::TileLang:
        return "TileLang";
    case Notation::CuTeLayout:
        return "CuTe layout";
    case Notation::CuTeTV:
        return "CuTe TV layout";
    case Notation::TritonLinear:
        return "Triton linear layout";
    }
    return "?";
}

std::optional<Mapping> parseForeignNotation(std::string_view text) {
    switch (recognizeNotation(text)) {
    case Notation::TileLang:
        return std::nullopt;
    case Notation::CuTeLayout:
    case Notation::CuTeTV:
        return parseCuTe(text);
    case Notation::TritonLinear:
        return parseTriton(text);
    }
    return std::nullopt;
}

} // namespace ts
