// PNG writing tuned for grid images: large areas of flat colour with small text. Qt's writer
// lets libpng try every row filter per row and deflates with zlib; grid rows repeat inside a
// cell, so the "Up" filter alone turns them into zeros, and libdeflate's fastest level packs
// those about twice as fast as zlib's (see BENCHMARKS.md). Without libdeflate at build time,
// zlib level 1 does the compression.
#pragma once

#include <QImage>
#include <QString>

class QIODevice;

namespace tsw {

// Writes `img` (any format; RGB32 is read without conversion) as an 8-bit RGB PNG to `out`
// (open for writing). Returns false and sets *error when it cannot be written.
bool writeFastPng(const QImage& img, QIODevice* out, QString* error);

} // namespace tsw
