// SPDX-License-Identifier: Apache-2.0
// A small cursor over foreign-notation text (CuTe, Triton): whitespace skipping, integers with
// limits, and ParseErrors with 1-based columns into the whole text, like the mapping language.
#pragma once

#include "tilescope/support/errors.h"

#include <cctype>
#include <cstdint>
#include <string>
#include <string_view>

namespace ts::interop {

// Literals above this are refused: offsets are sums of up to 64 products with 2^24 coordinates,
// which must stay far from int64 overflow.
inline constexpr std::int64_t kMaxLiteral = (std::int64_t{1} << 31) - 1;

class Cursor {
public:
    explicit Cursor(std::string_view text, std::size_t pos = 0) : text_(text), pos_(pos) {}

    std::string_view text() const { return text_; }
    std::size_t pos() const { return pos_; }
    void setPos(std::size_t p) { pos_ = p; }
    std::size_t column() const { return pos_ + 1; }
    bool atEnd() {
        skipWs();
        return pos_ >= text_.size();
    }
    void skipWs() {
        while (pos_ < text_.size()) {
            char c = text_[pos_];
            if (std::isspace(static_cast<unsigned char>(c))) {
                ++pos_;
            } else if (c == '#' && !(pos_ + 1 < text_.size() && text_[pos_ + 1] == 't')) {
                while (pos_ < text_.size() && text_[pos_] != '\n')
                    ++pos_; // a Python comment (but not `#ttg.`)
            } else {
                break;
            }
        }
    }
    char peek() {
        skipWs();
        return pos_ < text_.size() ? text_[pos_] : '\0';
    }
    bool accept(char c) {
        if (peek() != c) return false;
        ++pos_;
        return true;
    }
    bool acceptWord(std::string_view w) {
        skipWs();
        if (text_.substr(pos_, w.size()) != w) return false;
        pos_ += w.size();
        return true;
    }
    void expect(char c, const char* context) {
        if (accept(c)) return;
        fail(std::string("expected '") + c + "' " + context);
    }
    [[noreturn]] void fail(const std::string& message) {
        skipWs();
        failAt(pos_ + 1, message);
    }
    [[noreturn]] void failAt(std::size_t column, std::string message) {
        if (column > text_.size() && !text_.empty()) {
            column = text_.size() + 1;
            if (message.rfind("unexpected", 0) != 0) message += " (at the end of the text)";
        }
        throw ParseError(std::move(message), std::string(text_), column);
    }
    std::string describeHere() {
        skipWs();
        if (pos_ >= text_.size()) return "the end of the text";
        return std::string("'") + text_[pos_] + "'";
    }
    bool peekDigit() {
        char c = peek();
        return std::isdigit(static_cast<unsigned char>(c)) != 0;
    }
    // A non-negative decimal integer (optionally `-` when allowNegative).
    std::int64_t integer(const char* what, bool allowNegative = false) {
        skipWs();
        std::size_t start = pos_;
        bool neg = false;
        if (allowNegative && pos_ < text_.size() && text_[pos_] == '-') {
            neg = true;
            ++pos_;
        }
        if (pos_ >= text_.size() || !std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
            pos_ = start;
            fail(std::string("expected ") + what + ", found " + describeHere());
        }
        std::int64_t v = 0;
        while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
            v = v * 10 + (text_[pos_] - '0');
            if (v > kMaxLiteral)
                failAt(start + 1, std::string(what) + " too large (the limit is " +
                                      std::to_string(kMaxLiteral) + ")");
            ++pos_;
        }
        return neg ? -v : v;
    }
    std::string identifier() {
        skipWs();
        std::size_t start = pos_;
        while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) ||
                                       text_[pos_] == '_' || text_[pos_] == '.'))
            ++pos_;
        return std::string(text_.substr(start, pos_ - start));
    }

private:
    std::string_view text_;
    std::size_t pos_;
};

} // namespace ts::interop
