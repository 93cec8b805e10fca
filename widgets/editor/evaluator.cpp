// SPDX-License-Identifier: Apache-2.0
#include "editor/evaluator.h"

#include "tilescope/notation/mapping.h"
#include "tilescope/support/errors.h"

#include <QElapsedTimer>

namespace tsw {

LayoutEvaluator::LayoutEvaluator(QObject* parent) : QObject(parent) {
    qRegisterMetaType<tsw::EvalResult>();
    timer_.setSingleShot(true);
    // Short: the work is off the UI thread and superseded work is dropped, so the debounce only
    // has to merge the keystrokes of one burst.
    timer_.setInterval(60);
    connect(&timer_, &QTimer::timeout, this, &LayoutEvaluator::run);
    slowTimer_.setSingleShot(true);
    slowTimer_.setInterval(100);
    connect(&slowTimer_, &QTimer::timeout, this, [this] {
        if (busy()) emit slow(generation_);
    });
}

LayoutEvaluator::~LayoutEvaluator() = default;

quint64 LayoutEvaluator::request(const QString& text, ViewMode view, ColorMode color) {
    text_ = text;
    view_ = view;
    color_ = color;
    ++generation_;
    job_.cancel(); // whatever runs now is for older text
    timer_.start();
    emit requested(generation_);
    return generation_;
}

quint64 LayoutEvaluator::evaluateNow(const QString& text, ViewMode view, ColorMode color) {
    text_ = text;
    view_ = view;
    color_ = color;
    ++generation_;
    job_.cancel();
    timer_.stop();
    emit requested(generation_);
    run();
    return generation_;
}

void LayoutEvaluator::cancel() {
    ++generation_;
    timer_.stop();
    slowTimer_.stop();
    job_.cancel();
}

EvalResult LayoutEvaluator::compute(const QString& text, ViewMode view, ColorMode color,
                                    const CancelToken& token, const EvalResult* previous) {
    QElapsedTimer t;
    t.start();
    EvalResult r;
    r.generation = token.generation();
    r.text = text;
    r.view = view;
    r.color = color;
    try {
        const std::string src = text.toStdString();
        r.key = QString::fromStdString(ts::mappingSyntaxKey(src));
        if (previous && previous->ok && previous->key == r.key && previous->view == view &&
            previous->color == color) {
            r.grid = previous->grid; // shared data: no copy
            r.mapping = previous->mapping;
            r.repr = previous->repr;
            r.ok = r.reused = true;
            r.millis = t.nsecsElapsed() / 1e6;
            r.builtMillis = previous->builtMillis;
            return r;
        }
        if (token.cancelled()) {
            r.cancelled = true;
            return r;
        }
        auto m = std::make_shared<ts::Mapping>(ts::parseMapping(src));
        if (token.cancelled()) {
            r.cancelled = true;
            return r;
        }
        r.grid = GridModel::fromMapping(*m, view, color);
        r.grid.setAxisNote(GridModel::axisNoteFor(src));
        // The repr's extents come from the table the grid already holds: evaluating again (on
        // the UI thread, as it once was) cost as much as the evaluation itself.
        if (const auto* f = std::get_if<ts::Fragment>(m.get()); f && r.grid.fragmentTable())
            r.repr = QString::fromStdString(ts::tilelangRepr(*f, *r.grid.fragmentTable()));
        else if (const auto* l = std::get_if<ts::Layout>(m.get()); l && r.grid.layoutTable())
            r.repr = QString::fromStdString(ts::tilelangRepr(*l, *r.grid.layoutTable()));
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
    r.millis = r.builtMillis = t.nsecsElapsed() / 1e6;
    return r;
}

void LayoutEvaluator::run() {
    const QString text = text_;
    const ViewMode view = view_;
    const ColorMode color = color_;
    std::shared_ptr<const EvalResult> previous = last_;
    // Progress is measured from when work starts, not from the keystroke: the debounce alone
    // must not make a quick layout flash "evaluating".
    if (!slowTimer_.isActive()) slowTimer_.start();
    job_.submit(
        generation_,
        [text, view, color, previous](const CancelToken& token) {
            return compute(text, view, color, token, previous.get());
        },
        [this](quint64, EvalResult r) {
            if (r.cancelled) return;
            slowTimer_.stop();
            remember(r);
            emit finished(r);
        },
        // Superseded while it ran (a keystroke in a comment, say): not shown, but kept, so the
        // newer request reuses it when its syntax tree is the same.
        [this](quint64, EvalResult r) {
            if (!r.cancelled) remember(r);
        });
}

void LayoutEvaluator::remember(const EvalResult& r) {
    if (!r.ok) return;
    auto keep = std::make_shared<EvalResult>(r);
    keep->text.clear(); // the key identifies it; the text may be large
    last_ = std::move(keep);
}

} // namespace tsw
