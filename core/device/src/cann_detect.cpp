// SPDX-License-Identifier: Apache-2.0
// CANN detection for the Ascend run target (see cann_detect.h for what "complete" requires).
#include "tilescope/device/cann_detect.h"

#include "tilescope/device/subprocess.h"

#include <nlohmann/json.hpp>

#include <cctype>
#include <cstdlib>
#include <sys/stat.h>
#include <unistd.h>

namespace ts {

namespace {

bool isExec(const std::string& p) {
    struct stat st {};
    return !p.empty() && ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
           ::access(p.c_str(), X_OK) == 0;
}
bool isDir(const std::string& p) {
    struct stat st {};
    return !p.empty() && ::stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}
bool isFile(const std::string& p) {
    struct stat st {};
    return !p.empty() && ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

std::string findIn(const std::string& path, const std::string& name) {
    std::size_t start = 0;
    while (start <= path.size()) {
        const std::size_t end = std::min(path.find(':', start), path.size());
        const std::string dir = path.substr(start, end - start);
        if (!dir.empty() && isExec(dir + "/" + name)) return dir + "/" + name;
        start = end + 1;
    }
    return {};
}

std::string firstLine(const std::string& s) {
    std::size_t b = 0;
    while (b < s.size() && (s[b] == '\n' || s[b] == '\r' || s[b] == ' '))
        ++b;
    const std::size_t e = s.find('\n', b);
    std::string line = s.substr(b, e == std::string::npos ? std::string::npos : e - b);
    if (line.size() > 200) line = line.substr(0, 200) + "...";
    return line;
}

// The Python run before the kernel: which tilelang (and branch), which torch_npu.
const char* kProbe = R"(import importlib.util, json
r = {}
try:
    import tilelang
    r['tilelang'] = str(getattr(tilelang, '__version__', ''))
    r['ascend'] = importlib.util.find_spec('tilelang.intrinsics.ascend_layout') is not None
    r['npuir'] = importlib.util.find_spec('tilelang.jit.jit_npu') is not None
except Exception as e:
    r['tilelang_error'] = '%s: %s' % (type(e).__name__, e)
try:
    import torch_npu
    r['torch_npu'] = str(torch_npu.__version__)
except Exception as e:
    r['torch_npu_error'] = '%s: %s' % (type(e).__name__, e)
print('TILESCOPE_PROBE ' + json.dumps(r))
)";

// argv that runs `cmd` after sourcing set_env.sh (when there is one): paths travel as
// positional parameters, never through the shell's parser.
std::vector<std::string> withSetEnv(const std::string& set_env, std::vector<std::string> cmd) {
    if (set_env.empty()) return cmd;
    std::vector<std::string> argv = {"/bin/bash", "-c",
                                     "source \"$1\" >/dev/null 2>&1 || { echo \"cannot source "
                                     "$1\" >&2; exit 127; }; shift; exec \"$@\"",
                                     "bash", set_env};
    argv.insert(argv.end(), cmd.begin(), cmd.end());
    return argv;
}

} // namespace

int compareVersions(const std::string& a, const std::string& b) {
    struct V {
        std::vector<long> nums;
        int stage = 3; // 0 a, 1 b, 2 rc, 3 release, 4 post
        long n = 0;
    };
    auto parse = [](const std::string& s) {
        V v;
        std::size_t i = 0;
        if (i < s.size() && (s[i] == 'v' || s[i] == 'V')) ++i;
        while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) {
            long x = 0;
            while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])))
                x = x * 10 + (s[i++] - '0');
            v.nums.push_back(x);
            if (i < s.size() && s[i] == '.' && i + 1 < s.size() &&
                std::isdigit(static_cast<unsigned char>(s[i + 1])))
                ++i;
            else
                break;
        }
        std::string tag;
        while (i < s.size() && (s[i] == '.' || s[i] == '-' || s[i] == '_'))
            ++i;
        while (i < s.size() && std::isalpha(static_cast<unsigned char>(s[i])))
            tag += char(std::tolower(static_cast<unsigned char>(s[i++])));
        if (tag == "a" || tag == "alpha") v.stage = 0;
        if (tag == "b" || tag == "beta") v.stage = 1;
        if (tag == "rc" || tag == "c") v.stage = 2;
        if (tag == "post") v.stage = 4;
        while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])))
            v.n = v.n * 10 + (s[i++] - '0');
        return v;
    };
    V x = parse(a), y = parse(b);
    const std::size_t n = std::max(x.nums.size(), y.nums.size());
    x.nums.resize(n, 0);
    y.nums.resize(n, 0);
    if (x.nums != y.nums) return x.nums < y.nums ? -1 : 1;
    if (x.stage != y.stage) return x.stage < y.stage ? -1 : 1;
    if (x.n != y.n) return x.n < y.n ? -1 : 1;
    return 0;
}

