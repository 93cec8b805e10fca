// SPDX-License-Identifier: Apache-2.0
// Binds a Gluon layout call's arguments to its Python dataclass fields: positional in field
// order, then keywords; unknown, repeated or missing ones are errors at their column.
#pragma once

#include "interop_value.h"

#include <string>
#include <vector>

namespace ts::interop {

class GluonArgs {
public:
    GluonArgs(Cursor& c, const Value& call, std::vector<std::string> fields, std::size_t required)
        : fields_(std::move(fields)), slots_(fields_.size(), nullptr) {
        if (call.items.size() > fields_.size())
            c.failAt(call.items[fields_.size()].column, call.name + " takes at most " +
                                                            std::to_string(fields_.size()) +
                                                            " positional arguments");
        for (std::size_t k = 0; k < call.items.size(); ++k)
            slots_[k] = &call.items[k];
        for (const Field& f : call.fields) {
            std::size_t k = 0;
            while (k < fields_.size() && fields_[k] != f.key)
                ++k;
            if (k == fields_.size())
                c.failAt(f.value.column,
                         "unknown argument '" + f.key + "' of " + call.name + " (" + list() + ")");
            if (slots_[k])
                c.failAt(f.value.column,
                         "argument '" + f.key + "' of " + call.name + " is given twice");
            slots_[k] = &f.value;
        }
        for (std::size_t k = 0; k < required; ++k)
            if (!slots_[k])
                c.failAt(call.column, call.name + " needs '" + fields_[k] + "' (" + list() + ")");
    }

    const Value* get(const std::string& field) const {
        for (std::size_t k = 0; k < fields_.size(); ++k)
            if (fields_[k] == field) return slots_[k];
        return nullptr;
    }

private:
    std::string list() const {
        std::string s;
        for (const std::string& f : fields_)
            s += (s.empty() ? "" : ", ") + f;
        return s;
    }

    std::vector<std::string> fields_;
    std::vector<const Value*> slots_;
};

} // namespace ts::interop
