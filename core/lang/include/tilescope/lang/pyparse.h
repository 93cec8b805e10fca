// SPDX-License-Identifier: Apache-2.0
// Internal: tokenizer and syntax tree for the Python subset of the mapping language.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace ts::py {

// Compare: items are the operands of a chain `a < b <= c`, ops its operators. BoolOp: text is
// "and" or "or", items its operands. IfExp `x if c else y`: items are {x, c, y}. Unary: text is
// "-", "+", "~" or "not".
enum class NodeKind {
    Int,
    Str,
    Name,
    Attr,
    Call,
    List,
    Tuple,
    Lambda,
    Binary,
    Unary,
    Keyword,
    Compare,
    BoolOp,
    IfExp
};

struct Node;
using NodePtr = std::shared_ptr<const Node>;

struct Node {
    NodeKind kind;
    std::size_t column = 0; // 1-based offset into the source
    std::int64_t value = 0;
    std::string text;                // name, attribute, string, operator, keyword name
    std::vector<NodePtr> items;      // call args (Keyword nodes for kwargs), list items, operands
    std::vector<std::string> params; // lambda parameters
    std::vector<std::string> ops;    // Compare: the operators between items
    NodePtr target;                  // Attr object, Call callee, Lambda body, Keyword value
    std::uint32_t height = 1;        // of the subtree (bounded by limits::kMaxExprHeight)
};

// Parses one expression (with an optional leading `name =`). Throws ParseError.
NodePtr parse(std::string_view source);

} // namespace ts::py
