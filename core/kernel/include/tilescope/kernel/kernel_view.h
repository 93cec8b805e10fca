// SPDX-License-Identifier: Apache-2.0
// What the Kernel panel draws: the layouts TileLang inferred attached to the X-ray's buffers,
// the tile a buffer is drawn on, and one instance of an access (a warp, an iteration) as the bank
// panel's SharedAccess over that tile.
#pragma once

#include "tilescope/banks/access.h"
#include "tilescope/kernel/kernel_xray.h"

#include <nlohmann/json_fwd.hpp>
#include <string>

namespace ts::kernel {

// The lowering's "layouts" list ({buffer, scope, dtype, shape, kind, text}) onto the buffers of
// the same name. A repr that does not parse keeps its text and the reason (layout_error).
void attachLayouts(KernelXray& k, const nlohmann::json& layouts);

struct BufferTile {
    std::string spec;  // mapping-language text of a T.Layout
    std::string dtype; // element type for the bank model ("float16", "float32", "int8", ...)
    std::string why;   // "the layout TileLang inferred" or "no inferred layout: ..."
};
// The tile of a shared buffer: its inferred T.Layout (over the TileLang shape, stages
// included) where the lowering gave one, else a row-major grid of [bytes / 128, 128 / element
// bytes]: one row per 128-byte line of banks. Throws InputError for a non-shared buffer.
BufferTile bufferTile(const KernelXray& k, int buffer);

// The lanes of `ins` (absolute shared addresses) as touches of the cells of `tile`, whose first
// byte is at `base`: what cellHeat / instructionHeat colour. Bytes outside the tile are skipped
// and counted in `outside`.
SharedAccess instanceAccess(const SharedTile& tile, std::int64_t base, const Instruction& ins,
                            int warp, int* outside = nullptr);

} // namespace ts::kernel
