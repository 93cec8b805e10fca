// SPDX-License-Identifier: Apache-2.0
// A small C/CUDA syntax tree: enough of the language to read what TileLang's CUDA code
// generator writes (declarations, for/if/while, expression statements, casts, template calls,
// pointer arithmetic), with the source line of every node so results map back to the text.
// Anything else in a kernel body is kept as an opaque statement, never guessed at.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ts::c {

struct Token {
    enum Kind { Ident, Int, Float, String, Char, Punct, End } kind = End;
    std::string text; // identifiers are joined over `::` (tl::cp_async_gs)
    std::int64_t value = 0;
    int line = 0, column = 0;
};

// Tokens of a whole file; preprocessor lines and comments are skipped. Throws ParseError with
// the line on an unterminated comment or string.
std::vector<Token> tokenize(const std::string& source);

struct Expr;
using ExprPtr = std::shared_ptr<const Expr>;

struct Expr {
    enum Kind {
        Ident,   // text
        Int,     // value
        Float,   // text
        String,  // text
        Member,  // a.text / a->text (op "." or "->")
        Call,    // a(args...); text = callee name when a is an identifier; templ = <...> text
        Index,   // a[b]
        Cast,    // (text) a, text is the type ("half_t*", "int")
        Unary,   // op a (prefix: - + ! ~ * & ++ --)
        Postfix, // a op (++ --)
        Binary,  // a op b
        Ternary, // a ? b : c
        Assign,  // a op b (op "=", "+=", ...)
        InitList // {args...}
    } kind = Int;
    std::string op, text, templ;
    std::int64_t value = 0;
    ExprPtr a, b, c;
    std::vector<ExprPtr> args;
    int line = 0, column = 0;
};

struct Stmt;
using StmtPtr = std::shared_ptr<const Stmt>;

struct Declarator {
    std::string name;
    std::string type;          // base type with pointer stars ("half_t", "void*")
    std::vector<ExprPtr> dims; // array dimensions (empty extent: nullptr)
    ExprPtr init;              // may be null
    bool shared = false, extern_ = false;
    int align = 0; // __align__(N)
};

struct Stmt {
    enum Kind {
        Block,
        Decl,
        ExprStmt,
        For,
        If,
        While,
        Return,
        Break,
        Continue,
        Empty,
        Opaque
    } kind = Empty;
    std::vector<StmtPtr> body;     // Block
    std::vector<Declarator> decls; // Decl
    ExprPtr expr;                  // ExprStmt; For/If/While condition
    StmtPtr init;                  // For
    ExprPtr step;                  // For
    StmtPtr then, otherwise;       // For/While body in `then`; If branches
    std::string text;              // Opaque: first tokens, for the reason shown to the user
    int line = 0;
};

struct Param {
    std::string type, name;
};

struct Function {
    std::string name;
    bool global = false;   // __global__
    int launch_bounds = 0; // __launch_bounds__(N, ...) first argument, 0 if absent
    int min_blocks = 0;    // its second argument
    std::vector<Param> params;
    StmtPtr body;
    int line = 0; // of the name
};

struct TranslationUnit {
    std::vector<Function> functions; // definitions only (declarations without a body skipped)
    std::vector<std::string> includes;
};

// Parses a TileLang-generated .cu. Throws ParseError naming the line and what was expected.
TranslationUnit parse(const std::string& source);

// Type helpers: the size in bytes of a scalar or vector type name ("half_t" 2, "uint4" 16,
// "float2" 8), 0 when unknown; whether a name is a type the reader knows.
int typeBytes(const std::string& type);
bool isTypeName(const std::string& name);

} // namespace ts::c
