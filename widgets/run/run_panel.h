// SPDX-License-Identifier: Apache-2.0
// RunPanel: the "Run" dock: target, dtype, access pattern, Run / Cancel, progress,
// the log (compiler log on failure), a Qt Charts view of predicted vs measured wavefronts and
// time per instruction over the run history, and the history table. All logic lives in
// RunController and RunHistoryModel; this is only their view.
#pragma once

#include "run/run_controller.h"
#include "run/run_history.h"

#include <QPointer>
#include <QWidget>

class QAction;
class QChart;
class QCheckBox;
class QChartView;
class QComboBox;
class QDockWidget;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTabWidget;
class QTableView;

namespace tsw {

class DocumentModel;

class FeatureHost;
class ResultState;

class RunPanel : public QWidget {
    Q_OBJECT
public:
    RunPanel(RunController* controller, RunHistoryModel* history, QWidget* parent = nullptr);

    RunTarget currentTarget() const;
    void setTarget(RunTarget t);
    QString access() const;
    void setAccess(const QString& a); // an explicit access: stops fitting one to the layout
    // "fit the layout": the access (and the dtype the layout names) are chosen at each run as the
    // bank panel chooses them (core defaultAccess), until the user types an access.
    bool fitAccess() const;
    void setFitAccess(bool on);
    void showFitted(const QString& access, const QString& dtype);
    QString dtype() const;
    int vector() const;
    // The Ascend back end a run generates for: "ascendc_pto" (the released tilelang-ascend) or
    // "npuir" (its npuir branch); shown only for the Ascend target.
    QString ascendBackend() const;
    void setAscendBackend(const QString& name);
    QComboBox* ascendBackendBox() const { return backend_; }
    // The chip the Ascend tile is checked against: "a2a3" or "950"; shown for Ascend only.
    QString ascendChip() const;
    void setAscendChip(const QString& id);
    QComboBox* ascendChipBox() const { return chip_; }
    // The on-chip footprint of the active layout's tile (core ascendFootprint, computed by
    // installRunUi): shown under the controls for the Ascend target, in red when refused.
    void showAscendFootprint(const QString& text, bool refused);
    QLabel* ascendFootprintLabel() const { return footprint_; }
    bool ascendTargetChosen() const;
    QString statusText() const;
    QPlainTextEdit* log() const { return log_; }
    QChart* chart() const { return chart_; }
    QTableView* table() const { return table_; }
    QPushButton* runButton() const { return run_; }
    QPushButton* compileButton() const { return compile_; }
    QLineEdit* accessEdit() const { return access_; }
    QStringList chartCategories() const;
    QPushButton* cancelButton() const { return cancel_; }
    QPushButton* exportRequestButton() const { return exportRequest_; }
    // After Export Probe Request: what was written and how the result comes back (the log), or
    // why nothing was written.
    void showRequestExport(const QString& path, const QString& error);
    QString lastRequestMessage() const { return lastRequestMessage_; }

    // The last run's status belongs to its input: marked when the layout, access, dtype or
    // target changes after it. `layout` (a LayoutId of `doc`, see setDocument) and `what` (the
    // access and dtype) say what the run was for, set when it starts; the layout's name is
    // looked up whenever the mark is worded, so a rename reaches it.
    void setRunInput(quint64 layout, const QString& what);
    void setDocument(const DocumentModel* doc);
    ResultState* resultState() const { return state_; }

public slots:
    void rebuildChart();
    void openSettings();
    void inputChanged();
    // Another project was opened: the last run's status and log belong to the closed one.
    void resetForProject();

signals:
    void runRequested();
    void compileRequested();
    void exportRequestRequested();
    // The target, dtype, back end or chip changed: the Ascend footprint must be recomputed.
    void ascendFootprintStale();

private:
    void setBusy(bool busy);

    RunController* ctl_;
    RunHistoryModel* history_;
    QComboBox *target_, *dtype_, *backend_, *chip_;
    QLabel* footprint_;
    QLineEdit* access_;
    QCheckBox* fit_;
    QSpinBox* vector_;
    QPushButton *run_, *compile_, *cancel_, *settings_, *exportRequest_;
    QString lastRequestMessage_;
    QProgressBar* progress_;
    QLabel* status_;
    QTabWidget* tabs_;
    QChart* chart_;
    QChartView* chartView_;
    QTableView* table_;
    QPlainTextEdit* log_;
    ResultState* state_;
    QString staleWords() const; // the mark on the last run's status, naming its layout now
    QPointer<const DocumentModel> doc_;
    quint64 runLayout_ = 0; // the LayoutId the last run was for (0: none)
    QString runWhat_;
    QString runLayoutName_; // its name when it left the project
    quint64 runGen_ = 0;
};

// Adds the Run menu, a toolbar button and the Run dock to the host's window; a run's TileLang
// output and its measurements go out on the FeatureBus. Returns the dock.
QDockWidget* installRunUi(FeatureHost* host);
// The pieces installRunUi created (null before).
RunController* runControllerOf(QWidget* w);
RunPanel* runPanelOf(QWidget* w);
// Export Probe Request without its file dialog: writes the request for `spec` to `path` and
// says so in the panel.
bool exportProbeRequestTo(RunController* ctl, RunPanel* panel, const RunSpec& spec,
                          const QString& path);

} // namespace tsw
