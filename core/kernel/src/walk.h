// SPDX-License-Identifier: Apache-2.0
// Internal: the symbolic walk of a kernel body into buffers and access sites (kernel_xray.h).
#pragma once

#include "tilescope/kernel/c_syntax.h"
#include "tilescope/kernel/kernel_xray.h"

namespace ts::kernel {

// Fills k.buffers, k.sites, k.notes (and k.name, k.line) from the kernel's body.
void walkKernel(const c::Function& f, const XrayOptions& opt, KernelXray& k);

// A short source-like text of an expression (for the access's "text" column).
std::string exprText(const c::Expr& e, std::size_t limit = 160);

} // namespace ts::kernel
