// SPDX-License-Identifier: Apache-2.0
// Finds an entry point of the Qt module (qt_module.h): loaded with dlopen from next to the CLI (a
// build tree), else from where an install puts it, and never unloaded (Qt's globals live until
// exit). `render` and `handout` use it.
#pragma once

#include <string>

namespace cli {

// The symbol's address, or nullptr with *why saying what was tried.
void* qtModuleSymbol(const char* symbol, std::string* why);
// The same, or nullptr after telling stderr that `what` needs the module and what was tried.
void* requireQtModuleSymbol(const char* symbol, const char* what);

} // namespace cli
