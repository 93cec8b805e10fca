// Fast PNG writing for grid images (see png_fast.h).
#include "png_fast.h"

#include <QFile>
#include <csetjmp>
#include <cstdio>
#include <png.h>
#include <vector>
#include <zlib.h>

namespace tsw {

namespace {

struct PngFile {
    std::FILE* f = nullptr;
    png_structp png = nullptr;
    png_infop info = nullptr;
    std::vector<char> buffer; // stdio buffer, freed after the file is closed
    ~PngFile() {
        if (png) png_destroy_write_struct(&png, info ? &info : nullptr);
        if (f) std::fclose(f);
    }
};

} // namespace

bool writeFastPng(const QImage& source, const QString& path, QString* error) {
    auto fail = [&](const QString& m) {
        if (error) *error = m;
        return false;
    };
    const QImage img = source.format() == QImage::Format_RGB32
                           ? source
                           : source.convertToFormat(QImage::Format_RGB32);
    if (img.isNull()) return fail(QStringLiteral("nothing to write"));
    PngFile out;
    out.f = std::fopen(QFile::encodeName(path).constData(), "wb");
    if (!out.f) return fail(QStringLiteral("cannot write image %1").arg(path));
    out.buffer.resize(1 << 18);
    std::setvbuf(out.f, out.buffer.data(), _IOFBF, out.buffer.size());
    out.png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
    if (out.png) out.info = png_create_info_struct(out.png);
    if (!out.png || !out.info) return fail(QStringLiteral("cannot write image %1").arg(path));
    if (setjmp(png_jmpbuf(out.png)))
        return fail(QStringLiteral("cannot write image %1 (disk full?)").arg(path));
    png_init_io(out.png, out.f);
    png_set_IHDR(out.png, out.info, png_uint_32(img.width()), png_uint_32(img.height()), 8,
                 PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    // Rows repeat inside a cell: "Up" makes them zeros, which run-length matching packs.
    png_set_filter(out.png, PNG_FILTER_TYPE_BASE, PNG_FILTER_UP);
    png_set_compression_level(out.png, 1);
    png_set_compression_strategy(out.png, Z_RLE);
    png_set_compression_buffer_size(out.png, 1 << 17);
    png_write_info(out.png, out.info);
    // RGB32 is 0xffRRGGBB in native order: B, G, R, X in memory on little-endian machines.
#if Q_BYTE_ORDER == Q_LITTLE_ENDIAN
    png_set_bgr(out.png);
    png_set_filler(out.png, 0, PNG_FILLER_AFTER);
#else
    png_set_filler(out.png, 0, PNG_FILLER_BEFORE);
#endif
    for (int y = 0; y < img.height(); ++y)
        png_write_row(out.png, const_cast<png_bytep>(img.constScanLine(y)));
    png_write_end(out.png, nullptr);
    if (std::fflush(out.f) != 0 || std::ferror(out.f))
        return fail(QStringLiteral("cannot write image %1").arg(path));
    return true;
}

} // namespace tsw
