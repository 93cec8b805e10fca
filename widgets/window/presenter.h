// SPDX-License-Identifier: Apache-2.0
// Teaching in class: lesson steps and presenter mode for a MainWindow.
//
// Lesson steps: a project layout may carry a one-line caption and a saved analysis (document.h
// AnalysisSettings). Whenever such a layout becomes active its caption is shown above the grid
// ("Step 2 of 6 · ...") and its analysis is applied to the bank or fractal panel, which is
// shown. Ctrl+PgDown / Ctrl+PgUp move to the next / previous layout (step).
//
// Presenter mode (F11, Esc leaves): full screen, larger fonts, high contrast, toolbars, menus,
// status bar and every panel hidden except the grid and one analysis (the step's, else the one
// in front), which moves beside the grid. Keys for a clicker or a keyboard: PgDown/PgUp next /
// previous step; Right or Space / Left or Backspace next / previous instruction of the bank
// step-through (Alt+Right / Alt+Left anywhere). Every other shortcut of the (hidden) menus keeps
// working (Ctrl+1..4 colourings, zoom), and a slim bar under the grid (presenter_bar.h) offers
// the same as buttons, with a hint naming the keys that apply. Leaving restores the window
// exactly.
#pragma once

#include <QByteArray>
#include <QDockWidget>
#include <QFont>
#include <QObject>
#include <QPointer>
#include <string>

class QAction;

namespace tsw {

class MainWindow;
class BankDocks;
class PresenterBar;

class Presenter : public QObject {
    Q_OBJECT
public:
    explicit Presenter(MainWindow* w);

    bool isActive() const { return active_; }
    QAction* presenterAction() const { return presentAct_; }
    QAction* nextStepAction() const { return nextAct_; }
    QAction* previousStepAction() const { return prevAct_; }
    QAction* nextInstructionAction() const { return nextInsAct_; }
    QAction* previousInstructionAction() const { return prevInsAct_; }
    // The analysis dock kept visible in presenter mode (null: none).
    QDockWidget* analysisDock() const { return shownDock_; }
    PresenterBar* bar() const { return bar_; }

public slots:
    void setActive(bool on);
    void toggle() { setActive(!active_); }
    void nextStep();
    void previousStep();
    void nextInstruction();
    void previousInstruction();
    // Applies the active layout's caption and saved analysis (called on every layout change).
    void applyLessonStep();
    // The active layout's caption, with a note when the bank panel shows another access than
    // the step's.
    void updateCaption();

signals:
    void activeChanged(bool on);

protected:
    bool eventFilter(QObject* o, QEvent* e) override;

private:
    QDockWidget* chooseAnalysisDock() const;
    // While presenting: `dock` alone beside the grid (nullptr: the grid alone).
    void presentBeside(QDockWidget* dock);
    static bool isFragmentText(const std::string& text);

    MainWindow* w_;
    BankDocks* docks_ = nullptr;
    QAction *presentAct_, *nextAct_, *prevAct_, *nextInsAct_, *prevInsAct_;
    bool active_ = false;
    // What presenter mode changed, to restore it.
    QByteArray savedState_, savedGeometry_;
    Qt::WindowStates savedWindowState_;
    QFont savedFont_;
    bool savedMenuBar_ = true, savedStatusBar_ = true;
    QPointer<QDockWidget> shownDock_;
    PresenterBar* bar_ = nullptr;
    // The menus' actions added to the window while presenting, so their shortcuts work with the
    // menu bar hidden; removed on leaving.
    QList<QAction*> borrowed_;
};

} // namespace tsw
