// ResultState (see result_state.h).
#include "result_state.h"

#include <QGraphicsOpacityEffect>
#include <QLabel>
#include <QWidget>

namespace tsw {

namespace {
constexpr double kDimOpacity = 0.35;
const char* kErrorStyle = "color: #b00020;";
const char* kStaleStyle = "color: #6b7280; font-style: italic;";
} // namespace

ResultState::ResultState(QObject* parent)
    : QObject(parent), staleText_(QStringLiteral("⟳ updating… (the input changed)")) {
    grace_.setSingleShot(true);
    connect(&grace_, &QTimer::timeout, this, &ResultState::markStale);
}

void ResultState::addView(QWidget* w, std::function<void(bool)> dim) {
    if (!dim) {
        // The effect is created once and only enabled while stale: a disabled effect costs
        // nothing when painting.
        auto* effect = new QGraphicsOpacityEffect(w);
        effect->setOpacity(kDimOpacity);
        effect->setEnabled(false);
        w->setGraphicsEffect(effect);
        dim = [effect = QPointer<QGraphicsOpacityEffect>(effect)](bool on) {
            if (effect) effect->setEnabled(on);
        };
    }
    views_.push_back({w, std::move(dim)});
    apply();
}

void ResultState::setMarker(QLabel* marker) {
    marker_ = marker;
    apply();
}

quint64 ResultState::invalidate() {
    ++generation_;
    if (state_ != State::Stale) setState(State::Pending);
    if (state_ == State::Pending && graceMs_ >= 0 && !grace_.isActive()) grace_.start(graceMs_);
    return generation_;
}

void ResultState::markStale() {
    grace_.stop();
    if (state_ == State::Pending) setState(State::Stale);
}

quint64 ResultState::invalidateNow() {
    ++generation_;
    grace_.stop();
    setState(State::Stale);
    return generation_;
}

bool ResultState::publish(quint64 gen) {
    if (gen != generation_) return false;
    grace_.stop();
    error_.clear();
    setState(State::Current);
    return true;
}

bool ResultState::fail(quint64 gen, const QString& message) {
    if (gen != generation_) return false;
    grace_.stop();
    error_ = message;
    setState(State::Error);
    return true;
}

void ResultState::clear() {
    ++generation_;
    grace_.stop();
    error_.clear();
    setState(State::Empty);
}

QString ResultState::markerText() const {
    return marker_ && !marker_->isHidden() ? marker_->text() : QString();
}

void ResultState::setState(State s) {
    const bool changed = s != state_;
    state_ = s;
    apply();
    if (changed) emit stateChanged(s);
}

void ResultState::setDimmed(bool on) {
    dimmed_ = on;
    for (const View& v : views_)
        if (v.widget) v.dim(on);
}

void ResultState::setHidden(bool on) {
    hidden_ = on;
    for (const View& v : views_)
        if (v.widget) v.widget->setHidden(on);
}

void ResultState::apply() {
    switch (state_) {
    case State::Empty:
        setDimmed(false);
        setHidden(onError_ == OnError::Hide);
        if (marker_) marker_->hide();
        break;
    case State::Current:
        setDimmed(false);
        setHidden(false);
        if (marker_) marker_->hide();
        break;
    case State::Pending:
        // Within the grace the previous result stays as it was: a quick answer replaces it
        // without a flash.
        break;
    case State::Stale:
        setDimmed(true);
        if (marker_) {
            marker_->setStyleSheet(QLatin1String(kStaleStyle));
            marker_->setText(staleText_);
            marker_->show();
        }
        break;
    case State::Error:
        if (onError_ == OnError::Hide) {
            setDimmed(false);
            setHidden(true);
        } else {
            setDimmed(true);
        }
        if (marker_) {
            marker_->setStyleSheet(QLatin1String(kErrorStyle));
            marker_->setText(QStringLiteral("⚠ ") + error_);
            marker_->show();
        }
        break;
    }
}

} // namespace tsw
