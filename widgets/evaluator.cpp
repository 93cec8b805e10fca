#include "evaluator.h"

#include "tilescope/errors.h"
#include "tilescope/mapping.h"

#include <QElapsedTimer>
#include <QtConcurrent>

namespace tsw {

LayoutEvaluator::LayoutEvaluator(QObject* parent)
    : QObject(parent), latest_(std::make_shared<std::atomic<quint64>>(0)) {
    qRegisterMetaType<tsw::EvalResult>();
    timer_.setSingleShot(true);
    timer_.setInterval(150);
    connect(&timer_, &QTimer::timeout, this, &LayoutEvaluator::run);
}

LayoutEvaluator::~LayoutEvaluator() {
    latest_->store(~quint64(0));
}

void LayoutEvaluator::request(const QString& text, ViewMode view, ColorMode color) {
    text_ = text;
    view_ = view;
    color_ = color;
    latest_->store(++generation_); // cancels anything in flight
    timer_.start();
}

void LayoutEvaluator::evaluateNow(const QString& text, ViewMode view, ColorMode color) {
    text_ = text;
    view_ = view;
    color_ = color;
    latest_->store(++generation_);
    timer_.stop();
    run();
}

EvalResult LayoutEvaluator::compute(const QString& text, ViewMode view, ColorMode color,
                                    const std::atomic<quint64>* latest, quint64 gen) {
    QElapsedTimer t;
    t.start();
    EvalResult r;
    r.generation = gen;
    r.text = text;
    auto stale = [&] { return latest && latest->load() != gen; };
    try {
        auto m = std::make_shared<ts::Mapping>(ts::parseMapping(text.toStdString()));
        if (stale()) {
            r.cancelled = true;
            return r;
        }
        r.grid = GridModel::fromMapping(*m, view, color);
        r.mapping = std::move(m);
        r.ok = true;
    } catch (const ts::ParseError& e) {
        r.error = QString::fromStdString(e.message());
        r.errorLong = QString::fromStdString(e.what());
        if (auto c = e.caretLines(); !c.empty())
            r.errorLong += QLatin1Char('\n') + QString::fromStdString(c);
        r.column = static_cast<int>(e.column());
    } catch (const ts::InputError& e) {
        r.error = r.errorLong = QString::fromStdString(e.what());
        r.column = static_cast<int>(e.column());
        r.tooLarge = r.error.contains(QLatin1String("too large to draw"));
    } catch (const ts::EvalError& e) {
        r.error = r.errorLong = QString::fromStdString(e.what());
    } catch (const std::bad_alloc&) {
        r.error = r.errorLong = QStringLiteral("out of memory while evaluating this layout");
        r.tooLarge = true;
    } catch (const std::exception& e) {
        r.error = r.errorLong = QStringLiteral("internal error: %1").arg(e.what());
    }
    r.millis = t.nsecsElapsed() / 1e6;
    return r;
}

void LayoutEvaluator::run() {
    const quint64 gen = generation_;
    const QString text = text_;
    const ViewMode view = view_;
    const ColorMode color = color_;
    // Cheap size estimate: parse only (no evaluation) to decide sync vs async.
    std::int64_t cells = 0;
    try {
        const ts::Mapping m = ts::parseMapping(text.toStdString());
        cells = std::visit([](const auto& x) { return ts::cellCount(x.inputShape()); }, m);
    } catch (...) {
        cells = 0; // errors are reported by compute()
    }
    if (cells <= asyncThreshold_) {
        emit started(gen, false);
        EvalResult r = compute(text, view, color, latest_.get(), gen);
        if (!r.cancelled) emit finished(r);
        return;
    }
    emit started(gen, true);
    ++running_;
    auto latest = latest_;
    auto* watcher = new QFutureWatcher<EvalResult>(this);
    connect(watcher, &QFutureWatcher<EvalResult>::finished, this, [this, watcher, latest] {
        --running_;
        EvalResult r = watcher->result();
        watcher->deleteLater();
        if (!r.cancelled && r.generation == latest->load()) emit finished(r);
    });
    watcher->setFuture(QtConcurrent::run([text, view, color, latest, gen] {
        return compute(text, view, color, latest.get(), gen);
    }));
}

} // namespace tsw
