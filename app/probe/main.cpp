// SPDX-License-Identifier: Apache-2.0
// tilescope-probe: JSON request in, JSON result out (schema: docs/probe.md).
//
//   tilescope-probe [REQUEST.json]        one request (stdin when no file)
//   tilescope-probe --compile-only [REQ]  NVRTC/nvcc compile for the arch, no GPU needed
//   tilescope-probe --sweep FILE|builtin [--devices all|0,1,...]
//                                         many patterns; one worker process (and ncu pass) per
//                                         GPU, patterns spread round robin, merged in order
//   tilescope-probe --list-sweep          print the builtin sweep with its predictions
//   tilescope-probe --worker IN OUT       (internal) the child that touches the GPU
//   tilescope-probe --version | --help
//
// Exit codes: 0 ok, 1 internal failure, 2 bad input, 3 no CUDA driver or GPU, 4 compile
// failed, 5 GPU work timed out (hung kernel killed), 6 verification failed (round trip or
// predicted != measured wavefronts).
#include "cuda_driver.h"
#include "devices.h"
#include "sweep.h"

#include "tilescope/banks/bank_model.h"
#include "tilescope/device/cuda_compile.h"
#include "tilescope/device/kernelgen.h"
#include "tilescope/device/subprocess.h"
#include "tilescope/support/errors.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <thread>
#include <unistd.h>

using nlohmann::json;

namespace {

enum Exit {
    kOk = 0,
    kInternal = 1,
    kBadInput = 2,
    kNoGpu = 3,
    kCompile = 4,
    kTimeout = 5,
    kVerify = 6
};

struct Fail {
    int code;
    std::string message;
};

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
}

std::string readFile(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    if (!f) throw Fail{kBadInput, "cannot read " + path};
    std::ostringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

void writeFile(const std::string& path, const std::string& data) {
    std::ofstream f(path, std::ios::binary);
    f << data;
    if (!f) throw Fail{kInternal, "cannot write " + path};
}

std::string selfExe() {
    char buf[4096];
    ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0) return "tilescope-probe";
    return std::string(buf, n);
}

// ---------------------------------------------------------------- the prepared pattern
struct Job {
    std::string name;
    json request;
    ts::AccessPlan plan;
    ts::TileDesc tile;
    ts::PlanCost predicted;
    ts::GeneratedKernel kernel;
    ts::CompileResult compiled;
    std::string cubin_path;
    double generate_s = 0;
    int iterations = 4096, repetitions = 20, warmup = 3, block = 256, ncu_iterations = 64;
};

ts::TileDesc tileFromJson(const json& j, const ts::AccessPlan& plan) {
    if (j.is_null()) return ts::identityTileFor(plan, 4);
    if (!j.is_object()) throw ts::InputError("tile: expected an object");
    ts::TileDesc t;
    t.elem_bytes = j.value("elem_bytes", 4);
    if (j.contains("phys_of_logical")) {
        t.phys_of_logical = j["phys_of_logical"].get<std::vector<std::int64_t>>();
        t.elements = j.value("elements", std::int64_t(t.phys_of_logical.size()));
    } else {
        t.elements = j.value("elements", std::int64_t(0));
        if (t.elements == 0) return ts::identityTileFor(plan, t.elem_bytes);
    }
    return t;
}

Job prepare(const json& req, const std::string& suffix, const std::string& arch,
            const std::string& compiler, const std::string& tmpdir) {
    Job job;
    job.request = req;
    auto t0 = Clock::now();
    try {
        if (!req.is_object()) throw ts::InputError("request: expected a JSON object");
        if (!req.contains("plan")) throw ts::InputError("request: missing \"plan\"");
        job.name = req.value("name", suffix);
        job.plan = ts::planFromJson(req["plan"]);
        job.tile = tileFromJson(req.contains("tile") ? req["tile"] : json(), job.plan);
        job.iterations = req.value("iterations", 4096);
        job.repetitions = std::max(1, req.value("repetitions", 20));
        job.warmup = std::max(0, req.value("warmup", 3));
        job.block = req.value("block", 256);
        job.ncu_iterations = req.value("ncu_iterations", 64);
        if (job.iterations < 1 || job.iterations > (1 << 24))
            throw ts::InputError("iterations must be in 1..16777216");
        if (job.block < 32 || job.block > 1024 || job.block % 32)
            throw ts::InputError("block must be a multiple of 32 in 32..1024");
        job.predicted = ts::analyzePlan(job.plan);
        job.kernel = ts::generateCudaKernel(job.plan, job.tile, {.suffix = suffix});
    } catch (const ts::InputError& e) {
        throw Fail{kBadInput, e.what()};
    } catch (const json::exception& e) {
        throw Fail{kBadInput, std::string("request: ") + e.what()};
    }
    job.generate_s = since(t0);
    job.compiled = ts::compileCuda(job.kernel.source, arch, compiler);
    if (job.compiled.ok && !tmpdir.empty()) {
        job.cubin_path = tmpdir + "/" + suffix + ".cubin";
        writeFile(job.cubin_path, job.compiled.cubin);
    }
    return job;
}

