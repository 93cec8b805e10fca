// SPDX-License-Identifier: Apache-2.0
// CuTe layout text -> IntTuples -> Tilescope Layout / Fragment (cute_layout.h, interop.h).
#include "tilescope/notation/cute_layout.h"

#include "cute_dsl_text.h"
#include "interop_text.h"
#include "tilescope/notation/interop.h"
#include "tilescope/support/errors.h"

#include <algorithm>
#include <cctype>
#include <map>

namespace ts::cute {

namespace {

using interop::Cursor;

constexpr std::size_t kMaxDepth = 16;
constexpr std::size_t kMaxModes = 64;

// CuTe strides and offsets may exceed int32 (a global tensor's row stride past 2^31 elements,
// CuTe's int64_t strides): read up to 2^48, far enough below int64 that the checked sums of
// up to 64 products with 2^24 coordinates cannot overflow unnoticed.
constexpr std::int64_t kMaxCuteLiteral = std::int64_t{1} << 48;

// CuTe prints static integers as `_8`; dynamic ones as `8`. Both mean the integer. A negative
// one (`-8`, `_-8` for a static Int<-8>) is read only where the caller allows it.
std::int64_t cuteInt(Cursor& c, const char* what, bool allowNegative = false) {
    c.skipWs();
    if (c.peek() == '_') {
        c.setPos(c.pos() + 1);
        if (!c.peekDigit() && !(allowNegative && c.peek() == '-'))
            c.fail(std::string("expected ") + what + " after '_'");
    }
    std::size_t start = c.pos();
    bool neg = false;
    if (allowNegative && c.peek() == '-') {
        neg = true;
        c.setPos(c.pos() + 1);
    }
    if (!c.peekDigit()) {
        c.setPos(start);
        c.fail(std::string("expected ") + what + ", found " + c.describeHere());
    }
    std::int64_t v = 0;
    std::string_view t = c.text();
    std::size_t p = c.pos();
    while (p < t.size() && std::isdigit(static_cast<unsigned char>(t[p]))) {
        v = v * 10 + (t[p] - '0');
        if (v > kMaxCuteLiteral)
            c.failAt(start + 1, std::string(what) + " too large (Tilescope reads CuTe integers " +
                                    "up to 2^48 = " + std::to_string(kMaxCuteLiteral) + ")");
        ++p;
    }
    c.setPos(p);
    return neg ? -v : v;
}

IntTuple parseTuple(Cursor& c, bool strides, std::size_t depth) {
    if (depth > kMaxDepth) c.fail("tuples nested too deeply (the limit is 16 levels)");
    IntTuple t;
    c.skipWs();
    t.column = c.column();
    if (c.accept('(')) {
        t.leaf = false;
        do {
            c.skipWs();
            // pycute prints a one-mode tuple as Python does, `(16,)`: a trailing comma.
            if (!t.children.empty() && c.peek() == ')') break;
            t.children.push_back(parseTuple(c, strides, depth + 1));
        } while (c.accept(','));
        c.expect(')', "to close the tuple");
        return t;
    }
    if (c.peek() != '_' && !c.peekDigit() && !(strides && c.peek() == '-'))
        c.fail(std::string("expected ") + (strides ? "a stride" : "a shape") +
               " (an integer or a parenthesised tuple), found " + c.describeHere());
    t.value = cuteInt(c, strides ? "a stride" : "a shape extent", strides);
    if (!strides && t.value == 0) c.failAt(t.column, "a shape extent must be positive");
    if (!strides && t.value > interop::kMaxLiteral)
        c.failAt(t.column, "a shape extent too large (the limit is " +
                               std::to_string(interop::kMaxLiteral) + ")");
    if (t.value < 0)
        c.failAt(t.column, "negative stride " + std::to_string(t.value) +
                               ": CuTe reads it as a mode walking backwards, but Tilescope's "
                               "layouts map to non-negative offsets, so it does not read "
                               "negative strides");
    // A basis stride `d@k`, or CuTe's nested ScaledBasis `d@i@j` (printed innermost first: d in
    // sub-mode i of mode j of the codomain, CuTe's E<j,i>).
    std::vector<int> modes;
    while (strides && c.accept('@')) {
        std::size_t col = c.column();
        std::int64_t mode = c.integer("a basis mode");
        if (mode > 7) c.failAt(col, "basis mode " + std::to_string(mode) + " exceeds rank 8");
        if (modes.size() >= 4) c.failAt(col, "basis strides nested more than 4 deep");
        modes.push_back(static_cast<int>(mode));
    }
    if (!modes.empty()) {
        t.basis = modes.back();
        t.inner.assign(modes.rbegin() + 1, modes.rend());
    }
    return t;
}

void checkCongruent(const IntTuple& shape, const IntTuple& stride, Cursor& c) {
    if (shape.leaf && stride.leaf) return;
    if (shape.leaf != stride.leaf || shape.children.size() != stride.children.size())
        c.failAt(stride.column, "stride " + print(stride) +
                                    " does not have the shape's structure " + print(shape) +
                                    " (CuTe needs congruent shape and stride)");
    for (std::size_t k = 0; k < shape.children.size(); ++k)
        checkCongruent(shape.children[k], stride.children[k], c);
}

Layout parseLayoutAt(Cursor& c) {
    Layout l;
    l.shape = parseTuple(c, false, 0);
    c.expect(':', "between shape and stride (CuTe prints a layout as shape:stride)");
    l.stride = parseTuple(c, true, 0);
    checkCongruent(l.shape, l.stride, c);
    return l;
}

std::optional<Swizzle> parseSwizzle(Cursor& c) {
    c.skipWs();
    std::size_t col = c.column();
    Swizzle s;
    if (c.acceptWord("SW_")) { // pycute's spelling
        s.bits = static_cast<int>(c.integer("the swizzle's bit count B"));
        c.expect('_', "in SW_B_M_S");
        s.base = static_cast<int>(c.integer("the swizzle's base M"));
        c.expect('_', "in SW_B_M_S");
        s.shift = static_cast<int>(c.integer("the swizzle's shift S", true));
    } else if (c.acceptWord("Swizzle<") || c.acceptWord("Sw<") || c.acceptWord("S<")) {
        // `S<3,4,3>` is the CuTe DSL's print of the same swizzle.
        s.bits = static_cast<int>(cuteInt(c, "the swizzle's bit count B"));
        c.expect(',', "in Sw<B,M,S>");
        s.base = static_cast<int>(cuteInt(c, "the swizzle's base M"));
        c.expect(',', "in Sw<B,M,S>");
        c.skipWs();
        if (c.peek() == '_') c.setPos(c.pos() + 1);
        s.shift = static_cast<int>(c.integer("the swizzle's shift S", true));
        // The CuTe DSL (4.8) prints a swizzle with a negative shift without its `>`:
        // `S<3,4,-3 o 0 o (8,64):(64,1)`.
        const bool dslNegative =
            s.shift < 0 && c.peek() == 'o' && c.text().substr(c.pos(), 2) == "o ";
        if (!dslNegative) c.expect('>', "to close Sw<B,M,S>");
        if (c.accept('{')) c.expect('}', "after Swizzle<B,M,S>{");
    } else {
        return std::nullopt;
    }
    checkSwizzle(s, c.text(), col);
    return s;
}

std::int64_t checkedMulAdd(std::int64_t acc, std::int64_t a, std::int64_t b) {
    std::int64_t p = 0, r = 0;
    if (__builtin_mul_overflow(a, b, &p) || __builtin_add_overflow(acc, p, &r))
        throw InputError("the layout's offsets overflow 64-bit integers");
    return r;
}

void flattenInto(const IntTuple& shape, const IntTuple& stride, std::vector<Mode>& out) {
    if (shape.leaf) {
        out.push_back({shape.value, stride.value, stride.basis, stride.inner, stride.column});
        if (out.size() > kMaxModes)
            throw InputError("more than 64 modes after flattening", stride.column);
        return;
    }
    for (std::size_t k = 0; k < shape.children.size(); ++k)
        flattenInto(shape.children[k], stride.children[k], out);
}

// The sub-coordinate of flattened mode `k` of a top-level mode from its 1-D coordinate x:
// colexicographic, so x // (product of the sizes left of k) % size_k; the last needs no `%`.
Expr subCoordinate(const Expr& x, const std::vector<Mode>& modes, std::size_t k) {
    std::int64_t below = 1;
    for (std::size_t t = 0; t < k; ++t)
        below *= modes[t].size;
    Expr e = below == 1 ? x : floordiv(x, below);
    bool last = true;
    for (std::size_t t = k + 1; t < modes.size(); ++t)
        last = last && modes[t].size == 1;
    return last ? e : floormod(e, modes[k].size);
}

} // namespace

void checkSwizzle(const Swizzle& s, std::string_view text, std::size_t column) {
    auto bad = [&](const std::string& m) { throw ParseError(m, std::string(text), column); };
    if (s.bits < 0 || s.base < 0) bad("Sw<B,M,S> needs B >= 0 and M >= 0");
    // In 64 bits: B, M and S come straight from the text, and their sum (or |INT_MIN|) would
    // overflow an int.
    const std::int64_t bits = s.bits, base = s.base, shift = std::abs(std::int64_t{s.shift});
    if (shift < bits)
        bad("Sw<" + std::to_string(s.bits) + "," + std::to_string(s.base) + "," +
            std::to_string(s.shift) + "> is not a CuTe swizzle: |S| must be at least B");
    if (bits + base + shift > 30)
        bad("Sw<B,M,S> with B + M + |S| above 30 is outside any shared memory");
}

std::int64_t size(const IntTuple& shape) {
    if (shape.leaf) return shape.value;
    std::int64_t n = 1;
    for (const auto& c : shape.children)
        if (__builtin_mul_overflow(n, size(c), &n))
            throw InputError("the shape's size overflows 64-bit integers", shape.column);
    return n;
}

std::vector<Mode> flattenModes(const IntTuple& shape, const IntTuple& stride) {
    std::vector<Mode> out;
    flattenInto(shape, stride, out);
    return out;
}

Composed parseComposed(std::string_view text) {
    Cursor c(text);
    Composed r;
    if ((r.swizzle = parseSwizzle(c))) {
        if (c.atEnd())
            c.fail("a swizzle alone has no shape: compose it with a layout, e.g. " +
                   print(*r.swizzle) + " o 0 o (8,64):(64,1)");
        if (!c.acceptWord("o")) c.fail("expected 'o' (composition) after the swizzle");
        // An offset between swizzle and layout, as CuTe prints a ComposedLayout: `Sw o 0 o L`.
        std::size_t save = c.pos();
        c.skipWs();
        if (c.acceptWord("smem_ptr[")) {
            // CuTe C++'s GMMA shared-memory atoms: `Sw<3,4,3> o smem_ptr[16b](unset) o L`.
            std::size_t col = c.column();
            std::int64_t bits = c.integer("the element width in bits");
            if (bits < 1 || bits > 1024) c.failAt(col, "an element width of 1 to 1024 bits");
            if (!c.acceptWord("b](unset)"))
                c.fail("this is CuTe's print of a swizzled layout on a shared-memory pointer "
                       "that is set; Tilescope reads the layout's own print, "
                       "`smem_ptr[16b](unset)`");
            r.elementBits = static_cast<int>(bits);
            if (!c.acceptWord("o")) c.fail("expected 'o' (composition) after smem_ptr[...]");
        } else if (c.peek() == '_' || c.peekDigit()) {
            std::int64_t off = cuteInt(c, "an offset");
            if (c.acceptWord("o")) {
                r.offset = off;
            } else {
                c.setPos(save);
            }
        }
    }
    r.layout = parseLayoutAt(c);
    if (!c.atEnd()) {
        if (c.peek() == 'o')
            c.fail("this is CuTe's print of a ComposedLayout of two layouts (A o offset o B), "
                   "which Tilescope does not read yet: paste the layout CuTe's composition(A, B) "
                   "prints");
        c.fail("unexpected " + c.describeHere() + " after the layout");
    }
    return r;
}

std::int64_t applySwizzle(std::int64_t x, const Swizzle& s) {
    const std::int64_t mask = (std::int64_t{1} << s.bits) - 1;
    if (s.shift >= 0) return x ^ ((x >> s.shift) & (mask << s.base));
    return x ^ ((x << -s.shift) & (mask << (s.base - s.shift)));
}

Expr swizzleExpr(const Expr& x, const Swizzle& s) {
    if (s.bits == 0) return x;
    const std::int64_t mask = (std::int64_t{1} << s.bits) - 1;
    if (s.shift >= 0)
        return bitxor(
            x, binary(Op::BitAnd, binary(Op::Shr, x, constant(s.shift)), constant(mask << s.base)));
    return bitxor(x, binary(Op::BitAnd, binary(Op::Shl, x, constant(-s.shift)),
                            constant(mask << (s.base - s.shift))));
}

namespace {

// The output axes of basis strides: CuTe's codomain modes in order, a mode that some stride
// names with a nested basis (`1@0@1`: sub-mode 0 of mode 1) expanded into its sub-modes, a
// mode no stride names an output that stays 0 (CuTe's _0 in the coordinate it returns).
struct BasisNode {
    bool leaf = false;
    std::size_t column = 0;
    std::map<int, BasisNode> kids;
};

void numberOutputs(const BasisNode& n, std::vector<int>& path,
                   std::map<std::vector<int>, std::size_t>& index, std::size_t& next) {
    if (n.kids.empty()) {
        index[path] = next++;
        return;
    }
    for (int k = 0; k <= n.kids.rbegin()->first; ++k) {
        path.push_back(k);
        auto it = n.kids.find(k);
        if (it == n.kids.end())
            ++next; // a sub-mode no stride moves: an output that is 0 everywhere
        else
            numberOutputs(it->second, path, index, next);
        path.pop_back();
    }
}

std::string basisText(const std::vector<int>& path) {
    std::string s = "d";
    for (auto it = path.rbegin(); it != path.rend(); ++it)
        s += "@" + std::to_string(*it);
    return s;
}

// The element offset of a swizzled shared-memory layout as CuTe C++ addresses it: with
// `smem_ptr[Nb]` the swizzle acts on byte addresses, Sw(offset * bytes) / bytes, which for a
// power-of-two element of 2^k bytes is Sw<B, M - k, S> on the element offset when M >= k.
Swizzle elementSwizzle(const Composed& c) {
    const Swizzle& s = *c.swizzle;
    if (c.elementBits == 0 || s.bits == 0) return s;
    const int bits = c.elementBits;
    if ((bits & (bits - 1)) != 0)
        throw InputError("this is CuTe's print of a swizzle on the addresses of " +
                         std::to_string(bits) + "-bit elements (smem_ptr[" + std::to_string(bits) +
                         "b]), which Tilescope does not read yet: it reads elements of 4, 8, 16, "
                         "32, 64 and 128 bits");
    // Sub-byte elements (4-bit: two to a byte): CuTe C++ 4.2 addresses a tensor on such a
    // shared-memory pointer with the swizzle applied to the element offset itself, not to the
    // byte address (g++: Layout_K_SW128_Atom<uint4_t> puts element 128, byte 64, at 144, which
    // is Sw<3,4,3>(128); all 24 uint4_t atoms and tilings in cute_cxx.json.gz agree). Read as CuTe
    // computes it.
    if (bits == 4) return s;
    if (bits < 8)
        throw InputError("this is CuTe's print of a swizzle on the addresses of " +
                         std::to_string(bits) + "-bit elements (smem_ptr[" + std::to_string(bits) +
                         "b]), which Tilescope does not read yet: of the sub-byte widths it "
                         "reads 4-bit elements, the ones checked against CuTe");
    int k = 0;
    while ((8 << k) < bits)
        ++k;
    if (s.base < k)
        throw InputError(print(s) + " on the byte addresses of " + std::to_string(bits) +
                         "-bit elements (smem_ptr[" + std::to_string(bits) +
                         "b]) moves bits inside an element (M < " + std::to_string(k) +
                         "), so the element offsets would not be whole numbers; Tilescope "
                         "does not read it");
    return {s.bits, s.base - k, s.shift};
}

} // namespace

ts::Layout toLayout(const Composed& c) {
    const Layout& l = c.layout;
    std::vector<const IntTuple*> shapes, strides;
    if (l.shape.leaf) {
        shapes.push_back(&l.shape);
        strides.push_back(&l.stride);
    } else {
        for (std::size_t k = 0; k < l.shape.children.size(); ++k) {
            shapes.push_back(&l.shape.children[k]);
            strides.push_back(&l.stride.children[k]);
        }
    }
    Shape grid;
    std::vector<std::vector<Mode>> modes;
    bool anyBasis = false, anyInt = false;
    std::size_t intColumn = 0;
    BasisNode root;
    std::int64_t maxOffset = 0;
    for (std::size_t d = 0; d < shapes.size(); ++d) {
        grid.push_back(size(*shapes[d]));
        modes.push_back(flattenModes(*shapes[d], *strides[d]));
        for (const Mode& m : modes.back()) {
            if (m.basis >= 0) {
                anyBasis = true;
                std::vector<int> path{m.basis};
                path.insert(path.end(), m.inner.begin(), m.inner.end());
                BasisNode* node = &root;
                for (std::size_t q = 0; q < path.size(); ++q) {
                    if (node->leaf)
                        throw InputError("column " + std::to_string(m.column) + ": basis stride " +
                                             basisText(path) + " makes a tuple of a mode that " +
                                             basisText({path.begin(), path.begin() + q}) +
                                             " (column " + std::to_string(node->column) +
                                             ") makes an integer: CuTe cannot add the two",
                                         m.column);
                    node = &node->kids[path[q]];
                }
                if (!node->kids.empty())
                    throw InputError("column " + std::to_string(m.column) + ": basis stride " +
                                         basisText(path) +
                                         " makes an integer of a mode that another basis stride "
                                         "makes a tuple: CuTe cannot add the two",
                                     m.column);
                node->leaf = true;
                node->column = m.column;
            } else if (m.stride != 0) {
                anyInt = true;
                intColumn = m.column;
            }
            maxOffset = checkedMulAdd(maxOffset, m.size - 1, m.stride);
        }
    }
    checkShape(grid, "CuTe layout shape");
    if (anyBasis && anyInt)
        throw InputError("column " + std::to_string(intColumn) +
                             ": an integer stride among basis strides (write it as d@k)",
                         intColumn);
    if (anyBasis && c.swizzle)
        throw InputError("a swizzle composes with integer offsets, not basis strides");
    if (c.offset != 0) maxOffset = checkedMulAdd(maxOffset, c.offset, 1);
    (void)maxOffset;
    std::map<std::vector<int>, std::size_t> outIndex;
    std::size_t outRank = 1;
    if (anyBasis) {
        std::vector<int> path;
        outRank = 0;
        numberOutputs(root, path, outIndex, outRank);
        if (outRank > 8)
            throw InputError("the basis strides name " + std::to_string(outRank) +
                             " outputs; Tilescope's limit is rank 8");
    }
    std::vector<Expr> out(outRank, constant(0));
    for (std::size_t d = 0; d < modes.size(); ++d) {
        Expr x = var(placeholderName(d));
        for (std::size_t k = 0; k < modes[d].size(); ++k) {
            const Mode& m = modes[d][k];
            if (m.size == 1 || m.stride == 0) continue;
            std::size_t o = 0;
            if (m.basis >= 0) {
                std::vector<int> path{m.basis};
                path.insert(path.end(), m.inner.begin(), m.inner.end());
                o = outIndex.at(path);
            }
            out[o] = out[o] + subCoordinate(x, modes[d], k) * m.stride;
        }
    }
    if (c.offset) out[0] = out[0] + c.offset;
    if (c.swizzle) out[0] = swizzleExpr(out[0], elementSwizzle(c));
    return ts::Layout(grid, out);
}

ts::Fragment tvToFragment(const Layout& tv, std::int64_t m, std::int64_t n) {
    if (tv.shape.leaf || tv.shape.children.size() != 2)
        throw InputError("a TV layout has two top-level modes, (thread, value); this one has " +
                         std::to_string(tv.shape.leaf ? 1 : tv.shape.children.size()));
    checkShape({m, n}, "TV tile");
    std::vector<Mode> thr = flattenModes(tv.shape.children[0], tv.stride.children[0]);
    std::vector<Mode> val = flattenModes(tv.shape.children[1], tv.stride.children[1]);
    struct Digit {
        Mode mode;
        bool isThread;
        std::int64_t weight; // colexicographic weight of the mode in its thread or value index
    };
    std::vector<Digit> digits, reps;
    std::int64_t w = 1;
    for (const Mode& md : thr) {
        if (md.basis >= 0)
            throw InputError("a TV layout maps to a 1-D tile index; basis strides are not one",
                             md.column);
        if (md.size > 1) (md.stride == 0 ? reps : digits).push_back({md, true, w});
        w *= md.size;
    }
    w = 1;
    for (const Mode& md : val) {
        if (md.basis >= 0)
            throw InputError("a TV layout maps to a 1-D tile index; basis strides are not one",
                             md.column);
        if (md.size > 1 && md.stride == 0)
            throw InputError("column " + std::to_string(md.column) +
                                 ": a value mode with stride 0 puts one element in several "
                                 "registers of a thread, which a fragment cannot show",
                             md.column);
        if (md.size > 1) digits.push_back({md, false, w});
        w *= md.size;
    }
    // A TV layout is a bijection onto the tile exactly when its modes, sorted by stride, form
    // a mixed radix: stride 1, then each stride the product of the sizes below it.
    std::vector<Digit> sorted = digits;
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const Digit& a, const Digit& b) { return a.mode.stride < b.mode.stride; });
    std::int64_t expect = 1;
    for (const Digit& d : sorted) {
        if (d.mode.stride != expect)
            throw InputError("column " + std::to_string(d.mode.column) +
                                 ": the TV layout is not a bijection "
                                 "onto the " +
                                 std::to_string(m) + "x" + std::to_string(n) + " tile (stride " +
                                 std::to_string(d.mode.stride) + " where " +
                                 std::to_string(expect) + " would continue the mixed radix)",
                             d.mode.column);
        expect *= d.mode.size;
    }
    if (expect != m * n)
        throw InputError("the TV layout covers " + std::to_string(expect) +
                         " elements but the tile " + std::to_string(m) + "x" + std::to_string(n) +
                         " has " + std::to_string(m * n));
    // idx = mi + M * ni; a digit idx // d % s reads only mi or only ni when it lies in one.
    Expr mi = var(placeholderName(0)), ni = var(placeholderName(1));
    auto digitExpr = [&](const Mode& md) -> Expr {
        const std::int64_t d = md.stride, top = md.stride * md.size;
        if (m % top == 0) return top == m ? floordiv(mi, d) : floormod(floordiv(mi, d), md.size);
        if (d % m == 0) {
            Expr q = floordiv(ni, d / m);
            return top == m * n ? q : floormod(q, md.size);
        }
        Expr q = floordiv(mi + ni * m, d);
        return top == m * n ? q : floormod(q, md.size);
    };
    Expr thread = constant(0), local = constant(0);
    for (const Digit& d : digits) {
        Expr term = digitExpr(d.mode) * d.weight;
        (d.isThread ? thread : local) = (d.isThread ? thread : local) + term;
    }
    std::int64_t replicate = 1;
    for (const Digit& r : reps) {
        Expr rep = var(kRepVar);
        Expr digit = replicate == 1 ? rep : floordiv(rep, replicate);
        digit = floormod(digit, r.mode.size);
        thread = thread + digit * r.weight;
        replicate *= r.mode.size;
        if (replicate > 65536) throw InputError("more than 65536 replicas");
    }
    if (replicate > 1) {
        // The last replica digit needs no `% size`; rebuild without it for readable text.
        thread = constant(0);
        for (const Digit& d : digits)
            if (d.isThread) thread = thread + digitExpr(d.mode) * d.weight;
        std::int64_t below = 1;
        for (std::size_t k = 0; k < reps.size(); ++k) {
            Expr rep = var(kRepVar);
            Expr digit = below == 1 ? rep : floordiv(rep, below);
            if (k + 1 < reps.size()) digit = floormod(digit, reps[k].mode.size);
            thread = thread + digit * reps[k].weight;
            below *= reps[k].mode.size;
        }
    }
    return ts::Fragment({m, n}, thread, {local}, replicate);
}

