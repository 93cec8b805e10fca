// SPDX-License-Identifier: Apache-2.0
// The mapping language: a safe subset of TileLang's Python layout API, parsed and interpreted
// here (never handed to Python). One grammar serves typed text, pasted code and dump text.
#pragma once

#include "tilescope/layout/layout.h"

#include <string>
#include <string_view>
#include <vector>

namespace ts {

// `T.Layout(...)`, `T.Fragment(...)`, builtin constructors and method chains; an optional
// leading `name =` is accepted so pasted assignments work. Throws ParseError (with column),
// InputError or EvalError.
Mapping parseMapping(std::string_view text);

// How `and`, `or`, `not` and comparison chains read. Python: as Python evaluates a lambda before
// TileLang sees it (a truth test of a value that depends on the parameters is an error, as in
// TileLang). Printed: as TVMScript reads what TVM prints (`a and b` is tir.And, `a < b < c` is
// `(a < b) < c`). PerValue: Python run once per value of the parameters, as a lane map is (the
// parameters are plain integers, so `t if t < 16 else 0`, `and`, `or`, `not` and `a < b < c`
// decide per value). Everything else reads the same in all three.
enum class ExprDialect { Python, Printed, PerValue };

// An expression over the given free variables, e.g. dump text over {"_i", "_j", "_rep"}.
Expr parseExpr(std::string_view text, const std::vector<std::string>& vars,
               ExprDialect dialect = ExprDialect::Printed);

// A lambda over plain coordinates, such as a lane map `lambda t, k: (t % 8, k * 8)`, read as
// Python reads it: its parameter names, and what it returns, one expression per element (a bare
// expression and a 1-tuple `(t * 3,)` both give one). The expressions use the parameter names
// as variables, and read per value (ExprDialect::PerValue). Throws ParseError.
struct LambdaExprs {
    std::vector<std::string> params;
    std::vector<Expr> outputs;
};
LambdaExprs parseLambda(std::string_view text);

// The functions an index expression may call, from the interpreter's own table (the GUI's
// language reference lists these, so it cannot drift from the parser): "min", "T.floordiv", ...,
// "T.Cast", "T.int64".
std::vector<std::string> expressionFunctions();

// TileLang code that rebuilds the mapping (what "copy as TileLang" puts on the clipboard).
std::string toTileLangCode(const Mapping& m);

// A canonical form of the text's syntax tree: two texts with the same key differ only in
// comments, spaces and line breaks, so they denote the same mapping (an editor need not
// evaluate again for a keystroke in a comment); CuTe and Triton text are keyed by the text
// itself. Throws ParseError on a syntax error.
std::string mappingSyntaxKey(std::string_view text);

// The element type the text names (a string argument such as "float16" or dtype="bfloat16"),
// when it names exactly one known dtype; empty otherwise. A syntax error gives empty.
std::string mappingDtype(std::string_view text);

} // namespace ts
