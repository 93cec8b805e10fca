// SPDX-License-Identifier: Apache-2.0
// PNG writing for grid images through the core's encoder (tilescope/image/png.h): Qt's writer
// lets libpng try every row filter per row and deflates with zlib; grid rows repeat inside a
// cell, so the "Up" filter alone turns them into zeros, which the core's encoder packs several
// times faster than zlib or libdeflate (see BENCHMARKS.md).
#pragma once

#include <QImage>
#include <QString>

class QIODevice;

namespace tsw {

// Writes `img` (any format; RGB32 is read without conversion) as an 8-bit RGB PNG to `out`
// (open for writing). Returns false and sets *error when it cannot be written.
bool writeFastPng(const QImage& img, QIODevice* out, QString* error);

} // namespace tsw
