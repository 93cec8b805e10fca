// SPDX-License-Identifier: Apache-2.0
// MainWindow: routes between the document, the evaluator and the panels; owns no layout logic.
// It composes the feature libraries (banks/, run/, trace/, kernel/) as their FeatureHost: they
// install their docks and menus through it and talk to each other over its FeatureBus.
// Its definitions are split by concern: mainwindow.cpp (construction, docks, settings),
// window_menus.cpp, window_files.cpp, window_export.cpp and window_evaluation.cpp.
// Central grid view; docks for the layout list, the mapping editor and the details pane (their
// arrangement persists in QSettings); menus for files, edits, view modes, export and samples.
#pragma once

#include "common/feature_host.h"
#include "document/documentmodel.h"
#include "editor/evaluator.h"
#include "grid/export_job.h"
#include "grid/gridmodel.h"
#include "tilescope/notation/interop.h"

#include <QMainWindow>
#include <QPointer>
#include <memory>

class QActionGroup;
class QLabel;
class QProgressBar;
class QListView;
class QMenu;
class QToolBar;

namespace tsw {

class CompareDialog;

class DocumentModel;
class FeatureBus;
class LayoutListModel;
class GridView;
class MappingEditor;
class DetailsPane;
class RecoveryManager;
class Presenter;
class ResultState;
class TraceViewer;
class KernelPanel;
struct RecoveryEntry;

class MainWindow : public QMainWindow, public FeatureHost {
    Q_OBJECT
    // Where an export's file dialog starts; panels' Export Picture reads it (panel_export.cpp).
    Q_PROPERTY(QString exportStartDirectory READ exportStartDirectory)
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // FeatureHost.
    QMainWindow* hostWindow() override { return this; }
    DocumentModel* document() const override { return doc_; }
    LayoutEvaluator* evaluator() const override { return eval_; }
    FeatureBus* bus() const override { return bus_; }
    QMenu* panelsMenu() const override { return panelsMenu_; }
    QMenu* fileMenu() const override { return fileMenu_; }
    // Features add their actions to the toolbar of actions on the layout (second row when the
    // window is narrow).
    QToolBar* mainToolBar() const override { return actionsToolBar_; }
    QToolBar* fileToolBar() const { return toolBar_; }

    LayoutListModel* layoutList() const { return list_; }
    GridView* gridView() const { return grid_; }
    MappingEditor* editor() const { return editor_; }
    DetailsPane* details() const { return details_; }
    RecoveryManager* recovery() const { return recovery_; }
    Presenter* presenter() const { return presenter_; }
    // The evaluation's state as the grid, status bar and details pane show it.
    ResultState* gridState() const { return gridState_; }
    QString statusSummary() const; // the status bar's layout summary and evaluation text
    QListView* layoutListView() const { return listView_; }

    // Files. Errors go to a (non-blocking) dialog and lastError(); nothing is changed on error.
    bool openFile(const QString& path);
    // openFile after offering to save unsaved changes (false if the user cancels).
    bool openFileAskingToSave(const QString& path);
    bool saveFile(const QString& path);
    // Exports on this thread (scripts, tests); the window uses startExport().
    bool exportView(const QString& path, double scale = 1.0);
    // Exports on a worker thread with a progress dialog and Cancel; false when nothing to export
    // or an export is running. exportFinished() tells the outcome.
    bool startExport(const QString& path, double scale = 1.0);
    ExportJob* exportJob() const { return exportJob_; }
    // The lesson handout of the project as saved in memory (banks/lesson_handout.h), written on a
    // worker thread with a progress dialog (after 100 ms) and Cancel; false when one is already
    // being written. handoutFinished() tells the outcome; a refusal (a step whose text has an
    // error, named) is shown as an error.
    bool startHandoutExport(const QString& path);
    bool handoutRunning() const;
    bool recoverFrom(const RecoveryEntry& e);
    void offerRecovery(); // interactive start: asks about files left by crashed sessions
    // Ends the session without asking, for a termination request (SIGTERM:
    // app/gui/termination.h); the caller then leaves the event loop.
    void endSession();
    QString lastError() const { return lastError_; }
    // The last successfully evaluated mapping of the active layout (null if none).
    std::shared_ptr<const ts::Mapping> currentMapping() const { return mapping_; }
    void setConfirmOnClose(bool on) { confirmOnClose_ = on; }

    // The Trace panel: openTraceLog shows it with the log at `path` (following its growth when
    // `follow`), as Help ▸ Sample Logs, `tilescope --trace` and the Python bridge's trace() do.
    TraceViewer* traceViewer() const { return traceViewer_; }
    void openTraceLog(const QString& path, bool follow);
    // The Kernel panel (File > Open Kernel…): shown, and the kernel at `path` opened in it (an
    // empty path asks for one with the file dialog).
    KernelPanel* kernelPanel() const { return kernelPanel_; }
    void openKernel(const QString& path);

