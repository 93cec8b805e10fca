// Fast PNG writing for grid images (see png_fast.h). The file is signature, IHDR, one IDAT with
// the whole zlib stream, IEND (PNG spec, sections 5 and 11).
#include "grid/png_fast.h"

#include <QIODevice>
#include <cstdint>
#include <vector>

#ifdef TILESCOPE_HAVE_LIBDEFLATE
#include <libdeflate.h>
#else
#include <zlib.h>
#endif

namespace tsw {

namespace {

std::uint32_t crc(const std::uint8_t* p, std::size_t n, std::uint32_t c = 0) {
#ifdef TILESCOPE_HAVE_LIBDEFLATE
    return libdeflate_crc32(c, p, n);
#else
    return std::uint32_t(crc32(c, p, uInt(n)));
#endif
}

void be32(std::vector<std::uint8_t>& v, std::uint32_t x) {
    v.push_back(std::uint8_t(x >> 24));
    v.push_back(std::uint8_t(x >> 16));
    v.push_back(std::uint8_t(x >> 8));
    v.push_back(std::uint8_t(x));
}

void chunk(std::vector<std::uint8_t>& out, const char* type, const std::uint8_t* data,
           std::size_t n) {
    be32(out, std::uint32_t(n));
    const std::size_t at = out.size();
    out.insert(out.end(), type, type + 4);
    out.insert(out.end(), data, data + n);
    be32(out, crc(out.data() + at, n + 4));
}

// A zlib stream of `in`; empty on failure.
std::vector<std::uint8_t> deflate(const std::vector<std::uint8_t>& in) {
    std::vector<std::uint8_t> out;
#ifdef TILESCOPE_HAVE_LIBDEFLATE
    libdeflate_compressor* c = libdeflate_alloc_compressor(1);
    if (!c) return out;
    out.resize(libdeflate_zlib_compress_bound(c, in.size()));
    out.resize(libdeflate_zlib_compress(c, in.data(), in.size(), out.data(), out.size()));
    libdeflate_free_compressor(c);
#else
    uLongf n = compressBound(uLong(in.size()));
    out.resize(n);
    if (compress2(out.data(), &n, in.data(), uLong(in.size()), 1) != Z_OK) n = 0;
    out.resize(n);
#endif
    return out;
}

} // namespace

bool writeFastPng(const QImage& source, QIODevice* out, QString* error) {
    auto fail = [&](const QString& m) {
        if (error) *error = m;
        return false;
    };
    const QImage img = source.format() == QImage::Format_RGB32
                           ? source
                           : source.convertToFormat(QImage::Format_RGB32);
    if (img.isNull()) return fail(QStringLiteral("nothing to write"));
    const std::size_t w = std::size_t(img.width()), h = std::size_t(img.height());
    // Filtered scanlines: filter type 2 ("Up", each byte minus the one above), then R, G, B.
    const std::size_t stride = 1 + 3 * w;
    std::vector<std::uint8_t> raw(stride * h);
    for (std::size_t y = 0; y < h; ++y) {
        std::uint8_t* o = raw.data() + y * stride;
        *o++ = 2;
        const QRgb* line = reinterpret_cast<const QRgb*>(img.constScanLine(int(y)));
        const QRgb* up = y ? reinterpret_cast<const QRgb*>(img.constScanLine(int(y - 1))) : nullptr;
        for (std::size_t x = 0; x < w; ++x) {
            const QRgb a = line[x], b = up ? up[x] : 0;
            *o++ = std::uint8_t(qRed(a) - qRed(b));
            *o++ = std::uint8_t(qGreen(a) - qGreen(b));
            *o++ = std::uint8_t(qBlue(a) - qBlue(b));
        }
    }
    const std::vector<std::uint8_t> z = deflate(raw);
    if (z.empty()) return fail(QStringLiteral("cannot compress the image"));
    std::vector<std::uint8_t> file = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    file.reserve(z.size() + 64);
    std::vector<std::uint8_t> ihdr;
    be32(ihdr, std::uint32_t(w));
    be32(ihdr, std::uint32_t(h));
    ihdr.insert(ihdr.end(), {8, 2, 0, 0, 0}); // 8-bit, RGB, deflate, adaptive filters, no interlace
    chunk(file, "IHDR", ihdr.data(), ihdr.size());
    chunk(file, "IDAT", z.data(), z.size());
    chunk(file, "IEND", nullptr, 0);
    if (out->write(reinterpret_cast<const char*>(file.data()), qint64(file.size())) !=
        qint64(file.size()))
        return fail(QStringLiteral("cannot write the image: %1").arg(out->errorString()));
    return true;
}

} // namespace tsw
