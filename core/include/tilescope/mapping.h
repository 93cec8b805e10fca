// The mapping language: a safe subset of TileLang's Python layout API, parsed and interpreted
// here (never handed to Python). One grammar serves typed text, pasted code and dump text.
#pragma once

#include "tilescope/layout.h"

#include <string>
#include <string_view>
#include <vector>

namespace ts {

// `T.Layout(...)`, `T.Fragment(...)`, builtin constructors and method chains; an optional
// leading `name =` is accepted so pasted assignments work. Throws ParseError (with column),
// InputError or EvalError.
Mapping parseMapping(std::string_view text);

// An expression over the given free variables, e.g. dump text over {"_i", "_j", "_rep"}.
Expr parseExpr(std::string_view text, const std::vector<std::string>& vars);

// TileLang code that rebuilds the mapping (what "copy as TileLang" puts on the clipboard).
std::string toTileLangCode(const Mapping& m);

} // namespace ts
