// SPDX-License-Identifier: Apache-2.0
#include "tilescope/device/cuda_compile.h"

#include "tilescope/device/subprocess.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace ts {

namespace {

// The few NVRTC entry points used, resolved with dlsym (nvrtc.h is not needed to build core).
struct Nvrtc {
    using Prog = void*;
    void* lib = nullptr;
    const char* (*getErrorString)(int) = nullptr;
    int (*version)(int*, int*) = nullptr;
    int (*create)(Prog*, const char*, const char*, int, const char* const*,
                  const char* const*) = nullptr;
    int (*destroy)(Prog*) = nullptr;
    int (*compile)(Prog, int, const char* const*) = nullptr;
    int (*logSize)(Prog, size_t*) = nullptr;
    int (*log)(Prog, char*) = nullptr;
    int (*cubinSize)(Prog, size_t*) = nullptr;
    int (*cubin)(Prog, char*) = nullptr;
    std::string why;
};

const Nvrtc& nvrtc() {
    static Nvrtc n = [] {
        Nvrtc r;
        std::vector<std::string> names = {"libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12"};
        if (const char* home = std::getenv("CUDA_HOME")) {
            names.push_back(std::string(home) + "/lib64/libnvrtc.so");
            names.push_back(std::string(home) + "/lib/libnvrtc.so");
        }
        names.push_back("/usr/local/cuda/lib64/libnvrtc.so");
        for (const auto& name : names) {
            r.lib = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
            if (r.lib) break;
        }
        if (!r.lib) {
            r.why = "libnvrtc not found (tried libnvrtc.so, .so.13, .so.12, $CUDA_HOME/lib64)";
            return r;
        }
        auto sym = [&](auto& fn, const char* name) {
            fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(r.lib, name));
            if (!fn && r.why.empty()) r.why = std::string("libnvrtc lacks ") + name;
        };
        sym(r.getErrorString, "nvrtcGetErrorString");
        sym(r.version, "nvrtcVersion");
        sym(r.create, "nvrtcCreateProgram");
        sym(r.destroy, "nvrtcDestroyProgram");
        sym(r.compile, "nvrtcCompileProgram");
        sym(r.logSize, "nvrtcGetProgramLogSize");
        sym(r.log, "nvrtcGetProgramLog");
        sym(r.cubinSize, "nvrtcGetCUBINSize");
        sym(r.cubin, "nvrtcGetCUBIN");
        if (!r.why.empty()) r.lib = nullptr;
        return r;
    }();
    return n;
}

double since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

} // namespace

bool nvrtcAvailable(std::string* why) {
    const Nvrtc& n = nvrtc();
    if (!n.lib && why) *why = n.why;
    return n.lib != nullptr;
}

CompileResult compileWithNvrtc(const std::string& source, const std::string& arch,
                               const std::vector<std::string>& extra_options) {
    auto t0 = std::chrono::steady_clock::now();
    CompileResult r;
    const Nvrtc& n = nvrtc();
    if (!n.lib) {
        r.log = n.why;
        return r;
    }
    int major = 0, minor = 0;
    n.version(&major, &minor);
    r.compiler = "nvrtc " + std::to_string(major) + "." + std::to_string(minor);
    Nvrtc::Prog prog = nullptr;
    int rc = n.create(&prog, source.c_str(), "tilescope_kernel.cu", 0, nullptr, nullptr);
    if (rc != 0) {
        r.log = std::string("nvrtcCreateProgram: ") + n.getErrorString(rc);
        return r;
    }
    std::vector<std::string> opts = {"--gpu-architecture=" + arch, "-std=c++17"};
    for (const auto& o : extra_options)
        opts.push_back(o);
    std::vector<const char*> copts;
    for (const auto& o : opts)
        copts.push_back(o.c_str());
    rc = n.compile(prog, int(copts.size()), copts.data());
    size_t ls = 0;
    n.logSize(prog, &ls);
    std::string log(ls, '\0');
    if (ls) n.log(prog, log.data());
    while (!log.empty() && (log.back() == '\0' || log.back() == '\n'))
        log.pop_back();
    r.log = log;
    if (rc == 0) {
        size_t cs = 0;
        if (n.cubinSize(prog, &cs) == 0 && cs > 0) {
            r.cubin.resize(cs);
            n.cubin(prog, r.cubin.data());
            r.ok = true;
        } else {
            r.log += (r.log.empty() ? "" : "\n") + std::string("no CUBIN produced (arch ") + arch +
                     " must be a real sm_XX)";
        }
    } else if (r.log.empty()) {
        r.log = std::string("nvrtcCompileProgram: ") + n.getErrorString(rc);
    }
    n.destroy(&prog);
    r.seconds = since(t0);
    return r;
}

CompileResult compileWithNvcc(const std::string& source, const std::string& arch,
                              double timeout_s) {
    auto t0 = std::chrono::steady_clock::now();
    CompileResult r;
    std::string nvcc;
    if (const char* home = std::getenv("CUDA_HOME")) {
        std::string c = std::string(home) + "/bin/nvcc";
        if (access(c.c_str(), X_OK) == 0) nvcc = c;
    }
    if (nvcc.empty()) nvcc = findOnPath("nvcc");
    if (nvcc.empty() && access("/usr/local/cuda/bin/nvcc", X_OK) == 0)
        nvcc = "/usr/local/cuda/bin/nvcc";
    if (nvcc.empty()) {
        r.log = "nvcc not found ($CUDA_HOME/bin, PATH, /usr/local/cuda/bin)";
        return r;
    }
    r.compiler = nvcc;
    char dir_tmpl[] = "/tmp/tilescope-nvcc-XXXXXX";
    if (!mkdtemp(dir_tmpl)) {
        r.log = "mkdtemp failed";
        return r;
    }
    std::string dir = dir_tmpl, cu = dir + "/kernel.cu", out = dir + "/kernel.cubin";
    {
        std::ofstream f(cu);
        f << source;
    }
    ProcessResult p =
        runProcess({nvcc, "-cubin", "-arch=" + arch, "-std=c++17", "-o", out, cu}, {}, timeout_s);
    r.log = p.err + p.out;
    if (!p.started)
        r.log = p.error;
    else if (p.timed_out)
        r.log += "\nnvcc " + p.error;
    if (p.started && !p.timed_out && p.exit_code == 0) {
        std::ifstream f(out, std::ios::binary);
        std::ostringstream ss;
        ss << f.rdbuf();
        r.cubin = ss.str();
        r.ok = !r.cubin.empty();
    }
    std::remove(cu.c_str());
    std::remove(out.c_str());
    rmdir(dir.c_str());
    r.seconds = since(t0);
    return r;
}

CompileResult compileCuda(const std::string& source, const std::string& arch,
                          const std::string& compiler) {
    if (compiler == "nvcc") return compileWithNvcc(source, arch);
    if (compiler == "nvrtc" || nvrtcAvailable()) return compileWithNvrtc(source, arch);
    return compileWithNvcc(source, arch);
}

} // namespace ts
