// SPDX-License-Identifier: Apache-2.0
// Count phrases for the widgets' text (see tilescope/wording.h): "1 wavefront", "3 wavefronts".
#pragma once

#include <QString>

namespace tsw {

// `plural` defaults to `singular` + "s"; the number is formatted by QString::number.
inline QString countNoun(qint64 n, const QString& singular, const QString& plural = {}) {
    const QString word =
        (n == 1 || n == -1) ? singular : (plural.isEmpty() ? singular + QLatin1Char('s') : plural);
    return QString::number(n) + QLatin1Char(' ') + word;
}

} // namespace tsw
