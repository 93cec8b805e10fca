// SPDX-License-Identifier: Apache-2.0
// Internal: the value of one operator applied to integer operands, shared by the tree walk
// (expr.cpp), constant folding and the compiled evaluator (expr_eval.cpp).
#pragma once

#include "tilescope/lang/expr.h"

#include <cstdint>

namespace ts {

// Two-operand operators. Throws EvalError on a division or modulo by zero and on a shift count
// outside 0..62.
std::int64_t applyBinary(Op op, std::int64_t x, std::int64_t y);
// Neg, Not, Cast.
std::int64_t applyUnary(Op op, std::int64_t x);
// Select and IfThenElse: both branches are already evaluated (see Op::Select).
inline std::int64_t applyTernary(std::int64_t cond, std::int64_t t, std::int64_t f) {
    return cond != 0 ? t : f;
}

} // namespace ts