// Generates and compiles every pattern. NVRTC programs are independent, so a sweep compiles on
// every core (a 500-pattern sweep spent minutes compiling one at a time); the nvcc fallback forks
// a compiler per pattern and stays sequential. The first failing pattern, in order, is reported,
// as the sequential loop did.
std::vector<Job> prepareAll(const std::vector<json>& patterns, const std::string& arch,
                            const std::string& compiler, const std::string& tmp) {
    std::vector<Job> jobs(patterns.size());
    std::vector<std::exception_ptr> errors(patterns.size());
    std::atomic<std::size_t> next{0};
    auto work = [&] {
        for (std::size_t i; (i = next++) < patterns.size();) {
            try {
                jobs[i] = prepare(patterns[i], "_p" + std::to_string(i), arch, compiler, tmp);
            } catch (...) {
                errors[i] = std::current_exception();
            }
        }
    };
    const bool parallel = compiler != "nvcc" && ts::nvrtcAvailable();
    const std::size_t threads =
        parallel ? std::min<std::size_t>(patterns.size(),
                                         std::max(1u, std::thread::hardware_concurrency()))
                 : 1;
    std::vector<std::thread> pool;
    for (std::size_t t = 1; t < threads; ++t)
        pool.emplace_back(work);
    work();
    for (std::thread& t : pool)
        t.join();
    for (const std::exception_ptr& e : errors)
        if (e) std::rethrow_exception(e);
    return jobs;
}

json compileJson(const Job& job, const std::string& arch) {
    return {{"ok", job.compiled.ok},
            {"compiler", job.compiled.compiler},
            {"arch", arch},
            {"seconds", job.compiled.seconds},
            {"cubin_bytes", job.compiled.cubin.size()},
            {"log", job.compiled.log}};
}

json predictedJson(const Job& job) {
    json j;
    ts::toJson(j, job.predicted);
    return j;
}

// ---------------------------------------------------------------- worker (child process)
struct GpuFail {
    int code;
    std::string message;
};

void check(const probe::Driver& d, probe::CUresult rc, const char* what) {
    if (rc != 0) throw GpuFail{kInternal, std::string(what) + ": " + d.describe(rc)};
}

