// SPDX-License-Identifier: Apache-2.0
// The `tilescope-cli table` JSON contract (product.md), shared by the CLI, tests and documents.
#pragma once

#include "tilescope/layout/layout.h"
#include "tilescope/layout/slot_collisions.h"

#include <nlohmann/json_fwd.hpp>
#include <ostream>

namespace ts {

// {"kind": "layout"|"fragment", "input_shape", "output_shape" | thread_extent/replicate/local_size/
//  slot_collisions, "cells": [...]} — `cells` omitted when summary is true. `slot_collisions`
//  counts
// the elements that share a (thread, local) register with another (findSlotCollisions).
nlohmann::json tableJson(const Mapping& m, bool summary = false);
// The same document streamed (compact, key order as documented): no DOM for big tables. Returns
// the fragment's slot collisions (none for a layout) so callers can warn without re-evaluating.
SlotCollisions writeTableJson(std::ostream& os, const Mapping& m, bool summary = false);

} // namespace ts
