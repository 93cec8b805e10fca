// SPDX-License-Identifier: Apache-2.0
// The builtin layout library, named as in TileLang, taking (shape, dtype) where TileLang takes
// a buffer. The registry drives the interpreter, `tilescope-cli --help` and the GUI picker.
#pragma once

#include "tilescope/layout/layout.h"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace ts {

enum class ParamKind { Shape, Dtype, Int, Bool, String };

struct BuiltinParam {
    std::string name;
    ParamKind kind;
    std::optional<std::string> defaultText; // as written in the mapping language; "None": optional
    std::string help;
};

using ArgValue = std::variant<std::int64_t, bool, std::string, Shape>;

class BuiltinArgs {
public:
    std::map<std::string, ArgValue> values;
    std::int64_t integer(const std::string& name) const;
    bool boolean(const std::string& name) const;
    const std::string& string(const std::string& name) const;
    const Shape& shape(const std::string& name) const;
    bool has(const std::string& name) const { return values.count(name) != 0; }
    int dtypeBits(const std::string& name) const; // "float16" -> 16; throws InputError
};

struct Builtin {
    std::string name;
    std::vector<BuiltinParam> params;
    std::string summary;
    std::function<Mapping(const BuiltinArgs&)> make;
};

const std::vector<Builtin>& builtins();
const Builtin* findBuiltin(const std::string& name);
// TileLang layout functions Tilescope knows but does not model: the sentence saying why.
std::optional<std::string> unsupportedBuiltin(const std::string& name);
std::string builtinSignature(const Builtin& b); // `make_x(shape, dtype="float16")`

int dtypeBits(const std::string& dtype); // throws InputError for unknown names
std::vector<std::string> knownDtypes();

} // namespace ts
