// The `tilescope-cli table` JSON contract (product.md), shared by the CLI, tests and documents.
#pragma once

#include "tilescope/layout.h"

#include <nlohmann/json_fwd.hpp>
#include <ostream>

namespace ts {

// {"kind": "layout"|"fragment", "input_shape", "output_shape" | thread_extent/replicate/local_size,
//  "cells": [...]} — `cells` omitted when summary is true.
nlohmann::json tableJson(const Mapping& m, bool summary = false);
// The same document streamed (compact, key order as documented): no DOM for big tables.
void writeTableJson(std::ostream& os, const Mapping& m, bool summary = false);

} // namespace ts