CannInstallation detectCann(const std::map<std::string, std::string>* env,
                            const CannProbeOptions& opt) {
    auto get = [&](const std::string& k) -> std::string {
        if (env) {
            auto it = env->find(k);
            return it == env->end() ? std::string() : it->second;
        }
        const char* v = std::getenv(k.c_str());
        return v ? v : "";
    };
    CannInstallation c;
    bool envSet = false;
    for (const char* k : {"ASCEND_HOME_PATH", "ASCEND_TOOLKIT_HOME"}) {
        const std::string v = get(k);
        if (v.empty()) continue;
        if (isDir(v)) {
            c.toolkit = v;
            c.toolkit_source = k;
            envSet = true;
            break;
        }
        c.missing.push_back(std::string(k) + " is set to '" + v + "', which is not a directory");
    }
    const std::string def = "/usr/local/Ascend/ascend-toolkit/latest";
    const std::string home = get("HOME");
    const std::string user = home.empty() ? std::string() : home + "/Ascend/ascend-toolkit/latest";
    if (c.toolkit.empty() && isDir(def)) c.toolkit = def, c.toolkit_source = "default path";
    if (c.toolkit.empty() && isDir(user)) c.toolkit = user, c.toolkit_source = "non-root path";
    if (c.toolkit.empty())
        c.missing.push_back("no CANN toolkit: ASCEND_HOME_PATH and ASCEND_TOOLKIT_HOME are unset "
                            "and neither " +
                            def + " nor " + (user.empty() ? "$HOME" : user) +
                            " (the non-root install) exists");

    // set_env.sh: <root>/ascend-toolkit/set_env.sh next to `latest`, or inside the toolkit.
    std::string path = get("PATH");
    if (!c.toolkit.empty()) {
        std::string setEnv;
        const std::string parent = c.toolkit.substr(0, c.toolkit.find_last_of('/'));
        for (const std::string& p : {parent + "/set_env.sh", c.toolkit + "/set_env.sh"})
            if (isFile(p)) {
                setEnv = p;
                break;
            }
        if (!envSet) {
            if (setEnv.empty())
                c.missing.push_back("set_env.sh not found next to or inside " + c.toolkit +
                                    ", and ASCEND_HOME_PATH is not set: the run would have no "
                                    "CANN environment");
            else
                c.set_env = setEnv;
        }
        // What set_env.sh puts on PATH, for the checks below (the run sources it first).
        if (!c.set_env.empty())
            path = c.toolkit + "/bin:" + c.toolkit + "/compiler/ccec_compiler/bin:" + c.toolkit +
                   "/tools/profiler/bin:" + path;
    }

    c.compiler = findIn(path, "bisheng");
    if (c.compiler.empty()) {
        std::string under;
        if (!c.toolkit.empty())
            for (const char* rel : {"/compiler/ccec_compiler/bin/bisheng", "/bin/bisheng"})
                if (isExec(c.toolkit + rel)) under = c.toolkit + rel;
        c.missing.push_back(under.empty()
                                ? "no bisheng compiler on PATH" +
                                      (c.toolkit.empty() ? std::string()
                                                         : " nor under " + c.toolkit +
                                                               "/compiler/ccec_compiler/bin")
                                : "bisheng is at " + under +
                                      " but not on PATH; tilelang-ascend calls it by name: source "
                                      "the toolkit's set_env.sh before starting Tilescope");
    }
    if (opt.backend == AscendBackend::Npuir) {
        c.bishengir = findIn(path, "bishengir-compile");
        if (c.bishengir.empty())
            c.missing.push_back("no bishengir-compile on PATH: the npuir back end compiles "
                                "with it (install AscendNPU-IR or the ascendnpu-ir wheel)");
    }
    if (!c.toolkit.empty())
        for (const char* rel : {"/tools/profiler/bin/msprof", "/bin/msprof"})
            if (c.msprof.empty() && isExec(c.toolkit + rel)) c.msprof = c.toolkit + rel;
    if (c.msprof.empty()) c.msprof = findIn(path, "msprof");
    if (c.msprof.empty())
        c.missing.push_back("no msprof: not found under " +
                            (c.toolkit.empty() ? std::string("a toolkit") : c.toolkit) +
                            "/tools/profiler/bin nor on PATH");
    if (!c.toolkit.empty() && isDir(c.toolkit + "/tools/simulator/" + opt.soc + "/lib"))
        c.simulator_lib = c.toolkit + "/tools/simulator/" + opt.soc + "/lib";

    // The device: npu-smi must be there and `npu-smi info` must succeed.
    c.npu_smi = findIn(path, "npu-smi");
    bool device = false;
    std::string deviceProblem;
    if (c.npu_smi.empty())
        deviceProblem = "no NPU driver: npu-smi not found on PATH";
    else if (!opt.run_probes)
        c.probes_skipped = true;
    else {
        const ProcessResult r = runProcess({c.npu_smi, "info"}, {}, opt.timeout_s);
        if (r.started && !r.timed_out && r.exit_code == 0) {
            device = true;
            c.npu_smi_info = firstLine(r.out);
        } else
            deviceProblem = "no usable NPU: `" + c.npu_smi + " info` " +
                            (!r.started    ? "did not start (" + r.error + ")"
                             : r.timed_out ? std::string("timed out")
                                           : "exited with " + std::to_string(r.exit_code)) +
                            (firstLine(r.err + r.out).empty()
                                 ? std::string()
                                 : ": " + firstLine(r.err.empty() ? r.out : r.err));
    }

    // tilelang-ascend and torch_npu, imported by the run's Python after set_env.sh.
    c.python = opt.python.empty() ? findIn(path, "python3") : opt.python;
    if (c.python.empty())
        c.missing.push_back("no python3 on PATH to run the tilelang-ascend script");
    else if (!opt.run_probes)
        c.probes_skipped = true;
    else if (c.toolkit.empty())
        c.missing.push_back("tilelang-ascend and torch_npu not checked: they import only with a "
                            "CANN toolkit");
    else {
        std::vector<std::string> extra = {"ACL_OP_INIT_MODE=1"};
        const ProcessResult r =
            runProcess(withSetEnv(c.set_env, {c.python, "-c", kProbe}), {}, opt.timeout_s, extra);
        const auto at = r.out.find("TILESCOPE_PROBE ");
        nlohmann::json j;
        if (at != std::string::npos) {
            const auto e = r.out.find('\n', at);
            j = nlohmann::json::parse(
                r.out.substr(at + 16, e == std::string::npos ? std::string::npos : e - at - 16),
                nullptr, false);
        }
        if (!j.is_object()) {
            c.missing.push_back(
                "could not check tilelang-ascend and torch_npu with " + c.python + ": " +
                (!r.started    ? r.error
                 : r.timed_out ? std::string("timed out")
                               : "exit " + std::to_string(r.exit_code) + " " + firstLine(r.err)));
        } else {
            const std::string tl = j.value("tilelang", std::string());
            const std::string tn = j.value("torch_npu", std::string());
            if (j.contains("tilelang_error"))
                c.missing.push_back("tilelang-ascend does not import in " + c.python + ": " +
                                    j.value("tilelang_error", std::string()));
            else if (!j.value("ascend", false))
                c.missing.push_back("the tilelang in " + c.python + " (" + tl +
                                    ") is not tilelang-ascend (no tilelang.intrinsics."
                                    "ascend_layout): install tilelang-ascend");
            else {
                c.tilelang_version = tl;
                c.tilelang_branch = j.value("npuir", false) ? "npuir" : "ascendc_pto";
                const std::string minimum = c.tilelang_branch == "npuir" ? "0.1.2" : "0.1.4";
                if (compareVersions(tl, minimum) < 0)
                    c.missing.push_back("tilelang-ascend " + tl + " (" + c.tilelang_branch +
                                        " branch) is older than " + minimum);
                if (c.tilelang_branch != ascendBackendName(opt.backend))
                    c.missing.push_back("the installed tilelang-ascend is the " +
                                        c.tilelang_branch + " branch; the chosen back end is " +
                                        ascendBackendName(opt.backend));
            }
            if (j.contains("torch_npu_error"))
                c.missing.push_back("torch_npu does not import in " + c.python + ": " +
                                    j.value("torch_npu_error", std::string()));
            else {
                c.torch_npu_version = tn;
                if (compareVersions(tn, "2.6.0rc1") < 0)
                    c.missing.push_back("torch_npu " + tn + " is older than 2.6.0rc1");
            }
        }
    }
    const bool restComplete = c.missing.empty();
    if (!device && !deviceProblem.empty()) c.missing.push_back(deviceProblem);
    c.complete = c.missing.empty() && !c.probes_skipped;
    c.simulator_only = !device && !c.probes_skipped && restComplete && !c.simulator_lib.empty();
    return c;
}

