// SPDX-License-Identifier: Apache-2.0
#include "tilescope/lang/pyparse.h"

#include "tilescope/support/errors.h"
#include "tilescope/support/limits.h"

#include <algorithm>
#include <cctype>
#include <limits>

namespace ts::py {

namespace {

enum class Tok { Int, Str, Name, Op, End };

struct Token {
    Tok kind;
    std::string text;
    std::int64_t value = 0;
    std::size_t column = 0;
};

class Lexer {
public:
    explicit Lexer(std::string_view s) : src_(s) {}

    std::vector<Token> run() {
        std::vector<Token> out;
        int depth = 0;
        while (true) {
            skipSpace();
            if (pos_ >= src_.size()) break;
            char c = src_[pos_];
            std::size_t col = pos_ + 1;
            if (std::isdigit(static_cast<unsigned char>(c))) {
                out.push_back(number(col));
            } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
                std::size_t b = pos_;
                while (pos_ < src_.size() &&
                       (std::isalnum(static_cast<unsigned char>(src_[pos_])) || src_[pos_] == '_'))
                    ++pos_;
                out.push_back({Tok::Name, std::string(src_.substr(b, pos_ - b)), 0, col});
            } else if (c == '"' || c == '\'') {
                out.push_back(string(col));
            } else {
                static const char* ops[] = {
                    "//", "<<", ">>", "**", "->", "==", "!=", "<=", ">=", "+", "-", "*", "/", "%",
                    "^",  "&",  "|",  "~",  "(",  ")",  "[",  "]",  ",",  ":", ".", "=", "<", ">"};
                bool found = false;
                for (const char* op : ops) {
                    std::string_view o(op);
                    if (src_.substr(pos_, o.size()) == o) {
                        if (o == "(" || o == "[") ++depth;
                        if (o == ")" || o == "]") --depth;
                        out.push_back({Tok::Op, std::string(o), 0, col});
                        pos_ += o.size();
                        found = true;
                        break;
                    }
                }
                if (!found) {
                    std::string shown = std::isprint(static_cast<unsigned char>(c))
                                            ? std::string("'") + c + "'"
                                            : "byte 0x" + hex(static_cast<unsigned char>(c));
                    throw ParseError("unexpected character " + shown, std::string(src_), col);
                }
            }
        }
        out.push_back({Tok::End, "", 0, src_.size() + 1});
        return out;
    }

private:
    static std::string hex(unsigned v) {
        const char* d = "0123456789abcdef";
        return std::string{d[v >> 4], d[v & 15]};
    }
    void skipSpace() {
        while (pos_ < src_.size()) {
            char c = src_[pos_];
            if (c == '#') {
                while (pos_ < src_.size() && src_[pos_] != '\n')
                    ++pos_;
            } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\\') {
                ++pos_;
            } else {
                break;
            }
        }
    }
    Token number(std::size_t col) {
        std::size_t b = pos_;
        int base = 10;
        if (src_[pos_] == '0' && pos_ + 1 < src_.size() &&
            (src_[pos_ + 1] == 'x' || src_[pos_ + 1] == 'X')) {
            base = 16;
            pos_ += 2;
        } else if (src_[pos_] == '0' && pos_ + 1 < src_.size() &&
                   (src_[pos_ + 1] == 'b' || src_[pos_ + 1] == 'B')) {
            base = 2;
            pos_ += 2;
        }
        std::uint64_t v = 0;
        bool digits = false;
        while (pos_ < src_.size()) {
            char c = src_[pos_];
            int d;
            if (c == '_') {
                ++pos_;
                continue;
            }
            if (std::isdigit(static_cast<unsigned char>(c)))
                d = c - '0';
            else if (base == 16 && std::isxdigit(static_cast<unsigned char>(c)))
                d = std::tolower(c) - 'a' + 10;
            else
                break;
            if (d >= base) break;
            if (v >
                (static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) - d) / base)
                throw ParseError("integer literal is too large", std::string(src_), col);
            v = v * base + d;
            digits = true;
            ++pos_;
        }
        if (!digits) throw ParseError("malformed integer literal", std::string(src_), col);
        if (pos_ < src_.size() &&
            (src_[pos_] == '.' || std::isalpha(static_cast<unsigned char>(src_[pos_])))) {
            if (src_[pos_] == '.' && pos_ + 1 < src_.size() &&
                std::isdigit(static_cast<unsigned char>(src_[pos_ + 1])))
                throw ParseError("floating-point numbers are not allowed in index expressions",
                                 std::string(src_), col);
            if (src_[pos_] != '.')
                throw ParseError("malformed number '" + std::string(src_.substr(b, pos_ - b + 1)) +
                                     "'",
                                 std::string(src_), col);
        }
        return {Tok::Int, std::string(src_.substr(b, pos_ - b)), static_cast<std::int64_t>(v), col};
    }
    Token string(std::size_t col) {
        char q = src_[pos_++];
        std::string s;
        while (pos_ < src_.size() && src_[pos_] != q) {
            if (src_[pos_] == '\n') break;
            s += src_[pos_++];
        }
        if (pos_ >= src_.size() || src_[pos_] != q)
            throw ParseError("unterminated string", std::string(src_), col);
        ++pos_;
        return {Tok::Str, s, 0, col};
    }

    std::string_view src_;
    std::size_t pos_ = 0;
};

