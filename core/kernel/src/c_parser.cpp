// SPDX-License-Identifier: Apache-2.0
#include "tilescope/kernel/c_syntax.h"
#include "tilescope/support/errors.h"

#include <regex>
#include <set>

namespace ts::c {

namespace {

const std::set<std::string>& qualifiers() {
    static const std::set<std::string> q{"const",  "volatile",        "__restrict__", "__restrict",
                                         "static", "extern",          "__shared__",   "register",
                                         "inline", "__forceinline__", "constexpr"};
    return q;
}

struct Parser {
    const std::vector<Token>& t;
    const std::string& src;
    std::size_t p = 0;
    // Nesting of expressions and statements: a hostile file of ten thousand '(' must be an
    // error, not a stack overflow. TileLang's deepest index expressions nest about 20 deep.
    int depth = 0;
    static constexpr int kMaxDepth = 400;
    struct Nest {
        Parser& ps;
        explicit Nest(Parser& p) : ps(p) {
            if (++ps.depth > kMaxDepth)
                ps.fail("nested more than " + std::to_string(kMaxDepth) + " deep", ps.peek());
        }
        ~Nest() { --ps.depth; }
    };

    const Token& peek(std::size_t k = 0) const { return t[std::min(p + k, t.size() - 1)]; }
    bool is(const char* punct, std::size_t k = 0) const {
        const Token& x = peek(k);
        return x.kind == Token::Punct && x.text == punct;
    }
    bool isIdent(const char* name, std::size_t k = 0) const {
        const Token& x = peek(k);
        return x.kind == Token::Ident && x.text == name;
    }
    const Token& next() {
        const Token& x = t[p];
        if (p + 1 < t.size()) ++p;
        return x;
    }
    [[noreturn]] void fail(const std::string& what, const Token& at) const {
        std::size_t b = 0;
        for (int l = 1; l < at.line && b < src.size(); ++l) {
            b = src.find('\n', b);
            if (b == std::string::npos) break;
            ++b;
        }
        std::string text;
        if (b != std::string::npos) text = src.substr(b, src.find('\n', b) - b);
        throw ParseError("line " + std::to_string(at.line) + ", column " +
                             std::to_string(at.column) + ": " + what,
                         text, std::size_t(at.column));
    }
    void expect(const char* punct) {
        if (!is(punct))
            fail(std::string("expected '") + punct + "' but found '" +
                     (peek().kind == Token::End ? "end of file" : peek().text) + "'",
                 peek());
        next();
    }

    // ---- types ----
    // At a type (qualifiers, a type name, stars)? Returns its token count, 0 if not a type.
    std::size_t typeLength(std::size_t k) const {
        std::size_t n = 0;
        bool sawName = false;
        for (;;) {
            const Token& x = peek(k + n);
            if (x.kind == Token::Ident && qualifiers().count(x.text)) {
                ++n;
            } else if (x.kind == Token::Ident && !sawName && isTypeName(x.text)) {
                sawName = true;
                ++n;
                // unsigned int, long long, signed char
                while (peek(k + n).kind == Token::Ident &&
                       (peek(k + n).text == "int" || peek(k + n).text == "long" ||
                        peek(k + n).text == "char" || peek(k + n).text == "short") &&
                       (x.text == "unsigned" || x.text == "signed" || x.text == "long"))
                    ++n;
            } else if (sawName && x.kind == Token::Punct && x.text == "*") {
                ++n;
            } else {
                break;
            }
        }
        return sawName ? n : 0;
    }
    std::string typeText(std::size_t n) {
        std::string base, stars;
        for (std::size_t i = 0; i < n; ++i) {
            const Token& x = next();
            if (x.kind == Token::Punct) {
                stars += "*";
            } else if (!qualifiers().count(x.text)) {
                base += base.empty() ? x.text : " " + x.text;
            }
        }
        return base + stars;
    }

    // ---- expressions ----
    ExprPtr make(Expr e) { return std::make_shared<const Expr>(std::move(e)); }

