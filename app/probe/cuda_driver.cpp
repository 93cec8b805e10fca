// SPDX-License-Identifier: Apache-2.0
#include "cuda_driver.h"

#include <dlfcn.h>

namespace probe {

bool Driver::load(std::string& error) {
    lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char* e = dlerror();
        error = std::string("no CUDA driver: libcuda.so.1 not found (dlopen: ") +
                (e ? e : "unknown") + "); GPU runs need an NVIDIA driver, compile-only works";
        return false;
    }
    bool ok = true;
    auto sym = [&](auto& fn, std::initializer_list<const char*> names) {
        for (const char* n : names) {
            if (void* p = dlsym(lib, n)) {
                fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(p);
                return;
            }
        }
        if (ok) error = std::string("CUDA driver lacks ") + *names.begin();
        ok = false;
    };
    sym(cuInit, {"cuInit"});
    sym(cuDeviceGet, {"cuDeviceGet"});
    sym(cuDeviceGetCount, {"cuDeviceGetCount"});
    sym(cuDeviceGetName, {"cuDeviceGetName"});
    sym(cuDeviceGetAttribute, {"cuDeviceGetAttribute"});
    sym(cuDriverGetVersion, {"cuDriverGetVersion"});
    sym(cuDevicePrimaryCtxRetain, {"cuDevicePrimaryCtxRetain"});
    sym(cuCtxSetCurrent, {"cuCtxSetCurrent"});
    sym(cuCtxSynchronize, {"cuCtxSynchronize"});
    sym(cuModuleLoadData, {"cuModuleLoadData"});
    sym(cuModuleUnload, {"cuModuleUnload"});
    sym(cuModuleGetFunction, {"cuModuleGetFunction"});
    sym(cuFuncSetAttribute, {"cuFuncSetAttribute"});
    sym(cuOccupancyMaxActiveBlocksPerMultiprocessor,
        {"cuOccupancyMaxActiveBlocksPerMultiprocessor"});
    sym(cuMemAlloc, {"cuMemAlloc_v2"});
    sym(cuMemFree, {"cuMemFree_v2"});
    sym(cuMemcpyHtoD, {"cuMemcpyHtoD_v2"});
    sym(cuMemcpyDtoH, {"cuMemcpyDtoH_v2"});
    sym(cuMemsetD8, {"cuMemsetD8_v2"});
    sym(cuLaunchKernel, {"cuLaunchKernel"});
    sym(cuEventCreate, {"cuEventCreate"});
    sym(cuEventRecord, {"cuEventRecord"});
    sym(cuEventSynchronize, {"cuEventSynchronize"});
    sym(cuEventElapsedTime, {"cuEventElapsedTime_v2", "cuEventElapsedTime"});
    sym(cuGetErrorString, {"cuGetErrorString"});
    return ok;
}

std::string Driver::describe(CUresult rc) const {
    const char* s = nullptr;
    if (cuGetErrorString && cuGetErrorString(rc, &s) == 0 && s)
        return std::string(s) + " (" + std::to_string(rc) + ")";
    return "CUDA error " + std::to_string(rc);
}

} // namespace probe
