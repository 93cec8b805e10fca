// SPDX-License-Identifier: Apache-2.0
// The lesson handout: a project's layouts as the steps of a lesson, one PDF page each, with the
// title "Step n of N · name", the caption, the layout's grid (drawn as the grid export draws
// it), the step's saved analysis (the bank heat map with its legend and numbers, or the fractal
// storage) and the mapping text.
//
// Every page is computed from the document alone (its texts and saved analyses, through the
// core), never from what a panel shows: a handout is the lesson as saved, whatever the window
// looks at. It lives in the banks feature because its pages hold this feature's pictures (the
// heat map, bank_heat.h; the fractal view); the window, which composes the features, offers it
// (File > Export Lesson Handout…), as the lesson panel (lesson/) may not include a sibling
// feature. Nothing here touches a widget: it runs on a worker thread.
#pragma once

#include "grid/gridrenderer.h"

#include "tilescope/notation/document.h"

#include <QString>
#include <QStringList>
#include <optional>
#include <vector>

namespace tsw {

struct HandoutPage {
    QString title;   // "Step 2 of 6 · padded to 33"
    QString caption; // may be empty
    QString layoutLabel;
    GridRenderer layout;
    QString analysisLabel; // "Bank conflicts: lanes:lambda t: (t, 0), float32, instruction 1"
    std::optional<GridRenderer> analysis;
    QStringList numbers; // the analysis' numbers, one line each
    QString mappingText;
};

// The step whose text cannot be handed out: "Step 3 «XOR swizzle»: its text has an error: …";
// empty when every step's text parses. Fast (parsing only); any thread.
QString handoutRefusal(const ts::Document& doc);

// Page `i` of the handout (0-based), or nullopt with *error naming the step.
std::optional<HandoutPage> handoutPage(const ts::Document& doc, int i, QString* error);

struct HandoutOutcome {
    bool ok = false;
    bool cancelled = false;
    QString error;
    int pages = 0;
};

// Writes the handout to `path` (a PDF, A4 landscape) atomically: on refusal, failure or
// cancellation no file is written (an existing one is kept). `progress` (optional) gets the
// share of pages done and is polled for cancellation between pages. Any thread.
HandoutOutcome writeLessonHandout(const ts::Document& doc, const QString& path,
                                  ExportProgress* progress = nullptr);

} // namespace tsw
