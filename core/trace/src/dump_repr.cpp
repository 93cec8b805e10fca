// SPDX-License-Identifier: Apache-2.0
// Parsers for TileLang's printed layouts: DebugOutput reprs (tuple and list style), the
// `tl.Fragment(input_size=...)` reflection repr and the layout-visualization block.
#include "dump_internal.h"
#include "tilescope/notation/mapping.h"
#include "tilescope/support/errors.h"
#include "tilescope/trace/dump.h"

#include <cctype>

namespace ts::dump {

namespace {

struct Piece {
    std::string_view text;
    std::size_t offset = 0; // into the whole repr
};

bool isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

Piece trim(Piece p) {
    while (!p.text.empty() && isSpace(p.text.front())) {
        p.text.remove_prefix(1);
        ++p.offset;
    }
    while (!p.text.empty() && isSpace(p.text.back()))
        p.text.remove_suffix(1);
    return p;
}

[[noreturn]] void fail(const std::string& msg, std::string_view whole, std::size_t offset) {
    throw ParseError(msg, std::string(whole), offset + 1);
}

// Splits at depth-0 occurrences of `sep` (a comma or "->"), respecting brackets and quotes.
std::vector<Piece> splitTop(Piece p, std::string_view sep, std::string_view whole) {
    std::vector<Piece> out;
    int depth = 0;
    char quote = 0;
    std::size_t start = 0;
    std::vector<std::size_t> opens;
    for (std::size_t k = 0; k < p.text.size(); ++k) {
        char c = p.text[k];
        if (quote) {
            if (c == quote) quote = 0;
            continue;
        }
        if (c == '"' || c == '\'') {
            quote = c;
        } else if (c == '(' || c == '[' || c == '{') {
            ++depth;
            opens.push_back(k);
        } else if (c == ')' || c == ']' || c == '}') {
            if (--depth < 0)
                fail("unbalanced parentheses: unexpected '" + std::string(1, c) + "'", whole,
                     p.offset + k);
            opens.pop_back();
        } else if (depth == 0 && p.text.compare(k, sep.size(), sep) == 0) {
            out.push_back(trim({p.text.substr(start, k - start), p.offset + start}));
            start = k + sep.size();
            k = start - 1;
        }
    }
    if (depth > 0)
        fail("unbalanced parentheses: this bracket is never closed", whole,
             p.offset + opens.back());
    out.push_back(trim({p.text.substr(start), p.offset + start}));
    return out;
}

// Strips one pair of enclosing brackets, if present: "(a, b)" -> "a, b". `bare` tells whether the
// text had none (a single expression).
Piece unwrap(Piece p, bool* bare = nullptr) {
    p = trim(p);
    if (p.text.size() >= 2 && ((p.text.front() == '(' && p.text.back() == ')') ||
                               (p.text.front() == '[' && p.text.back() == ']'))) {
        // Only when the first bracket closes at the very end: "(a) + (b)" is not wrapped.
        int depth = 0;
        for (std::size_t k = 0; k < p.text.size(); ++k) {
            char c = p.text[k];
            if (c == '(' || c == '[') ++depth;
            if (c == ')' || c == ']') --depth;
            if (depth == 0 && k + 1 < p.text.size()) {
                if (bare) *bare = true;
                return p;
            }
        }
        if (bare) *bare = false;
        return trim({p.text.substr(1, p.text.size() - 2), p.offset + 1});
    }
    if (bare) *bare = true;
    return p;
}

Expr expr(Piece p, const std::vector<std::string>& vars, std::string_view whole) {
    p = trim(p);
    if (p.text.empty()) fail("missing expression", whole, p.offset);
    try {
        return parseExpr(p.text, vars);
    } catch (const ParseError& e) {
        throw ParseError(e.message(), std::string(whole), p.offset + (e.column() ? e.column() : 1));
    } catch (const InputError& e) {
        throw ParseError(e.what(), std::string(whole), p.offset + (e.column() ? e.column() : 1));
    }
}

std::vector<Expr> exprList(Piece p, const std::vector<std::string>& vars, std::string_view whole) {
    bool bare = false;
    Piece inner = unwrap(p, &bare);
    if (bare) return {expr(inner, vars, whole)};
    std::vector<Expr> out;
    for (const Piece& item : splitTop(inner, ",", whole))
        if (!item.text.empty()) out.push_back(expr(item, vars, whole));
    return out;
}

std::int64_t integer(Piece p, std::string_view whole) {
    Expr e = expr(p, {}, whole);
    std::int64_t v = 0;
    if (!isConst(e, &v)) fail("expected an integer", whole, trim(p).offset);
    return v;
}

Shape shape(Piece p, std::string_view whole) {
    Shape s;
    bool bare = false;
    Piece inner = unwrap(p, &bare);
    if (bare) return {integer(inner, whole)};
    for (const Piece& item : splitTop(inner, ",", whole))
        if (!item.text.empty()) s.push_back(integer(item, whole));
    return s;
}

std::vector<std::string> placeholders(std::size_t rank, bool rep) {
    std::vector<std::string> v;
    for (std::size_t k = 0; k < rank; ++k)
        v.push_back(placeholderName(k));
    if (rep) v.push_back(kRepVar);
    return v;
}

struct Field {
    std::string key;
    Piece value;
    std::size_t keyOffset;
};

// "key: value" or "key=value".
Field field(Piece p, std::string_view whole) {
    p = trim(p);
    std::size_t k = 0;
    while (k < p.text.size() &&
           (std::isalnum(static_cast<unsigned char>(p.text[k])) || p.text[k] == '_'))
        ++k;
    std::size_t sep = k;
    while (sep < p.text.size() && p.text[sep] == ' ')
        ++sep;
    if (k == 0 || sep >= p.text.size() || (p.text[sep] != ':' && p.text[sep] != '='))
        fail("expected 'name: value'", whole, p.offset);
    return {std::string(p.text.substr(0, k)), trim({p.text.substr(sep + 1), p.offset + sep + 1}),
            p.offset};
}

std::string shapeText(const Shape& s) {
    return formatShape(s, true);
}

} // namespace

ParsedRepr parseReprUnevaluated(std::string_view text) {
    std::string_view whole = text;
    Piece p = trim({text, 0});
    std::string_view t = p.text;
    bool reflect = false;
    if (t.substr(0, 3) == "tl.") {
        reflect = true;
        p.text.remove_prefix(3);
        p.offset += 3;
        t = p.text;
    }
    // A PartialFragment (make_fully_replicated_partial_fragment) prints as a Fragment whose
    // replicate carries how replicas combine: `replicate: 32 (combine 32 x copy 1)`.
    const bool isPartial = t.substr(0, 16) == "PartialFragment(";
    bool isFragment = isPartial || t.substr(0, 9) == "Fragment(";
    bool isLayout = t.substr(0, 7) == "Layout(";
    if (!isFragment && !isLayout) fail("expected Layout(...) or Fragment(...)", whole, p.offset);
    std::size_t open = p.offset + (isPartial ? 15 : isFragment ? 8 : 6);
    // Find the matching parenthesis.
    int depth = 0;
    std::size_t close = std::string_view::npos;
    for (std::size_t k = open; k < whole.size(); ++k) {
        char c = whole[k];
        if (c == '(' || c == '[') ++depth;
        if (c == ')' || c == ']') {
            if (--depth == 0) {
                close = k;
                break;
            }
        }
    }
    if (close == std::string_view::npos)
        fail("unbalanced parentheses: this '(' is never closed", whole, open);
    for (std::size_t k = close + 1; k < whole.size(); ++k)
        if (!isSpace(whole[k])) fail("unexpected text after the closing ')'", whole, k);
    Piece body{whole.substr(open + 1, close - open - 1), open + 1};
    std::vector<Piece> parts = splitTop(body, ",", whole);

    Shape input;
    std::optional<Shape> printedOut;
    std::vector<Field> fields;
    std::size_t first = 0;
    if (!reflect || (!parts.empty() && parts[0].text.find("->") != std::string_view::npos &&
                     parts[0].text.find('=') == std::string_view::npos)) {
        if (parts.empty() || parts[0].text.empty()) fail("missing shapes", whole, body.offset);
        std::vector<Piece> io = splitTop(parts[0], "->", whole);
        if (io.size() != 2) fail("expected 'INPUT_SHAPE -> OUTPUT_SHAPE'", whole, parts[0].offset);
        input = shape(io[0], whole);
        printedOut = shape(io[1], whole);
        first = 1;
    }
    for (std::size_t k = first; k < parts.size(); ++k)
        if (!parts[k].text.empty()) fields.push_back(field(parts[k], whole));
    auto find = [&](std::initializer_list<const char*> keys) -> const Field* {
        for (const auto& f : fields)
            for (const char* key : keys)
                if (f.key == key) return &f;
        return nullptr;
    };
    if (const Field* f = find({"input_size", "input_shape"})) input = shape(f->value, whole);
    if (input.empty() && !printedOut) fail("missing input shape", whole, body.offset);

    if (isLayout) {
        const Field* tf = find({"transform", "forward_index"});
        if (!tf) fail("missing 'transform:'", whole, close);
        std::vector<std::string> vars = placeholders(input.size(), false);
        Piece value = tf->value;
        std::vector<Piece> vt = splitTop(value, "->", whole);
        Piece outs = value;
        if (vt.size() == 2) {
            // Declared variables: usually the placeholders, but honour other names.
            std::vector<std::string> declared;
            bool bare = false;
            Piece inner = unwrap(vt[0], &bare);
            for (const Piece& v : bare ? std::vector<Piece>{inner} : splitTop(inner, ",", whole))
                if (!v.text.empty()) declared.emplace_back(v.text);
            if (declared.size() != input.size())
                fail("the transform takes " + std::to_string(declared.size()) +
                         " variables but the input shape has " + std::to_string(input.size()) +
                         " dimensions",
                     whole, vt[0].offset);
            vars = declared;
            outs = vt[1];
        }
        std::vector<Expr> fwd = exprList(outs, vars, whole);
        if (vars != placeholders(input.size(), false)) {
            for (auto& e : fwd)
                e = substitute(e, [&](const std::string& n) -> Expr {
                    for (std::size_t k = 0; k < vars.size(); ++k)
                        if (vars[k] == n) return var(placeholderName(k));
                    return nullptr;
                });
        }
        if (fwd.empty()) fail("the transform has no outputs", whole, outs.offset);
        return {Layout(input, fwd), printedOut, std::nullopt, false};
    }

    std::int64_t replicate = 1;
    if (const Field* f = find({"replicate", "replicate_size"})) {
        Piece value = f->value;
        if (std::size_t paren = value.text.find(" ("); isPartial && paren != std::string_view::npos)
            value.text = value.text.substr(0, paren);
        replicate = integer(value, whole);
    }
    std::optional<std::int64_t> printedThreads;
    bool unboundedThreads = false;
    if (const Field* f = find({"thread"})) {
        // `thread:` is the extent in DebugOutput; a few sources print the thread map there
        // (`Fragment((2,) -> (2,), replicate: 256, thread: _rep, index: (_i,))`). TVM prints
        // `pos_inf` when its interval bound of the thread map has no upper end (it does for
        // T.if_then_else): then only the cells give the extent.
        if (trim(f->value).text == "pos_inf") {
            unboundedThreads = true;
        } else {
            Expr e = expr(f->value, placeholders(input.size(), true), whole);
            std::int64_t v = 0;
            if (isConst(e, &v)) printedThreads = v;
        }
    }
    const Field* tf = find({"forward_thread"});
    if (!tf) {
        const Field* f = find({"thread"});
        if (f && !printedThreads && !unboundedThreads) tf = f;
    }
    if (!tf) fail("missing 'forward_thread'", whole, close);
    Expr thread = expr(tf->value, placeholders(input.size(), true), whole);
    std::vector<Expr> index;
    if (const Field* f = find({"forward_index", "index"}))
        index = exprList(f->value, placeholders(input.size(), false), whole);
    Fragment frag(input, thread, index, replicate);
    if (const Field* f = find({"thread_range"})) {
        Piece v = trim(f->value);
        if (v.text != "None") {
            std::string_view rt = v.text;
            std::size_t skip = 0;
            if (rt.substr(0, 2) == "I.")
                skip = 2;
            else if (rt.substr(0, 4) == "tir.")
                skip = 4;
            else if (rt.substr(0, 2) == "T.")
                skip = 2;
            if (rt.substr(skip, 6) != "Range(")
                fail("expected I.Range(begin, end)", whole, v.offset);
            Piece args{rt.substr(skip + 5), v.offset + skip + 5};
            std::vector<Piece> ab = splitTop(unwrap(args), ",", whole);
            if (ab.size() != 2) fail("expected I.Range(begin, end)", whole, v.offset);
            std::int64_t a = integer(ab[0], whole), b = integer(ab[1], whole);
            if (b <= a) fail("empty thread range", whole, v.offset);
            frag = frag.withThreadRange(a, b);
        }
    }
    return {frag, printedOut, printedThreads, unboundedThreads};
}

std::string reprNote(const ParsedRepr& r, const FragmentTable* fragment,
                     const LayoutTable* layout) {
    std::string note;
    auto add = [&](const std::string& s) { note += (note.empty() ? "" : "; ") + s; };
    if (fragment) {
        if (r.printedThreads && *r.printedThreads != fragment->threadExtent)
            add("TileLang printed thread extent " + std::to_string(*r.printedThreads) +
                ", the cells give " + std::to_string(fragment->threadExtent));
        if (r.printedOut && *r.printedOut != fragment->localShape)
            add("TileLang printed local shape " + shapeText(*r.printedOut) + ", the cells give " +
                shapeText(fragment->localShape));
        if (r.unboundedThreads)
            add("TileLang printed thread extent pos_inf (its bound of the thread map has no "
                "upper end), the cells give " +
                std::to_string(fragment->threadExtent));
    } else if (layout && r.printedOut && *r.printedOut != layout->outputShape) {
        add("TileLang printed output shape " + shapeText(*r.printedOut) + ", the cells give " +
            shapeText(layout->outputShape) + " (TileLang bounds the simplified expression)");
    }
    return note;
}

Mapping parseRepr(std::string_view text, std::string* note) {
    ParsedRepr r = parseReprUnevaluated(text);
    if (note) {
        // One evaluation gives every extent the note compares.
        note->clear();
        if (const Fragment* f = std::get_if<Fragment>(&r.mapping)) {
            const FragmentTable t = f->evaluate();
            *note = reprNote(r, &t, nullptr);
        } else {
            const LayoutTable t = std::get<Layout>(r.mapping).evaluate();
            *note = reprNote(r, nullptr, &t);
        }
    }
    return std::move(r.mapping);
}

Fragment parseVisualFields(const VisualFields& v) {
    auto wrap = [](int field, auto&& fn) {
        try {
            return fn();
        } catch (const ParseError& e) {
            throw FieldError(field, e.message(), e.source(), e.column());
        } catch (const InputError& e) {
            throw FieldError(field, e.what(), "", e.column());
        }
    };
    Shape input;
    std::optional<Shape> out;
    wrap(0, [&] {
        Piece p{v.shape, 0};
        std::vector<Piece> io = splitTop(p, "->", v.shape);
        if (io.size() != 2) fail("expected 'INPUT_SHAPE -> OUTPUT_SHAPE'", v.shape, 0);
        input = shape(io[0], v.shape);
        out = shape(io[1], v.shape);
        checkShape(input, "input shape");
        return 0;
    });
    std::int64_t replicate = 1;
    if (!v.replicate.empty())
        replicate = wrap(3, [&] { return integer({v.replicate, 0}, v.replicate); });
    Expr thread = wrap(1, [&] {
        return expr({v.thread, 0}, placeholders(input.size(), true), v.thread);
    });
    std::vector<Expr> index = wrap(2, [&] {
        return exprList({v.index, 0}, placeholders(input.size(), false), v.index);
    });
    return wrap(1, [&] { return Fragment(input, thread, index, replicate); });
}

namespace {

std::string_view after(std::string_view line, std::string_view key) {
    std::size_t k = 0;
    while (k < line.size() && isSpace(line[k]))
        ++k;
    if (line.substr(k, key.size()) != key) return {};
    return line.substr(k + key.size());
}

} // namespace

Fragment parseVisualizationBlock(std::string_view text, std::string* buffer) {
    VisualFields v;
    int have = 0;
    std::size_t pos = 0, lineNo = 0;
    while (pos <= text.size()) {
        std::size_t nl = text.find('\n', pos);
        std::string_view line =
            text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
        ++lineNo;
        pos = nl == std::string_view::npos ? text.size() + 1 : nl + 1;
        std::string_view rest;
        if (!(rest = after(line, "Shape:")).empty()) {
            v.shape = std::string(trim({rest, 0}).text);
            have |= 1;
        } else if (!(rest = after(line, "Thread:")).empty()) {
            v.thread = std::string(trim({rest, 0}).text);
            have |= 2;
        } else if (!(rest = after(line, "Index:")).empty()) {
            v.index = std::string(trim({rest, 0}).text);
            have |= 4;
        } else if (!(rest = after(line, "Replicate:")).empty()) {
            v.replicate = std::string(trim({rest, 0}).text);
        } else if (auto h = line.find(" inferred layout:"); h != std::string_view::npos) {
            if (buffer) *buffer = std::string(trim({line.substr(0, h), 0}).text);
        } else if (!trim({line, 0}).text.empty()) {
            throw ParseError("line " + std::to_string(lineNo) +
                                 ": expected Shape:, Thread:, Index: or Replicate:",
                             std::string(line), 1);
        }
    }
    if (have != 7)
        throw ParseError(std::string("missing ") +
                             (!(have & 1)   ? "Shape:"
                              : !(have & 2) ? "Thread:"
                                            : "Index:") +
                             " line",
                         std::string(text), 0);
    static const char* names[] = {"Shape", "Thread", "Index", "Replicate"};
    try {
        return parseVisualFields(v);
    } catch (const FieldError& e) {
        throw ParseError(std::string(names[e.field]) + ": " + e.message(), e.source(), e.column());
    }
}

Mapping parseAnyLayoutText(std::string_view text) {
    Piece p = trim({text, 0});
    std::string_view t = p.text;
    if (t.substr(0, 9) == "Fragment(" || t.substr(0, 7) == "Layout(" || t.substr(0, 3) == "tl." ||
        t.substr(0, 16) == "PartialFragment(")
        return parseRepr(text);
    if (t.find("Thread:") != std::string_view::npos && t.find("Shape:") != std::string_view::npos)
        return parseVisualizationBlock(text);
    return parseMapping(text);
}

std::string mappingText(const Mapping& m) {
    return toTileLangCode(m);
}

} // namespace ts::dump