    // Template arguments `<...>` after an identifier, when they close before `(` or `::`.
    bool templateArgs(std::string& out) {
        if (!is("<")) return false;
        int depth = 0;
        std::size_t k = 0;
        std::string text;
        for (;; ++k) {
            const Token& x = peek(k);
            if (x.kind == Token::End ||
                (x.kind == Token::Punct && (x.text == ";" || x.text == "{")))
                return false;
            if (x.kind == Token::Punct && x.text == "<") ++depth;
            if (x.kind == Token::Punct && x.text == ">") --depth;
            if (x.kind == Token::Punct && x.text == ">>") depth -= 2;
            if (k > 0 && depth > 0) text += (text.empty() ? "" : " ") + x.text;
            if (depth <= 0) break;
        }
        if (depth < 0) return false;
        const Token& after = peek(k + 1);
        if (!(after.kind == Token::Punct && (after.text == "(" || after.text == "::")) &&
            after.kind != Token::Ident)
            return false;
        p += k + 1;
        out = text;
        return true;
    }

    ExprPtr primary() {
        const Token& x = peek();
        Expr e;
        e.line = x.line;
        e.column = x.column;
        switch (x.kind) {
        case Token::Int:
            next();
            e.kind = Expr::Int;
            e.value = x.value;
            return make(std::move(e));
        case Token::Float:
            next();
            e.kind = Expr::Float;
            e.text = x.text;
            return make(std::move(e));
        case Token::String:
        case Token::Char:
            next();
            e.kind = Expr::String;
            e.text = x.text;
            while (peek().kind == Token::String)
                e.text += next().text;
            return make(std::move(e));
        case Token::Ident: {
            next();
            const std::string name = x.text;
            if (name == "reinterpret_cast" || name == "static_cast" || name == "const_cast") {
                expect("<");
                // Any type name here (Barrier*, cute::half_t*): the reader needs only whether it
                // is a pointer and, where it knows the name, the pointee's size.
                std::string type;
                int depth = 0;
                while (!(depth == 0 && is(">")) && peek().kind != Token::End) {
                    if (is("<")) ++depth;
                    if (is(">")) --depth;
                    const Token& tk = next();
                    if (tk.kind == Token::Punct && tk.text == "*") {
                        type += "*";
                    } else if (!qualifiers().count(tk.text)) {
                        type += (type.empty() || type.back() == '*' ? "" : " ") + tk.text;
                    }
                }
                if (type.empty()) fail("expected a type in " + name, peek());
                e.kind = Expr::Cast;
                e.text = type;
                expect(">");
                expect("(");
                e.a = expression();
                expect(")");
                return make(std::move(e));
            }
            if (name == "sizeof") {
                expect("(");
                const std::size_t n = typeLength(0);
                e.kind = Expr::Int;
                if (n) {
                    e.value = typeBytes(typeText(n));
                    if (!e.value) fail("sizeof of an unknown type", x);
                } else {
                    fail("sizeof of an expression is not read", x);
                }
                expect(")");
                return make(std::move(e));
            }
            e.kind = Expr::Ident;
            e.text = name;
            std::string templ;
            if (templateArgs(templ)) {
                e.templ = templ;
                // tl::AllReduce<...>::run
                while (is("::") && peek(1).kind == Token::Ident) {
                    next();
                    e.text += "::" + next().text;
                }
            }
            return make(std::move(e));
        }
        case Token::Punct:
            if (x.text == "(") {
                if (const std::size_t n = typeLength(1);
                    n && peek(1 + n).text == ")" && peek(1 + n).kind == Token::Punct) {
                    next();
                    e.kind = Expr::Cast;
                    e.text = typeText(n);
                    expect(")");
                    e.a = unary();
                    return make(std::move(e));
                }
                next();
                ExprPtr inner = expression();
                expect(")");
                return inner;
            }
            if (x.text == "{") {
                next();
                e.kind = Expr::InitList;
                while (!is("}")) {
                    e.args.push_back(assignment());
                    if (!is(",")) break;
                    next();
                }
                expect("}");
                return make(std::move(e));
            }
            break;
        case Token::End:
            break;
        }
        fail("expected an expression but found '" +
                 (x.kind == Token::End ? std::string("end of file") : x.text) + "'",
             x);
    }