class Parser {
public:
    Parser(std::string_view src, std::vector<Token> toks) : src_(src), toks_(std::move(toks)) {}

    NodePtr top() {
        // `name = expr`: pasted assignments are accepted, the name is ignored.
        if (toks_.size() > 2 && toks_[0].kind == Tok::Name && isOp(toks_[1], "=")) pos_ = 2;
        NodePtr e = expr();
        if (peek().kind != Tok::End)
            fail("unexpected " + describe(peek()) + " after the expression", peek());
        return e;
    }

private:
    static bool isOp(const Token& t, std::string_view op) {
        return t.kind == Tok::Op && t.text == op;
    }
    const Token& peek(std::size_t k = 0) const {
        return toks_[std::min(pos_ + k, toks_.size() - 1)];
    }
    const Token& next() { return toks_[std::min(pos_++, toks_.size() - 1)]; }
    bool accept(std::string_view op) {
        if (isOp(peek(), op)) {
            ++pos_;
            return true;
        }
        return false;
    }
    static std::string describe(const Token& t) {
        switch (t.kind) {
        case Tok::End:
            return "end of text";
        case Tok::Str:
            return "string \"" + t.text + "\"";
        default:
            return "'" + t.text + "'";
        }
    }
    [[noreturn]] void fail(const std::string& msg, const Token& at) const {
        throw ParseError(msg, std::string(src_), at.column);
    }
    void expect(std::string_view op, const char* context) {
        if (!accept(op))
            fail(std::string("expected '") + std::string(op) + "' " + context + ", found " +
                     describe(peek()),
                 peek());
    }

    struct Depth {
        Parser& p;
        explicit Depth(Parser& parser, const Token& at) : p(parser) {
            if (++p.depth_ > static_cast<int>(limits::kMaxExprDepth))
                p.fail("expression nested deeper than " + std::to_string(limits::kMaxExprDepth) +
                           " levels",
                       at);
        }
        ~Depth() { --p.depth_; }
    };

    // Sets n's height from its children and refuses trees taller than the limit, before they
    // grow further (a deep tree would overflow the stack in every recursive pass, its destructor
    // included).
    NodePtr sealed(const std::shared_ptr<Node>& n) const {
        std::uint32_t h = n->target ? n->target->height : 0;
        for (const auto& c : n->items)
            h = std::max(h, c->height);
        // A chain `a and b and c` or `a < b < c` evaluates to a left-deep tree: count each link.
        if ((n->kind == NodeKind::BoolOp || n->kind == NodeKind::Compare) && n->items.size() > 2)
            h += static_cast<std::uint32_t>(
                std::min<std::size_t>(n->items.size() - 2, limits::kMaxExprHeight));
        n->height = h + 1;
        if (n->height > limits::kMaxExprHeight)
            throw ParseError("expression too deep: more than " +
                                 std::to_string(limits::kMaxExprHeight) +
                                 " nested operations (long operator or call chains count)",
                             std::string(src_), n->column);
        return n;
    }

    static std::shared_ptr<Node> node(NodeKind k, std::size_t col) {
        auto n = std::make_shared<Node>();
        n->kind = k;
        n->column = col;
        return n;
    }

