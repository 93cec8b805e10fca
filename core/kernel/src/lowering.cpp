// SPDX-License-Identifier: Apache-2.0
#include "tilescope/kernel/lowering.h"

#include "tilescope/device/subprocess.h"
#include "tilescope/support/errors.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace ts::kernel {

namespace {

std::array<int, 3> dims3(const nlohmann::json& j, const char* what) {
    std::array<int, 3> d{1, 1, 1};
    if (!j.is_array() || j.empty() || j.size() > 3)
        throw InputError(std::string("the lowering's ") + what +
                         " is not a list of 1 to 3 integers");
    for (std::size_t i = 0; i < j.size(); ++i) {
        if (!j[i].is_number_integer() || j[i].get<std::int64_t>() < 1 ||
            j[i].get<std::int64_t>() > (1 << 30))
            throw InputError(std::string("the lowering's ") + what + "[" + std::to_string(i) +
                             "] is not a positive integer");
        d[i] = j[i].get<int>();
    }
    return d;
}

} // namespace

std::vector<KernelLaunch> launchesFromMeta(const nlohmann::json& meta) {
    std::vector<KernelLaunch> out;
    if (!meta.contains("kernels") || !meta["kernels"].is_array())
        throw InputError("the lowering has no \"kernels\" list");
    for (const auto& k : meta["kernels"]) {
        KernelLaunch l;
        l.name = k.value("name", "");
        if (l.name.empty()) throw InputError("a kernel of the lowering has no name");
        l.grid = dims3(k.value("grid", nlohmann::json()), "grid");
        l.block = dims3(k.value("block", nlohmann::json()), "block");
        l.dynamic_smem = k.value("dynamic_smem_bytes", std::int64_t(-1));
        if (k.contains("params")) l.params = k["params"];
        out.push_back(std::move(l));
    }
    return out;
}

LoweredKernel parseLowering(const std::string& output) {
    const std::string ok = "TILESCOPE_KERNEL_JSON ", bad = "TILESCOPE_KERNEL_ERROR ";
    std::size_t pos = 0;
    std::string json, error;
    while (pos < output.size()) {
        std::size_t e = output.find('\n', pos);
        if (e == std::string::npos) e = output.size();
        const std::string line = output.substr(pos, e - pos);
        if (line.rfind(ok, 0) == 0) json = line.substr(ok.size());
        if (line.rfind(bad, 0) == 0) error = line.substr(bad.size());
        pos = e + 1;
    }
    if (!error.empty()) throw InputError("lowering failed: " + error);
    if (json.empty())
        throw InputError("the lowering printed no result (TILESCOPE_KERNEL_JSON line missing)");
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(json);
    } catch (const std::exception& e) {
        throw InputError(std::string("the lowering's result is not JSON: ") + e.what());
    }
    LoweredKernel r;
    r.source = j.value("kernel_source", "");
    r.log = j.value("log", "");
    r.function = j.value("function", "");
    r.arch = j.value("arch", "");
    r.tilelang_version = j.value("tilelang_version", "");
    r.seconds = j.value("lower_seconds", 0.0);
    r.kernels = launchesFromMeta(j);
    j.erase("kernel_source");
    j.erase("log");
    r.meta = std::move(j);
    if (r.source.empty()) throw InputError("the lowering returned no kernel source");
    return r;
}

LoweredKernel lowerTileLangFile(const std::string& python, const std::string& pyFile,
                                const std::string& function, const std::string& arch,
                                double timeout_s, const std::atomic<bool>* cancel) {
    namespace fs = std::filesystem;
    if (!fs::is_regular_file(pyFile)) throw InputError(pyFile + ": no such file");
    char tmpl[] = "/tmp/tilescope-lower-XXXXXX";
    const char* dir = ::mkdtemp(tmpl);
    if (!dir) throw InputError("cannot create a temporary directory for the lowering script");
    const std::string script = std::string(dir) + "/lower_kernel.py";
    {
        std::ofstream f(script);
        f << lowerKernelScript();
    }
    std::vector<std::string> argv{python, script, fs::absolute(pyFile).string(), "--arch", arch};
    if (!function.empty()) {
        argv.push_back("--function");
        argv.push_back(function);
    }
    ProcessResult pr = runProcess(argv, {}, timeout_s, {}, cancel);
    std::error_code ec;
    fs::remove_all(dir, ec);
    if (pr.cancelled) throw LoweringCancelled();
    if (!pr.started) throw InputError("cannot run " + python + ": " + pr.error);
    if (pr.timed_out)
        throw InputError("lowering " + pyFile + " did not finish in " +
                         std::to_string(int(timeout_s)) + " s (stopped)");
    try {
        return parseLowering(pr.out);
    } catch (const InputError& e) {
        std::string last = pr.err;
        while (!last.empty() && last.back() == '\n')
            last.pop_back();
        if (auto p = last.rfind('\n'); p != std::string::npos) last = last.substr(p + 1);
        throw InputError(pyFile + ": " + e.what() + (last.empty() ? "" : " (" + last + ")"));
    }
}

XrayOptions optionsFor(const KernelLaunch& launch) {
    XrayOptions o;
    o.function = launch.name;
    o.block = launch.block;
    o.dynamic_smem = launch.dynamic_smem;
    return o;
}

} // namespace ts::kernel