    ExprPtr postfix() {
        ExprPtr e = primary();
        for (;;) {
            const Token& x = peek();
            Expr n;
            n.line = x.line;
            n.column = x.column;
            if (is("(")) {
                next();
                n.kind = Expr::Call;
                n.a = e;
                if (e->kind == Expr::Ident) {
                    n.text = e->text;
                    n.templ = e->templ;
                }
                while (!is(")")) {
                    n.args.push_back(assignment());
                    if (!is(",")) break;
                    next();
                }
                expect(")");
            } else if (is("[")) {
                next();
                n.kind = Expr::Index;
                n.a = e;
                n.b = expression();
                expect("]");
            } else if (is(".") || is("->")) {
                n.op = next().text;
                if (peek().kind != Token::Ident) fail("expected a member name", peek());
                n.kind = Expr::Member;
                n.a = e;
                n.text = next().text;
            } else if (is("++") || is("--")) {
                n.kind = Expr::Postfix;
                n.op = next().text;
                n.a = e;
            } else {
                return e;
            }
            e = make(std::move(n));
        }
    }

    ExprPtr unary() {
        Nest nest(*this);
        const Token& x = peek();
        if (x.kind == Token::Punct &&
            (x.text == "-" || x.text == "+" || x.text == "!" || x.text == "~" || x.text == "*" ||
             x.text == "&" || x.text == "++" || x.text == "--")) {
            next();
            Expr e;
            e.kind = Expr::Unary;
            e.op = x.text;
            e.line = x.line;
            e.column = x.column;
            e.a = unary();
            return make(std::move(e));
        }
        return postfix();
    }

    static int precedence(const Token& x) {
        if (x.kind != Token::Punct) return -1;
        static const std::pair<const char*, int> table[] = {
            {"||", 3},  {"&&", 4}, {"|", 5},  {"^", 6},  {"&", 7},  {"==", 8},
            {"!=", 8},  {"<", 9},  {"<=", 9}, {">", 9},  {">=", 9}, {"<<", 10},
            {">>", 10}, {"+", 11}, {"-", 11}, {"*", 12}, {"/", 12}, {"%", 12}};
        for (const auto& [op, prec] : table)
            if (x.text == op) return prec;
        return -1;
    }

    ExprPtr binary(int minPrec) {
        ExprPtr lhs = unary();
        for (;;) {
            const Token& x = peek();
            const int prec = precedence(x);
            if (prec < minPrec) return lhs;
            next();
            ExprPtr rhs = binary(prec + 1);
            Expr e;
            e.kind = Expr::Binary;
            e.op = x.text;
            e.line = x.line;
            e.column = x.column;
            e.a = lhs;
            e.b = rhs;
            lhs = make(std::move(e));
        }
    }

    ExprPtr conditional() {
        ExprPtr c = binary(3);
        if (!is("?")) return c;
        const Token& x = next();
        Expr e;
        e.kind = Expr::Ternary;
        e.line = x.line;
        e.column = x.column;
        e.a = c;
        e.b = assignment();
        expect(":");
        e.c = conditional();
        return make(std::move(e));
    }

    ExprPtr assignment() {
        ExprPtr lhs = conditional();
        const Token& x = peek();
        static const std::set<std::string> ops{
            "=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>="};
        if (x.kind == Token::Punct && ops.count(x.text)) {
            next();
            Expr e;
            e.kind = Expr::Assign;
            e.op = x.text;
            e.line = x.line;
            e.column = x.column;
            e.a = lhs;
            e.b = assignment();
            return make(std::move(e));
        }
        return lhs;
    }

    ExprPtr expression() { return assignment(); }

    // ---- statements ----
    StmtPtr makeS(Stmt s) { return std::make_shared<const Stmt>(std::move(s)); }

    bool atDeclaration() const {
        std::size_t k = 0;
        // __align__(N) may come among the qualifiers.
        while (isIdent("__align__", k) || isIdent("extern", k) || isIdent("__shared__", k) ||
               isIdent("static", k) || isIdent("const", k) || isIdent("volatile", k)) {
            if (isIdent("__align__", k)) {
                k += 1;
                int depth = 0;
                do {
                    if (is("(", k)) ++depth;
                    if (is(")", k)) --depth;
                    ++k;
                } while (depth > 0 && peek(k).kind != Token::End);
            } else {
                ++k;
            }
        }
        const std::size_t n = typeLength(k);
        if (!n) return false;
        const Token& after = peek(k + n);
        return after.kind == Token::Ident;
    }