json workerRun(const json& in) {
    probe::Driver d;
    std::string err;
    if (!d.load(err)) throw GpuFail{kNoGpu, err};
    probe::CUresult rc = d.cuInit(0);
    if (rc != 0) throw GpuFail{kNoGpu, "no CUDA device: cuInit failed with " + d.describe(rc)};
    int count = 0;
    if (d.cuDeviceGetCount(&count) != 0 || count == 0)
        throw GpuFail{kNoGpu, "no CUDA device: cuDeviceGetCount found none"};
    if (in.value("mode", std::string()) == "count") {
        json names = json::array();
        for (int i = 0; i < count; ++i) {
            probe::CUdevice di;
            char nm[256] = {};
            if (d.cuDeviceGet(&di, i) == 0) d.cuDeviceGetName(nm, sizeof nm, di);
            names.push_back(nm);
        }
        return {{"count", count}, {"names", names}};
    }
    probe::CUdevice dev;
    check(d, d.cuDeviceGet(&dev, in.value("device", 0)), "cuDeviceGet");
    char name[256] = {};
    d.cuDeviceGetName(name, sizeof name, dev);
    int sms = 0, clock_khz = 0, ccM = 0, ccm = 0, drv = 0;
    d.cuDeviceGetAttribute(&sms, probe::kAttrSmCount, dev);
    d.cuDeviceGetAttribute(&clock_khz, probe::kAttrClockRateKHz, dev);
    d.cuDeviceGetAttribute(&ccM, probe::kAttrCcMajor, dev);
    d.cuDeviceGetAttribute(&ccm, probe::kAttrCcMinor, dev);
    d.cuDriverGetVersion(&drv);
    probe::CUcontext ctx;
    check(d, d.cuDevicePrimaryCtxRetain(&ctx, dev), "cuDevicePrimaryCtxRetain");
    check(d, d.cuCtxSetCurrent(ctx), "cuCtxSetCurrent");

    json out;
    out["device"] = {{"name", name},
                     {"sm_count", sms},
                     {"clock_khz", clock_khz},
                     {"compute_capability", std::to_string(ccM) + "." + std::to_string(ccm)},
                     {"driver_version", drv}};
    const std::string mode = in.value("mode", std::string("time"));
    const bool ncu_mode = mode == "ncu" || mode == "ncu1";
    const bool one_warp = mode == "ncu1"; // one warp per SM: no arbitration between warps
    out["jobs"] = json::array();
    std::mt19937 rng(1234);
    for (const json& jb : in["jobs"]) {
        json r;
        r["name"] = jb["name"];
        auto t0 = Clock::now();
        try {
            std::string cubin = readFile(jb["cubin"].get<std::string>());
            probe::CUmodule mod;
            check(d, d.cuModuleLoadData(&mod, cubin.data()), "cuModuleLoadData");
            probe::CUfunction frt, ftm;
            check(
                d,
                d.cuModuleGetFunction(&frt, mod, jb["roundtrip_kernel"].get<std::string>().c_str()),
                "cuModuleGetFunction(roundtrip)");
            check(d,
                  d.cuModuleGetFunction(&ftm, mod, jb["timed_kernel"].get<std::string>().c_str()),
                  "cuModuleGetFunction(timed)");
            const int rt_smem = jb["roundtrip_smem"], tm_smem = jb["timed_smem"];
            check(d, d.cuFuncSetAttribute(frt, probe::kFuncAttrMaxDynamicShared, rt_smem),
                  "cuFuncSetAttribute(roundtrip)");
            check(d, d.cuFuncSetAttribute(ftm, probe::kFuncAttrMaxDynamicShared, tm_smem),
                  "cuFuncSetAttribute(timed)");
            const int block = one_warp ? 32 : jb["block"].get<int>();

            // (a) round trip, skipped under ncu (it would only add kernels to profile).
            if (!ncu_mode) {
                const std::size_t n =
                    std::size_t(jb["elements"].get<std::int64_t>()) * jb["elem_bytes"].get<int>();
                std::vector<unsigned char> host(std::max<std::size_t>(n, 1)), back(host.size());
                for (auto& b : host)
                    b = static_cast<unsigned char>(rng() % 251 + 1);
                probe::CUdeviceptr din, dout;
                check(d, d.cuMemAlloc(&din, host.size()), "cuMemAlloc");
                check(d, d.cuMemAlloc(&dout, host.size()), "cuMemAlloc");
                check(d, d.cuMemcpyHtoD(din, host.data(), host.size()), "cuMemcpyHtoD");
                check(d, d.cuMemsetD8(dout, 0xA5, host.size()), "cuMemsetD8"); // poison
                void* args[] = {&din, &dout};
                check(d, d.cuLaunchKernel(frt, 1, 1, 1, 256, 1, 1, rt_smem, nullptr, args, nullptr),
                      "cuLaunchKernel(roundtrip)");
                check(d, d.cuCtxSynchronize(), "roundtrip kernel");
                check(d, d.cuMemcpyDtoH(back.data(), dout, back.size()), "cuMemcpyDtoH");
                std::int64_t bad = 0, first = -1;
                for (std::size_t i = 0; i < n; ++i)
                    if (host[i] != back[i]) {
                        if (first < 0) first = std::int64_t(i);
                        ++bad;
                    }
                r["roundtrip"] = {{"pass", bad == 0},
                                  {"bytes", n},
                                  {"mismatched_bytes", bad},
                                  {"first_mismatch_byte", first}};
                d.cuMemFree(din);
                d.cuMemFree(dout);
            }

            // (b) timed loop.
            int bps = 0;
            check(d, d.cuOccupancyMaxActiveBlocksPerMultiprocessor(&bps, ftm, block, tm_smem),
                  "cuOccupancyMaxActiveBlocksPerMultiprocessor");
            bps = one_warp ? 1 : std::max(bps, 1);
            const int grid = sms * bps;
            const int warps = grid * block / 32;
            int iters = ncu_mode ? jb["ncu_iterations"].get<int>() : jb["iterations"].get<int>();
            unsigned zero = 0;
            probe::CUdeviceptr dcyc, dsink;
            check(d, d.cuMemAlloc(&dcyc, sizeof(unsigned long long) * warps), "cuMemAlloc");
            check(d, d.cuMemAlloc(&dsink, sizeof(unsigned) * warps), "cuMemAlloc");
            void* targs[] = {&dcyc, &dsink, &iters, &zero};
            auto launch = [&] {
                check(d,
                      d.cuLaunchKernel(ftm, grid, 1, 1, block, 1, 1, tm_smem, nullptr, targs,
                                       nullptr),
                      "cuLaunchKernel(timed)");
            };
            json timing = {{"grid", grid},
                           {"block", block},
                           {"blocks_per_sm", bps},
                           {"warps", warps},
                           {"iterations", iters}};
            if (ncu_mode) {
                launch();
                check(d, d.cuCtxSynchronize(), "timed kernel");
            } else {
                const int warm = jb["warmup"], reps = jb["repetitions"];
                for (int i = 0; i < warm; ++i)
                    launch();
                check(d, d.cuCtxSynchronize(), "timed kernel (warm-up)");
                probe::CUevent e0, e1;
                check(d, d.cuEventCreate(&e0, 0), "cuEventCreate");
                check(d, d.cuEventCreate(&e1, 0), "cuEventCreate");
                std::vector<double> ms;
                for (int i = 0; i < reps; ++i) {
                    d.cuEventRecord(e0, nullptr);
                    launch();
                    d.cuEventRecord(e1, nullptr);
                    check(d, d.cuEventSynchronize(e1), "timed kernel");
                    float t = 0;
                    d.cuEventElapsedTime(&t, e0, e1);
                    ms.push_back(t);
                }
                std::vector<unsigned long long> cyc(warps);
                check(d, d.cuMemcpyDtoH(cyc.data(), dcyc, cyc.size() * sizeof cyc[0]),
                      "cuMemcpyDtoH(cycles)");
                std::sort(ms.begin(), ms.end());
                std::sort(cyc.begin(), cyc.end());
                timing["warmup"] = warm;
                timing["repetitions"] = reps;
                timing["median_ms"] = ms[ms.size() / 2];
                timing["min_ms"] = ms.front();
                timing["max_ms"] = ms.back();
                timing["warp_cycles_median"] = cyc[cyc.size() / 2];
                timing["warp_cycles_max"] = cyc.back();
            }
            d.cuMemFree(dcyc);
            d.cuMemFree(dsink);
            d.cuModuleUnload(mod);
            r["timing"] = timing;
            r["ok"] = true;
        } catch (const GpuFail& f) {
            r["ok"] = false;
            r["error"] = f.message;
            if (f.code == kNoGpu) throw;
        }
        r["run_seconds"] = since(t0);
        out["jobs"].push_back(r);
    }
    return out;
}

int workerMain(const std::string& in_path, const std::string& out_path) {
    json out;
    int code = kOk;
    try {
        out = workerRun(json::parse(readFile(in_path)));
        out["ok"] = true;
    } catch (const GpuFail& f) {
        out = {{"ok", false}, {"error", f.message}};
        code = f.code;
    } catch (const std::exception& e) {
        out = {{"ok", false}, {"error", std::string("worker: ") + e.what()}};
        code = kInternal;
    }
    writeFile(out_path, out.dump());
    return code;
}

// ---------------------------------------------------------------- ncu
const std::vector<std::string> kNcuMetrics = {
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum",
    "smsp__inst_executed_op_shared_ld.sum",
    "smsp__inst_executed_op_shared_st.sum",
    "smsp__inst_executed_op_ldsm.sum",
    "smsp__inst_executed_op_stsm.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldsm.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_stsm.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_stsm.sum",
};

