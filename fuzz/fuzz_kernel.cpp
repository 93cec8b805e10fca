// SPDX-License-Identifier: Apache-2.0
// The kernel X-ray on arbitrary text: the C reader, the symbolic walk and the per-lane
// evaluation must end in a result or a clean error (ParseError / InputError / EvalError).
#include "fuzz_common.h"
#include "tilescope/kernel/kernel_xray.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string source(fuzz::text(data, size));
    fuzz::expectCleanErrors([&] {
        ts::kernel::XrayOptions opt;
        // Bounded work per input: at most 2^16 lanes per access (the default is 2^24).
        opt.max_lanes = 1 << 16;
        auto ks = ts::kernel::xrayKernels(source, opt);
        for (const auto& k : ks)
            (void)ts::kernel::formatXray(k);
    });
    return 0;
}
