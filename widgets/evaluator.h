// LayoutEvaluator: mapping text -> GridModel, debounced and off the UI thread for big layouts.
// Requests carry a generation number; a newer request cancels older ones (their results are
// dropped, and a running worker stops at its next checkpoint). Small layouts are evaluated
// synchronously so a keystroke repaints within one frame.
#pragma once

#include "gridmodel.h"

#include <QFutureWatcher>
#include <QObject>
#include <QTimer>
#include <atomic>
#include <memory>

namespace tsw {

struct EvalResult {
    quint64 generation = 0;
    bool ok = false;
    bool cancelled = false;
    QString text;
    GridModel grid;
    std::shared_ptr<const ts::Mapping> mapping;
    QString error;     // one line
    QString errorLong; // with caret lines
    int column = 0;    // 1-based column in the text, 0 when unknown
    bool tooLarge = false;
    double millis = 0;
};

class LayoutEvaluator : public QObject {
    Q_OBJECT
public:
    explicit LayoutEvaluator(QObject* parent = nullptr);
    ~LayoutEvaluator() override;

    void setDebounceMs(int ms) { timer_.setInterval(ms); }
    int debounceMs() const { return timer_.interval(); }
    // Logical cells above which evaluation runs on a worker thread.
    void setAsyncThreshold(std::int64_t cells) { asyncThreshold_ = cells; }

    // Debounced: only the last request within the interval is evaluated.
    void request(const QString& text, ViewMode view, ColorMode color);
    // Immediate (still asynchronous for big layouts).
    void evaluateNow(const QString& text, ViewMode view, ColorMode color);
    bool busy() const { return running_ > 0 || timer_.isActive(); }
    quint64 generation() const { return generation_; }

    // The whole pipeline, usable from any thread; `cancel` may be null.
    static EvalResult compute(const QString& text, ViewMode view, ColorMode color,
                              const std::atomic<quint64>* latest = nullptr, quint64 gen = 0);

signals:
    void started(quint64 generation, bool async);
    void finished(const tsw::EvalResult& result);

private:
    void run();

    QTimer timer_;
    QString text_;
    ViewMode view_ = ViewMode::Input;
    ColorMode color_ = ColorMode::Thread;
    quint64 generation_ = 0;
    std::shared_ptr<std::atomic<quint64>> latest_;
    std::int64_t asyncThreshold_ = 1 << 16;
    int running_ = 0;
};

} // namespace tsw

Q_DECLARE_METATYPE(tsw::EvalResult)
