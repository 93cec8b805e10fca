// SPDX-License-Identifier: Apache-2.0
// Detection of what an Ascend run needs, and the msprof command that runs it.
//
// A machine is complete only when every piece the chosen back end needs is there:
// - a CANN toolkit: ASCEND_HOME_PATH, ASCEND_TOOLKIT_HOME, /usr/local/Ascend/ascend-toolkit/latest
//   or the non-root install $HOME/Ascend/ascend-toolkit/latest, and its set_env.sh, which the run
//   sources unless the environment already has ASCEND_HOME_PATH / ASCEND_TOOLKIT_HOME;
// - `bisheng` on PATH after set_env.sh (tilelang-ascend's libgen.py calls it by bare name), and
//   for the npuir back end `bishengir-compile` on PATH (tilelang/utils/target.py on npuir);
// - msprof (the toolkit's tools/profiler/bin, or PATH);
// - tilelang-ascend importable by the run's Python, at least 0.1.4 on the released branch
//   (ascendc_pto, the PyPI release) or 0.1.2 on npuir (the branch's VERSION), the branch told
//   apart by tilelang/jit/jit_npu.py (npuir only) and matching the chosen back end;
//   torch_npu at least 2.6.0rc1 (tilelang-ascend README);
// - `npu-smi info` exiting 0 (a driver that sees a device, not just the binary).
// Without a device but with everything else and the CANN simulator libraries, the run can use
// `msprof op simulator` instead (unverified: tilelang-ascend's guide limits its own simulator
// flow to A5/PTO and says it does not support torch.npu, which the generated script uses).
#pragma once

#include "tilescope/device/ascend_kernel.h"

#include <map>
#include <string>
#include <vector>

namespace ts {

struct CannProbeOptions {
    AscendBackend backend = AscendBackend::AscendcPto;
    std::string python;              // the run's interpreter; empty: python3 on PATH
    bool run_probes = true;          // run `npu-smi info` and the Python import check
    double timeout_s = 30;           // per probe
    std::string soc = "Ascend910B4"; // the simulator's --soc-version
};

struct CannInstallation {
    bool complete = false;       // everything above, including a device
    bool simulator_only = false; // complete except the device, simulator libraries present
    bool probes_skipped = false; // run_probes off: files and PATH checked, nothing run
    std::string toolkit;         // resolved toolkit root, or empty
    std::string toolkit_source;  // "ASCEND_HOME_PATH", "ASCEND_TOOLKIT_HOME", "default path",
                                 // "non-root path"
    std::string set_env;         // set_env.sh the run sources ("" when the env is already set)
    std::string compiler;        // bisheng as the run will find it on PATH
    std::string bishengir;       // bishengir-compile (npuir only)
    std::string msprof;
    std::string npu_smi;
    std::string npu_smi_info;     // first line of `npu-smi info`, when it succeeded
    std::string simulator_lib;    // <toolkit>/tools/simulator/<soc>/lib, when present
    std::string python;           // the interpreter probed
    std::string tilelang_version; // tilelang-ascend, as imported
    std::string tilelang_branch;  // "ascendc_pto" / "npuir"
    std::string torch_npu_version;
    std::vector<std::string> missing; // one sentence per missing piece
    std::string summary() const;      // what was found, then exactly what is missing
};

// `env` overrides getenv (tests); an absent key means "unset". PATH and HOME come from it too.
CannInstallation detectCann(const std::map<std::string, std::string>* env = nullptr,
                            const CannProbeOptions& opt = {});

// "2.6.0rc1" < "2.6.0" < "2.6.0.post1" < "2.6.1"; numeric parts, then a pre-release tag
// (a, b, rc) sorting before the release. Unparsable text compares as 0.
int compareVersions(const std::string& a, const std::string& b);

// The command line of the profiled run: `msprof op --kernel-name=nd2nz_roundtrip_kernel
// --output=DIR python script` with a device, `msprof op simulator --soc-version=SOC ...` without
// one, run through `bash -c` that sources set_env.sh first when the installation needs it. The
// kernel is named by tilelang-ascend's codegen: the prim_func name + "_kernel"
// (src/target/codegen_ascend.cc:1144).
struct MsprofCommand {
    std::vector<std::string> argv;
    std::vector<std::string> env; // NAME=value to add (ACL_OP_INIT_MODE, LD_LIBRARY_PATH)
    bool simulator = false;
};
MsprofCommand msprofOpCommand(const CannInstallation& c, const std::string& python,
                              const std::string& script, const std::string& output_dir,
                              const CannProbeOptions& opt = {});

} // namespace ts
