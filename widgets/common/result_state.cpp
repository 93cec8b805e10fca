// SPDX-License-Identifier: Apache-2.0
// ResultState (see result_state.h).
#include "common/result_state.h"

#include <QEvent>
#include <QLabel>
#include <QPainter>
#include <QWidget>

namespace tsw {

namespace {
constexpr double kDimOpacity = 0.35;

// Dims a view by covering it with a translucent child of its own. A QGraphicsOpacityEffect did
// this before, but a widget with a graphics effect inside a scroll area is scrolled by copying
// its pixels: stale copies of the dimmed view were painted over the area until it was redrawn.
// A child widget moves and repaints with its parent like any other.
class DimVeil : public QWidget {
public:
    explicit DimVeil(QWidget* view) : QWidget(view) {
        setObjectName(QStringLiteral("resultDimVeil"));
        setAttribute(Qt::WA_TransparentForMouseEvents);
        setAttribute(Qt::WA_NoSystemBackground);
        setFocusPolicy(Qt::NoFocus);
        hide();
        view->installEventFilter(this);
    }
    void setOn(bool on) {
        if (on) {
            setGeometry(parentWidget()->rect());
            raise();
        }
        setVisible(on);
    }

protected:
    bool eventFilter(QObject* o, QEvent* e) override {
        if (o == parentWidget() && e->type() == QEvent::Resize) setGeometry(parentWidget()->rect());
        if (o == parentWidget() && e->type() == QEvent::ChildAdded && isVisible()) raise();
        return false;
    }
    void paintEvent(QPaintEvent*) override {
        QPainter p(this);
        QColor c = parentWidget()->palette().color(QPalette::Window);
        c.setAlphaF(1.0 - kDimOpacity);
        p.fillRect(rect(), c);
    }
};

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
        // The veil is created once and only shown while stale.
        auto* veil = new DimVeil(w);
        dim = [veil = QPointer<DimVeil>(veil)](bool on) {
            if (veil) veil->setOn(on);
        };
    }
    views_.push_back({w, std::move(dim)});
    apply();
}

void ResultState::setMarker(QLabel* marker) {
    marker_ = marker;
    // The marker's words name layouts and quote errors as they are: a name such as
    // "Swizzle<3,3,3>" must not be read as a tag and vanish from the sentence.
    if (marker) marker->setTextFormat(Qt::PlainText);
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
        if (v.widget) v.widget->setHidden(on || v.widget->property(kFoldedAway).toBool());
}

void ResultState::setStaleText(const QString& t) {
    staleText_ = t;
    if (state_ == State::Stale) apply();
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