    StmtPtr declaration() {
        Stmt s;
        s.kind = Stmt::Decl;
        s.line = peek().line;
        bool shared = false, ext = false;
        int align = 0;
        std::string base;
        for (;;) {
            if (isIdent("__align__")) {
                next();
                expect("(");
                if (peek().kind == Token::Int) align = int(peek().value);
                while (!is(")") && peek().kind != Token::End)
                    next();
                expect(")");
            } else if (isIdent("__shared__")) {
                shared = true;
                next();
            } else if (isIdent("extern")) {
                ext = true;
                next();
            } else if (isIdent("static") || isIdent("const") || isIdent("volatile")) {
                next();
            } else {
                break;
            }
        }
        // The base type without stars: stars belong to each declarator.
        std::size_t n = typeLength(0);
        while (n > 0 && peek(n - 1).kind == Token::Punct && peek(n - 1).text == "*")
            --n;
        if (!n) fail("expected a type", peek());
        base = typeText(n);
        for (;;) {
            Declarator d;
            d.shared = shared;
            d.extern_ = ext;
            d.align = align;
            std::string stars;
            while (is("*") || isIdent("__restrict__") || isIdent("const")) {
                if (is("*")) stars += "*";
                next();
            }
            if (peek().kind != Token::Ident) fail("expected a variable name", peek());
            d.type = base + stars;
            d.name = next().text;
            while (is("[")) {
                next();
                d.dims.push_back(is("]") ? nullptr : expression());
                expect("]");
            }
            if (is("=")) {
                next();
                d.init = assignment();
            } else if (is("(")) { // constructor-style init: T x(args)
                fail("constructor-style initialisation is not read", peek());
            }
            s.decls.push_back(std::move(d));
            if (!is(",")) break;
            next();
        }
        expect(";");
        return makeS(std::move(s));
    }

    // Skips to the end of the current statement (a `;` at depth 0, or a balanced block).
    StmtPtr opaque(std::size_t from, const std::string& why) {
        p = from;
        Stmt s;
        s.kind = Stmt::Opaque;
        s.line = peek().line;
        int depth = 0;
        std::string text;
        for (;;) {
            const Token& x = peek();
            if (x.kind == Token::End) break;
            if (x.kind == Token::Punct && (x.text == "(" || x.text == "[" || x.text == "{"))
                ++depth;
            if (x.kind == Token::Punct && (x.text == ")" || x.text == "]" || x.text == "}")) {
                // The enclosing block's end stays for the block; a stray ')' or ']' is part of
                // this statement (always consume something: the caller loops until '}').
                if (depth == 0 && (x.text == "}" || p > from)) break;
                if (depth == 0) {
                    next();
                    continue;
                }
                --depth;
                if (depth == 0 && x.text == "}") {
                    next();
                    break;
                }
            }
            if (text.size() < 400) text += (text.empty() ? "" : " ") + x.text;
            next();
            if (depth == 0 && x.kind == Token::Punct && x.text == ";") break;
        }
        s.text = why + ": " + text;
        return makeS(std::move(s));
    }

