// SPDX-License-Identifier: Apache-2.0
// The compiler-log parser, fed in chunks whose sizes come from the input's first bytes; the
// events must not depend on the chunking.
#include "fuzz_common.h"
#include "tilescope/trace/dump.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 2) return 0;
    const std::size_t seed = data[0] | (std::size_t(data[1]) << 8);
    std::string_view log = fuzz::text(data + 2, size - 2);
    fuzz::expectCleanErrors([&] {
        ts::dump::ParserOptions opt;
        opt.maxLineBytes = 4096; // exercise line cutting
        opt.maxRawBytes = 512;
        // Evaluate layouts of at most 4096 cells (replicas counted), as fuzz_mapping does: this
        // target is for the log parser, and a corrupted repr asking for up to 2^24 cells took
        // seconds to evaluate (twice, then), so the campaign's rate fell to 9-260 inputs/s on 16
        // cores. The cap is the parser's own option, so larger reprs still go through it up to
        // the cap's error; their evaluation is tested on real logs and goldens (test_dump_logs,
        // golden_tests) and up to 2^24 cells in tests/core/layout.
        opt.maxCells = 4096;
        ts::dump::Parser p(opt);
        std::size_t events = 0, pos = 0, k = seed;
        while (pos < log.size()) {
            std::size_t n = 1 + (k % 97);
            k = k * 1103515245 + 12345;
            n = std::min(n, log.size() - pos);
            events += p.feed(log.substr(pos, n)).size();
            pos += n;
        }
        events += p.finish().size();
        auto whole = ts::dump::parseText(log, opt);
        if (whole.size() != events) std::abort(); // chunking must not change the result
    });
    return 0;
}