    bool isWord(const Token& t, std::string_view w) const {
        return t.kind == Tok::Name && t.text == w;
    }

    // Python's grammar below `expression`: lambda, then `x if c else y`, `or`, `and`, `not`,
    // comparison chains, then the binary operators.
    NodePtr expr() {
        Depth d(*this, peek());
        if (isWord(peek(), "lambda")) return lambda();
        NodePtr body = disjunction();
        if (!isWord(peek(), "if")) return body;
        const Token& kw = next();
        NodePtr cond = disjunction();
        if (!isWord(peek(), "else"))
            fail("expected 'else' in a conditional expression, found " + describe(peek()), peek());
        next();
        auto n = node(NodeKind::IfExp, kw.column);
        n->items = {body, cond, expr()};
        return sealed(n);
    }

    NodePtr boolOp(const char* word, NodePtr (Parser::*operand)()) {
        NodePtr first = (this->*operand)();
        if (!isWord(peek(), word)) return first;
        auto n = node(NodeKind::BoolOp, peek().column);
        n->text = word;
        n->items.push_back(first);
        while (isWord(peek(), word)) {
            next();
            n->items.push_back((this->*operand)());
            if (n->items.size() > limits::kMaxExprHeight) sealed(n); // refuses long chains early
        }
        return sealed(n);
    }
    NodePtr disjunction() { return boolOp("or", &Parser::conjunction); }
    NodePtr conjunction() { return boolOp("and", &Parser::inversion); }

    NodePtr inversion() {
        if (!isWord(peek(), "not")) return comparison();
        Depth d(*this, peek()); // only here, so that nesting limits count as before
        const Token& kw = next();
        auto n = node(NodeKind::Unary, kw.column);
        n->text = "not";
        n->items = {inversion()};
        return sealed(n);
    }

    static bool isCompareOp(const Token& t) {
        return t.kind == Tok::Op && (t.text == "<" || t.text == "<=" || t.text == ">" ||
                                     t.text == ">=" || t.text == "==" || t.text == "!=");
    }

    NodePtr comparison() {
        NodePtr first = binary(1);
        auto unsupported = [&] {
            if (isWord(peek(), "in") || isWord(peek(), "is") ||
                (isWord(peek(), "not") && isWord(peek(1), "in")))
                fail("'" + peek().text + "' comparisons are not supported in index expressions",
                     peek());
        };
        unsupported();
        if (!isCompareOp(peek())) return first;
        auto n = node(NodeKind::Compare, peek().column);
        n->items.push_back(first);
        while (isCompareOp(peek())) {
            n->ops.push_back(next().text);
            n->items.push_back(binary(1));
            if (n->items.size() > limits::kMaxExprHeight) sealed(n); // refuses long chains early
            unsupported();
        }
        return sealed(n);
    }

    NodePtr lambda() {
        const Token& kw = next();
        auto n = std::make_shared<Node>();
        n->kind = NodeKind::Lambda;
        n->column = kw.column;
        if (!isOp(peek(), ":")) {
            do {
                const Token& p = next();
                if (p.kind != Tok::Name)
                    fail("expected a parameter name in lambda, found " + describe(p), p);
                n->params.push_back(p.text);
            } while (accept(","));
        }
        expect(":", "after the lambda parameters");
        n->target = expr();
        return sealed(n);
    }

    // Python binary precedence: | ^ & << >> + - * // % /
    static int prec(const Token& t) {
        if (t.kind != Tok::Op) return -1;
        const std::string& s = t.text;
        if (s == "|") return 1;
        if (s == "^") return 2;
        if (s == "&") return 3;
        if (s == "<<" || s == ">>") return 4;
        if (s == "+" || s == "-") return 5;
        if (s == "*" || s == "//" || s == "%" || s == "/") return 6;
        return -1;
    }

    NodePtr binary(int minPrec) {
        NodePtr lhs = unary();
        while (true) {
            const Token& op = peek();
            int p = prec(op);
            if (p < 0 || p < minPrec) break;
            next();
            NodePtr rhs = binary(p + 1);
            auto n = node(NodeKind::Binary, op.column);
            n->text = op.text;
            n->items = {lhs, rhs};
            lhs = sealed(n);
        }
        return lhs;
    }

