// SPDX-License-Identifier: Apache-2.0
// The project-file loader: parse, serialize, parse again (must be equal), resolve the layouts.
#include "fuzz_common.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    fuzz::expectCleanErrors([&] {
        ts::Document d = ts::parseDocument(std::string(fuzz::text(data, size)), "fuzz.json");
        ts::Document again = ts::parseDocument(ts::serializeDocument(d), "fuzz.json");
        if (!(d == again)) std::abort();
        (void)d.find("a");
    });
    return 0;
}
