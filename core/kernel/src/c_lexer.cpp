// SPDX-License-Identifier: Apache-2.0
#include "tilescope/kernel/c_syntax.h"
#include "tilescope/support/errors.h"

#include <cctype>
#include <cstring>

namespace ts::c {

namespace {

std::string lineText(const std::string& s, std::size_t pos) {
    std::size_t b = s.rfind('\n', pos == 0 ? 0 : pos - 1);
    b = b == std::string::npos ? 0 : b + 1;
    std::size_t e = s.find('\n', pos);
    return s.substr(b, e == std::string::npos ? std::string::npos : e - b);
}

[[noreturn]] void fail(const std::string& s, std::size_t pos, int line, int col,
                       const std::string& what) {
    throw ParseError("line " + std::to_string(line) + ", column " + std::to_string(col) + ": " +
                         what,
                     lineText(s, pos), std::size_t(col));
}

// Longest operators first.
const char* const kPuncts[] = {"<<=", ">>=", "...", "->", "++", "--", "<<", ">>",
                               "<=",  ">=",  "==",  "!=", "&&", "||", "+=", "-=",
                               "*=",  "/=",  "%=",  "&=", "|=", "^=", "::"};

} // namespace

std::vector<Token> tokenize(const std::string& s) {
    std::vector<Token> out;
    std::size_t i = 0, n = s.size();
    int line = 1;
    std::size_t lineStart = 0;
    bool atLineStart = true;
    auto col = [&](std::size_t p) { return int(p - lineStart) + 1; };
    auto newline = [&](std::size_t p) {
        ++line;
        lineStart = p + 1;
        atLineStart = true;
    };
    while (i < n) {
        char ch = s[i];
        if (ch == '\n') {
            newline(i);
            ++i;
            continue;
        }
        if (std::isspace(static_cast<unsigned char>(ch))) {
            ++i;
            continue;
        }
        if (ch == '#' && atLineStart) { // preprocessor line, with continuations
            while (i < n && s[i] != '\n') {
                if (s[i] == '\\' && i + 1 < n && s[i + 1] == '\n') {
                    newline(i + 1);
                    i += 2;
                    continue;
                }
                ++i;
            }
            continue;
        }
        atLineStart = false;
        if (ch == '/' && i + 1 < n && s[i + 1] == '/') {
            while (i < n && s[i] != '\n')
                ++i;
            continue;
        }
        if (ch == '/' && i + 1 < n && s[i + 1] == '*') {
            const int l0 = line, c0 = col(i);
            const std::size_t p0 = i;
            i += 2;
            while (i + 1 < n && !(s[i] == '*' && s[i + 1] == '/')) {
                if (s[i] == '\n') newline(i);
                ++i;
            }
            if (i + 1 >= n) fail(s, p0, l0, c0, "unterminated comment");
            i += 2;
            continue;
        }
        Token t;
        t.line = line;
        t.column = col(i);
        const std::size_t start = i;
        if (std::isalpha(static_cast<unsigned char>(ch)) || ch == '_') {
            while (i < n && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '_'))
                ++i;
            t.kind = Token::Ident;
            t.text = s.substr(start, i - start);
            // Join qualified names: tl::cp_async_gs, tl::DataType::kFloat16.
            while (i + 2 < n && s[i] == ':' && s[i + 1] == ':' &&
                   (std::isalpha(static_cast<unsigned char>(s[i + 2])) || s[i + 2] == '_')) {
                std::size_t j = i + 2;
                while (j < n && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '_'))
                    ++j;
                t.text += s.substr(i, j - i);
                i = j;
            }
            out.push_back(std::move(t));
            continue;
        }
        if (std::isdigit(static_cast<unsigned char>(ch)) ||
            (ch == '.' && i + 1 < n && std::isdigit(static_cast<unsigned char>(s[i + 1])))) {
            // A number: hex (with hex floats 0x1p+0f), decimal, exponents, suffixes.
            bool isFloat = false;
            const bool hex = ch == '0' && i + 1 < n && (s[i + 1] == 'x' || s[i + 1] == 'X');
            if (hex) i += 2;
            while (i < n) {
                char d = s[i];
                if (std::isxdigit(static_cast<unsigned char>(d)) && hex) {
                    ++i;
                } else if (std::isdigit(static_cast<unsigned char>(d))) {
                    ++i;
                } else if (d == '.') {
                    isFloat = true;
                    ++i;
                } else if ((hex && (d == 'p' || d == 'P')) || (!hex && (d == 'e' || d == 'E'))) {
                    isFloat = true;
                    ++i;
                    if (i < n && (s[i] == '+' || s[i] == '-')) ++i;
                } else {
                    break;
                }
            }
            while (i < n && std::strchr("uUlLfF", s[i])) {
                if (!hex && (s[i] == 'f' || s[i] == 'F')) isFloat = true;
                ++i;
            }
            t.text = s.substr(start, i - start);
            if (isFloat) {
                t.kind = Token::Float;
            } else {
                t.kind = Token::Int;
                try {
                    t.value = std::int64_t(std::stoull(t.text, nullptr, 0));
                } catch (...) {
                    fail(s, start, t.line, t.column, "integer literal out of range: " + t.text);
                }
            }
            out.push_back(std::move(t));
            continue;
        }
        if (ch == '"' || ch == '\'') {
            ++i;
            while (i < n && s[i] != ch && s[i] != '\n') {
                if (s[i] == '\\') ++i;
                ++i;
            }
            if (i >= n || s[i] != ch)
                fail(s, start, t.line, t.column,
                     ch == '"' ? "unterminated string" : "unterminated character literal");
            ++i;
            t.kind = ch == '"' ? Token::String : Token::Char;
            t.text = s.substr(start + 1, i - start - 2);
            out.push_back(std::move(t));
            continue;
        }
        t.kind = Token::Punct;
        for (const char* p : kPuncts) {
            const std::size_t len = std::strlen(p);
            if (s.compare(i, len, p) == 0) {
                t.text = p;
                break;
            }
        }
        if (t.text.empty()) t.text = std::string(1, ch);
        i += t.text.size();
        out.push_back(std::move(t));
    }
    Token end;
    end.kind = Token::End;
    end.line = line;
    end.column = col(i);
    out.push_back(end);
    return out;
}

} // namespace ts::c
