// CANN detection for the Ascend run target (see ascend_kernel.h).
#include "tilescope/ascend_kernel.h"

#include "tilescope/subprocess.h"

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

} // namespace

CannInstallation detectCann(const std::map<std::string, std::string>* env) {
    auto get = [&](const std::string& k) -> std::string {
        if (env) {
            auto it = env->find(k);
            return it == env->end() ? std::string() : it->second;
        }
        const char* v = std::getenv(k.c_str());
        return v ? v : "";
    };
    CannInstallation c;
    const std::string def = "/usr/local/Ascend/ascend-toolkit/latest";
    for (const char* k : {"ASCEND_HOME_PATH", "ASCEND_TOOLKIT_HOME"}) {
        const std::string v = get(k);
        if (v.empty()) continue;
        if (isDir(v)) {
            c.toolkit = v;
            c.toolkit_source = k;
            break;
        }
        c.missing.push_back(std::string(k) + " is set to '" + v + "', which is not a directory");
    }
    if (c.toolkit.empty() && isDir(def)) {
        c.toolkit = def;
        c.toolkit_source = "default path";
    }
    if (c.toolkit.empty()) {
        c.missing.push_back("no CANN toolkit: ASCEND_HOME_PATH and ASCEND_TOOLKIT_HOME are unset "
                            "and " +
                            def +
                            " does not exist (install the CANN toolkit and source "
                            "its set_env.sh)");
    } else {
        for (const char* rel : {"/compiler/ccec_compiler/bin/bisheng", "/bin/bisheng",
                                "/compiler/ccec_compiler/bin/ccec", "/bin/ccec"})
            if (isExec(c.toolkit + rel)) {
                c.compiler = c.toolkit + rel;
                break;
            }
        for (const char* rel : {"/tools/profiler/bin/msprof", "/bin/msprof"})
            if (isExec(c.toolkit + rel)) {
                c.msprof = c.toolkit + rel;
                break;
            }
    }
    if (c.compiler.empty()) c.compiler = findOnPath("bisheng");
    if (c.compiler.empty()) c.compiler = findOnPath("ccec");
    if (c.msprof.empty()) c.msprof = findOnPath("msprof");
    c.npu_smi = findOnPath("npu-smi");
    if (c.compiler.empty())
        c.missing.push_back("no Ascend C compiler: bisheng or ccec not found under " +
                            (c.toolkit.empty() ? std::string("a toolkit") : c.toolkit) +
                            "/compiler/ccec_compiler/bin nor on PATH");
    if (c.msprof.empty())
        c.missing.push_back("no msprof: not found under " +
                            (c.toolkit.empty() ? std::string("a toolkit") : c.toolkit) +
                            "/tools/profiler/bin nor on PATH");
    if (c.npu_smi.empty())
        c.missing.push_back("no NPU driver: npu-smi not found on PATH (no Ascend device visible)");
    c.complete = c.missing.empty();
    return c;
}

std::string CannInstallation::summary() const {
    std::string s;
    if (!toolkit.empty()) s += "CANN toolkit: " + toolkit + " (" + toolkit_source + ")\n";
    if (!compiler.empty()) s += "compiler: " + compiler + "\n";
    if (!msprof.empty()) s += "msprof: " + msprof + "\n";
    if (!npu_smi.empty()) s += "npu-smi: " + npu_smi + "\n";
    if (missing.empty()) return s + "complete";
    s += "Cannot run on Ascend; missing:\n";
    for (const auto& m : missing)
        s += "  - " + m + "\n";
    return s;
}

} // namespace ts
