// SPDX-License-Identifier: Apache-2.0
// KernelPanel: the kernel X-ray on screen. A TileLang kernel (its generated .cu, with the launch
// configuration and inferred layouts of a meta.json next to it, or its .py lowered by TileLang)
// is shown as its buffers, its shared-memory accesses with their predicted bank cost (and, once
// a measured.json is imported, what the GPU counted per source line), its source with the
// selected access's line marked, the footprint and occupancy, and the selected access's heat on
// its buffer's tile for a chosen warp and iteration.
//
// Reading, lowering, X-raying, comparing and drawing an instance run off the UI thread
// (LatestJob); every result carries the generation of the request it answers and a superseded
// one is dropped. Opening another kernel (or clear(), which File > New calls) empties every
// table, caption and number first; work over ~100 ms shows a progress row (a lowering: its
// elapsed time and Cancel, which stops the TileLang child). A failure is said in the panel, in
// one message naming the file, and changes nothing else.
//
// The panel knows nothing of the window: "Open layout" emits openLayoutRequested, which the
// window turns into a new layout of the project.
#pragma once

#include "common/latest_job.h"
#include "kernel/kernel_load.h"

#include <QString>
#include <QWidget>
#include <memory>

class QComboBox;
class QGroupBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSortFilterProxyModel;
class QSpinBox;
class QSplitter;
class QTableView;
class QTimer;

namespace tsw {

class AccessModel;
class BufferModel;
class GridView;
class ResultState;
class SourceView;

class KernelPanel : public QWidget {
    Q_OBJECT
public:
    explicit KernelPanel(QWidget* parent = nullptr);
    ~KernelPanel() override;

    // Opens a .cu or .py (off the UI thread); what the previous kernel showed is gone at once.
    void openKernel(const QString& path);
    // Reads a measured.json and fills the measured columns (off the UI thread).
    void importMeasured(const QString& path);
    // Nothing open: every table, caption and number emptied, running work dropped.
    void clear();
    // Drops the running load (a lowering's child is stopped); the panel is left empty.
    void cancel();
    bool busy() const;

    QString path() const { return path_; }
    // The load on screen (null while loading, after a failure or a clear).
    std::shared_ptr<const KernelLoad> load() const { return load_; }
    const ts::kernel::KernelXray* kernel() const;
    int kernelIndex() const { return kernel_; }
    QString errorText() const;  // the failure shown, empty when none
    QString statusText() const; // the line under the tables: notes, measurement summary

    // The access shown (index into the kernel's sites), -1 when none.
    int selectedSite() const { return site_; }
    void selectSite(int site); // selects its row (through the sorting)
    void setWarp(int warp);
    void setIteration(qint64 iteration);
    // Selects a buffer's row and opens its inferred layout (emits openLayoutRequested); false
    // when it has none.
    bool openBufferLayout(int buffer);
    // A .py is lowered for this target (changing it lowers the open .py again).
    void setArch(const QString& arch);
    QString arch() const;