    static QString samplesDirectory();
    // A sample's menu title: its project "title", else its file name made readable.
    static QString sampleTitle(const QString& path);
    // Where Save As starts: the project's own path; for a sample or a new project the folder of
    // the last project the user opened or saved (not a sample), else the documents folder.
    static QString saveAsStart(const QString& docPath, const QString& samplesDir,
                               const QStringList& recent);
    QStringList recentFiles() const;

public slots:
    void newDocument();
    void open();
    bool save();
    bool saveAs();
    void exportViewDialog();
    void exportHandoutDialog();
    void copyAsTileLang();
    void copyAsCuTe();
    // Two project layouts side by side with the cell-by-cell diff, any notation on either side.
    void compareLayouts();
    CompareDialog* compareDialog() const { return compare_; }
    void copyAsTriton();
    void addLayout();
    void setViewMode(tsw::ViewMode v);
    void setColorMode(tsw::ColorMode c);

signals:
    void exportFinished(bool ok, bool cancelled);
    void handoutFinished(bool ok, bool cancelled, const QString& error, int pages);

protected:
    void closeEvent(QCloseEvent* e) override;
    void dragEnterEvent(QDragEnterEvent* e) override;
    void dragMoveEvent(QDragMoveEvent* e) override;
    void dropEvent(QDropEvent* e) override;

private:
    // Puts an exact conversion of the current layout on the clipboard, or says in the status bar
    // why there is none (the clipboard is then left alone).
    void copyConversion(const QString& target, ts::Conversion (*convert)(const ts::Mapping&));
    void createActions();
    void createDocks();
    void connectDocument();
    void restoreSettings();
    void saveSettings();
    bool maybeSave();
    void showError(const QString& title, const QString& text);
    void onActiveChanged();
    void onEvaluated(const EvalResult& r);
    void onResultState();
    void requestEvaluation(bool now);
    void updateTitle();
    void updateViewActions();
    void resetPanels();
    QString exportStartDirectory() const;
    void addRecent(const QString& path);
    void rebuildRecentMenu();
    void rebuildSamplesMenu(QMenu* m);
    void updateStatus();
    // A status-bar message about the active layout's text, dropped when that text changes.
    void showLayoutMessage(const QString& text, int ms);
    void dropLayoutMessage();

    DocumentModel* doc_;
    FeatureBus* bus_;
    LayoutListModel* list_;
    LayoutEvaluator* eval_;
    RecoveryManager* recovery_;
    Presenter* presenter_ = nullptr;
    GridView* grid_;
    MappingEditor* editor_;
    DetailsPane* details_;
    QListView* listView_;
    QLabel *statusShape_, *statusEval_, *statusZoom_, *statusCell_;
    QProgressBar* busyBar_;
    ResultState* gridState_;
    QPointer<ExportJob> exportJob_;
    QObject* handoutJob_ = nullptr;    // the running handout's watcher (window_handout.cpp)
    CompareDialog* compare_ = nullptr; // made on first use, owned by the window
    double lastEvalMillis_ = 0;
    // The text was edited only in comments or spacing, so the grid on screen is its result; a
    // result reused for an unedited text (a sample opened again, a new layout like another) is
    // no such edit and shows the time of the evaluation that built it.
    bool lastEvalUnchangedEdit_ = false;
    QActionGroup *viewGroup_, *colorGroup_;
    QMenu *fileMenu_, *recentMenu_, *samplesMenu_, *helpSamplesMenu_, *panelsMenu_;
    QToolBar *toolBar_, *actionsToolBar_;
    QMenu *sampleLogsMenu_, *helpSampleLogsMenu_;
    TraceViewer* traceViewer_ = nullptr;
    KernelPanel* kernelPanel_ = nullptr;
    QAction *undoAct_, *redoAct_, *legendAct_;
    QAction *undoTbAct_ = nullptr, *redoTbAct_ = nullptr; // toolbar: short labels, full tooltips
    std::shared_ptr<const ts::Mapping> mapping_;
    // The layout the grid shows (for keep-view decisions): by identity, since an index moves
    // when a layout before it is added or removed.
    LayoutId shownLayout_ = 0;
    bool applyZoom_ = false;
    // The text the grid was last drawn from, and whether the evaluation under way only changes
    // how it is drawn (view or colour), not the text: the banner then says so.
    QString shownText_;
    bool viewOnly_ = false;
    // The last evaluation's view could not be drawn (too large); the text itself is fine.
    QString undrawable_;
    bool confirmOnClose_ = true;
    QString lastError_;
    QString layoutMessage_;
    QByteArray defaultState_;
};

} // namespace tsw