std::int64_t tvThreads(const Layout& tv) {
    if (tv.shape.leaf || tv.shape.children.empty()) return size(tv.shape);
    return size(tv.shape.children[0]);
}

ts::Fragment applyThrID(const ts::Fragment& f, const Layout& thrId, std::int64_t threads) {
    std::vector<Mode> modes = flattenModes(thrId.shape, thrId.stride);
    std::int64_t count = 1;
    for (const Mode& md : modes) {
        if (md.basis >= 0)
            throw InputError("ThrID maps a thread to a lane; basis strides are not one", md.column);
        count *= md.size;
    }
    if (count != threads)
        throw InputError("ThrID has " + std::to_string(count) + " threads but the TV layout " +
                         std::to_string(threads) + ": they are not the same atom's");
    // lane(t) = sum over ThrID's modes of ((t // weight) % size) * stride, colexicographic.
    auto lane = [&](std::int64_t t) {
        std::int64_t out = 0, w = 1;
        for (const Mode& md : modes) {
            out += (t / w) % md.size * md.stride;
            w *= md.size;
        }
        return out;
    };
    bool identity = true;
    for (std::int64_t t = 0; t < threads && identity; ++t)
        identity = lane(t) == t;
    if (identity) return f;
    Expr phys = constant(0);
    std::int64_t w = 1;
    for (const Mode& md : modes) {
        if (md.size > 1) {
            Expr digit = w == 1 ? f.thread() : floordiv(f.thread(), w);
            if (w * md.size < threads) digit = floormod(digit, md.size);
            phys = phys + digit * md.stride;
        }
        w *= md.size;
    }
    return ts::Fragment(f.inputShape(), phys, f.index(), f.replicate());
}

