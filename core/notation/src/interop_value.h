// SPDX-License-Identifier: Apache-2.0
// Python-like literal values for Triton/Gluon text: integers, lists/tuples, names (True,
// False), calls with positional and keyword arguments, and TTGIR's `{key = value, ...}`.
#pragma once

#include "interop_text.h"
#include "tilescope/notation/linear_layout.h"

#include <string>
#include <vector>

namespace ts::interop {

struct Field;

struct Value {
    enum Kind { Int, List, Name, Call, Dict } kind = Int;
    std::int64_t i = 0;
    std::string name;         // Name, Call (callee), unused otherwise
    std::vector<Value> items; // List items, Call positional arguments
    // A named struct rather than std::pair<std::string, Value>: instantiating the pair inside
    // Value's own definition needs Value complete, which clang with libstdc++ refuses.
    std::vector<Field> fields; // Call keyword arguments, Dict entries
    std::size_t column = 0;

    const Value* field(std::string_view key) const;
};

struct Field {
    std::string key;
    Value value;
};

inline const Value* Value::field(std::string_view key) const {
    for (const Field& f : fields)
        if (f.key == key) return &f.value;
    return nullptr;
}

Value parseValue(Cursor& c, std::size_t depth = 0);

// Helpers that check the kind and say where it is wrong.
std::int64_t asInt(Cursor& c, const Value& v, const char* what);
std::vector<std::int64_t> asIntList(Cursor& c, const Value& v, const char* what);
std::vector<std::vector<std::int64_t>> asBases(Cursor& c, const Value& v, const char* what);
bool asBool(Cursor& c, const Value& v, const char* what);

// The Gluon layouts that are not linear layouts by construction, converted for a tensor shape
// as Triton converts them (triton_layouts.cpp): BlockedLayout, NVMMADistributedLayout,
// DotOperandLayout, SliceLayout, NVMMASharedLayout, SwizzledSharedLayout. shapeColumn is where
// the shape is written, for errors about it.
linear::LinearLayout gluonLayout(Cursor& c, const Value& call,
                                 const std::vector<std::int64_t>& shape, std::size_t shapeColumn);
// A `DistributedLinearLayout(...)` or `SharedLinearLayout(...)` call, validated.
linear::LinearLayout linearLayoutCall(Cursor& c, const Value& call);
// TTGIR text (triton_mlir_text.cpp): a `tensor<...>` or `!ttg.memdesc<...>` type, a bare
// `#ttg.linear<...>`/`#ttg.shared_linear<...>`, with the alias definitions it uses.
bool isTtgirText(std::string_view trimmedText);
linear::LinearLayout ttgirLayout(std::string_view text);
// Whether `name` is one of Gluon's layout classes that only a shape makes a linear layout.
bool isGluonLayoutName(std::string_view name);

} // namespace ts::interop
