// SPDX-License-Identifier: Apache-2.0
// TVM's own simplification of an index expression (Analyzer::Simplify in the TVM TileLang 0.1.15
// ships: canonical form, rewrite rules, canonical form again), ported rule by rule.
//
// ts::simplify (simplify.h) makes readable forms for display; this one reproduces the exact
// form TVM gives, because TileLang infers a fragment's register index from the *form* of the
// simplified thread map (which pieces of each variable its affine parts use), so a form that is
// equal in value but written differently gives other register slots.
#pragma once

#include "tilescope/lang/expr.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ts {

// A truth value the port left undecided where deciding it would change the form (the
// condition of a select), with the conditions that hold where it sits (enclosing branches).
// TVM decides some truth values by Z3 and by rewrite rules of comparisons this port does not
// have; the caller checks on the whole domain whether it is constant there, which is the only
// way TVM could have decided it.
struct TvmUndecided {
    Expr condition;
    std::vector<Expr> context;
};

struct TvmSimplified {
    Expr expr;
    std::vector<TvmUndecided> undecided;
    // Non-empty when the form is not certain, saying why: a fact TVM hands to Z3, or an
    // expression nested so deeply that the port gave up (`expr` is then `e` as given).
    std::string unsure;
};

// `extents`: each variable ranges over [0, extent); a variable of extent 1 is the constant 0
// (as TVM binds a one-point range). Variables not listed are unbounded int32 values.
TvmSimplified tvmSimplify(const Expr& e, const std::map<std::string, std::int64_t>& extents);

// TVM's Analyzer::CanProve of a truth value over the same bounds: its simplification, then the
// Z3 fallback TileLang's TVM has, done here by trying every point. `unsure` (when given) is set
// where the domain was too large to try, and the answer is then false.
bool tvmCanProve(const Expr& condition, const std::map<std::string, std::int64_t>& extents,
                 std::string* unsure = nullptr);

} // namespace ts