std::vector<std::string> splitCsv(const std::string& line) {
    std::vector<std::string> f;
    std::string cur;
    bool q = false;
    for (char c : line) {
        if (c == '"')
            q = !q;
        else if (c == ',' && !q) {
            f.push_back(cur);
            cur.clear();
        } else
            cur += c;
    }
    f.push_back(cur);
    return f;
}

// Runs the worker under ncu; returns {kernel name -> {metric -> value}} plus diagnostics.
json runNcu(const std::string& ncu, const std::string& worker_in, const std::string& tmp,
            double timeout_s, const std::string& tag) {
    json res;
    // Keep only the metrics this ncu knows: an unknown name makes ncu refuse the whole run.
    ts::ProcessResult q = ts::runProcess({ncu, "--query-metrics"}, {}, 120);
    std::vector<std::string> use, missing;
    for (const auto& m : kNcuMetrics) {
        std::string base = m.substr(0, m.rfind('.'));
        std::size_t pos = 0;
        bool found = false;
        while ((pos = q.out.find(base, pos)) != std::string::npos) {
            char after = pos + base.size() < q.out.size() ? q.out[pos + base.size()] : ' ';
            char before = pos ? q.out[pos - 1] : ' ';
            if ((after == ' ' || after == '\t' || after == '\n' || after == '\r' || after == ',' ||
                 after == '"') &&
                (before == ' ' || before == '\n' || before == '"' || before == ',')) {
                found = true;
                break;
            }
            pos += base.size();
        }
        (found || q.out.empty() ? use : missing).push_back(m);
    }
    res["missing_metrics"] = missing;
    std::string metrics;
    for (const auto& m : use)
        metrics += (metrics.empty() ? "" : ",") + m;
    std::string wout = tmp + "/ncu-worker-out" + tag + ".json";
    std::vector<std::string> argv = {ncu,
                                     "--clock-control",
                                     "none",
                                     "--csv",
                                     "--print-units",
                                     "base",
                                     "--kernel-name",
                                     "regex:^ts_timed",
                                     "--metrics",
                                     metrics,
                                     selfExe(),
                                     "--worker",
                                     worker_in,
                                     wout};
    auto t0 = Clock::now();
    ts::ProcessResult p = ts::runProcess(argv, {}, timeout_s);
    res["seconds"] = since(t0);
    res["command"] = argv;
    if (p.timed_out) {
        res["error"] = "ncu timed out after " + std::to_string(int(timeout_s)) + " s";
        return res;
    }
    json kernels = json::object();
    std::vector<std::string> header;
    std::istringstream ss(p.out);
    std::string line;
    while (std::getline(ss, line)) {
        if (line.empty() || line[0] != '"') continue;
        auto f = splitCsv(line);
        if (header.empty()) {
            header = f;
            continue;
        }
        auto col = [&](const char* name) -> std::string {
            for (std::size_t i = 0; i < header.size() && i < f.size(); ++i)
                if (header[i] == name) return f[i];
            return {};
        };
        std::string kname = col("Kernel Name"), metric = col("Metric Name"),
                    value = col("Metric Value");
        if (kname.empty() || metric.empty()) continue;
        auto paren = kname.find('(');
        if (paren != std::string::npos) kname = kname.substr(0, paren);
        std::string digits;
        for (char c : value)
            if (c != ',') digits += c;
        try {
            kernels[kname][metric] = std::stod(digits);
        } catch (...) {
            kernels[kname][metric] = value;
        }
    }
    res["kernels"] = kernels;
    if (kernels.empty()) {
        res["error"] = "ncu returned no metrics (exit " + std::to_string(p.exit_code) + ")";
        std::string tail = p.out + p.err;
        res["log_tail"] = tail.substr(tail.size() > 3000 ? tail.size() - 3000 : 0);
    }
    return res;
}

double metric(const json& m, const char* name) {
    if (m.contains(name) && m[name].is_number()) return m[name].get<double>();
    return std::nan("");
}

// ---------------------------------------------------------------- the driver of one run
struct Options {
    bool compile_only = false;
    bool sweep = false;
    std::string input; // file path or "" for stdin; "builtin" for the sweep
    std::string out_file;
    std::string devices; // --devices all|0,1,...: empty = the request's "device" (default 0)
    int force_ncu = -1;  // -1: from the request
};

// How many GPUs the driver sees, asked of a worker child (the parent never initialises CUDA).
int countDevices(const std::string& tmp) {
    const std::string in = tmp + "/count-in.json", out = tmp + "/count-out.json";
    writeFile(in, json{{"mode", "count"}, {"jobs", json::array()}}.dump());
    ts::ProcessResult p = ts::runProcess({selfExe(), "--worker", in, out}, {}, 120);
    json answer;
    try {
        answer = json::parse(readFile(out));
    } catch (...) {
        std::remove(in.c_str());
        throw Fail{kInternal, "GPU worker died while counting devices (exit " +
                                  std::to_string(p.exit_code) + "): " + p.err};
    }
    std::remove(in.c_str());
    std::remove(out.c_str());
    if (!answer.value("ok", false))
        throw Fail{p.exit_code ? p.exit_code : kNoGpu,
                   answer.value("error", std::string("cannot count the GPUs"))};
    return answer.value("count", 0);
}

