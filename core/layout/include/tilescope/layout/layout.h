// SPDX-License-Identifier: Apache-2.0
// TileLang's T.Layout and T.Fragment as immutable values, with their algebra.
//
// Expressions are written over TileLang's placeholders: input dimension k is `_i`, `_j`, ...
// (placeholderName(k)) and the replica index is `_rep`, so printed values read like TileLang's
// dumps. Semantics follow tilelang-layouts.md section 1; extents are exact (max + 1 over the
// evaluated domain), which is what plot_layout and the CLI contract use.
#pragma once

#include "tilescope/lang/expr.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace ts {

using Shape = std::vector<std::int64_t>;

std::int64_t cellCount(const Shape& s);            // throws InputError on overflow / limits
void checkShape(const Shape& s, const char* what); // positive extents, rank and cell limits
std::string formatShape(const Shape& s, bool tupleStyle = false);

// Evaluated layout: out[cell * outRank + k] is output k of logical cell `cell` (row-major).
struct LayoutTable {
    Shape inputShape;
    std::size_t outRank = 0;
    std::vector<std::int64_t> out;
    Shape outputShape; // per-dimension max + 1
    std::int64_t cells() const {
        return static_cast<std::int64_t>(out.size() / std::max<std::size_t>(outRank, 1));
    }
};

// Evaluated fragment: threads[cell * replicate + r], local[cell * localRank + k].
struct FragmentTable {
    Shape inputShape;
    std::int64_t replicate = 1;
    std::size_t localRank = 1;
    std::vector<std::int64_t> threads;
    std::vector<std::int64_t> local;
    std::int64_t threadExtent = 0; // max thread + 1
    Shape localShape;              // per-dimension max + 1
    std::int64_t cells() const { return static_cast<std::int64_t>(threads.size() / replicate); }
};

// A collision found by a check: two logical points (cell, replica) mapped to one target.
struct Collision {
    std::vector<std::int64_t> first, second; // logical coordinates (replica appended for fragments)
    std::vector<std::int64_t> target;        // physical coordinates / (thread, local...)
    std::string describe() const;
};

class Layout {
public:
    Layout() = default;
    Layout(Shape inputShape, std::vector<Expr> forward);
    // A layout known only by its table (the result of inverse()).
    static Layout tabulated(Shape inputShape, std::size_t outRank,
                            std::vector<std::int64_t> values);

    const Shape& inputShape() const { return input_; }
    const std::vector<Expr>& forward() const { return forward_; }
    bool isTabulated() const { return table_ != nullptr; }
    std::size_t outputRank() const;

    LayoutTable evaluate() const;
    Shape outputShape() const { return evaluate().outputShape; }

    Layout repeat(std::int64_t dim, std::int64_t factor) const;
    Layout expand(const Shape& leading) const;
    // TileLang's Layout.reshape(shape, rescale_num, rescale_den): a new input shape over the same
    // row-major elements; rescale_num/rescale_den != 1 reinterprets the element width (old
    // bits / new bits), narrowing or widening the last output (layout.cc Reshape).
    Layout reshape(const Shape& shape, std::int64_t rescaleNum = 1,
                   std::int64_t rescaleDen = 1) const;
    Layout inverse() const; // throws InputError with the first colliding cells when not bijective
    std::optional<Collision> findCollision() const;        // injectivity check
    std::optional<std::string> bijectivityProblem() const; // injective and onto [0, outputShape)

    // What TileLang itself would do with this mapping that its cells do not show: it would
    // refuse to build it (an inverse its iterator map rejects), or it builds it on threads the
    // kernel does not have. One sentence each; shown with the mapping (CLI stderr, the grid's
    // banner). A method that derives a new mapping starts with none (each note is about the
    // mapping it was attached to); one that returns the same mapping (a repeat by 1, a reshape
    // to the same shape) keeps them.
    const std::vector<std::string>& notes() const { return notes_; }
    Layout withNote(std::string note) const;

private:
    Shape input_;
    std::vector<Expr> forward_;
    std::vector<std::string> notes_;
    std::shared_ptr<const std::vector<std::int64_t>> table_;
    std::size_t tableRank_ = 0;
};