    NodePtr unary() {
        Depth d(*this, peek());
        const Token& t = peek();
        if (isOp(t, "-") || isOp(t, "+") || isOp(t, "~")) {
            next();
            auto n = node(NodeKind::Unary, t.column);
            n->text = t.text;
            n->items = {unary()};
            return sealed(n);
        }
        NodePtr base = postfix();
        if (isOp(peek(), "**")) fail("'**' is not supported in index expressions", peek());
        return base;
    }

    NodePtr postfix() {
        NodePtr e = atom();
        while (true) {
            if (isOp(peek(), ".")) {
                const Token& dot = next();
                const Token& name = next();
                if (name.kind != Tok::Name)
                    fail("expected a name after '.', found " + describe(name), name);
                auto n = node(NodeKind::Attr, dot.column);
                n->text = name.text;
                n->target = e;
                e = sealed(n);
            } else if (isOp(peek(), "(")) {
                const Token& open = next();
                auto n = node(NodeKind::Call, open.column);
                n->target = e;
                bool seenKw = false;
                while (!isOp(peek(), ")")) {
                    if (peek().kind == Tok::End) fail("unbalanced '(': missing ')'", open);
                    if (peek().kind == Tok::Name && isOp(peek(1), "=")) {
                        const Token& kw = next();
                        next();
                        auto k = node(NodeKind::Keyword, kw.column);
                        k->text = kw.text;
                        k->target = expr();
                        n->items.push_back(sealed(k));
                        seenKw = true;
                    } else {
                        const Token& at = peek();
                        NodePtr arg = expr();
                        if (seenKw) fail("positional argument after a keyword argument", at);
                        n->items.push_back(arg);
                    }
                    if (!accept(",")) break;
                }
                if (peek().kind == Tok::End) fail("unbalanced '(': missing ')'", open);
                if (!accept(")"))
                    fail("expected ',' or ')' in call, found " + describe(peek()), peek());
                e = sealed(n);
            } else if (isOp(peek(), "[")) {
                fail("subscripts are not supported in the mapping language", peek());
            } else {
                return e;
            }
        }
    }

    NodePtr atom() {
        const Token& t = next();
        switch (t.kind) {
        case Tok::Int: {
            auto n = node(NodeKind::Int, t.column);
            n->value = t.value;
            return n;
        }
        case Tok::Str: {
            auto n = node(NodeKind::Str, t.column);
            n->text = t.text;
            return n;
        }
        case Tok::Name: {
            if (t.text == "lambda") fail("lambda is only allowed as an argument", t);
            for (const char* kw : {"and", "or", "not", "if", "else", "is", "in"})
                if (t.text == kw) fail("unexpected keyword '" + t.text + "'", t);
            auto n = node(NodeKind::Name, t.column);
            n->text = t.text;
            return n;
        }
        case Tok::End:
            fail("unexpected end of text: expression incomplete", t);
        case Tok::Op:
            break;
        }
        if (t.text == "(" || t.text == "[") {
            const bool list = t.text == "[";
            const char* close = list ? "]" : ")";
            auto n = node(list ? NodeKind::List : NodeKind::Tuple, t.column);
            bool trailingComma = false;
            while (!isOp(peek(), close)) {
                if (peek().kind == Tok::End)
                    fail(std::string("unbalanced '") + t.text + "': missing '" + close + "'", t);
                n->items.push_back(expr());
                trailingComma = accept(",");
                if (!trailingComma) break;
            }
            if (peek().kind == Tok::End)
                fail(std::string("unbalanced '") + t.text + "': missing '" + close + "'", t);
            if (!accept(close))
                fail(std::string("expected ',' or '") + close + "', found " + describe(peek()),
                     peek());
            if (!list && n->items.size() == 1 && !trailingComma) return n->items[0]; // parentheses
            return sealed(n);
        }
        fail("unexpected " + describe(t), t);
    }

    std::string_view src_;
    std::vector<Token> toks_;
    std::size_t pos_ = 0;
    int depth_ = 0;
};

} // namespace

NodePtr parse(std::string_view source) {
    if (source.size() > limits::kMaxTextLength)
        throw ParseError("text is " + std::to_string(source.size()) + " bytes, over the limit of " +
                             std::to_string(limits::kMaxTextLength),
                         "", 0);
    Lexer lx(source);
    Parser p(source, lx.run());
    return p.top();
}

} // namespace ts::py
