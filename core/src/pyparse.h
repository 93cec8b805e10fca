// Internal: tokenizer and syntax tree for the Python subset of the mapping language.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace ts::py {

enum class NodeKind { Int, Str, Name, Attr, Call, List, Tuple, Lambda, Binary, Unary, Keyword };

struct Node;
using NodePtr = std::shared_ptr<const Node>;

struct Node {
    NodeKind kind;
    std::size_t column = 0; // 1-based offset into the source
    std::int64_t value = 0;
    std::string text;                // name, attribute, string, operator, keyword name
    std::vector<NodePtr> items;      // call args (Keyword nodes for kwargs), list items, operands
    std::vector<std::string> params; // lambda parameters
    NodePtr target;                  // Attr object, Call callee, Lambda body, Keyword value
    std::uint32_t height = 1;        // of the subtree (bounded by limits::kMaxExprHeight)
};

// Parses one expression (with an optional leading `name =`). Throws ParseError.
NodePtr parse(std::string_view source);

} // namespace ts::py
