// SPDX-License-Identifier: Apache-2.0
// Internal: a port of the part of TVM's arithmetic analyzer (src/arith in the TVM that TileLang
// 0.1.15 ships) that TileLang runs on a thread map before it infers the register index:
// Analyzer::Simplify (canonical_simplify.cc, rewrite_simplify.cc) with the analyses its rules
// consult (const_int_bound.cc, modular_set.cc), the constant folding of TVM's expression
// builders (const_fold.h, tirx/op/op.cc), and the constraint scopes TVM opens inside the
// branches of a select (ir_mutator_with_analyzer.cc).
//
// Names follow TVM's so the two can be read side by side. Index values are int32 as in TileLang;
// truth values are TVM's bool. Tilescope's Op::Neg does not exist in TVM (Python's `-x` is
// `x * -1` there); fromPython() rewrites it. TVM's Analyzer::CanProve falls back to Z3 where the
// rewrite rules do not settle a truth value; here that fallback is an exhaustive evaluation over
// the (bounded) variables, which decides the same bounded question, and where the domain is too
// large for that the analyzer records that it could not be sure.
#pragma once

#include "tilescope/lang/expr.h"
#include "tilescope/lang/tvm_simplify.h"

#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ts::tvmarith {

constexpr std::int64_t kPosInf = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kNegInf = -kPosInf;

struct Bound {
    std::int64_t min = kNegInf, max = kPosInf;
};

// {coeff * x + base}; coeff 0 is a constant.
struct Modular {
    std::int64_t coeff = 1, base = 0;
    Modular() = default;
    Modular(std::int64_t c, std::int64_t b);
};

// TVM's CompareResult: a bit set of {EQ, LT, GT}.
enum Cmp : int {
    kInconsistent = 0,
    kEQ = 1,
    kLT = 2,
    kLE = 3,
    kGT = 4,
    kGE = 5,
    kNE = 6,
    kUnknown = 7
};

std::int64_t zeroAwareGcd(std::int64_t a, std::int64_t b);
std::int64_t tvmFloorDiv(std::int64_t a, std::int64_t b);
std::int64_t tvmFloorMod(std::int64_t a, std::int64_t b);

// TVM's TryConstFold<Op>(a, b) followed by the node constructor: what a pattern's Eval() and
// TVM's operator builders (add, sub, mul, floordiv, ..., min, max, <, ==) produce.
Expr fold(Op op, const Expr& a, const Expr& b);
// TryConstFold alone: null where TVM's returns nothing.
Expr tryConstFold(Op op, const Expr& a, const Expr& b);
Expr foldNot(const Expr& a); // tirx::Not builder (const folding only)
// The builders TVM's Python front end calls (tirx/op/op.cc): fold() plus the shift builders'
// fold of a shift by 0, if_then_else with a constant condition, bitwise constants.
Expr build(Op op, const Expr& a, const Expr& b);
Expr buildCast(const Expr& value); // cast("int32", value)
// TVM's `x * -1` for Python's unary minus; every other node as TVM's builders make it.
Expr fromPython(const Expr& e);

bool isTruth(const Expr& e); // TVM dtype bool

class Rewriter;
class Canonical;

class Analyzer {
public:
    explicit Analyzer(const std::map<std::string, std::int64_t>& extents);
    ~Analyzer();
    Analyzer(const Analyzer&) = delete;
    Analyzer& operator=(const Analyzer&) = delete;

    Bound constIntBound(const Expr& e);
    Modular modularSet(const Expr& e);
    Expr simplify(const Expr& e, int steps = 2);
    Expr rewriteSimplify(const Expr& e);
    Expr canonicalSimplify(const Expr& e);
    bool canProveGreaterEqual(const Expr& e, std::int64_t lower);
    bool canProveLess(const Expr& e, std::int64_t upper);
    bool canProveEqual(const Expr& a, const Expr& b);
    bool canProve(const Expr& e);

    // ConstraintContext: every analysis sees `constraint` as holding until the matching exit.
    void enterConstraint(const Expr& constraint);
    void exitConstraint();
    struct Scope {
        Analyzer& a;
        Scope(Analyzer& an, const Expr& c) : a(an) { a.enterConstraint(c); }
        ~Scope() { a.exitConstraint(); }
        Scope(const Scope&) = delete;
        Scope& operator=(const Scope&) = delete;
    };

    // A variable of extent 1 is the constant 0 (Analyzer::Bind of a one-point range).
    Expr boundValue(const std::string& var) const;
    bool knownVar(const std::string& var) const { return extents_.count(var) > 0; }

    // Conditions of selects that stayed undecided, with the conditions known where they sit.
    std::vector<TvmUndecided> undecided;
    // Set when a proof needed TVM's Z3 fallback on a domain too large to enumerate here.
    std::string unsure;

    // TVM's rules re-simplify operands inside rules (a truncdiv asks whether its operands are
    // non-negative, which simplifies them, nested truncdivs included), so nesting costs
    // exponentially; past this many node visits the port gives up rather than hang.
    static constexpr std::int64_t kWorkBudget = 400000;
    struct OverBudget {};
    void spend() {
        if (++work_ > kWorkBudget) throw OverBudget{};
    }

    Rewriter& rewriter() { return *rewrite_; }
    Canonical& canonical() { return *canonical_; }
    const std::vector<Expr>& constraints() const { return constraints_; }

private:
    friend class BoundAnalyzer;
    std::map<std::string, std::int64_t> extents_;
    struct BoundInfo {
        Expr expr;
        Bound bound;
    };
    std::vector<BoundInfo> boundInfo_;
    std::vector<std::size_t> boundInfoMarks_;
    struct ModularUpdate {
        std::string var;
        bool had;
        Modular old;
    };
    std::map<std::string, Modular> modularVars_;
    std::vector<std::vector<ModularUpdate>> modularMarks_;
    std::vector<Expr> constraints_;
    std::unique_ptr<Rewriter> rewrite_;
    std::unique_ptr<Canonical> canonical_;
    std::int64_t work_ = 0;
    bool exhaustiveProof(const Expr& e);

public:
    Bound boundOf(const Expr& e);
    Modular modularOf(const Expr& e);
    std::int64_t extentOf(const std::string& var) const;
};

} // namespace ts::tvmarith