    QComboBox* kernelBox() const { return kernelBox_; }
    QTableView* buffersView() const { return buffersView_; }
    QTableView* accessesView() const { return accessesView_; }
    BufferModel* bufferModel() const { return buffers_; }
    AccessModel* accessModel() const { return accesses_; }
    QSortFilterProxyModel* accessProxy() const { return accessProxy_; }
    SourceView* sourceView() const { return source_; }
    GridView* heatGrid() const { return grid_; }
    QSpinBox* warpSpin() const { return warpSpin_; }
    QSpinBox* iterationSpin() const { return iterSpin_; }
    QLabel* captionLabel() const { return caption_; }
    QLabel* headerLabel() const { return header_; }
    QLabel* footprintLabel() const { return footprint_; }
    QLabel* occupancyLabel() const { return occupancy_; }
    QLabel* measuredLabel() const { return measured_; }
    QLabel* totalsLabel() const { return totals_; }
    QPushButton* openLayoutButton() const { return openLayout_; }
    QPushButton* importButton() const { return importButton_; }
    QPushButton* cancelButton() const { return cancel_; }
    QWidget* progressRow() const { return progressRow_; }
    // The heat shown: the instance's result (null when none is shown).
    const HeatResult* heat() const { return heat_ ? &*heat_ : nullptr; }
    ResultState* heatState() const { return heatState_; }
    // What the heat grid's tooltip says about a cell: its coordinates, byte, bank, cost.
    QString cellToolTip(int row, int col) const;

public slots:
    void openKernelDialog();
    void importMeasuredDialog();
    void openSelectedLayout();

signals:
    // A buffer's inferred layout, to open in the editor as a new layout of the project.
    void openLayoutRequested(const QString& name, const QString& mappingText);
    // A load finished and is on screen (ok) or its failure is (not ok); not after a cancel.
    void kernelLoaded(bool ok);
    void measuredImported(bool ok);
    // The heat of the selected instance is on screen (or why there is none).
    void heatShown();

private:
    void startLoad(const QString& path, const QString& arch);
    void onLoaded(quint64 gen, std::shared_ptr<const KernelLoad> r);
    void showKernel(int index);
    void clearKernelViews(); // tables, source, summary, heat: nothing of the last kernel
    void onAccessSelected();
    void requestHeat();
    void onHeat(quint64 gen, HeatResult r);
    void clearHeat(const QString& message);
    // Frames the instance's rows (a new tile or access: zoom and scroll; the same access in
    // another warp or iteration: scrolls only when its cells are out of view).
    void focusInstance(bool reframe);
    void showError(const QString& message, const QString& context = {});
    void showProgress(const QString& text);
    void hideProgress();
    void updateSummary();
    void updateMeasuredColumns();
    void updateHeader();
    void updateStatus();

    // Inputs and what is on screen
    QString path_;
    QString lastDir_;
    QString python_; // a Python that imported tilelang, found once
    std::shared_ptr<const KernelLoad> load_;
    std::optional<MeasuredLoad> measuredLoad_;
    int kernel_ = -1;
    int site_ = -1;
    std::shared_ptr<const TileData> tile_;
    std::optional<HeatResult> heat_;
    int heat_site_ = -1; // the access the grid was last framed for
    QString error_;

    // Work
    quint64 loadGen_ = 0, measuredGen_ = 0;
    LatestJob<std::shared_ptr<const KernelLoad>> loadJob_;
    LatestJob<std::shared_ptr<const MeasuredLoad>> measuredJob_;
    LatestJob<HeatResult> heatJob_;
    std::shared_ptr<LoweringStopper> stopper_;
    QTimer* progressDelay_;
    QTimer* progressTick_;
    qint64 progressStarted_ = 0;
    QString progressText_;
    ResultState* heatState_;

    // Widgets
    QLabel *header_, *error_label_, *empty_, *notes_, *measured_, *caption_, *footprint_,
        *occupancy_, *iterLabel_, *progressLabel_, *totals_, *archLabel_;
    QComboBox *kernelBox_, *archBox_;
    QPushButton *openButton_, *importButton_, *openLayout_, *cancel_;
    QWidget *progressRow_, *content_;
    QProgressBar* progressBar_;
    QTableView *buffersView_, *accessesView_;
    BufferModel* buffers_;
    AccessModel* accesses_;
    QSortFilterProxyModel *bufferProxy_, *accessProxy_;
    SourceView* source_;
    GridView* grid_;
    QSpinBox *warpSpin_, *iterSpin_;
    QSplitter *split_, *rightSplit_;
    QWidget* fpBox_ = nullptr;
    QGroupBox* srcBox_ = nullptr;
    bool sized_ = false; // the columns got their first proportions
    void applyInitialSizes();

protected:
    bool eventFilter(QObject* o, QEvent* e) override;
};

} // namespace tsw
