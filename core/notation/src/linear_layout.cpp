// SPDX-License-Identifier: Apache-2.0
// Triton linear layouts: text forms, F2 algebra, and the Tilescope reading (linear_layout.h).
#include "tilescope/notation/linear_layout.h"

#include "gluon_args.h"
#include "interop_value.h"
#include "tilescope/notation/interop.h"
#include "tilescope/support/errors.h"

#include <algorithm>
#include <bit>
#include <map>
#include <set>

namespace ts::interop {

Value parseValue(Cursor& c, std::size_t depth) {
    if (depth > 32) c.fail("values nested too deeply");
    Value v;
    c.skipWs();
    v.column = c.column();
    char ch = c.peek();
    if (ch == '[' || ch == '(') {
        char close = ch == '[' ? ']' : ')';
        c.accept(ch);
        v.kind = Value::List;
        if (!c.accept(close)) {
            do {
                if (c.peek() == close) break; // trailing comma
                v.items.push_back(parseValue(c, depth + 1));
            } while (c.accept(','));
            c.expect(close, ch == '[' ? "to close the list" : "to close the tuple");
        }
        return v;
    }
    if (ch == '{') {
        c.accept('{');
        v.kind = Value::Dict;
        if (!c.accept('}')) {
            do {
                std::string key = c.identifier();
                if (key.empty()) c.fail("expected a key, found " + c.describeHere());
                c.expect('=', "after the key");
                v.fields.push_back({key, parseValue(c, depth + 1)});
            } while (c.accept(','));
            c.expect('}', "to close the attribute dictionary");
        }
        return v;
    }
    if (ch == '-' || std::isdigit(static_cast<unsigned char>(ch))) {
        v.kind = Value::Int;
        v.i = c.integer("an integer", true);
        return v;
    }
    std::string name = c.identifier();
    if (name.empty()) c.fail("unexpected " + c.describeHere());
    std::size_t dot = name.rfind('.');
    v.name = dot == std::string::npos ? name : name.substr(dot + 1);
    if (!c.accept('(')) {
        v.kind = Value::Name;
        return v;
    }
    v.kind = Value::Call;
    if (!c.accept(')')) {
        do {
            if (c.peek() == ')') break;
            std::size_t save = c.pos();
            std::string key = c.identifier();
            if (!key.empty() && c.peek() == '=') {
                c.accept('=');
                v.fields.push_back({key, parseValue(c, depth + 1)});
            } else {
                c.setPos(save);
                v.items.push_back(parseValue(c, depth + 1));
            }
        } while (c.accept(','));
        c.expect(')', ("to close " + v.name + "(").c_str());
    }
    return v;
}

std::int64_t asInt(Cursor& c, const Value& v, const char* what) {
    if (v.kind != Value::Int) c.failAt(v.column, std::string(what) + " must be an integer");
    return v.i;
}

std::vector<std::int64_t> asIntList(Cursor& c, const Value& v, const char* what) {
    if (v.kind != Value::List)
        c.failAt(v.column, std::string(what) + " must be a list of integers");
    std::vector<std::int64_t> out;
    for (const Value& x : v.items)
        out.push_back(asInt(c, x, what));
    return out;
}

std::vector<std::vector<std::int64_t>> asBases(Cursor& c, const Value& v, const char* what) {
    if (v.kind != Value::List)
        c.failAt(v.column, std::string(what) + " must be a list of bases, e.g. [[0, 1], [1, 0]]");
    std::vector<std::vector<std::int64_t>> out;
    for (const Value& b : v.items) {
        if (b.kind != Value::List)
            c.failAt(b.column, std::string("each basis of ") + what +
                                   " is a list with one coordinate per output dim");
        out.push_back(asIntList(c, b, what));
    }
    return out;
}

bool asBool(Cursor& c, const Value& v, const char* what) {
    if (v.kind == Value::Name && (v.name == "True" || v.name == "true")) return true;
    if (v.kind == Value::Name && (v.name == "False" || v.name == "false")) return false;
    if (v.kind == Value::Int && (v.i == 0 || v.i == 1)) return v.i == 1;
    c.failAt(v.column, std::string(what) + " must be True or False");
}

} // namespace ts::interop