std::string CannInstallation::summary() const {
    std::string s;
    if (!toolkit.empty()) s += "CANN toolkit: " + toolkit + " (" + toolkit_source + ")\n";
    if (!set_env.empty()) s += "set_env.sh (sourced for the run): " + set_env + "\n";
    if (!compiler.empty()) s += "bisheng: " + compiler + "\n";
    if (!bishengir.empty()) s += "bishengir-compile: " + bishengir + "\n";
    if (!msprof.empty()) s += "msprof: " + msprof + "\n";
    if (!npu_smi.empty())
        s += "npu-smi: " + npu_smi + (npu_smi_info.empty() ? "" : " (" + npu_smi_info + ")") + "\n";
    if (!tilelang_version.empty())
        s += "tilelang-ascend " + tilelang_version + " (" + tilelang_branch + " branch)\n";
    if (!torch_npu_version.empty()) s += "torch_npu " + torch_npu_version + "\n";
    if (missing.empty())
        return s + (probes_skipped ? "npu-smi info and the Python imports not checked yet"
                                   : "complete");
    if (simulator_only)
        s += "No NPU; everything else is there: the run can use msprof op simulator (" +
             simulator_lib + ")\n";
    s += "Cannot run on Ascend; missing:\n";
    for (const auto& m : missing)
        s += "  - " + m + "\n";
    return s;
}

MsprofCommand msprofOpCommand(const CannInstallation& c, const std::string& python,
                              const std::string& script, const std::string& output_dir,
                              const CannProbeOptions& opt) {
    MsprofCommand m;
    m.simulator = !c.complete && c.simulator_only;
    std::vector<std::string> cmd = {c.msprof, "op"};
    if (m.simulator) cmd.push_back("simulator");
    if (m.simulator) cmd.push_back("--soc-version=" + opt.soc);
    cmd.push_back("--kernel-name=nd2nz_roundtrip_kernel");
    cmd.push_back("--output=" + output_dir);
    cmd.push_back(python);
    cmd.push_back(script);
    m.argv = withSetEnv(c.set_env, cmd);
    m.env.push_back("ACL_OP_INIT_MODE=1"); // tilelang-ascend set_env.sh
    if (m.simulator) {
        const char* ld = std::getenv("LD_LIBRARY_PATH");
        m.env.push_back("LD_LIBRARY_PATH=" + c.simulator_lib +
                        (ld && *ld ? std::string(":") + ld : ""));
    }
    return m;
}

} // namespace ts
