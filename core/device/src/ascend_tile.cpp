// SPDX-License-Identifier: Apache-2.0
// ascendKernelOptionsFor (ascend_kernel.h): a layout's tile for the ND->NZ round trip.
#include "tilescope/device/ascend_kernel.h"
#include "tilescope/notation/mapping.h"
#include "tilescope/support/errors.h"

#include <variant>

namespace ts {

AscendKernelOptions ascendKernelOptionsFor(const std::string& mappingText, const std::string& dtype,
                                           const std::string& backend, const std::string& chip) {
    const Mapping m = parseMapping(mappingText);
    const Shape in = std::visit([](const auto& x) { return x.inputShape(); }, m);
    if (in.size() != 2)
        throw InputError("the Ascend round trip takes a 2-D tile; this layout's input shape is " +
                         formatShape(in));
    AscendKernelOptions o;
    o.rows = in[0];
    o.cols = in[1];
    o.dtype = dtype;
    o.backend = parseAscendBackend(backend);
    o.chip = parseAscendChip(chip);
    return o;
}

} // namespace ts