    StmtPtr statement() {
        Nest nest(*this);
        const Token& x = peek();
        Stmt s;
        s.line = x.line;
        if (is("{")) {
            next();
            s.kind = Stmt::Block;
            while (!is("}")) {
                if (peek().kind == Token::End) fail("unterminated block (missing '}')", x);
                s.body.push_back(statement());
            }
            next();
            return makeS(std::move(s));
        }
        if (is(";")) {
            next();
            s.kind = Stmt::Empty;
            return makeS(std::move(s));
        }
        if (isIdent("for")) {
            next();
            expect("(");
            s.kind = Stmt::For;
            if (is(";")) {
                next();
            } else if (atDeclaration()) {
                s.init = declaration();
            } else {
                Stmt e;
                e.kind = Stmt::ExprStmt;
                e.line = peek().line;
                e.expr = expression();
                expect(";");
                s.init = makeS(std::move(e));
            }
            if (!is(";")) s.expr = expression();
            expect(";");
            if (!is(")")) s.step = expression();
            expect(")");
            s.then = statement();
            return makeS(std::move(s));
        }
        if (isIdent("if")) {
            next();
            expect("(");
            s.kind = Stmt::If;
            s.expr = expression();
            expect(")");
            s.then = statement();
            if (isIdent("else")) {
                next();
                s.otherwise = statement();
            }
            return makeS(std::move(s));
        }
        if (isIdent("while")) {
            next();
            expect("(");
            s.kind = Stmt::While;
            s.expr = expression();
            expect(")");
            s.then = statement();
            return makeS(std::move(s));
        }
        if (isIdent("do")) {
            next();
            s.kind = Stmt::While;
            s.then = statement();
            if (!isIdent("while")) fail("expected 'while' after a do body", peek());
            next();
            expect("(");
            s.expr = expression();
            expect(")");
            expect(";");
            return makeS(std::move(s));
        }
        if (isIdent("return") || isIdent("break") || isIdent("continue")) {
            s.kind = x.text == "return"  ? Stmt::Return
                     : x.text == "break" ? Stmt::Break
                                         : Stmt::Continue;
            next();
            if (!is(";")) s.expr = expression();
            expect(";");
            return makeS(std::move(s));
        }
        if (isIdent("asm") || isIdent("__asm__") || isIdent("asm volatile"))
            return opaque(p, "inline assembly");
        const std::size_t start = p;
        try {
            if (atDeclaration()) return declaration();
            s.kind = Stmt::ExprStmt;
            s.expr = expression();
            expect(";");
            return makeS(std::move(s));
        } catch (const ParseError& e) {
            return opaque(start, std::string("not read (") + e.message() + ")");
        }
    }

    // ---- top level ----
    TranslationUnit unit() {
        TranslationUnit u;
        while (peek().kind != Token::End) {
            // One top-level item: collect its head up to '{' or ';' at paren depth 0.
            const std::size_t start = p;
            int depth = 0;
            bool global = false, device = false;
            while (peek().kind != Token::End) {
                const Token& x = peek();
                if (x.kind == Token::Punct && (x.text == "(" || x.text == "[")) ++depth;
                if (x.kind == Token::Punct && (x.text == ")" || x.text == "]")) --depth;
                if (x.kind == Token::Ident && x.text == "__global__") global = true;
                if (x.kind == Token::Ident && x.text == "__device__") device = true;
                if (depth == 0 && x.kind == Token::Punct && (x.text == "{" || x.text == ";")) break;
                next();
            }
            if (peek().kind == Token::End) break;
            if (is(";")) {
                next();
                continue;
            }
            // '{': a function body when the head ends with a parameter list.
            if (global || device) {
                Function f = header(start, p);
                f.global = global;
                f.body = statement();
                u.functions.push_back(std::move(f));
                continue;
            }
            // Anything else (namespace, struct, template helper): skip its braces.
            int braces = 0;
            do {
                if (is("{")) ++braces;
                if (is("}")) --braces;
                next();
            } while (braces > 0 && peek().kind != Token::End);
        }
        return u;
    }

