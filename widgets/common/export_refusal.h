// SPDX-License-Identifier: Apache-2.0
// Whether the grid on screen may be written to a file now. Only a picture of the current text's
// layout is written: while the text has an error the grid shows the last valid layout (dimmed),
// and while a new text is evaluated it shows the previous one; an exported picture leaves the
// window's marks behind (a file is cropped, pasted into slides, named after the layout), so it
// is refused there rather than written and marked.
#pragma once

#include "common/result_state.h"

#include <QString>

namespace tsw {

// "" when the grid may be exported; else the sentence that says why not and what to do.
inline QString exportRefusal(ResultState::State state, bool gridEmpty, const QString& error) {
    switch (state) {
    case ResultState::State::Error:
        return QStringLiteral("Not exported: the mapping has an error, and the grid shows the last "
                              "valid layout, not this text. Fix the error (or undo) and export "
                              "again.\n\n%1")
            .arg(error);
    case ResultState::State::Pending:
    case ResultState::State::Stale:
        return QStringLiteral("Not exported: the new text is still being evaluated, and the grid "
                              "shows the previous one. Export again when it is drawn.");
    case ResultState::State::Empty:
    case ResultState::State::Current:
        break;
    }
    if (gridEmpty) return QStringLiteral("There is no valid layout to export.");
    return {};
}

} // namespace tsw
