// SPDX-License-Identifier: Apache-2.0
// `kernel`: the kernel X-ray of a TileLang kernel (kernel/kernel_xray.h): its generated CUDA, or
// its Python lowered by TileLang in a child process.
#include "cli.h"

#include "tilescope/device/tilelang_kernel.h"
#include "tilescope/kernel/kernel_view.h"
#include "tilescope/kernel/kernel_xray.h"
#include "tilescope/kernel/lowering.h"
#include "tilescope/kernel/measured.h"
#include "tilescope/support/errors.h"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

namespace {

struct KernelArgs {
    std::string file, function, arch = "sm_80", block, smem, meta, measured, python, emitSource,
                                emitMeta;
    std::vector<std::string> params;
    bool json = false;
};

std::string readFile(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    if (!f) throw ts::InputError(path + ": cannot read the file");
    std::ostringstream s;
    s << f.rdbuf();
    return s.str();
}

void writeFile(const std::string& path, const std::string& text) {
    std::ofstream f(path, std::ios::binary);
    if (!f || !(f << text)) throw ts::InputError(path + ": cannot write the file");
}

std::array<int, 3> parseBlock(const std::string& text) {
    std::array<int, 3> b{1, 1, 1};
    std::stringstream s(text);
    std::string part;
    int i = 0;
    while (std::getline(s, part, ',')) {
        if (i >= 3) throw ts::InputError("--block takes at most three numbers: X[,Y[,Z]]");
        b[std::size_t(i++)] = std::max(1, cli::parseCount("--block", part));
    }
    if (i == 0) throw ts::InputError("--block takes X[,Y[,Z]]");
    return b;
}

int kernel(const KernelArgs& a) {
    namespace fs = std::filesystem;
    const bool isPy = fs::path(a.file).extension() == ".py";
    std::string source;
    std::vector<ts::kernel::KernelLaunch> launches;
    nlohmann::json lowering;
    if (isPy) {
        std::string why;
        std::string python = a.python;
        if (python.empty()) {
            python = ts::findTileLangPython(ts::tileLangSearchDirs(a.file), &why);
        }
        if (python.empty())
            throw ts::InputError(a.file + ": a TileLang Python file is lowered by TileLang, and " +
                                 why + " (or give the generated .cu)");
        auto low = ts::kernel::lowerTileLangFile(python, a.file, a.function, a.arch);
        source = low.source;
        launches = low.kernels;
        lowering = low.meta;
        if (!a.emitSource.empty()) writeFile(a.emitSource, low.source);
        if (!a.emitMeta.empty()) writeFile(a.emitMeta, low.meta.dump(2) + "\n");
    } else {
        source = readFile(a.file);
        if (!a.meta.empty()) {
            nlohmann::json m;
            try {
                m = nlohmann::json::parse(readFile(a.meta));
            } catch (const nlohmann::json::exception& e) {
                throw ts::InputError(a.meta + ": not JSON (" + e.what() + ")");
            }
            launches = ts::kernel::launchesFromMeta(m);
            lowering = m;
        }
    }
    ts::kernel::XrayOptions base;
    base.function = isPy ? std::string() : a.function;
    if (!a.block.empty()) base.block = parseBlock(a.block);
    if (!a.smem.empty()) base.dynamic_smem = cli::parseCount("--smem", a.smem);
    for (const auto& p : a.params) {
        const auto eq = p.find('=');
        if (eq == std::string::npos || eq == 0)
            throw ts::InputError("--param takes NAME=VALUE (got '" + p + "')");
        try {
            base.scalars[p.substr(0, eq)] = std::stoll(p.substr(eq + 1));
        } catch (...) {
            throw ts::InputError("--param " + p + ": the value is not an integer");
        }
    }
    std::vector<ts::kernel::KernelXray> xs;
    if (launches.empty()) {
        xs = ts::kernel::xrayKernels(source, base);
    } else {
        bool any = false;
        for (const auto& l : launches) {
            if (!base.function.empty() && base.function != l.name) continue;
            ts::kernel::XrayOptions o = ts::kernel::optionsFor(l);
            o.scalars = base.scalars;
            if (!a.block.empty()) o.block = base.block;
            if (base.dynamic_smem >= 0) o.dynamic_smem = base.dynamic_smem;
            for (auto& x : ts::kernel::xrayKernels(source, o))
                xs.push_back(std::move(x));
            any = true;
        }
        if (!any) throw ts::InputError("no kernel named '" + base.function + "' in the lowering");
    }
    if (lowering.is_object() && lowering.contains("layouts"))
        for (auto& x : xs)
            ts::kernel::attachLayouts(x, lowering["layouts"]);
    std::optional<ts::kernel::Measured> measured;
    if (!a.measured.empty()) measured = ts::kernel::readMeasured(readFile(a.measured), a.measured);
    if (a.json) {
        nlohmann::json out;
        out["file"] = a.file;
        if (!lowering.is_null()) out["lowering"] = lowering;
        out["kernels"] = nlohmann::json::array();
        for (const auto& x : xs) {
            nlohmann::json j;
            ts::kernel::toJson(j, x);
            if (measured) {
                const ts::kernel::LaunchCount n = ts::kernel::blocksOf(x.name, launches, *measured);
                nlohmann::json cmp;
                ts::kernel::toJson(cmp, ts::kernel::compare(x, *measured, n));
                j["measured"] = std::move(cmp);
            }
            out["kernels"].push_back(std::move(j));
        }
        std::cout << out.dump(2) << "\n";
    } else {
        for (const auto& x : xs) {
            std::cout << ts::kernel::formatXray(x);
            if (measured) {
                const ts::kernel::LaunchCount n = ts::kernel::blocksOf(x.name, launches, *measured);
                std::cout << "\n"
                          << ts::kernel::formatComparison(ts::kernel::compare(x, *measured, n));
            }
            std::cout << "\n";
        }
    }
    if (measured) {
        for (const auto& x : xs) {
            const ts::kernel::LaunchCount n = ts::kernel::blocksOf(x.name, launches, *measured);
            if (!ts::kernel::compare(x, *measured, n).allMatch()) return 3;
        }
    }
    return cli::kOk;
}

const cli::Register reg{{"kernel",
                         "kernel X-ray: every shared-memory access of a TileLang kernel (its "
                         "generated .cu, or its .py lowered by TileLang), with its bank cost, the "
                         "footprint and the occupancy",
                         [](CLI::App& sub) -> cli::Run {
                             auto a = std::make_shared<KernelArgs>();
                             sub.add_option("FILE", a->file,
                                            "the kernel: FILE.cu (TileLang's "
                                            "generated CUDA) or FILE.py (a TileLang program)")
                                 ->required();
                             sub.add_option("--function", a->function,
                                            "the kernel (.cu: the __global__ name) or the "
                                            "PrimFunc (.py) to read; default: all / the last");
                             sub.add_option("--arch", a->arch,
                                            "the target a .py is lowered for "
                                            "(sm_80, sm_90, ...)");
                             sub.add_option("--block", a->block,
                                            "threads per block X[,Y[,Z]] "
                                            "(default: __launch_bounds__)");
                             sub.add_option("--smem", a->smem,
                                            "dynamic shared memory bytes at launch "
                                            "(default: inferred from the accesses, a lower bound)");
                             sub.add_option("--meta", a->meta,
                                            "a lowering's meta.json: launch "
                                            "configuration of each kernel of a .cu");
                             sub.add_option("--param", a->params,
                                            "NAME=VALUE of a scalar kernel "
                                            "parameter (repeatable)");
                             sub.add_option("--measured", a->measured,
                                            "per-line counters measured "
                                            "on a GPU (tools/h200_kernels.sh): compare line by "
                                            "line; exit 3 when a line differs");
                             sub.add_option("--python", a->python,
                                            "the Python that imports tilelang (default: "
                                            "$TILESCOPE_PYTHON, a .venv beside the file or above "
                                            "it, ./.venv, python3)");
                             sub.add_option("--emit-source", a->emitSource,
                                            "write a .py's generated CUDA to this file");
                             sub.add_option("--emit-meta", a->emitMeta,
                                            "write a .py's launch configuration to this file");
                             sub.add_flag("--json", a->json, "JSON instead of tables");
                             return [a] { return kernel(*a); };
                         }}};

} // namespace