    // The name, launch bounds and parameters of a function head t[b, e).
    Function header(std::size_t b, std::size_t e) {
        Function f;
        // The parameter list is the last top-level '(' ... ')' of the head.
        std::size_t open = e;
        int depth = 0;
        for (std::size_t k = e; k-- > b;) {
            if (t[k].kind == Token::Punct && t[k].text == ")") ++depth;
            if (t[k].kind == Token::Punct && t[k].text == "(") {
                if (--depth == 0) {
                    open = k;
                    break;
                }
            }
        }
        if (open == e || open == b || t[open - 1].kind != Token::Ident)
            fail("a function without a parameter list", t[b]);
        f.name = t[open - 1].text;
        f.line = t[open - 1].line;
        for (std::size_t k = b; k < open; ++k) {
            if (t[k].kind == Token::Ident && t[k].text == "__launch_bounds__" && k + 2 < open &&
                t[k + 2].kind == Token::Int) {
                f.launch_bounds = int(t[k + 2].value);
                if (k + 4 < open && t[k + 3].text == "," && t[k + 4].kind == Token::Int)
                    f.min_blocks = int(t[k + 4].value);
            }
        }
        // Parameters: comma-separated, the last identifier of each is its name.
        std::vector<const Token*> cur;
        auto flush = [&] {
            if (cur.empty()) return;
            Param prm;
            std::string stars;
            for (std::size_t i = 0; i + 1 < cur.size(); ++i) {
                if (cur[i]->kind == Token::Punct && cur[i]->text == "*") {
                    stars += "*";
                } else if (cur[i]->kind == Token::Ident && !qualifiers().count(cur[i]->text)) {
                    prm.type += prm.type.empty() ? cur[i]->text : " " + cur[i]->text;
                }
            }
            prm.type += stars;
            prm.name = cur.back()->text;
            f.params.push_back(std::move(prm));
            cur.clear();
        };
        depth = 0;
        for (std::size_t k = open + 1; k < e; ++k) {
            const Token& x = t[k];
            if (x.kind == Token::Punct && x.text == "(") ++depth;
            if (x.kind == Token::Punct && x.text == ")") {
                if (depth == 0) break;
                --depth;
            }
            if (depth == 0 && x.kind == Token::Punct && x.text == ",") {
                flush();
                continue;
            }
            cur.push_back(&x);
        }
        flush();
        return f;
    }
};

} // namespace

int typeBytes(const std::string& type) {
    std::string s = type;
    for (const char* q : {"const ", "volatile ", "unsigned ", "signed "})
        if (s.rfind(q, 0) == 0) s = s.substr(std::string(q).size());
    static const std::pair<const char*, int> scalars[] = {
        {"char", 1},         {"uchar", 1},         {"int8_t", 1},        {"uint8_t", 1},
        {"bool", 1},         {"fp8_e4_t", 1},      {"fp8_e5_t", 1},      {"fp8_e8_t", 1},
        {"short", 2},        {"ushort", 2},        {"int16_t", 2},       {"uint16_t", 2},
        {"half_t", 2},       {"half", 2},          {"__half", 2},        {"bfloat16_t", 2},
        {"nv_bfloat16", 2},  {"__nv_bfloat16", 2}, {"int", 4},           {"uint", 4},
        {"unsigned", 4},     {"int32_t", 4},       {"uint32_t", 4},      {"float", 4},
        {"half2", 4},        {"__half2", 4},       {"nv_bfloat162", 4},  {"__nv_bfloat162", 4},
        {"bfloat162", 4},    {"long", 8},          {"long long", 8},     {"int64_t", 8},
        {"uint64_t", 8},     {"double", 8},        {"longlong", 8},      {"ulonglong", 8},
        {"size_t", 8},       {"fp8_e4_2_t", 2},    {"fp8_e4_4_t", 4},    {"fp8_e4_8_t", 8},
        {"fp8_e4_16_t", 16}, {"fp8_e5_2_t", 2},    {"fp8_e5_4_t", 4},    {"fp8_e5_8_t", 8},
        {"fp8_e5_16_t", 16}, {"signed char", 1},   {"unsigned char", 1}, {"void", 1}};
    for (const auto& [name, bytes] : scalars)
        if (s == name) return bytes;
    // CUDA vector types: int4, uint2, float4, char4, half4 ...
    static const std::regex vec(
        "(u?char|u?short|u?int|u?long|float|double|half|longlong|ulonglong)([1-4])");
    std::smatch m;
    if (std::regex_match(s, m, vec)) {
        const int elem = typeBytes(m[1].str() == "half" ? "half_t" : m[1].str());
        return elem ? elem * std::stoi(m[2].str()) : 0;
    }
    return 0;
}

bool isTypeName(const std::string& name) {
    if (typeBytes(name)) return true;
    if (name == "signed" || name == "unsigned" || name == "void" || name == "auto") return true;
    if (name.size() > 2 && name.compare(name.size() - 2, 2, "_t") == 0) return true;
    return false;
}

TranslationUnit parse(const std::string& source) {
    const std::vector<Token> tokens = tokenize(source);
    Parser ps{tokens, source};
    TranslationUnit u = ps.unit();
    // Includes are read from the raw text (the tokenizer skips preprocessor lines).
    static const std::regex inc(R"(^\s*#\s*include\s*[<"]([^>"]+)[>"])");
    std::size_t b = 0;
    while (b < source.size()) {
        std::size_t e = source.find('\n', b);
        if (e == std::string::npos) e = source.size();
        std::smatch m;
        const std::string line = source.substr(b, e - b);
        if (std::regex_search(line, m, inc)) u.includes.push_back(m[1].str());
        b = e + 1;
    }
    return u;
}

} // namespace ts::c
