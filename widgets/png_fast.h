// PNG writing tuned for grid images: large areas of flat colour with small text. Qt's writer
// lets libpng try every row filter and compresses with zlib's general matcher; for a grid the
// "Up" filter turns the rows inside a cell into zeros and run-length matching compresses them
// about as well, several times faster (see BENCHMARKS.md).
#pragma once

#include <QImage>
#include <QString>

class QIODevice;

namespace tsw {

// Writes `img` (any format; RGB32 is written without conversion) as an 8-bit RGB PNG.
// Returns false and sets *error when the file cannot be written.
bool writeFastPng(const QImage& img, const QString& path, QString* error);

} // namespace tsw