class Fragment {
public:
    Fragment() = default;
    // `index` may be empty: it is then inferred as TileLang does from the thread map.
    Fragment(Shape inputShape, Expr thread, std::vector<Expr> index, std::int64_t replicate = 1);
    static Fragment fullyReplicated(Shape inputShape, std::int64_t threads);

    const Shape& inputShape() const { return input_; }
    const Expr& thread() const { return thread_; }
    const std::vector<Expr>& index() const { return index_; }
    std::int64_t replicate() const { return replicate_; }
    std::optional<std::pair<std::int64_t, std::int64_t>> threadRange() const { return range_; }
    Fragment withThreadRange(std::int64_t begin, std::int64_t end) const;

    FragmentTable evaluate() const;
    std::int64_t threadExtent() const { return evaluate().threadExtent; }

    Fragment repeat(const Shape& repeats, bool repeatOnThread = false,
                    bool lowerDimFirst = true) const;
    Fragment replicateBy(std::int64_t n) const;
    // Fragment.reshape: as Layout::reshape, the thread map following the index.
    Fragment reshape(const Shape& shape, std::int64_t rescaleNum = 1,
                     std::int64_t rescaleDen = 1) const;
    // Fragment.expand(leading): TileLang inherits Layout.expand, which drops the thread map and
    // returns a Layout over [leading..., index...] (the fragment itself when `leading` is empty).
    Layout expandIndex(const Shape& leading) const;
    // Drops replica bits the thread map ignores and renumbers the rest densely (utils.cc:381).
    Fragment condenseRepVar() const;
    Layout inverse() const;  // (local..., thread) -> (x..., rep)
    Layout asLayout() const; // (x..., rep) -> (local..., thread)

    // Each (thread, local) slot holds at most one logical element.
    std::optional<Collision> findCollision() const;

    // What TileLang itself would do with this mapping that its cells do not show: it would
    // refuse to build it (an inverse its iterator map rejects), or it builds it on threads the
    // kernel does not have. One sentence each; shown with the mapping (CLI stderr, the grid's
    // banner). A method that derives a new mapping starts with none (each note is about the
    // mapping it was attached to); one that returns the same mapping (a repeat by 1, a reshape
    // to the same shape) keeps them.
    const std::vector<std::string>& notes() const { return notes_; }
    Fragment withNote(std::string note) const;

private:
    Shape input_;
    Expr thread_;
    std::vector<std::string> notes_;
    std::vector<Expr> index_;
    std::int64_t replicate_ = 1;
    std::optional<std::pair<std::int64_t, std::int64_t>> range_;
};

// What the mapping language yields.
using Mapping = std::variant<Layout, Fragment>;
const std::vector<std::string>& mappingNotes(const Mapping& m);

// The index TileLang infers for a thread-only fragment (layout.cc:995, utils.cc:292).
Expr inferFragmentIndex(const Shape& inputShape, const Expr& thread, std::int64_t replicate);

// TileLang's index values are int32. TVM's shift builders refuse a count outside 0..31 ("Shift
// amount must be non-negative and less than 32 for type int32"): where the layout is built, for
// a constant count as written; and where a cell is evaluated, for a count in the form TVM
// simplified the expression to (a shift it simplified away is never evaluated). At a cell, a
// shifted value beyond int32 is a literal TVM refuses, and a sum or product beyond it wraps
// around in TVM's folding. Throws an InputError naming the shift or value (and the first cell,
// and replica, where it goes wrong) for `exprs` (as written, over the placeholders of `shape`
// and `_rep`), both branches of a select included (TVM evaluates both).
void checkInt32Evaluation(const Shape& shape, const std::vector<Expr>& exprs,
                          std::int64_t replicate = 1);

// TileLang's DebugOutput repr, e.g. `Fragment((32, 32) -> (8,), replicate: 1, thread: 128, ...)`.
std::string tilelangRepr(const Mapping& m);
// The same from tables already evaluated (the repr's extents come from them), so that a caller
// holding the table does not evaluate the whole mapping a second time.
std::string tilelangRepr(const Fragment& f, const FragmentTable& t);
std::string tilelangRepr(const Layout& l, const LayoutTable& t);
// The layout-visualization pass block (`NAME inferred layout:` / Shape / Thread / Index /
// Replicate).
std::string visualizationBlock(const std::string& name, const Fragment& f);

} // namespace ts
