// SPDX-License-Identifier: Apache-2.0
// LayoutEvaluator: mapping text -> GridModel, always off the UI thread.
//
// request() debounces keystrokes; every request gets a generation and the evaluator emits
// finished() only for the newest one (a result for older text is dropped, and older work stops
// at its next checkpoint). One evaluation runs at a time; requests arriving meanwhile replace
// each other, so a burst of typing costs the running evaluation plus the last. slow() fires when
// a request has not been answered within the progress threshold (~100 ms), so the window can
// show that it is working. A text whose syntax tree equals the last evaluated one (an edit in
// a comment, spaces) reuses its result instead of evaluating again.
#pragma once

#include "common/latest_job.h"
#include "grid/gridmodel.h"

#include <QObject>
#include <QTimer>
#include <memory>

namespace tsw {

struct EvalResult {
    quint64 generation = 0;
    bool ok = false;
    bool cancelled = false;
    bool reused = false; // same syntax tree as the previous result: not evaluated again
    QString text;
    QString key; // syntax key of the text (empty on a syntax error)
    ViewMode view = ViewMode::Input;
    ColorMode color = ColorMode::Thread;
    GridModel grid;
    std::shared_ptr<const ts::Mapping> mapping;
    QString repr;      // TileLang's repr of the mapping (its extents need the whole table)
    QString error;     // one line
    QString errorLong; // with caret lines
    int column = 0;    // 1-based column in the text, 0 when unknown
    bool tooLarge = false;
    double millis = 0;
    // What evaluating the text took: millis, or for a reused result the evaluation it reuses.
    double builtMillis = 0;
};

class LayoutEvaluator : public QObject {
    Q_OBJECT
public:
    explicit LayoutEvaluator(QObject* parent = nullptr);
    ~LayoutEvaluator() override;

    void setDebounceMs(int ms) { timer_.setInterval(ms); }
    int debounceMs() const { return timer_.interval(); }
    void setSlowMs(int ms) { slowTimer_.setInterval(ms); }

    // Debounced: only the last request within the interval is evaluated. Returns its generation.
    quint64 request(const QString& text, ViewMode view, ColorMode color);
    // No debounce (switching layouts, view changes); still off the UI thread.
    quint64 evaluateNow(const QString& text, ViewMode view, ColorMode color);
    // Forgets pending work (its result will not be emitted).
    void cancel();
    bool busy() const { return timer_.isActive() || job_.busy(); }
    quint64 generation() const { return generation_; }

    // The whole pipeline, usable from any thread. With a `previous` result of the same syntax
    // key, view and colour, that result's grid and mapping are reused.
    static EvalResult compute(const QString& text, ViewMode view, ColorMode color,
                              const CancelToken& token = {}, const EvalResult* previous = nullptr);

signals:
    void requested(quint64 generation);    // the input changed (at once, before any work)
    void slow(quint64 generation);         // not answered within the progress threshold
    void finished(const tsw::EvalResult&); // the newest request's result only

private:
    void run();
    void remember(const EvalResult& r);

    QTimer timer_, slowTimer_;
    QString text_;
    ViewMode view_ = ViewMode::Input;
    ColorMode color_ = ColorMode::Thread;
    quint64 generation_ = 0;
    std::shared_ptr<const EvalResult> last_; // the last successful result (for reuse)
    LatestJob<EvalResult> job_;
};

} // namespace tsw

Q_DECLARE_METATYPE(tsw::EvalResult)
