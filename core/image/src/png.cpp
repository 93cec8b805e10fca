// PNG writing (png.h): signature, IHDR, one IDAT holding the whole zlib stream, IEND (PNG
// specification, sections 5 and 11).
#include "tilescope/image/png.h"

#include "tilescope/image/deflate.h"
#include "tilescope/support/errors.h"
#include "tilescope/support/huge_pages.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <thread>
#include <unistd.h>

namespace ts::image {

namespace {

void be32(std::vector<std::uint8_t>& v, std::uint32_t x) {
    const std::uint8_t b[4] = {std::uint8_t(x >> 24), std::uint8_t(x >> 16), std::uint8_t(x >> 8),
                               std::uint8_t(x)};
    v.insert(v.end(), b, b + 4);
}

void chunk(std::vector<std::uint8_t>& out, const char* type, const std::uint8_t* data,
           std::size_t n) {
    be32(out, std::uint32_t(n));
    const std::size_t at = out.size();
    out.insert(out.end(), type, type + 4);
    if (n) out.insert(out.end(), data, data + n);
    be32(out, crc32(out.data() + at, n + 4));
}

} // namespace

namespace {

// Rows [r0, r1) as filtered scanlines: filter type 2 ("Up": each byte minus the one above), then
// R, G, B. A row equal to the one above (most rows inside a cell) is all zeros.
void filterRows(const std::uint32_t* pixels, std::size_t w, std::size_t stride, std::size_t r0,
                std::size_t r1, std::uint8_t* raw) {
    const std::size_t line = 1 + 3 * w;
    for (std::size_t y = r0; y < r1; ++y) {
        std::uint8_t* o = raw + y * line;
        *o++ = 2;
        const std::uint32_t* p = pixels + y * stride;
        if (y == 0) {
            for (std::size_t x = 0; x < w; ++x) {
                *o++ = std::uint8_t(p[x] >> 16);
                *o++ = std::uint8_t(p[x] >> 8);
                *o++ = std::uint8_t(p[x]);
            }
            continue;
        }
        const std::uint32_t* up = p - stride;
        if (std::memcmp(p, up, w * 4) == 0) {
            std::memset(o, 0, 3 * w);
            continue;
        }
        for (std::size_t x = 0; x < w; ++x) {
            const std::uint32_t a = p[x], b = up[x];
            *o++ = std::uint8_t((a >> 16) - (b >> 16));
            *o++ = std::uint8_t((a >> 8) - (b >> 8));
            *o++ = std::uint8_t(a - b);
        }
    }
}

} // namespace

std::vector<std::uint8_t> encodePng(const std::uint32_t* pixels, int width, int height,
                                    std::size_t stride) {
    if (width <= 0 || height <= 0) throw InputError("an image needs at least one pixel");
    const std::size_t w = std::size_t(width), h = std::size_t(height);
    const std::size_t line = 1 + 3 * w;
    // Every byte is written below: no zero fill, and huge pages rather than a fault per 4 KiB.
    const std::size_t bytes = line * h;
    const std::unique_ptr<std::uint8_t[]> raw(new std::uint8_t[bytes]);
    detail::adviseHugePages(raw.get(), bytes);
    // Pieces of whole rows, each filtered and compressed by its own thread (deflatePiece's
    // matches stay inside the piece, so no piece waits for another's rows).
    const std::size_t k = std::min(pieceCount(bytes), h);
    std::vector<std::vector<std::uint8_t>> pieces(k);
    auto piece = [&](std::size_t p) {
        const std::size_t r0 = h * p / k, r1 = h * (p + 1) / k;
        filterRows(pixels, w, stride, r0, r1, raw.get());
        pieces[p] = deflatePiece(raw.get(), r0 * line, r1 * line, p + 1 == k);
    };
    {
        std::vector<std::thread> workers;
        for (std::size_t p = 1; p < k; ++p)
            workers.emplace_back(piece, p);
        piece(0);
        for (auto& t : workers)
            t.join();
    }
    const std::vector<std::uint8_t> z = zlibStream(pieces, adler32(raw.get(), bytes));
    std::vector<std::uint8_t> file = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    file.reserve(z.size() + 64);
    std::vector<std::uint8_t> ihdr;
    be32(ihdr, std::uint32_t(w));
    be32(ihdr, std::uint32_t(h));
    ihdr.insert(ihdr.end(), {8, 2, 0, 0, 0}); // 8-bit, RGB, deflate, adaptive filters, no interlace
    chunk(file, "IHDR", ihdr.data(), ihdr.size());
    chunk(file, "IDAT", z.data(), z.size());
    chunk(file, "IEND", nullptr, 0);
    return file;
}

void writeFileAtomically(const std::string& path, const std::vector<std::uint8_t>& bytes) {
    const std::string tmp = path + ".tmp-" + std::to_string(::getpid());
    auto fail = [&](const std::string& what) {
        const std::string why = std::strerror(errno);
        std::remove(tmp.c_str());
        throw InputError("cannot write '" + path + "': " + what + ": " + why);
    };
    std::FILE* f = std::fopen(tmp.c_str(), "wb");
    if (!f) {
        const std::string why = std::strerror(errno);
        throw InputError("cannot write '" + path + "': " + why);
    }
    const bool ok = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
    if (std::fclose(f) != 0 || !ok) fail("writing");
    if (std::rename(tmp.c_str(), path.c_str()) != 0) fail("renaming the finished file");
}

} // namespace ts::image
