// BankPanel: "why is this layout slow?" A shared layout + dtype + access pattern (core
// access.h) analysed by the per-phase wavefront model: a heat overlay on the grid (cells coloured
// by the wavefronts of the instruction that touches them), a per-bank histogram (Qt Charts),
// totals (wavefronts, excess, efficiency = ideal / wavefronts) and a step-through of the
// instructions (slider + play/pause) that frames the current instruction's cells and labels
// their lanes. All numbers come from core; this widget only paints.
#pragma once

#include "tilescope/access.h"

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

class BankPanel : public QWidget {
    Q_OBJECT
public:
    explicit BankPanel(QWidget* parent = nullptr);
    ~BankPanel() override;

    void setLayoutText(const QString& text);
    QString layoutText() const;
    void setAccessText(const QString& text);
    QString accessText() const;
    void setDtype(const QString& dtype);
    void setVector(int elements); // 0 = automatic
    void setStore(bool store);

    // A measurement from the device next to the prediction on the heat map: wavefronts per
    // instruction as ncu counted them (< 0: not measured), time per wavefront, where, what.
    void setMeasurement(double measuredWf, double predictedWf, double nsPerWavefront,
                        const QString& device, const QString& pattern);
    QString measurementText() const;

    // Runs the analysis now; false (and errorText()) on bad input.
    bool analyze();
    QString errorText() const { return error_; }

    // Everything at once (a lesson step): inputs set without intermediate analyses, analysed
    // now, then `step` shown (-1 = all). False (and errorText()) on bad input.
    bool applyView(const QString& layoutText, const QString& access, const QString& dtype,
                   int vector, bool store, int step);

    int instructionCount() const;
    int currentStep() const { return step_; } // -1: all instructions
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

protected:
    void resizeEvent(QResizeEvent* e) override;

private:
    void refreshView();
    void updateChart();

    QLineEdit *layoutEdit_, *accessEdit_;
    QComboBox* dtypeBox_;
    QSpinBox* vectorSpin_;
    QCheckBox* storeBox_;
    QLabel *totals_, *stepLabel_, *errorLabel_, *measured_ = nullptr;
    GridView* grid_;
    QChartView* chartView_;
    QSplitter* split_;
    QBarSet* bars_ = nullptr;
    QSlider* slider_;
    QPushButton *playButton_, *stepBack_, *stepForward_;
    QString analyzedKey_; // the inputs of the last successful analysis
    QTimer* timer_;
    QTimer* debounce_;
    QString error_;
    int step_ = -1;
    std::unique_ptr<ts::SharedTile> tile_;
    std::optional<ts::SharedAccess> access_;
    std::optional<ts::PlanCost> cost_;
};

} // namespace tsw
