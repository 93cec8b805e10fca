// SPDX-License-Identifier: Apache-2.0
#include "test_file.h"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <limits>
#include <stdexcept>
#include <zlib.h>

namespace tstest {

namespace {

std::string inflateGzip(const std::string& gz, const std::filesystem::path& path) {
    const auto fail = [&](const std::string& why) {
        return std::runtime_error(path.string() + ": not a whole gzip stream (" + why + ")");
    };
    if (gz.size() > std::numeric_limits<uInt>::max()) throw fail("over 4 GiB");
    z_stream s{};
    // 16 + MAX_WBITS: a gzip header and trailer only, so that a plain file named .gz is refused
    // rather than read as it is.
    if (inflateInit2(&s, 16 + MAX_WBITS) != Z_OK) throw fail("zlib cannot start");
    s.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(gz.data()));
    s.avail_in = static_cast<uInt>(gz.size());
    std::string out;
    std::size_t used = 0;
    for (;;) {
        // The goldens inflate about tenfold: one allocation for most files.
        if (out.size() - used < (1u << 16))
            out.resize(std::max<std::size_t>(out.size() * 2, gz.size() * 10 + (1u << 16)));
        s.next_out = reinterpret_cast<Bytef*>(out.data() + used);
        s.avail_out = static_cast<uInt>(
            std::min<std::size_t>(out.size() - used, std::numeric_limits<uInt>::max()));
        const uInt room = s.avail_out;
        const int rc = inflate(&s, Z_NO_FLUSH);
        used += room - s.avail_out;
        if (rc == Z_STREAM_END) {
            if (s.avail_in == 0) break;
            inflateReset(&s); // a further member follows
            continue;
        }
        if (rc == Z_OK) continue;
        const std::string why = rc == Z_BUF_ERROR && s.avail_in == 0 ? "it ends before its trailer"
                                : s.msg != nullptr                   ? s.msg
                                                   : "zlib error " + std::to_string(rc);
        inflateEnd(&s);
        throw fail(why);
    }
    inflateEnd(&s);
    out.resize(used);
    return out;
}

} // namespace

std::string readTestFile(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error(path.string() + ": cannot open it");
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad()) throw std::runtime_error(path.string() + ": cannot read it");
    if (path.extension() != ".gz") return bytes;
    return inflateGzip(bytes, path);
}

} // namespace tstest
