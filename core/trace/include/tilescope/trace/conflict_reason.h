// SPDX-License-Identifier: Apache-2.0
// Why TileLang raised a conflict whose two layouts agree on every cell, in TileLang's own terms,
// and what the two sides of each kind of conflict are. A conflict the log prints with two equal
// layouts is not a mistake of the log: the check that raised it does not compare the printed
// layouts (TileLang 0.1.15, src/op/parallel.cc and src/layout/utils.cc).
#pragma once

#include "tilescope/trace/dump.h"

#include <string>

namespace ts::dump {

// Why `e` was raised although its compared layouts agree on all cells ("" when TileLang's
// check for this kind is a comparison of the layouts themselves, so equal layouts cannot
// raise it).
std::string equalLayoutsReason(const Event& e);

// The label of one compared layout: "loop layout (T.Parallel, from y)", "fragment C",
// "current acc". The role is TileLang's own word for the side, and the buffer is the one that
// side belongs to.
std::string sideLabel(const Event& e, const DumpLayout& l);

} // namespace ts::dump