namespace ts::linear {

namespace {

using interop::Cursor;
using interop::Value;

int log2Exact(std::int64_t n) {
    return n > 0 && (n & (n - 1)) == 0 ? std::countr_zero(static_cast<std::uint64_t>(n)) : -1;
}

// Validates arities, coordinates and sizes; columns point at the offending basis.
void validate(LinearLayout& l, Cursor& c, const std::vector<std::size_t>& basisColumns,
              std::size_t whole) {
    const std::size_t rank = l.outNames.size();
    if (rank == 0 || rank > 8) c.failAt(whole, "a linear layout needs 1 to 8 output dims");
    std::size_t k = 0, inBits = 0;
    for (InDim& d : l.ins) {
        for (const auto& b : d.bases) {
            std::size_t col = k < basisColumns.size() ? basisColumns[k] : whole;
            ++k;
            if (b.size() != rank)
                c.failAt(col, "basis of '" + d.name + "' has " + std::to_string(b.size()) +
                                  " coordinates but the layout has " + std::to_string(rank) +
                                  " output dims");
            for (std::size_t o = 0; o < rank; ++o)
                if (b[o] < 0 || b[o] >= l.outSizes[o])
                    c.failAt(col, "basis coordinate " + std::to_string(b[o]) + " of '" + d.name +
                                      "' is outside " + l.outNames[o] + " (size " +
                                      std::to_string(l.outSizes[o]) + ")");
        }
        inBits += d.bases.size();
    }
    if (inBits > 40) c.failAt(whole, "more than 40 input bits");
    std::size_t outBits = 0;
    for (std::size_t o = 0; o < rank; ++o) {
        if (log2Exact(l.outSizes[o]) < 0)
            c.failAt(whole, l.outNames[o] + " has size " + std::to_string(l.outSizes[o]) +
                                ", not a power of two (linear layouts need them)");
        outBits += static_cast<std::size_t>(log2Exact(l.outSizes[o]));
    }
    if (outBits > 24) c.failAt(whole, "more than 2^24 output elements");
}

// Output sizes a Gluon SharedLinearLayout / `#ttg.linear` implies: 1 << bit_length(max basis).
std::vector<std::int64_t> impliedSizes(const LinearLayout& l, std::size_t rank) {
    std::vector<std::int64_t> s(rank, 1);
    for (const InDim& d : l.ins)
        for (const auto& b : d.bases)
            for (std::size_t o = 0; o < rank && o < b.size(); ++o)
                if (b[o] > 0)
                    s[o] = std::max<std::int64_t>(
                        s[o], std::int64_t{1} << std::bit_width(static_cast<std::uint64_t>(b[o])));
    return s;
}

std::vector<std::string> dimNames(std::size_t rank) {
    std::vector<std::string> n;
    for (std::size_t o = 0; o < rank; ++o)
        n.push_back("dim" + std::to_string(o));
    return n;
}

LinearLayout fromFields(Cursor& c, const Value& v,
                        const std::vector<std::pair<const char*, const char*>>& dims,
                        std::vector<std::size_t>& cols) {
    LinearLayout l;
    std::set<std::string> known;
    for (auto [key, name] : dims) {
        known.insert(key);
        const Value* b = v.field(key);
        InDim d{name, {}};
        if (b) {
            d.bases = interop::asBases(c, *b, key);
            for (const Value& x : b->items)
                cols.push_back(x.column);
        }
        l.ins.push_back(std::move(d));
    }
    for (const interop::Field& f : v.fields)
        if (!known.count(f.key) && f.key != "shape" && f.key != "alignment")
            c.failAt(f.value.column, "unknown argument '" + f.key + "'");
    std::size_t rank = 0;
    for (const InDim& d : l.ins)
        if (!d.bases.empty()) rank = d.bases.front().size();
    if (const Value* s = v.field("shape")) {
        l.outSizes = interop::asIntList(c, *s, "shape");
        rank = l.outSizes.size();
    } else {
        l.outSizes = impliedSizes(l, rank);
    }
    l.outNames = dimNames(rank);
    return l;
}

// ` - register=1 -> (0, 1)` lines and `where out dims are: [dim0 (size 16), dim1 (size 8)]`.
LinearLayout parseToString(std::string_view text, std::vector<std::size_t>& cols) {
    Cursor c(text);
    LinearLayout l;
    while (!c.atEnd()) {
        if (c.acceptWord("where")) {
            if (!c.acceptWord("out") || !c.acceptWord("dims") || !c.acceptWord("are:"))
                c.fail("expected 'where out dims are: [...]'");
            c.expect('[', "to open the output dims");
            if (!c.accept(']')) {
                do {
                    std::string name = c.identifier();
                    if (name.empty()) c.fail("expected an output dim name");
                    c.expect('(', "before the dim's size");
                    if (!c.acceptWord("size")) c.fail("expected 'size'");
                    l.outSizes.push_back(c.integer("a dim size"));
                    c.expect(')', "after the dim's size");
                    l.outNames.push_back(name);
                } while (c.accept(','));
                c.expect(']', "to close the output dims");
            }
            if (!c.atEnd()) c.fail("unexpected " + c.describeHere() + " after the output dims");
            break;
        }
        c.accept('-');
        std::string name = c.identifier();
        if (name.empty()) c.fail("expected an input dim name, found " + c.describeHere());
        if (c.acceptWord("is")) {
            if (!c.acceptWord("a") || !c.acceptWord("size") || !c.acceptWord("1") ||
                !c.acceptWord("dimension"))
                c.fail("expected 'is a size 1 dimension'");
            l.ins.push_back({name, {}});
            continue;
        }
        InDim* d = nullptr;
        for (InDim& x : l.ins)
            if (x.name == name) d = &x;
        if (!d) {
            l.ins.push_back({name, {}});
            d = &l.ins.back();
        }
        c.expect('=', ("after '" + name + "'").c_str());
        std::size_t vcol = c.column();
        std::int64_t v = c.integer("the input value");
        std::int64_t want = std::int64_t{1} << std::min<std::size_t>(d->bases.size(), 62);
        if (v != want)
            c.failAt(vcol, name + "=" + std::to_string(v) + " is out of order: expected " + name +
                               "=" + std::to_string(want));
        if (!c.acceptWord("->")) c.fail("expected '->'");
        c.skipWs();
        cols.push_back(c.column());
        c.expect('(', "to open the basis");
        std::vector<std::int64_t> b;
        do {
            b.push_back(c.integer("a coordinate"));
        } while (c.accept(','));
        c.expect(')', "to close the basis");
        d->bases.push_back(std::move(b));
    }
    if (l.outNames.empty()) c.fail("LinearLayout text ends without 'where out dims are: [...]'");
    return l;
}

// The image, as a bit mask over the flattened output bits (dim0's bits lowest).
struct Bits {
    std::vector<int> outLog; // log2 of each output size
    std::vector<int> outOffset;
    std::uint64_t pack(const std::vector<std::int64_t>& coords) const {
        std::uint64_t m = 0;
        for (std::size_t o = 0; o < coords.size(); ++o)
            m |= static_cast<std::uint64_t>(coords[o]) << outOffset[o];
        return m;
    }
};

Bits bitsOf(const LinearLayout& l) {
    Bits b;
    int off = 0;
    for (std::int64_t s : l.outSizes) {
        b.outOffset.push_back(off);
        b.outLog.push_back(log2Exact(s));
        off += b.outLog.back();
    }
    return b;
}

// An expression for a map linear over F2 from the grid's bits: XOR over set bits of
// image[d][k]. Runs of bits that move together (bit k of x to bit s, k+1 to s+1, ...) read as
// `x // 2^a % 2^len * 2^s`; terms whose images share no bit with any other add, the rest XOR.
Expr bitLinearExpr(const std::vector<std::vector<std::int64_t>>& image,
                   const std::vector<int>& dimBits, const std::vector<std::string>& names) {
    struct Term {
        Expr e;
        std::int64_t bits;
    };
    std::vector<Term> terms;
    for (std::size_t d = 0; d < image.size(); ++d) {
        Expr x = var(names[d]);
        const int nb = dimBits[d];
        for (int k = 0; k < nb;) {
            std::int64_t img = image[d][static_cast<std::size_t>(k)];
            if (img == 0) {
                ++k;
                continue;
            }
            int len = 1;
            const bool single = (img & (img - 1)) == 0;
            if (single)
                while (k + len < nb && image[d][static_cast<std::size_t>(k + len)] == img << len)
                    ++len;
            Expr e = k == 0 ? x : floordiv(x, std::int64_t{1} << k);
            if (k + len < nb) e = floormod(e, std::int64_t{1} << len);
            std::int64_t mult = single ? img : img;
            std::int64_t covered = single ? ((std::int64_t{1} << len) - 1) * img : img;
            terms.push_back({e * mult, covered});
            k += len;
        }
    }
    std::vector<bool> disjoint(terms.size(), true);
    for (std::size_t a = 0; a < terms.size(); ++a)
        for (std::size_t b = 0; b < terms.size(); ++b)
            if (a != b && (terms[a].bits & terms[b].bits)) disjoint[a] = false;
    Expr sum;
    for (std::size_t a = 0; a < terms.size(); ++a)
        if (disjoint[a]) sum = sum ? sum + terms[a].e : terms[a].e;
    Expr out = sum;
    for (std::size_t a = 0; a < terms.size(); ++a)
        if (!disjoint[a]) out = out ? bitxor(out, terms[a].e) : terms[a].e;
    return out ? out : constant(0);
}

// Gaussian elimination over F2 with the input combination that produced each pivot.
struct Elimination {
    std::map<int, std::pair<std::uint64_t, std::uint64_t>> pivots; // top bit -> (image, inputs)
    std::vector<std::uint64_t> kernel;                             // input combinations -> 0

