// SPDX-License-Identifier: Apache-2.0
// CuTe DSL labels -> CuTe C++ labels, and the names of CuTe prints not read (cute_dsl_text.h).
#include "cute_dsl_text.h"

#include <array>
#include <cctype>
#include <utility>

namespace ts::cute {

namespace {

// DSL label -> C++ label of the same length (C++ labels padded with spaces after the colon).
// What the CuTe DSL 4.8 prints for an MMA atom, a TiledMMA, a copy atom and a TiledCopy.
constexpr std::array<std::pair<std::string_view, std::string_view>, 15> kDslLabels{{
    {"Thr Layout VMNK:", "ThrLayoutVMNK:  "},
    {"Permutation MNK:", "PermutationMNK: "},
    {"TV Layout tiled:", "TiledLayout_TV: "},
    {"TV Layout A:", "LayoutA_TV: "},
    {"TV Layout B:", "LayoutB_TV: "},
    {"TV Layout C:", "LayoutC_TV: "},
    {"TV Layout Src:", "ValLayoutSrc: "},
    {"TV Layout Dst:", "ValLayoutDst: "},
    {"Shape MNK:", "Shape_MNK:"},
    {"Tiler MN:", "Tiler_MN:"},
    {"Value type:", "ValueType: "},
    {"Tiled Copy", "TiledCopy "},
    {"Tiled MMA", "TiledMMA "},
    {"Copy Atom", "Copy_Atom"},
    {"MMA Atom", "MMA_Atom"},
}};

std::string_view trimmedStart(std::string_view t) {
    while (!t.empty() && std::isspace(static_cast<unsigned char>(t.front())))
        t.remove_prefix(1);
    return t;
}

bool startsWith(std::string_view t, std::string_view p) {
    return t.substr(0, p.size()) == p;
}

bool contains(std::string_view t, std::string_view p) {
    return t.find(p) != std::string_view::npos;
}

} // namespace

std::string normalizeDslLabels(std::string_view text) {
    std::string s(text);
    for (const auto& [dsl, cxx] : kDslLabels)
        for (std::size_t p = s.find(dsl); p != std::string::npos; p = s.find(dsl, p + cxx.size()))
            s.replace(p, dsl.size(), cxx);
    return s;
}

bool looksLikeCutePrint(std::string_view text) {
    std::string_view t = trimmedStart(text);
    for (std::string_view p :
         {"MMA_Atom", "MMA Atom", "TiledMMA", "Tiled MMA", "Copy_Atom", "Copy Atom", "TiledCopy",
          "Tiled Copy", "ThrID:", "tensor<", "ptr<", "raw_ptr(", "smem_ptr[", "gmem_ptr[",
          "rmem_ptr[", "ArithTuple(", "S<"})
        if (startsWith(t, p)) return true;
    return false;
}

std::optional<std::string> unreadCuteForm(std::string_view text) {
    std::string_view t = trimmedStart(text);
    const bool dsl = startsWith(t, "Copy Atom") || startsWith(t, "Tiled Copy") ||
                     startsWith(t, "MMA Atom") || startsWith(t, "Tiled MMA") ||
                     startsWith(t, "tensor<") || startsWith(t, "ptr<") ||
                     startsWith(t, "raw_ptr(") || contains(t, "TV Layout");
    const std::string whose = dsl ? "the CuTe DSL's" : "CuTe's";
    auto named = [&](const std::string& what, const std::string& hint) {
        return "this is " + whose + " print of " + what + ", which Tilescope does not read yet" +
               (hint.empty() ? "" : ": " + hint);
    };
    if (startsWith(t, "Copy_Atom") || startsWith(t, "Copy Atom"))
        return named(dsl ? "a Copy Atom" : "a Copy_Atom",
                     "an atom's TV layouts number its own values, not the elements of a tile; "
                     "paste the print of the TiledCopy made from it (Tiler_MN and "
                     "TiledLayout_TV)");
    if (startsWith(t, "tensor<") || startsWith(t, "ptr<") || startsWith(t, "raw_ptr("))
        return named("a tensor or pointer",
                     "paste the tensor's layout, the text after the pointer's `o`");
    // A tensor on a swizzled shared-memory pointer prints the swizzle glued to the pointer:
    // `Sw<3,4,3>_smem_ptr[16b](0x7f...) o (_8,_64):(_64,_1)`.
    const bool swizzledPtr = (startsWith(t, "Sw<") || startsWith(t, "Swizzle<")) &&
                             contains(t.substr(0, t.find(" o ")), ">_smem_ptr[");
    if (startsWith(t, "smem_ptr[") || startsWith(t, "gmem_ptr[") || startsWith(t, "rmem_ptr[") ||
        startsWith(t, "ArithTuple(") || swizzledPtr)
        return named("a Tensor (a pointer or counting iterator composed with a layout)",
                     "paste the tensor's layout, the text after the first `o`");
    // The DSL prints a value known only at run time as `?` at compile time.
    if (contains(t, "?") && (contains(t, ":") || startsWith(t, "S<")))
        return "this is the CuTe DSL's compile-time print of a layout with dynamic extents or "
               "strides (`?`), which Tilescope cannot read: their values are known only when "
               "the kernel runs (print it with cute.printf, or make them static)";
    return std::nullopt;
}

} // namespace ts::cute
