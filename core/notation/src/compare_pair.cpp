// SPDX-License-Identifier: Apache-2.0
#include "tilescope/notation/compare_pair.h"

#include "tilescope/notation/mapping.h"

#include <type_traits>
#include <variant>

namespace ts {

namespace {

constexpr std::size_t kFragment = 1;
static_assert(std::is_same_v<std::variant_alternative_t<kFragment, Mapping>, Fragment>);

// The Mapping alternative the text reads as; none when it does not read.
std::optional<std::size_t> kindOf(const std::string& text) {
    try {
        return parseMapping(text).index();
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

} // namespace

ComparePartner nearestComparable(const std::vector<DocLayout>& layouts, std::size_t from) {
    ComparePartner p;
    const std::size_t n = layouts.size();
    if (from >= n) return p;
    if (n < 2) {
        p.why = "this project has one layout: add a second to compare it with";
        return p;
    }
    const std::optional<std::size_t> kind = kindOf(layouts[from].text);
    if (!kind) {
        p.index = from + 1 < n ? from + 1 : from - 1;
        return p;
    }
    for (std::size_t d = 1; d < n; ++d)
        for (const bool after : {true, false}) {
            if (after ? from + d >= n : d > from) continue;
            const std::size_t i = after ? from + d : from - d;
            if (kindOf(layouts[i].text) == kind) {
                p.index = i;
                return p;
            }
        }
    const char* what = *kind == kFragment ? "T.Fragment" : "T.Layout";
    p.why = "«" + layouts[from].name + "» is the only " + what + " of this project; a " + what +
            " compares cell by cell only with another " + what;
    return p;
}

} // namespace ts
