// SPDX-License-Identifier: Apache-2.0
// PNG writing (png.h): signature, IHDR, one IDAT holding the whole zlib stream, IEND (PNG
// specification, sections 5 and 11).
#include "tilescope/image/png.h"

#include "tilescope/image/deflate.h"
#include "tilescope/support/cores.h"
#include "tilescope/support/errors.h"
#include "tilescope/support/huge_pages.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <sys/stat.h>
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

// One filtered scanline: filter type 2 ("Up": each byte minus the one above; the first row has
// none above), then R, G, B. A row equal to the one above (most rows inside a cell) is zeros.
void filterRow(const std::uint32_t* p, const std::uint32_t* up, std::size_t w, std::uint8_t* o) {
    *o++ = 2;
    if (!up) {
        for (std::size_t x = 0; x < w; ++x) {
            *o++ = std::uint8_t(p[x] >> 16);
            *o++ = std::uint8_t(p[x] >> 8);
            *o++ = std::uint8_t(p[x]);
        }
        return;
    }
    if (std::memcmp(p, up, w * 4) == 0) {
        std::memset(o, 0, 3 * w);
        return;
    }
    for (std::size_t x = 0; x < w; ++x) {
        const std::uint32_t a = p[x], b = up[x];
        *o++ = std::uint8_t((a >> 16) - (b >> 16));
        *o++ = std::uint8_t((a >> 8) - (b >> 8));
        *o++ = std::uint8_t(a - b);
    }
}

std::vector<std::uint8_t> pngFile(std::size_t w, std::size_t h,
                                  const std::vector<std::uint8_t>& z) {
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

} // namespace

std::size_t pngWorkers(int width, int height) {
    const std::size_t bytes =
        (1 + 3 * std::size_t(std::max(width, 0))) * std::size_t(std::max(height, 0));
    return std::max<std::size_t>(
        1, std::min<std::size_t>(pieceCount(bytes), std::size_t(std::max(height, 1))));
}

std::vector<std::uint8_t> encodePngRows(int width, int height, const RowSource& draw,
                                        int bandRows) {
    if (width <= 0 || height <= 0) throw InputError("an image needs at least one pixel");
    const std::size_t w = std::size_t(width), h = std::size_t(height);
    const std::size_t line = 1 + 3 * w, bytes = line * h;
    const std::size_t band = std::size_t(std::max(bandRows, 1));
    // Every byte is written below: no zero fill, and huge pages rather than a fault per 4 KiB.
    const std::unique_ptr<std::uint8_t[]> raw(new std::uint8_t[bytes]);
    detail::adviseHugePages(raw.get(), bytes);
    // Pieces of whole rows, each drawn band by band, filtered and compressed by its own worker
    // (deflatePiece's matches stay inside the piece, so no piece waits for another's rows). A
    // band is drawn with the row above it, which the Up filter reads.
    const std::size_t k = pngWorkers(width, height);
    std::vector<std::vector<std::uint8_t>> pieces(k);
    runPieces(k, [&](std::size_t p) {
        const std::size_t r0 = h * p / k, r1 = h * (p + 1) / k;
        std::vector<std::uint32_t> rows((band + 1) * w);
        for (std::size_t y = r0; y < r1; y += band) {
            const std::size_t yb = std::min(r1, y + band), above = y > 0 ? 1 : 0;
            draw(int(y - above), int(yb), rows.data(), p);
            for (std::size_t r = y; r < yb; ++r) {
                const std::uint32_t* px = rows.data() + (r - y + above) * w;
                filterRow(px, r > 0 ? px - w : nullptr, w, raw.get() + r * line);
            }
        }
        pieces[p] = deflatePiece(raw.get(), r0 * line, r1 * line, p + 1 == k);
    });
    return pngFile(w, h, zlibStream(pieces, adler32(raw.get(), bytes)));
}

std::vector<std::uint8_t> encodePng(const std::uint32_t* pixels, int width, int height,
                                    std::size_t stride) {
    // The rows are copied band by band into the workers' buffers (a memcpy, a small part of the
    // encoding), so both entry points share one pipeline.
    return encodePngRows(width, height, [&](int y0, int y1, std::uint32_t* out, std::size_t) {
        for (int y = y0; y < y1; ++y, out += width)
            std::memcpy(out, pixels + std::size_t(y) * stride, std::size_t(width) * 4);
    });
}

void writeFileAtomically(const std::string& path, const std::vector<std::uint8_t>& bytes) {
    // As QSaveFile does: an existing file that may not be written is refused, and the new file
    // keeps the old one's permissions (a private 0600 image stays private).
    struct stat old {};
    const bool exists = ::stat(path.c_str(), &old) == 0;
    if (exists && ::access(path.c_str(), W_OK) != 0)
        throw InputError("cannot write '" + path + "': the existing file is not writable");
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
    if (exists && S_ISREG(old.st_mode)) ::fchmod(::fileno(f), old.st_mode & 07777);
    if (std::fclose(f) != 0 || !ok) fail("writing");
    if (std::rename(tmp.c_str(), path.c_str()) != 0) fail("renaming the finished file");
}

} // namespace ts::image