// One worker process per device, all at once; answers merged in request order (devices.h).
// `codes` gets each worker's exit code (5 when its timeout killed it).
json runWorkers(const json& win, const std::vector<int>& devices,
                const std::vector<std::vector<std::size_t>>& split, const std::string& tmp,
                double timeout_s, std::vector<int>& codes) {
    std::vector<tsprobe::WorkerAnswer> answers(devices.size());
    codes.assign(devices.size(), kOk);
    std::vector<std::thread> threads;
    for (std::size_t w = 0; w < devices.size(); ++w)
        threads.emplace_back([&, w] {
            tsprobe::WorkerAnswer& a = answers[w];
            a.device = devices[w];
            a.patterns = split[w];
            json in = win;
            in["device"] = devices[w];
            in["jobs"] = json::array();
            for (std::size_t i : split[w])
                in["jobs"].push_back(win["jobs"][i]);
            const std::string tag = "-" + std::to_string(devices[w]);
            const std::string ip = tmp + "/worker-in" + tag + ".json",
                              op = tmp + "/worker-out" + tag + ".json";
            auto t0 = Clock::now();
            try {
                writeFile(ip, in.dump());
            } catch (const Fail& f) {
                a.out = {{"ok", false}, {"error", f.message}};
                codes[w] = f.code;
                return;
            }
            ts::ProcessResult p = ts::runProcess({selfExe(), "--worker", ip, op}, {}, timeout_s);
            a.seconds = since(t0);
            if (p.timed_out) {
                a.out = {{"ok", false},
                         {"error", "GPU work did not finish within " +
                                       std::to_string(int(timeout_s)) +
                                       " s: the kernel was killed (hang?)"}};
                codes[w] = kTimeout;
            } else {
                try {
                    a.out = json::parse(readFile(op));
                    if (!a.out.value("ok", false)) codes[w] = p.exit_code ? p.exit_code : kInternal;
                } catch (...) {
                    a.out = {{"ok", false},
                             {"error", "GPU worker died (exit " + std::to_string(p.exit_code) +
                                           "): " + p.err}};
                    codes[w] = kInternal;
                }
            }
            std::remove(ip.c_str());
            std::remove(op.c_str());
        });
    for (std::thread& t : threads)
        t.join();
    return tsprobe::mergeWorkerAnswers(answers, win["jobs"].size());
}

