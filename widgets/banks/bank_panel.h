// SPDX-License-Identifier: Apache-2.0
// BankPanel: "why is this layout slow?" A shared layout + dtype + access pattern (core
// access.h) analysed by the per-phase wavefront model: a heat overlay on the grid (cells coloured
// by the wavefronts of the instruction that touches them), a per-bank histogram (Qt Charts),
// totals (wavefronts, excess, efficiency = ideal / wavefronts) and a step-through of the
// instructions (slider + play/pause) that frames the current instruction's cells and labels
// their lanes. All numbers come from core; this widget only paints.
//
// The results are bound to their input (ResultState): while an edit is being analysed (off the
// UI thread) they are dimmed and marked, and when the input fails they are hidden under the
// error, so a wavefront count is never shown next to an error or for another layout. A line at
// the top says which layout is analysed; the access is chosen to fit that layout (core
// defaultAccess) until the user types one, and the dtype is the one the layout text names.
#pragma once

#include "banks/bank_analysis.h"
#include "common/latest_job.h"
#include "document/documentmodel.h"
#include "grid/panel_picture.h"

#include "tilescope/banks/access.h"

#include <QHash>
#include <QPointer>
#include <QWidget>
#include <memory>
#include <optional>

class QBarSet;
class QChartView;
class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSlider;
class QSpinBox;
class QSplitter;
class QTimer;

namespace tsw {

class GridView;
class ResultState;

// The step between integer ticks on an axis from 0 to `max`: 1, 2, 5, 10, ... so that at most
// `maxTicks` intervals are drawn.
int integerTickStep(double max, int maxTicks = 5);

class BankPanel : public QWidget {
    Q_OBJECT
public:
    // Presenter mode: the grid's presentation fonts and contrast, and the chart folded away.
    void setPresenting(bool on);
    explicit BankPanel(QWidget* parent = nullptr);
    ~BankPanel() override;

    void setLayoutText(const QString& text);
    QString layoutText() const;
    // The project whose layouts the panel names. Layouts are referred to by their LayoutId and
    // their names looked up here whenever the panel draws (and again on a rename), so a name on
    // screen is always the layout's current one.
    void setDocument(const DocumentModel* doc);
    // The layout of the project the panel follows (its name is shown with the results).
    void setSourceLayout(LayoutId id, const QString& text);
    // The active layout cannot be analysed here (a fragment, or an error): say so next to the
    // layout that is analysed.
    void setActiveElsewhere(LayoutId id, const QString& why);
    QString sourceText() const; // the "Analysing ..." line
    QString noteText() const;   // the note about the active layout under it (may be empty)
    QPushButton* playButton() const { return playButton_; }
    QCheckBox* storeBox() const { return storeBox_; }
    // The active layout's text changed (the evaluator is on it): what is shown may be about to
    // change, so it is marked (after the grace) until the evaluation says what the layout is.
    void activeLayoutChanging(LayoutId id);
    // A layout of the project now has `text` (an edit, an undo or a redo, of the active layout
    // or another): numbers shown for an earlier text of it are marked as such, and are current
    // again when that text comes back. The active layout's evaluation decides for it (analysed
    // again, or marked), so that typing does not flash the mark.
    void projectLayoutTextChanged(LayoutId id, const QString& text, bool active);
    // A layout was removed from the project: numbers shown for it are marked as such.
    void projectLayoutRemoved(LayoutId id);
    // Another project was opened: nothing shown belongs to it. Results, the layout, the access
    // choice (back to "fit the layout"), store and vector are reset.
    void resetForProject();
    // An explicit access turns the automatic choice off.
    void setAccessText(const QString& text);
    QString accessText() const;
    void setAutoAccess(bool on);
    bool autoAccess() const;
    void setDtype(const QString& dtype);
    QString dtype() const;
    void setVector(int elements); // 0 = automatic
    void setStore(bool store);
    int vector() const;
    bool store() const;
    // The project layout analysed (empty: a layout typed into the panel, or none).
    QString sourceName() const; // the followed layout's current name ("" when typed below)
    LayoutId sourceLayout() const { return sourceId_; } // 0 when typed below

    // A measurement from the device next to the prediction on the heat map: wavefronts per
    // instruction as ncu counted them (< 0: not measured), time per wavefront, where, what.
    void setMeasurement(double measuredWf, double predictedWf, double nsPerWavefront,
                        const QString& device, const QString& pattern);
    QString measurementText() const;

    // Runs the analysis now, on this thread; false (and errorText()) on bad input.
    bool analyze();
    // Edits schedule this: debounced, off the UI thread, superseded runs dropped.
    void analyzeLater();
    bool analysisPending() const;
    QString errorText() const { return error_; }
    ResultState* resultState() const { return state_; }

    // Everything at once (a lesson step): inputs set without intermediate analyses, analysed
    // now, then `step` shown (-1 = all). False (and errorText()) on bad input.
    bool applyView(const QString& layoutText, const QString& access, const QString& dtype,
                   int vector, bool store, int step);

