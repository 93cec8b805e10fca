// SPDX-License-Identifier: Apache-2.0
// qtModuleSymbol (see qt_module_loader.h).
#include "render/qt_module_loader.h"

#include "render/qt_module.h"

#include <dlfcn.h>
#include <filesystem>
#include <iostream>

namespace cli {

namespace {

std::filesystem::path selfDirectory() {
    std::error_code ec;
    const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::filesystem::path(".") : exe.parent_path();
}

} // namespace

void* qtModuleSymbol(const char* symbol, std::string* why) {
    const std::filesystem::path dir = selfDirectory();
    std::string tried;
    for (const std::filesystem::path& p :
         {dir / kTilescopeRenderQtModule,
          dir / TILESCOPE_RENDER_MODULE_DIR / kTilescopeRenderQtModule}) {
        void* h = dlopen(p.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!h) {
            tried += std::string(tried.empty() ? "" : "; ") + dlerror();
            continue;
        }
        if (void* fn = dlsym(h, symbol)) return fn;
        tried += "; " + p.string() + " has no " + symbol;
    }
    if (why) *why = tried;
    return nullptr;
}

void* requireQtModuleSymbol(const char* symbol, const char* what) {
    std::string tried;
    void* fn = qtModuleSymbol(symbol, &tried);
    if (!fn)
        std::cerr << "tilescope-cli: error: " << what << " needs the Qt renderer module ("
                  << kTilescopeRenderQtModule << "), which could not be loaded: " << tried << "\n";
    return fn;
}

} // namespace cli
