// SPDX-License-Identifier: Apache-2.0
// The CuTe DSL's (Python `cutlass.cute`) print forms next to CuTe C++'s, and the CuTe prints
// Tilescope recognises but does not read (so that it can say which one it was given).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace ts::cute {

// The text with the CuTe DSL's labels (`MMA Atom`, `Shape MNK:`, `TV Layout A:`, `Thr Layout
// VMNK:`, `Tiled Copy`, `Tiler MN:`, `TV Layout tiled:`, ...) replaced by CuTe C++'s
// (`MMA_Atom`, `Shape_MNK:`, `LayoutA_TV:`, ...), padded to the same length so that every
// column stays that of the original text.
std::string normalizeDslLabels(std::string_view text);

// Whether the text starts the way a CuTe C++ or CuTe DSL print does (an atom, a tiled atom, a
// tensor, a pointer), whatever it holds.
bool looksLikeCutePrint(std::string_view text);

// For a CuTe or CuTe DSL print Tilescope does not read, the sentence that names it ("this is
// CuTe's print of a Copy_Atom, which Tilescope does not read yet ..."); nullopt otherwise.
std::optional<std::string> unreadCuteForm(std::string_view text);

} // namespace ts::cute