    int instructionCount() const;
    int currentStep() const { return step_; } // -1: all instructions
    // The lowest step: -1 (all, before the first), or 0 when there is one instruction.
    int firstStep() const;
    bool isPlaying() const;
    const ts::PlanCost* cost() const { return cost_ ? &*cost_ : nullptr; }
    QString totalsText() const;
    QString stepText() const;
    std::vector<double> histogram() const; // the bars shown (per bank)
    GridView* grid() const { return grid_; }
    QChartView* chart() const { return chartView_; }
    QSlider* slider() const { return slider_; }
    QPushButton* stepBackButton() const { return stepBack_; }
    QPushButton* stepForwardButton() const { return stepForward_; }
    // The heat map (grid, legend, what is analysed, totals, step) and the histogram as pictures
    // for Export Picture (bank_panel_pictures.cpp); nullopt and *whyNot when no numbers are
    // shown or they are not the current input's.
    std::optional<PanelPicture> heatMapPicture(QString* whyNot) const;
    std::optional<PanelPicture> histogramPicture(QString* whyNot) const;
    // What the heat grid's tooltip says about a cell: bank, word and the lanes that touch it.
    QString cellToolTip(int row, int col) const;

public slots:
    void setCurrentStep(int step); // -1 = all
    void play();
    void pause();
    void togglePlay();
    // One instruction forward / back ("all" sits before the first).
    void stepForward();
    void stepBack();
    void setPlayIntervalMs(int ms);

signals:
    void analyzed(bool ok);
    void stepChanged(int step);
    // The user changed the access, its automatic choice, dtype, vector or store.
    void userEdited();

protected:
    int chartMinimumHeight() const;
    bool presenting_ = false;
    QWidget* inputs_ = nullptr; // the form of shared layout, access, dtype, vector, store
    void resizeEvent(QResizeEvent* e) override;
    void changeEvent(QEvent* e) override;

private:
    BankInput input() const;
    bool apply(quint64 generation, BankAnalysis r);
    void inputChanged();
    void updateSource();
    void refreshView();
    void updateChart();
    QString inputKey() const;
    // The header every picture of this panel shares, or nullopt (*whyNot) when it may not export.
    std::optional<PanelPicture> pictureHeader(const QString& what, QString* whyNot) const;
    QString effectiveAccess() const; // the access as analysed ("store" applied)
    void updateControls();
    void clearResults(); // nothing analysed: grid, totals, steps and chart emptied
    // The panel's input did not change but the project's view of it did: show the result of
    // the last analysis again as current (or its error), or analyse if none matches.
    void reconfirm();
    // The shown numbers are for an earlier text of the active layout: mark them so.
    void markIfOlderText();

    QLineEdit *layoutEdit_, *accessEdit_;
    QComboBox* dtypeBox_;
    QSpinBox* vectorSpin_;
    QCheckBox *storeBox_, *autoBox_;
    QLabel *source_, *note_, *totals_, *stepLabel_, *errorLabel_, *measured_ = nullptr;
    // The layout's current name (the last one it had, once removed from the project).
    QString nameOf(LayoutId id) const;
    // The stale marker's words, naming the layouts by their current names.
    QString staleWords() const;
    QPointer<const DocumentModel> doc_;
    mutable QHash<LayoutId, QString> lastNames_; // names of layouts no longer in the project
    LayoutId sourceId_ = 0;                      // the project layout followed (0: typed below)
    bool elsewhere_ = false;                     // the active layout is not analysable here
    LayoutId elsewhereId_ = 0;
    QString elsewhereWhy_, accessWhy_;
    LayoutId changingId_ = 0;    // the active layout being evaluated (0: none)
    LayoutId analysedId_ = 0;    // whose numbers are on screen
    QString analysedText_;       // the text they were computed from
    QString sourceText_;         // the text sourceId_ has in the project now
    bool sourceRemoved_ = false; // sourceId_ was removed from the project
    enum class Staleness { None, Changing, OlderText } staleness_ = Staleness::None;
    // The numbers are for another text than the one their layout has now.
    bool analysedTextOutdated() const;
    bool noProjectLayout_ = false;  // after a project switch, until a layout arrives
    QString lastKey_, lastMessage_; // the last finished analysis: its inputs, its error
    bool lastOk_ = false;
    ResultState* state_;
    LatestJob<BankAnalysis> job_;
    GridView* grid_;
    QChartView* chartView_ = nullptr;
    QSplitter* split_;
    QBarSet* bars_ = nullptr;
    QSlider* slider_;
    QPushButton *playButton_, *stepBack_, *stepForward_;
    QString analyzedKey_; // the inputs of the last successful analysis
    QTimer* timer_;
    QTimer* debounce_;
    QString error_;
    int step_ = -1;
    std::shared_ptr<const ts::SharedTile> tile_;
    std::shared_ptr<const ts::SharedAccess> access_;
    std::optional<ts::PlanCost> cost_;
};

} // namespace tsw
