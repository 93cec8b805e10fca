// SPDX-License-Identifier: Apache-2.0
// Internal: builtin families register themselves into the one registry.
#pragma once

#include "tilescope/layout/builtins.h"
#include "tilescope/support/errors.h"

namespace ts::builtin {

void registerSwizzles(std::vector<Builtin>& out);
void registerFragments(std::vector<Builtin>& out);
void registerGemm(std::vector<Builtin>& out);
void registerAscend(std::vector<Builtin>& out);
void registerAscendTileLang(std::vector<Builtin>& out);

Layout bankSwizzle(std::int64_t R, std::int64_t C, int bits, int k, const char* name);
Layout padded2d(std::int64_t R, std::int64_t C, int bits);
Layout linear2d(std::int64_t R, std::int64_t C);

} // namespace ts::builtin