int runAll(const Options& opt, json& result) {
    auto t_total = Clock::now();
    json req;
    std::vector<json> patterns;
    try {
        std::string text;
        if (opt.sweep && opt.input == "builtin")
            req = tsprobe::builtinSweep();
        else {
            text = opt.input.empty() ? std::string(std::istreambuf_iterator<char>(std::cin), {})
                                     : readFile(opt.input);
            req = json::parse(text);
        }
    } catch (const json::exception& e) {
        throw Fail{kBadInput, std::string("request is not valid JSON: ") + e.what()};
    }
    if (!req.is_object()) throw Fail{kBadInput, "request: expected a JSON object"};
    if (opt.sweep) {
        if (!req.contains("patterns") || !req["patterns"].is_array())
            throw Fail{kBadInput, "sweep: missing \"patterns\" array"};
        for (json p : req["patterns"]) {
            for (auto& [k, v] : req.items())
                if (k != "patterns" && !p.contains(k)) p[k] = v; // shared options
            patterns.push_back(p);
        }
    } else {
        patterns.push_back(req);
    }
    // Options are read with json::value(), which throws type_error on a wrong type (an internal
    // failure, exit 1): check their types first so a bad request is exit 2.
    std::vector<const json*> checked{&req};
    for (const json& p : patterns)
        checked.push_back(&p);
    for (const json* r : checked)
        for (const auto& [k, v] : r->items()) {
            const bool ok =
                (k == "arch" || k == "compiler" || k == "name") ? v.is_string()
                : (k == "ncu" || k == "emit_source")            ? v.is_boolean()
                : (k == "timeout_s" || k == "ncu_timeout_s" || k == "device" || k == "iterations" ||
                   k == "repetitions" || k == "warmup" || k == "block" || k == "ncu_iterations")
                    ? v.is_number()
                    : true;
            if (!ok) throw Fail{kBadInput, "request: \"" + k + "\" has the wrong type"};
            if ((k == "timeout_s" || k == "ncu_timeout_s") &&
                !(v.get<double>() > 0 && v.get<double>() <= 86400))
                throw Fail{kBadInput, "request: \"" + k + "\" must be in (0, 86400] seconds"};
        }
    const std::string arch = req.value("arch", std::string("sm_90"));
    const std::string compiler = req.value("compiler", std::string("auto"));
    const bool want_ncu = opt.force_ncu >= 0 ? opt.force_ncu == 1 : req.value("ncu", false);
    const double timeout_s = req.value("timeout_s", 60.0 + 10.0 * patterns.size());

    char tmpl[] = "/tmp/tilescope-probe-XXXXXX";
    std::string tmp = mkdtemp(tmpl) ? tmpl : "";
    if (tmp.empty()) throw Fail{kInternal, "mkdtemp failed"};

    std::vector<Job> jobs = prepareAll(patterns, arch, compiler, tmp);

    result["ok"] = true;
    result["patterns"] = json::array();
    bool compile_failed = false;
    for (const Job& j : jobs) {
        json pj;
        pj["name"] = j.name;
        pj["predicted"] = predictedJson(j);
        pj["kernel"] = {{"timed", j.kernel.timed_kernel},
                        {"roundtrip", j.kernel.roundtrip_kernel},
                        {"unroll", j.kernel.unroll},
                        {"timed_smem_bytes", j.kernel.timed_smem_bytes},
                        {"roundtrip_smem_bytes", j.kernel.roundtrip_smem_bytes},
                        {"source_bytes", j.kernel.source.size()}};
        pj["compile"] = compileJson(j, arch);
        pj["seconds"] = {{"generate", j.generate_s}, {"compile", j.compiled.seconds}};
        // The request travels with its result, so an imported result can be matched to the
        // layout and access it measured (the GUI rebuilds the plan and compares).
        pj["request"] = j.request;
        if (!j.compiled.ok) compile_failed = true;
        if (req.value("emit_source", false)) pj["source"] = j.kernel.source;
        result["patterns"].push_back(pj);
    }
    std::vector<int> used; // devices that got patterns (their worker files are removed)
    auto finish = [&](int code) {
        result["seconds_total"] = since(t_total);
        for (const Job& j : jobs)
            if (!j.cubin_path.empty()) std::remove(j.cubin_path.c_str());
        for (int d : used)
            std::remove((tmp + "/ncu-worker-out-" + std::to_string(d) + ".json").c_str());
        rmdir(tmp.c_str());
        return code;
    };
    if (compile_failed) {
        result["ok"] = false;
        bool no_compiler = false;
        for (const Job& j : jobs)
            if (j.compiled.compiler.empty()) no_compiler = true;
        if (!no_compiler) {
            result["error"] = "compile failed (see patterns[].compile.log)";
            return finish(kCompile);
        }
        // Name every compiler that was looked for: with "auto", NVRTC first, then nvcc.
        std::string nvrtcWhy;
        std::string missing = "no CUDA compiler: " + jobs[0].compiled.log;
        if (compiler == "auto" && !ts::nvrtcAvailable(&nvrtcWhy))
            missing = "no CUDA compiler: " + nvrtcWhy + " and " + jobs[0].compiled.log;
        // A full run on a machine with no GPU either: that is what the user lacks first (exit 3),
        // said with the compiler, rather than a compile error that hides it.
        probe::Driver drv;
        std::string derr;
        if (!opt.compile_only && !drv.load(derr)) {
            result["error"] = derr.substr(0, derr.find("; GPU runs need")) + "; and " + missing +
                              ". A GPU run needs an NVIDIA driver and GPU, and NVRTC or nvcc "
                              "(the CUDA toolkit); the predictions above need neither";
            return finish(kNoGpu);
        }
        result["error"] = missing;
        return finish(kCompile);
    }
    if (opt.compile_only) return finish(kOk);

    // GPU work happens in a child so that a hung kernel can be killed.
    probe::Driver drv;
    std::string derr;
    if (!drv.load(derr)) {
        result["ok"] = false;
        result["error"] = derr;
        return finish(kNoGpu);
    }
    // Which GPUs: one worker process per device, patterns spread round robin (devices.h).
    std::vector<int> devices{req.value("device", 0)};
    if (!opt.devices.empty()) {
        const int count = countDevices(tmp);
        try {
            devices = tsprobe::parseDevices(opt.devices, count);
        } catch (const ts::InputError& e) {
            result["ok"] = false;
            result["error"] = e.what();
            return finish(kBadInput);
        }
    }
    std::vector<std::vector<std::size_t>> split =
        tsprobe::splitPatterns(jobs.size(), devices.size());
    for (std::size_t w = 0; w < split.size(); ++w)
        if (!split[w].empty()) used.push_back(devices[w]);
    split.erase(std::remove_if(split.begin(), split.end(), [](const auto& v) { return v.empty(); }),
                split.end());
    json win;
    win["mode"] = "time";
    win["jobs"] = json::array();
    for (const Job& j : jobs)
        win["jobs"].push_back({{"name", j.name},
                               {"cubin", j.cubin_path},
                               {"roundtrip_kernel", j.kernel.roundtrip_kernel},
                               {"timed_kernel", j.kernel.timed_kernel},
                               {"roundtrip_smem", j.kernel.roundtrip_smem_bytes},
                               {"timed_smem", j.kernel.timed_smem_bytes},
                               {"elements", j.tile.elements},
                               {"elem_bytes", j.tile.elem_bytes},
                               {"iterations", j.iterations},
                               {"repetitions", j.repetitions},
                               {"warmup", j.warmup},
                               {"block", j.block},
                               {"ncu_iterations", j.ncu_iterations}});
    auto t_run = Clock::now();
    std::vector<int> codes;
    json wout = runWorkers(win, used, split, tmp, timeout_s, codes);
    double run_s = since(t_run);
    if (!wout.value("ok", false)) {
        result["ok"] = false;
        result["error"] = wout.value("error", std::string("GPU worker failed"));
        if (used.size() > 1) result["devices"] = wout["devices"];
        return finish(codes.empty() || codes[0] == kOk ? kInternal : codes[0]);
    }
    result["device"] = wout["device"];
    // Provenance kept with imported results: when, which kernel driver (the CUDA API version is
    // device.driver_version), and below which ncu.
    {
        char when[32] = {};
        const std::time_t now = std::time(nullptr);
        std::tm tm{};
        gmtime_r(&now, &tm);
        std::strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
        result["date"] = when;
        std::ifstream v("/proc/driver/nvidia/version");
        std::string line;
        if (std::getline(v, line)) {
            // "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.159.04  Release ...":
            // the first word made of digits and dots (with a dot) is the version.
            std::istringstream ws(line);
            for (std::string w; ws >> w;)
                if (w.find('.') != std::string::npos && w.front() >= '0' && w.front() <= '9' &&
                    w.find_first_not_of("0123456789.") == std::string::npos) {
                    result["driver"] = w;
                    break;
                }
        }
    }
    // Per-device figures: which GPU ran which patterns, and for how long.
    if (opt.sweep || used.size() > 1) result["devices"] = wout["devices"];
    std::map<int, json> deviceOf;
    for (const json& d : wout["devices"])
        deviceOf[d["index"].get<int>()] = d;
    // A worker that failed while another ran: its patterns carry its error; the run fails.
    int worker_failed = kOk;
    for (std::size_t w = 0; w < codes.size(); ++w)
        if (codes[w] != kOk && worker_failed == kOk) {
            worker_failed = codes[w];
            result["error"] = wout["devices"][w].value("error", std::string("GPU worker failed"));
        }
    bool verify_failed = false;
    for (std::size_t i = 0; i < jobs.size(); ++i) {
        const Job& j = jobs[i];
        json& pj = result["patterns"][i];
        const json& wr = wout["jobs"][i];
        const int di = wr.value("device_index", used.front());
        const json& dev = deviceOf[di];
        const double sms = dev.value("sm_count", 1);
        if (used.size() > 1) pj["device_index"] = di;
        pj["seconds"]["run"] = wr.value("run_seconds", 0.0);
        if (!wr.value("ok", false)) {
            pj["error"] = wr.value("error", std::string());
            verify_failed = true;
            continue;
        }
        pj["roundtrip"] = wr["roundtrip"];
        if (!wr["roundtrip"].value("pass", false)) verify_failed = true;
        json t = wr["timing"];
        const double per_warp = double(j.iterations) * j.kernel.unroll * j.kernel.instructions;
        const double warps = t["warps"];
        const double warps_per_sm = warps / sms;
        const double wf_per_pass = double(j.predicted.wavefronts);
        const double median_s = t["median_ms"].get<double>() * 1e-3;
        const double cyc = t["warp_cycles_median"].get<double>();
        const double clock_hz = dev.value("clock_khz", 0.0) * 1e3;
        if (per_warp > 0) {
            t["instructions_per_warp"] = per_warp;
            // SM cycles (median kernel time x the device's clock attribute) over the
            // instructions one SM issues. clock64 per warp is reported separately: warps do not
            // all start together, so it under-states the SM's busy time.
            const double instr_per_sm = per_warp * warps_per_sm;
            t["clock_hz_assumed"] = clock_hz;
            t["cycles_per_instruction_per_sm"] = median_s * clock_hz / instr_per_sm;
            t["warp_clock64_cycles_per_instruction"] = cyc / per_warp;
            if (wf_per_pass > 0) {
                const double wf_total = warps * j.iterations * j.kernel.unroll * wf_per_pass;
                t["predicted_wavefronts_total"] = wf_total;
                t["cycles_per_wavefront_per_sm"] = median_s * clock_hz * sms / wf_total;
                t["ns_per_wavefront_per_sm"] = median_s * 1e9 * sms / wf_total;
            }
            const double bytes = warps * j.iterations * j.kernel.unroll * j.kernel.bytes_per_pass;
            t["bytes"] = bytes;
            t["bandwidth_tb_s"] = bytes / median_s / 1e12;
        }
        pj["timing"] = t;
    }
    result["seconds_run"] = run_s;

    // Optional ncu passes over the timed kernels (few iterations): "ncu" at the timing's
    // occupancy, "ncu_1warp" with one warp per SM. Wavefronts are compared per op:
    // l1tex..._op_ld (LDS and LDSM) and _op_st (STS and STSM) against the model's load and
    // store wavefronts; agreement is judged on the one-warp pass, which has no arbitration
    // between warps (see docs/measurements.md for the residue at full occupancy).
    if (want_ncu) {
        std::string ncu = ts::findOnPath("ncu");
        if (ncu.empty()) {
            result["ncu"] = {{"error", "ncu not on PATH"}};
        } else {
            json summary = json::object();
            {
                // "Version 2025.3.1.0 (build ...)": the last line of ncu --version.
                ts::ProcessResult v = ts::runProcess({ncu, "--version"}, {}, 60);
                std::istringstream ls(v.out);
                std::string line, last;
                while (std::getline(ls, line))
                    if (!line.empty()) last = line;
                if (!last.empty()) result["ncu_version"] = last;
            }
            for (const char* mode : {"ncu", "ncu1"}) {
                // One ncu per device, at the same time, each over that device's patterns.
                std::vector<json> runs(used.size());
                std::vector<std::thread> threads;
                for (std::size_t w = 0; w < used.size(); ++w)
                    threads.emplace_back([&, w] {
                        json in = win;
                        in["mode"] = mode;
                        in["device"] = used[w];
                        in["jobs"] = json::array();
                        for (std::size_t i : split[w])
                            in["jobs"].push_back(win["jobs"][i]);
                        const std::string tag = "-" + std::to_string(used[w]);
                        const std::string ip = tmp + "/ncu-in" + tag + ".json";
                        try {
                            writeFile(ip, in.dump());
                        } catch (const Fail& f) {
                            runs[w] = {{"error", f.message}};
                            return;
                        }
                        runs[w] =
                            runNcu(ncu, ip, tmp,
                                   req.value("ncu_timeout_s", 300.0 + 20.0 * jobs.size()), tag);
                        std::remove(ip.c_str());
                    });
                for (std::thread& t : threads)
                    t.join();
                const std::string key = std::string(mode) == "ncu" ? "ncu" : "ncu_1warp";
                json sm = runs[0];
                sm.erase("kernels");
                json kernels = json::object();
                json perDevice = json::array();
                for (std::size_t w = 0; w < runs.size(); ++w) {
                    const json found = runs[w].value("kernels", json::object());
                    for (const auto& [k, v] : found.items())
                        kernels[k] = v;
                    json d = runs[w];
                    d.erase("kernels");
                    d["index"] = used[w];
                    perDevice.push_back(d);
                }
                if (used.size() > 1) sm["devices"] = perDevice;
                summary[key] = sm;
                for (std::size_t i = 0; i < jobs.size(); ++i) {
                    const Job& j = jobs[i];
                    json& pj = result["patterns"][i];
                    if (!wout["jobs"][i].value("ok", false)) continue; // its error is set
                    if (!kernels.contains(j.kernel.timed_kernel)) {
                        pj[key] = {{"error", "no ncu row for " + j.kernel.timed_kernel}};
                        verify_failed = true;
                        continue;
                    }
                    const json& m = kernels[j.kernel.timed_kernel];
                    const double sms =
                        deviceOf[wout["jobs"][i].value("device_index", used.front())].value(
                            "sm_count", 1);
                    const double warps = key == "ncu" ? pj["timing"].value("warps", 0.0) : sms;
                    const double passes = warps * j.ncu_iterations * j.kernel.unroll;
                    auto val = [&](const char* k) {
                        double v = metric(m, k);
                        return std::isnan(v) ? 0.0 : v;
                    };
                    const double ld = val("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum");
                    const double st = val("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum");
                    const double ldc =
                        val("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum");
                    const double stc =
                        val("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum");
                    double inst = 0;
                    for (const char* k :
                         {"smsp__inst_executed_op_shared_ld.sum",
                          "smsp__inst_executed_op_shared_st.sum", "smsp__inst_executed_op_ldsm.sum",
                          "smsp__inst_executed_op_stsm.sum"})
                        inst += val(k);
                    const double pld = passes * double(j.predicted.load_wavefronts);
                    const double pst = passes * double(j.predicted.store_wavefronts);
                    const double pinst = passes * j.kernel.instructions;
                    const double meas = ld + st, pred = pld + pst;
                    json c = {{"metrics", m},
                              {"warps", warps},
                              {"iterations", j.ncu_iterations},
                              {"predicted_ld_wavefronts", pld},
                              {"measured_ld_wavefronts", ld},
                              {"predicted_st_wavefronts", pst},
                              {"measured_st_wavefronts", st},
                              {"predicted_wavefronts", pred},
                              {"measured_wavefronts", meas},
                              {"predicted_conflicts", passes * double(j.predicted.excess)},
                              {"measured_conflicts", ldc + stc},
                              {"planned_instructions", pinst},
                              {"measured_instructions", inst},
                              {"predicted_wavefronts_per_instruction",
                               double(j.predicted.wavefronts) / std::max(1, j.kernel.instructions)},
                              {"measured_wavefronts_per_instruction", meas / pinst},
                              {"relative_residue", pred > 0 ? (meas - pred) / pred : 0.0},
                              {"exact", meas == pred && ld == pld && st == pst}};
                    // The stmatrix instruction counter is not exposed (n/a on ncu 2025.3.1).
                    c["instructions_agree"] = inst == pinst;
                    if (key == "ncu_1warp") {
                        c["agree"] = meas == pred;
                        if (meas != pred) verify_failed = true;
                    }
                    pj[key] = c;
                }
            }
            result["ncu"] = summary;
        }
    }
    if (worker_failed != kOk) {
        result["ok"] = false;
        return finish(worker_failed);
    }
    if (verify_failed) {
        result["ok"] = false;
        result["error"] = "verification failed: a round trip or a predicted-vs-measured check "
                          "did not pass (see patterns[])";
        return finish(kVerify);
    }
    return finish(kOk);
}