    explicit Elimination(const std::vector<std::uint64_t>& columns) {
        for (std::size_t k = 0; k < columns.size(); ++k) {
            std::uint64_t v = columns[k], comb = std::uint64_t{1} << k;
            while (v) {
                int top = 63 - std::countl_zero(v);
                auto it = pivots.find(top);
                if (it == pivots.end()) break;
                v ^= it->second.first;
                comb ^= it->second.second;
            }
            if (v)
                pivots[63 - std::countl_zero(v)] = {v, comb};
            else
                kernel.push_back(comb);
        }
        reduceKernel(kernel);
    }
    // Reduced echelon form: distinct leading bits, each cleared in the others, so replicas
    // enumerate in increasing input order (and a coset's reduced member is its smallest).
    static void reduceKernel(std::vector<std::uint64_t>& kernel) {
        std::vector<std::uint64_t> red;
        for (std::uint64_t k : kernel) {
            for (std::uint64_t r : red)
                if (k & (std::uint64_t{1} << (63 - std::countl_zero(r)))) k ^= r;
            if (!k) continue;
            const std::uint64_t lead = std::uint64_t{1} << (63 - std::countl_zero(k));
            for (std::uint64_t& r : red)
                if (r & lead) r ^= k;
            red.push_back(k);
        }
        std::sort(red.begin(), red.end());
        kernel = red;
    }
    // An input combination whose image is `target`, reduced against the kernel; nullopt when
    // `target` is not in the image.
    std::optional<std::uint64_t> preimage(std::uint64_t target) const {
        std::uint64_t comb = 0;
        while (target) {
            auto it = pivots.find(63 - std::countl_zero(target));
            if (it == pivots.end()) return std::nullopt;
            target ^= it->second.first;
            comb ^= it->second.second;
        }
        for (std::uint64_t k : kernel)
            if (comb & (std::uint64_t{1} << (63 - std::countl_zero(k)))) comb ^= k;
        return comb;
    }
};

std::string describeOutBit(const LinearLayout& l, const Bits& b, int bit) {
    for (std::size_t o = l.outNames.size(); o-- > 0;)
        if (bit >= b.outOffset[o])
            return l.outNames[o] + " = " +
                   std::to_string(std::int64_t{1} << (bit - b.outOffset[o]));
    return "?";
}

const InDim* findIn(const LinearLayout& l, std::string_view name) {
    for (const InDim& d : l.ins)
        if (d.name == name) return &d;
    return nullptr;
}

bool allZero(const InDim* d) {
    if (!d) return true;
    for (const auto& b : d->bases)
        for (std::int64_t v : b)
            if (v) return false;
    return true;
}

} // namespace

std::size_t LinearLayout::outBits() const {
    std::size_t n = 0;
    for (std::int64_t s : outSizes)
        n += static_cast<std::size_t>(log2Exact(s));
    return n;
}

std::vector<std::int64_t> LinearLayout::apply(const std::vector<std::int64_t>& in) const {
    std::vector<std::int64_t> out(outNames.size(), 0);
    for (std::size_t d = 0; d < ins.size() && d < in.size(); ++d)
        for (std::size_t k = 0; k < ins[d].bases.size(); ++k)
            if ((in[d] >> k) & 1)
                for (std::size_t o = 0; o < out.size(); ++o)
                    out[o] ^= ins[d].bases[k][o];
    return out;
}

LinearLayout parse(std::string_view text) {
    Cursor c(text);
    c.skipWs();
    const std::size_t whole = c.column();
    std::vector<std::size_t> cols;
    LinearLayout l;
    std::string_view lead = text;
    while (!lead.empty() && std::isspace(static_cast<unsigned char>(lead.front())))
        lead.remove_prefix(1);
    if (interop::isTtgirText(lead)) {
        // TTGIR's own `#alias = ...` lines must not be skipped as Python comments.
        l = interop::ttgirLayout(text);
    } else if (c.peek() == '-' || text.find("where out dims are") != std::string_view::npos) {
        l = parseToString(text, cols);
    } else {
        Value v = interop::parseValue(c);
        if (v.kind == Value::Call && interop::isGluonLayoutName(v.name)) {
            // `BlockedLayout(...), [32, 32]`: the constructor and the tensor shape it is for.
            c.accept(',');
            if (c.atEnd())
                c.failAt(v.column, v.name + "(...) needs the tensor shape it lays out: write " +
                                       v.name + "(...), [M, N] or to_linear_layout(" + v.name +
                                       "(...), [M, N])");
            Value s = interop::parseValue(c);
            if (!c.atEnd()) c.fail("unexpected " + c.describeHere() + " after the shape");
            l = interop::gluonLayout(c, v, interop::asIntList(c, s, "shape"), s.column);
            validate(l, c, cols, whole);
            return l;
        }
        if (!c.atEnd()) c.fail("unexpected " + c.describeHere() + " after the layout");
        if (v.kind != Value::Call) c.failAt(v.column, "expected a Triton layout");
        if (v.name == "DistributedLinearLayout" || v.name == "SharedLinearLayout") {
            return interop::linearLayoutCall(c, v);
        } else if (v.name == "to_linear_layout") {
            interop::GluonArgs a(c, v, {"layout", "shape"}, 2);
            const Value& s = *a.get("shape");
            l = interop::gluonLayout(c, *a.get("layout"), interop::asIntList(c, s, "shape"),
                                     s.column);
        } else {
            c.failAt(v.column,
                     "'" + v.name +
                         "' is not a Triton layout Tilescope reads (DistributedLinearLayout, "
                         "SharedLinearLayout, to_linear_layout(...), #ttg.linear<...>)");
        }
    }
    validate(l, c, cols, whole);
    return l;
}

Mapping toMapping(const LinearLayout& l) {
    std::set<std::string> names;
    for (const InDim& d : l.ins)
        names.insert(d.name);
    const bool distributed = std::all_of(names.begin(), names.end(), [](const std::string& n) {
        return n == "register" || n == "lane" || n == "warp" || n == "block";
    });
    const bool shared =
        names.count("offset") && std::all_of(names.begin(), names.end(), [](const std::string& n) {
            return n == "offset" || n == "block";
        });
    const Bits bits = bitsOf(l);
    std::vector<int> dimBits = bits.outLog;
    std::vector<std::string> cellVars;
    for (std::size_t o = 0; o < l.outNames.size(); ++o)
        cellVars.push_back(placeholderName(o));
    Shape grid(l.outSizes.begin(), l.outSizes.end());
    checkShape(grid, "linear layout output");
    const int outBits = static_cast<int>(l.outBits());

    if (distributed || shared) {
        if (!allZero(findIn(l, "block")))
            throw InputError(
                "the layout spreads over several CTAs (non-zero block bases); Tilescope "
                "shows one thread block, so it would hide part of the layout");
        std::vector<const InDim*> order;
        for (const char* n : distributed ? std::vector<const char*>{"register", "lane", "warp"}
                                         : std::vector<const char*>{"offset"})
            order.push_back(findIn(l, n));
        std::vector<std::uint64_t> columns;
        std::vector<std::size_t> dimStart;
        for (const InDim* d : order) {
            dimStart.push_back(columns.size());
            if (d)
                for (const auto& b : d->bases)
                    columns.push_back(bits.pack(b));
        }
        Elimination el(columns);
        for (int b = 0; b < outBits; ++b)
            if (!el.pivots.count(b) && !el.preimage(std::uint64_t{1} << b))
                throw InputError("no " +
                                 std::string(distributed ? "thread holds" : "offset holds") +
                                 " the element at " + describeOutBit(l, bits, b) +
                                 " (the layout is not surjective)");
        const std::size_t nReg = distributed ? (order[0] ? order[0]->bases.size() : 0) : 0;
        const std::uint64_t regMask = (std::uint64_t{1} << nReg) - 1;
        if (shared && !el.kernel.empty()) {
            std::uint64_t k = el.kernel.front();
            throw InputError("offsets 0 and " + std::to_string(k) +
                             " hold the same element; Tilescope shows a shared layout as its "
                             "inverse (dim0, ...) -> offset, which needs a bijection");
        }
        // Register broadcast (a thread holds an element in several registers, as Triton's
        // layouts of broadcast tensors do): each element is shown in the lowest register
        // of the thread that holds it. That register is the same in every thread holding the
        // element only when the kernel splits into register-only and thread-only parts;
        // otherwise the register would depend on the thread, which a fragment cannot say.
        std::vector<std::uint64_t> regKernel, thrKernel;
        for (std::uint64_t k : el.kernel)
            (k >> nReg ? thrKernel : regKernel).push_back(k);
        for (std::uint64_t& k : thrKernel) {
            std::uint64_t r = k & regMask;
            for (std::size_t a = regKernel.size(); a-- > 0;)
                if (r & (std::uint64_t{1} << (63 - std::countl_zero(regKernel[a]))))
                    r ^= regKernel[a];
            if (r)
                throw InputError(
                    "one element sits in register " + std::to_string(k & regMask) + " of thread " +
                    std::to_string(k >> nReg) +
                    " and register 0 of thread 0 (the register "
                    "holding it depends on the thread); a fragment keeps one register index per "
                    "element");
            k &= ~regMask;
        }
        el.reduceKernel(thrKernel);
        el.kernel = regKernel;
        el.kernel.insert(el.kernel.end(), thrKernel.begin(), thrKernel.end());
        // Images of the grid's bits: the preimage of each output bit.
        std::vector<std::vector<std::int64_t>> thr(grid.size()), loc(grid.size());
        for (std::size_t o = 0; o < grid.size(); ++o)
            for (int k = 0; k < dimBits[o]; ++k) {
                std::uint64_t pre = *el.preimage(std::uint64_t{1} << (bits.outOffset[o] + k));
                thr[o].push_back(static_cast<std::int64_t>(pre >> nReg));
                loc[o].push_back(static_cast<std::int64_t>(pre & regMask));
            }
        if (shared) return ts::Layout(grid, {bitLinearExpr(thr, dimBits, cellVars)});
        Expr thread = bitLinearExpr(thr, dimBits, cellVars);
        Expr local = bitLinearExpr(loc, dimBits, cellVars);
        const std::int64_t replicate = std::int64_t{1} << thrKernel.size();
        if (replicate > 65536) throw InputError("more than 65536 replicas");
        if (replicate > 1) {
            std::vector<std::vector<std::int64_t>> rep(1);
            for (std::uint64_t k : thrKernel)
                rep[0].push_back(static_cast<std::int64_t>(k >> nReg));
            thread = bitxor(thread, bitLinearExpr(rep, {static_cast<int>(thrKernel.size())},
                                                  {std::string(kRepVar)}));
        }
        return ts::Fragment(grid, thread, {local}, replicate);
    }
    // Any other input dims: the forward map, one grid axis per input dim.
    Shape inGrid;
    std::vector<int> inBits;
    std::vector<std::string> inVars;
    for (std::size_t d = 0; d < l.ins.size(); ++d) {
        inGrid.push_back(std::int64_t{1} << l.ins[d].bases.size());
        inBits.push_back(static_cast<int>(l.ins[d].bases.size()));
        inVars.push_back(placeholderName(d));
    }
    checkShape(inGrid, "linear layout input");
    std::vector<Expr> outs;
    for (std::size_t o = 0; o < l.outNames.size(); ++o) {
        std::vector<std::vector<std::int64_t>> img(l.ins.size());
        for (std::size_t d = 0; d < l.ins.size(); ++d)
            for (const auto& b : l.ins[d].bases)
                img[d].push_back(b[o]);
        outs.push_back(bitLinearExpr(img, inBits, inVars));
    }
    return ts::Layout(inGrid, outs);
}

namespace {

std::string basesText(const std::vector<std::vector<std::int64_t>>& bases) {
    std::string s = "[";
    for (std::size_t k = 0; k < bases.size(); ++k) {
        s += k ? ", [" : "[";
        for (std::size_t o = 0; o < bases[k].size(); ++o)
            s += (o ? ", " : "") + std::to_string(bases[k][o]);
        s += "]";
    }
    return s + "]";
}

} // namespace

std::string print(const LinearLayout& l) {
    auto bases = [&](const char* n) {
        const InDim* d = findIn(l, n);
        return basesText(d ? d->bases : std::vector<std::vector<std::int64_t>>{});
    };
    std::set<std::string> names;
    for (const InDim& d : l.ins)
        names.insert(d.name);
    if (names.count("register") || names.count("lane")) {
        std::string shape = "[";
        for (std::size_t o = 0; o < l.outSizes.size(); ++o)
            shape += (o ? ", " : "") + std::to_string(l.outSizes[o]);
        return "DistributedLinearLayout(reg_bases=" + bases("register") +
               ", lane_bases=" + bases("lane") + ", warp_bases=" + bases("warp") +
               ", block_bases=" + bases("block") + ", shape=" + shape + "])";
    }
    if (names.count("offset"))
        return "SharedLinearLayout(offset_bases=" + bases("offset") +
               ", block_bases=" + bases("block") + ")";
    std::string s;
    for (const InDim& d : l.ins) {
        if (d.bases.empty()) {
            s += " - " + d.name + " is a size 1 dimension\n";
            continue;
        }
        for (std::size_t k = 0; k < d.bases.size(); ++k) {
            s +=
                (k ? "   " : " - ") + d.name + "=" + std::to_string(std::int64_t{1} << k) + " -> (";
            for (std::size_t o = 0; o < d.bases[k].size(); ++o)
                s += (o ? ", " : "") + std::to_string(d.bases[k][o]);
            s += ")\n";
        }
    }
    s += "where out dims are: [";
    for (std::size_t o = 0; o < l.outNames.size(); ++o)
        s += (o ? ", " : "") + l.outNames[o] + " (size " + std::to_string(l.outSizes[o]) + ")";
    return s + "]";
}

} // namespace ts::linear