namespace {

// The value of a (flattened) mode at a 1-D coordinate: sum of its digits times their strides.
Expr modeAt(const std::vector<Mode>& modes, const Expr& idx, std::int64_t total) {
    Expr out = constant(0);
    std::int64_t w = 1;
    for (const Mode& md : modes) {
        if (md.basis >= 0) throw InputError("a thread layout has no basis strides", md.column);
        if (md.size > 1 && md.stride != 0) {
            Expr digit = w == 1 ? idx : floordiv(idx, w);
            if (w * md.size < total) digit = floormod(digit, md.size);
            out = out + digit * md.stride;
        }
        w *= md.size;
    }
    return out;
}

std::int64_t modesSize(const std::vector<Mode>& modes) {
    std::int64_t n = 1;
    for (const Mode& md : modes)
        n *= md.size;
    return n;
}

} // namespace

ts::Fragment tileMma(const ts::Fragment& atom, const Layout& vmnk, int rowMode, int colMode,
                     std::int64_t atomThreads, std::int64_t rows, std::int64_t cols,
                     std::int64_t atomValues) {
    if (vmnk.shape.leaf || vmnk.shape.children.size() != 4)
        throw InputError("ThrLayoutVMNK has four modes (V, M, N, K)");
    if (atom.replicate() != 1)
        throw InputError("an MMA atom whose TV layout has broadcast threads cannot be tiled");
    std::vector<Mode> modes[4];
    for (int k = 0; k < 4; ++k)
        modes[k] = flattenModes(vmnk.shape.children[k], vmnk.stride.children[k]);
    if (modesSize(modes[0]) != atomThreads)
        throw InputError("ThrLayoutVMNK's V mode has " + std::to_string(modesSize(modes[0])) +
                         " threads but the atom's TV layout " + std::to_string(atomThreads));
    const int bcast = 6 - rowMode - colMode; // the one of M (1), N (2), K (3) left
    const std::int64_t ra = atom.inputShape()[0], ca = atom.inputShape()[1];
    const std::int64_t ar = modesSize(modes[rowMode]), ac = modesSize(modes[colMode]);
    const std::int64_t copies = modesSize(modes[bcast]);
    // Within an atom: the atom's own thread (on its lane by the V mode) and register.
    Expr i = var(placeholderName(0)), j = var(placeholderName(1));
    auto inAtom = [&](const Expr& e) {
        return substitute(e, [&](const std::string& n) -> Expr {
            if (n == placeholderName(0)) return ar > 1 ? floormod(i, ra) : i;
            if (n == placeholderName(1)) return ac > 1 ? floormod(j, ca) : j;
            return nullptr;
        });
    };
    Expr thread = modeAt(modes[0], inAtom(atom.thread()), atomThreads);
    thread = thread + modeAt(modes[rowMode], ar > 1 ? floordiv(i, ra) : constant(0), ar) +
             modeAt(modes[colMode], ac > 1 ? floordiv(j, ca) : constant(0), ac);
    // The atoms along the remaining mode hold the same elements (a zero stride there, as the
    // K mode of C usually has, is one copy).
    std::int64_t replicate = 1;
    bool anyStride = false;
    for (const Mode& md : modes[bcast])
        anyStride = anyStride || (md.size > 1 && md.stride != 0);
    if (copies > 1 && anyStride) {
        thread = thread + modeAt(modes[bcast], var(kRepVar), copies);
        replicate = copies;
    }
    Expr index = inAtom(atom.index()[0]);
    // A PermutationMNK wider than the atoms (`Tile<_32,_32,_16>` over 2x2 atoms of 16x8): the
    // atoms repeat over the rest of the tile, and each thread holds the repeats in further
    // registers, CuTe's partition order (atom values, rest rows, rest columns), colexicographic.
    const std::int64_t rowsA = ra * ar, colsA = ca * ac;
    const std::int64_t R = rows > 0 ? rows : rowsA, C = cols > 0 ? cols : colsA;
    if (R % rowsA != 0 || C % colsA != 0)
        throw InputError("the TiledMMA's tile " + std::to_string(R) + "x" + std::to_string(C) +
                         " is not a whole number of its atoms' " + std::to_string(rowsA) + "x" +
                         std::to_string(colsA));
    if (R != rowsA || C != colsA) {
        Expr iw = R != rowsA ? floormod(i, rowsA) : i, jw = C != colsA ? floormod(j, colsA) : j;
        auto wrap = [&](const Expr& e) {
            return substitute(e, [&](const std::string& n) -> Expr {
                if (n == placeholderName(0)) return iw;
                if (n == placeholderName(1)) return jw;
                return nullptr;
            });
        };
        thread = wrap(thread);
        index = wrap(index);
        Expr restI = R != rowsA ? floordiv(i, rowsA) : constant(0);
        Expr restJ = C != colsA ? floordiv(j, colsA) : constant(0);
        index = index + (restI + restJ * (R / rowsA)) * atomValues;
    }
    return ts::Fragment({R, C}, thread, {index}, replicate);
}

