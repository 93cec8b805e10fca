// SPDX-License-Identifier: Apache-2.0
// ResultState: ties the views that show a computed result to the input it was computed from, so
// a number on screen is either current or visibly marked.
//
// Every change of input calls invalidate(), which starts a new generation; work started for an
// input carries its generation, and publish()/fail() with an older one are refused, so a late
// result can never overwrite a newer input's. Between invalidate() and publish() the views still
// hold the previous input's result: after a grace delay (so that quick work does not flicker)
// they are dimmed and the marker says they are out of date. fail() shows the error in the marker
// and either hides the views (their numbers belong to no input now) or, where keeping the last
// good result on screen is the point (the main grid while typing), keeps them dimmed under the
// error. Panels, the main window's grid, status bar and details pane all use this one mechanism.
#pragma once

#include <QObject>
#include <QPointer>
#include <QString>
#include <QTimer>
#include <functional>
#include <vector>

class QLabel;
class QWidget;

namespace tsw {

// A view whose owner folded it away (the property set to true) stays hidden when results show.
inline constexpr const char* kFoldedAway = "tilescopeFoldedAway";

class ResultState : public QObject {
    Q_OBJECT
public:
    enum class State {
        Empty,   // nothing computed (no input)
        Current, // the views show the result of the current input
        Pending, // input changed, the views still show the previous result (within the grace)
        Stale,   // input changed and the grace is over: views dimmed, marker "updating"
        Error    // the current input failed: marker shows the error
    };
    enum class OnError { Hide, KeepDimmed };
    Q_ENUM(State)

    explicit ResultState(QObject* parent = nullptr);

    // A view that shows the result. `dim` replaces the default dimming (an opacity effect) for
    // views that mark themselves (a grid paints a veil under its own banner).
    void addView(QWidget* w, std::function<void(bool)> dim = {});
    // The label that says "updating…" or the error; hidden while the result is current.
    void setMarker(QLabel* marker);
    void setOnError(OnError e) { onError_ = e; }
    // How long the previous result may stay undimmed after invalidate(); < 0: until markStale()
    // (for work that reports its own progress, like the evaluator's slow()).
    void setStaleDelayMs(int ms) { graceMs_ = ms; }
    // Shown at once when the views are already marked stale (the text names a layout that was
    // renamed meanwhile).
    void setStaleText(const QString& t);

    quint64 invalidate();    // Pending now, Stale after the grace delay
    quint64 invalidateNow(); // Stale at once (the old result belongs to another input)
    void markStale();        // Pending -> Stale now (the work is taking long)
    quint64 generation() const { return generation_; }
    bool isCurrent(quint64 gen) const { return gen == generation_; }
    // Results of `gen` are on screen now; false (nothing changes) when gen is not the newest.
    bool publish(quint64 gen);
    bool fail(quint64 gen, const QString& message);
    void clear(); // Empty: no input; views hidden (OnError::Hide) or left to their owner

    State state() const { return state_; }
    bool dimmed() const { return dimmed_; }
    bool viewsHidden() const { return hidden_; }
    QString markerText() const;
    QString errorText() const { return state_ == State::Error ? error_ : QString(); }

signals:
    void stateChanged(tsw::ResultState::State state);

private:
    void setState(State s);
    void apply();
    void setDimmed(bool on);
    void setHidden(bool on);

    struct View {
        QPointer<QWidget> widget;
        std::function<void(bool)> dim;
    };
    std::vector<View> views_;
    QPointer<QLabel> marker_;
    QTimer grace_;
    int graceMs_ = 100;
    OnError onError_ = OnError::Hide;
    State state_ = State::Empty;
    quint64 generation_ = 0;
    QString error_;
    QString staleText_;
    bool dimmed_ = false;
    bool hidden_ = false;
};

} // namespace tsw