namespace ts::interop {

linear::LinearLayout linearLayoutCall(Cursor& c, const Value& call) {
    // Positional arguments in the dataclass's field order, as Python binds them.
    const bool dist = call.name == "DistributedLinearLayout";
    GluonArgs a(c, call,
                dist ? std::vector<std::string>{"reg_bases", "lane_bases", "warp_bases",
                                                "block_bases", "shape"}
                     : std::vector<std::string>{"offset_bases", "block_bases", "alignment"},
                0);
    Value v = call;
    v.items.clear();
    v.fields.clear();
    for (const char* f : {"reg_bases", "lane_bases", "warp_bases", "block_bases", "shape",
                          "offset_bases", "alignment"})
        if (const Value* x = a.get(f)) v.fields.push_back({f, *x});
    std::vector<std::size_t> cols;
    linear::LinearLayout l;
    if (v.name == "DistributedLinearLayout") {
        l = linear::fromFields(c, v,
                               {{"reg_bases", "register"},
                                {"lane_bases", "lane"},
                                {"warp_bases", "warp"},
                                {"block_bases", "block"}},
                               cols);
        if (!v.field("shape")) c.failAt(v.column, "DistributedLinearLayout needs shape=[...]");
    } else {
        l = linear::fromFields(c, v, {{"offset_bases", "offset"}, {"block_bases", "block"}}, cols);
    }
    linear::validate(l, c, cols, v.column);
    return l;
}

} // namespace ts::interop

namespace ts {

Mapping parseTriton(std::string_view text) {
    return linear::toMapping(linear::parse(text));
}

} // namespace ts