std::string print(const IntTuple& t) {
    if (t.leaf)
        return std::to_string(t.value) + (t.basis >= 0 ? "@" + std::to_string(t.basis) : "");
    std::string s = "(";
    for (std::size_t k = 0; k < t.children.size(); ++k)
        s += (k ? "," : "") + print(t.children[k]);
    return s + ")";
}

std::string print(const Layout& l) {
    return print(l.shape) + ":" + print(l.stride);
}

std::string print(const Swizzle& s) {
    return "Sw<" + std::to_string(s.bits) + "," + std::to_string(s.base) + "," +
           std::to_string(s.shift) + ">";
}

} // namespace ts::cute

namespace ts {

namespace {

struct Label {
    std::size_t at = std::string_view::npos; // position just after the label
    std::size_t column = 0;
};

Label findLabel(std::string_view text, std::string_view label) {
    std::size_t p = text.find(label);
    if (p == std::string_view::npos) return {};
    return {p + label.size(), p + 1};
}

cute::Layout layoutAfter(std::string_view text, std::size_t pos) {
    // A TV layout ends at the end of its line, or at the next label on the same line (pastes
    // that lost their newlines); a label is never part of a layout.
    std::size_t end = text.find('\n', pos);
    std::string_view line = text.substr(0, end == std::string_view::npos ? text.size() : end);
    for (std::string_view lab :
         {"Tiler_MN:", "TiledLayout_TV:", "LayoutA_TV:", "LayoutB_TV:", "LayoutC_TV:", "Shape_MNK:",
          "ThrID:", "ThrLayoutVMNK:", "PermutationMNK:", "ValLayoutSrc:", "ValLayoutDst:",
          "ValLayoutRef:", "ValueType:"}) {
        std::size_t q = line.find(lab, pos);
        if (q != std::string_view::npos) line = line.substr(0, q);
    }
    // Blank out everything before pos so columns stay those of the whole text.
    std::string masked(line);
    for (std::size_t k = 0; k < pos && k < masked.size(); ++k)
        if (masked[k] != '\n') masked[k] = ' ';
    try {
        cute::Composed comp = cute::parseComposed(masked);
        if (comp.swizzle || comp.offset) throw InputError("a TV layout cannot carry a swizzle");
        return comp.layout;
    } catch (const ParseError& e) {
        throw ParseError(e.message(), std::string(text), e.column());
    }
}

// The extent of one entry of a Tiler_MN or PermutationMNK: an integer (`_32`), or a layout,
// which CuTe's DSL prints even for a plain extent (`32:1`). A layout that is not the identity
// on its extent permutes or strides the tile's rows or columns: refused by name.
std::int64_t tilerEntry(interop::Cursor& c, const char* what) {
    c.skipWs();
    std::size_t col = c.column();
    cute::IntTuple shape = cute::parseTuple(c, false, 0);
    if (!c.accept(':')) {
        if (!shape.leaf)
            c.failAt(col, std::string(what) + " entries are extents or layouts; " +
                              cute::print(shape) + " is a shape without a stride");
        return shape.value;
    }
    cute::IntTuple stride = cute::parseTuple(c, true, 0);
    cute::checkCongruent(shape, stride, c);
    std::int64_t expect = 1;
    for (const cute::Mode& md : cute::flattenModes(shape, stride)) {
        if (md.size == 1) continue;
        if (md.basis >= 0 || md.stride != expect)
            c.failAt(col, "this is CuTe's print of a " + std::string(what) + " entry " +
                              cute::print(cute::Layout{shape, stride}) +
                              " that is not the identity on its extent (it permutes or strides "
                              "the tile's rows or columns), which Tilescope does not read yet");
        expect *= md.size;
    }
    return cute::size(shape);
}

std::vector<std::int64_t> tupleAfter(std::string_view text, std::size_t pos, std::size_t count,
                                     const char* what) {
    interop::Cursor c(text, pos);
    std::vector<std::int64_t> v;
    c.expect('(', (std::string("to open ") + what).c_str());
    do {
        v.push_back(tilerEntry(c, what));
    } while (c.accept(','));
    c.expect(')', (std::string("to close ") + what).c_str());
    if (v.size() < count)
        c.fail(std::string(what) + " needs " + std::to_string(count) + " extents");
    return v;
}

// PermutationMNK as CuTe prints it: `(_,_,_)` (the atoms side by side), or entries that the
// DSL prints as layouts; an identity `N:1` over the whole tile extent is the same as `_`.
// Returns in `extent` the tile of each of M, N, K: the atoms' own extent for `_`, or the
// permutation's extent when it is a whole multiple of it (the atoms repeated).
void checkPermutation(std::string_view text, std::size_t pos, std::size_t column,
                      std::int64_t (&extent)[3]) {
    interop::Cursor c(text, pos);
    std::size_t start = c.pos();
    auto refuse = [&]() {
        std::size_t end = text.find('\n', start);
        std::string p(text.substr(start, end == std::string_view::npos ? std::string_view::npos
                                                                       : end - start));
        p.erase(std::remove_if(p.begin(), p.end(), ::isspace), p.end());
        throw ParseError("this is CuTe's print of a TiledMMA with PermutationMNK " + p +
                             ", which Tilescope does not read yet: it reads TiledMMA prints "
                             "whose PermutationMNK is (_,_,_) (the atoms side by side) or whole "
                             "multiples of the atoms' tile (the atoms repeated over it)",
                         std::string(text), column);
    };
    if (!c.accept('(')) refuse();
    for (int k = 0; k < 3; ++k) {
        if (k > 0 && !c.accept(',')) refuse();
        // `_` alone keeps the atoms side by side; `_32` is a static extent.
        c.skipWs();
        if (c.peek() == '_' && !(c.pos() + 1 < text.size() &&
                                 std::isdigit(static_cast<unsigned char>(text[c.pos() + 1])))) {
            c.accept('_');
            continue;
        }
        std::int64_t e = 0;
        try {
            e = tilerEntry(c, "PermutationMNK");
        } catch (const ParseError&) {
            refuse();
        }
        if (e % extent[k] != 0) refuse();
        extent[k] = e;
    }
    if (!c.accept(')')) refuse();
}

} // namespace

namespace {

// A TiledCopy print that carries its copy atom: the atom moves size<1>(its Ref/Dst layout)
// values per thread, and CuTe partitions the TiledLayout_TV's values by that count. When it
// does not divide them (an ldmatrix.x4 atom on an operand that needs .x2), CuTe's partition
// puts one element in several registers of a thread, which the TV layout alone does not say
// and a fragment cannot show: refused by name rather than shown as the TV layout reads.
void checkCopyAtomValues(std::string_view text, const cute::Layout& tv) {
    if (tv.shape.leaf || tv.shape.children.size() != 2) return;
    auto valuesAfter = [&](std::string_view label) -> std::int64_t {
        Label l = findLabel(text, label);
        if (l.at == std::string_view::npos) return 0;
        cute::Layout atom = layoutAfter(text, l.at);
        if (atom.shape.leaf || atom.shape.children.size() != 2) return 0;
        return cute::size(atom.shape.children[1]);
    };
    // CuTe C++ prints the reference layout (ValLayoutRef). The DSL prints only source and
    // destination; the reference is the register side, the destination of a load (ldmatrix)
    // and the source of a store (stmatrix), and the shared-memory side lists the elements of
    // each thread's whole address row, never fewer: the smaller count is the reference's.
    std::int64_t atomValues = valuesAfter("ValLayoutRef:");
    if (atomValues == 0) {
        const std::int64_t src = valuesAfter("ValLayoutSrc:"), dst = valuesAfter("ValLayoutDst:");
        atomValues = src == 0 ? dst : dst == 0 ? src : std::min(src, dst);
    }
    const std::int64_t tvValues = cute::size(tv.shape.children[1]);
    if (atomValues > 0 && tvValues % atomValues != 0)
        throw InputError("this is CuTe's print of a TiledCopy whose copy atom moves " +
                         std::to_string(atomValues) +
                         " values per thread while its TiledLayout_TV gives each thread " +
                         std::to_string(tvValues) +
                         ": CuTe's partition then holds one element in several registers of a "
                         "thread, which Tilescope does not read (a fragment cannot show it)");
}

Mapping parseCuTeLabelled(std::string_view text) {
    Label tiler = findLabel(text, "Tiler_MN:"), tiled = findLabel(text, "TiledLayout_TV:");
    Label mnk = findLabel(text, "Shape_MNK:");
    Label la = findLabel(text, "LayoutA_TV:"), lb = findLabel(text, "LayoutB_TV:"),
          lc = findLabel(text, "LayoutC_TV:");
    const bool anyTV = tiled.at != std::string_view::npos || la.at != std::string_view::npos ||
                       lb.at != std::string_view::npos || lc.at != std::string_view::npos;
    if (!anyTV) return cute::toLayout(cute::parseComposed(text));
    std::int64_t m = 0, n = 0;
    cute::Layout tv;
    if (tiled.at != std::string_view::npos) {
        if (tiler.at == std::string_view::npos)
            throw ParseError("a TiledLayout_TV needs its tile: add `Tiler_MN: (M,N)` as CuTe "
                             "prints a TiledCopy",
                             std::string(text), tiled.column);
        // A 1-D tile `(M)` is a TV layout over a vector: the fragment is 1-D.
        auto t = tupleAfter(text, tiler.at, 1, "Tiler_MN");
        m = t[0];
        n = t.size() > 1 ? t[1] : 0;
        tv = layoutAfter(text, tiled.at);
        checkCopyAtomValues(text, tv);
        if (n == 0) return cute::tvToFragment(tv, m, 1).reshape({m});
    } else {
        if (mnk.at == std::string_view::npos)
            throw ParseError("an MMA atom's TV layout needs its tile: add `Shape_MNK: (M,N,K)` as "
                             "CuTe prints an MMA_Atom",
                             std::string(text), (lc.at != std::string_view::npos ? lc : la).column);
        auto s = tupleAfter(text, mnk.at, 3, "Shape_MNK");
        // C is (M, N); A is (M, K); B is (N, K). The accumulator wins when several are pasted.
        const Label& use = lc.at != std::string_view::npos   ? lc
                           : la.at != std::string_view::npos ? la
                                                             : lb;
        if (&use == &la && lb.at != std::string_view::npos)
            throw ParseError("both LayoutA_TV and LayoutB_TV: keep the one to show",
                             std::string(text), lb.column);
        m = &use == &lb ? s[1] : s[0];
        n = &use == &lc ? s[1] : s[2];
        tv = layoutAfter(text, use.at);
        // An SM100 tcgen05 (UMMA) atom is issued by one thread for the whole CTA (ThrID 1:0) and
        // keeps its accumulator in tensor memory: its TV layout gives that one "thread" the
        // whole tile, which no thread's registers hold (255 at most). Named, not drawn as
        // registers.
        if (cute::tvThreads(tv) == 1 && m * n > 255)
            throw InputError("this is CuTe's print of an MMA atom issued by one thread for a " +
                             std::to_string(m) + "x" + std::to_string(n) +
                             " tile (an SM100 tcgen05 atom, ThrID 1:0, whose accumulator is in "
                             "tensor memory), which Tilescope does not read yet: its values are "
                             "not a thread's registers");
        // A TiledMMA print: its atoms, tiled by ThrLayoutVMNK (whose V mode is the atom's ThrID).
        Label vmnk = findLabel(text, "ThrLayoutVMNK:");
        if (vmnk.at != std::string_view::npos) {
            Label perm = findLabel(text, "PermutationMNK:");
            cute::Layout vl = layoutAfter(text, vmnk.at);
            std::int64_t extent[3] = {s[0], s[1], s[2]};
            if (!vl.shape.leaf && vl.shape.children.size() == 4)
                for (int k = 0; k < 3; ++k)
                    extent[k] *= cute::size(vl.shape.children[k + 1]);
            if (perm.at != std::string_view::npos)
                checkPermutation(text, perm.at, perm.column, extent);
            const int row = &use == &lb ? 2 : 1, col = &use == &lc ? 2 : 3;
            const std::int64_t values = tv.shape.leaf || tv.shape.children.size() < 2
                                            ? 1
                                            : cute::size(tv.shape.children[1]);
            return cute::tileMma(cute::tvToFragment(tv, m, n), vl, row, col, cute::tvThreads(tv),
                                 extent[row - 1], extent[col - 1], values);
        }
        // The atom's TV layouts number threads logically; ThrID gives each one's lane (SM70's
        // 8x8x4 atoms run on a quadpair, lanes 0-3 and 16-19).
        Label thr = findLabel(text, "ThrID:");
        if (thr.at != std::string_view::npos)
            return cute::applyThrID(cute::tvToFragment(tv, m, n), layoutAfter(text, thr.at),
                                    cute::tvThreads(tv));
    }
    return cute::tvToFragment(tv, m, n);
}

} // namespace

Mapping parseCuTe(std::string_view text) {
    if (auto form = cute::unreadCuteForm(text)) throw InputError(*form);
    // The CuTe DSL prints the same atoms with other labels; read with CuTe C++'s, report with the
    // text as given (the labels keep their length, so columns are the same).
    std::string norm = cute::normalizeDslLabels(text);
    try {
        return parseCuTeLabelled(norm);
    } catch (const ParseError& e) {
        throw ParseError(e.message(), std::string(text), e.column());
    }
}

} // namespace ts
