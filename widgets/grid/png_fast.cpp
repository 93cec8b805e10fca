// SPDX-License-Identifier: Apache-2.0
// Fast PNG writing for grid images (see png_fast.h).
#include "grid/png_fast.h"

#include "tilescope/image/png.h"

#include <QIODevice>

namespace tsw {

bool writeFastPng(const QImage& source, QIODevice* out, QString* error) {
    auto fail = [&](const QString& m) {
        if (error) *error = m;
        return false;
    };
    const QImage img = source.format() == QImage::Format_RGB32
                           ? source
                           : source.convertToFormat(QImage::Format_RGB32);
    if (img.isNull()) return fail(QStringLiteral("nothing to write"));
    const std::vector<std::uint8_t> file =
        ts::image::encodePng(reinterpret_cast<const std::uint32_t*>(img.constBits()), img.width(),
                             img.height(), std::size_t(img.bytesPerLine()) / 4);
    if (out->write(reinterpret_cast<const char*>(file.data()), qint64(file.size())) !=
        qint64(file.size()))
        return fail(QStringLiteral("cannot write the image: %1").arg(out->errorString()));
    return true;
}

} // namespace tsw