void usage() {
    std::cout
        << "usage: tilescope-probe [--compile-only] [--ncu|--no-ncu] [--out FILE] [REQUEST.json]\n"
           "       tilescope-probe --sweep FILE|builtin [--ncu] [--devices all|0,1,...] "
           "[--out FILE]\n"
           "       tilescope-probe --list-sweep\n"
           "       tilescope-probe --version | --help\n"
           "Reads a JSON request (stdin when no file), prints a JSON result.\n"
           "See tilescope-probe(1) and docs/probe.md (/usr/share/doc/tilescope/docs when "
           "installed).\n"
           "Exit: 0 ok, 1 internal, 2 bad input, 3 no CUDA driver/GPU, 4 compile failed,\n"
           "      5 timed out (hung kernel killed), 6 verification failed.\n";
}

} // namespace

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.size() == 3 && args[0] == "--worker") return workerMain(args[1], args[2]);
    Options opt;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--help" || a == "-h") {
            usage();
            return 0;
        } else if (a == "--version") {
            std::cout << "tilescope-probe " << TILESCOPE_VERSION << "\n";
            return 0;
        } else if (a == "--compile-only")
            opt.compile_only = true;
        else if (a == "--ncu")
            opt.force_ncu = 1;
        else if (a == "--no-ncu")
            opt.force_ncu = 0;
        else if (a == "--sweep" && i + 1 < args.size()) {
            opt.sweep = true;
            opt.input = args[++i];
        } else if (a == "--out" && i + 1 < args.size())
            opt.out_file = args[++i];
        else if (a == "--devices" && i + 1 < args.size())
            opt.devices = args[++i];
        else if (a == "--list-sweep") {
            std::cout << tsprobe::listSweep().dump(1) << "\n";
            return 0;
        } else if (!a.empty() && a[0] == '-') {
            std::cout << json{{"ok", false}, {"error", "unknown option " + a}}.dump() << "\n";
            return kBadInput;
        } else
            opt.input = a;
    }
    json result;
    int code;
    try {
        code = runAll(opt, result);
    } catch (const Fail& f) {
        result["ok"] = false;
        result["error"] = f.message;
        code = f.code;
    } catch (const std::exception& e) {
        result["ok"] = false;
        result["error"] = std::string("internal error: ") + e.what();
        code = kInternal;
    }
    // Single requests are flattened: the one pattern's fields at the top level.
    if (!opt.sweep && result.contains("patterns") && result["patterns"].size() == 1) {
        json one = result["patterns"][0];
        result.erase("patterns");
        for (auto& [k, v] : one.items())
            result[k] = v;
    }
    result["exit_code"] = code;
    std::string text = result.dump(1);
    std::cout << text << "\n";
    if (!opt.out_file.empty()) writeFile(opt.out_file, text + "\n");
    return code;
}
