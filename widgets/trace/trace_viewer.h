// SPDX-License-Identifier: Apache-2.0
// The inference-trace viewer: a list of a TileLang log's layout events in order, a grid
// for the selected inferred layout, and for a conflict both layouts side by side, aligned, with
// synchronised zoom/pan and hover, differing cells marked by kind, the counts and a plain
// summary. Live mode follows a growing log or runs a TileLang script (TraceImporter).
#pragma once

#include "grid/gridview.h"
#include "grid/panel_picture.h"
#include "tilescope/layout/layout_diff.h"
#include "trace/trace_importer.h"

#include <QAbstractListModel>
#include <QWidget>

class QLabel;
class QListView;
class QPlainTextEdit;
class QPushButton;
class QStackedWidget;
class QCheckBox;
class QProgressBar;
class QToolButton;
class QDockWidget;
class QMainWindow;
class QMenu;

namespace tsw {

class FeatureHost;

// Events in log order; repeats can be hidden.
class TraceEventModel : public QAbstractListModel {
    Q_OBJECT
public:
    enum Roles { KindRole = Qt::UserRole + 1, LineRole, ProblemRole, EventIndexRole };
    explicit TraceEventModel(QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;

    void clear();
    void append(const TraceEvents& events);
    void setHideRepeats(bool hide);
    bool hideRepeats() const { return hideRepeats_; }

    const ts::dump::Event& event(int row) const; // row of the visible list
    int eventCount() const { return int(all_.size()); }
    const std::vector<ts::dump::Event>& all() const { return all_; }
    int rowOfEvent(std::size_t eventIndex) const; // -1 if hidden
    static QString describe(const ts::dump::Event& e);

private:
    bool visible(const ts::dump::Event& e) const { return !hideRepeats_ || !e.repeatOf; }
    std::vector<ts::dump::Event> all_;
    std::vector<int> rows_; // visible row -> index into all_
    bool hideRepeats_ = true;
};

// The "differences" colouring of a comparison: differing cells in the colour of their kind
// (thread, slot, replica count, shape), agreeing cells in their own colour faded. A colour
// overlay, not marks painted on top, so labels stay readable and the overview aggregates it.
class DiffColorOverlay : public CellColorOverlay {
public:
    DiffColorOverlay(const ts::LayoutDiff& d, GridModel base);
    std::optional<QRgb> cellColor(int row, int col) const override;
    std::vector<LegendEntry> legend() const override;
    quint64 revision() const override { return revision_; }
    static QColor kindColor(std::uint8_t bits);

private:
    ts::LayoutDiff diff_;
    GridModel base_;
    quint64 revision_;
};

// Two grids side by side with a diff (shared by conflicts and by any A/B comparison).
class ComparisonView : public QWidget {
    Q_OBJECT
public:
    explicit ComparisonView(QWidget* parent = nullptr);
    // Throws nothing: a failed diff is shown as a message.
    void setLayouts(const ts::Mapping& a, const QString& nameA, const QString& textA,
                    const ts::Mapping& b, const QString& nameB, const QString& textB);
    void clear();

    GridView* left() const { return views_[0]; }
    GridView* right() const { return views_[1]; }
    const std::optional<ts::LayoutDiff>& diff() const { return diff_; }
    QString countsText() const;
    QString summaryText() const;
    // A sentence under the summary (why a conflict with equal layouts was raised); cleared by
    // setLayouts.
    void setNote(const QString& note);
    // The hover tooltip of cell (row, col), on either grid: both sides' threads and slots (or
    // offsets) and how they differ ("current T9 L6 / previous T40 L2"); comparison_tooltip.cpp.
    QString pairToolTip(int row, int col) const;
    // The label above a side's grid, as plain text ("current · acc (32, 32)").
    QString sideTitle(int side) const;

    // What the two grids show: each layout in its own colours, or where they differ. A new pair
    // starts on "layouts" when most cells differ (the differences would be a solid wash), else
    // on "differences".
    enum class Mode { Layouts, Differences };
    Mode mode() const { return mode_; }
    void setMode(Mode m);
    QToolButton* layoutsButton() const { return showLayouts_; }
    QToolButton* differencesButton() const { return showDiffs_; }

signals:
    void openInEditor(int side); // 0 left, 1 right

private:
    GridView* views_[2];
    QLabel* titles_[2];
    QLabel* counts_;
    QLabel* summary_;
    QPushButton* open_[2];
    QToolButton *showLayouts_, *showDiffs_;
    std::optional<ts::LayoutDiff> diff_;
    Mode mode_ = Mode::Differences;
    QString note_;
    QString sideNames_[2]; // "current", "loop": the first word of each side's label
    bool syncing_ = false;
};

class TraceViewer : public QWidget {
    Q_OBJECT
public:
    explicit TraceViewer(QWidget* parent = nullptr);

    TraceImporter* importer() const { return importer_; }
    TraceEventModel* model() const { return model_; }
    QListView* list() const { return list_; }
    ComparisonView* comparison() const { return comparison_; }
    GridView* singleView() const { return single_; }
    QStackedWidget* pages() const { return pages_; }
    bool busy() const { return importer_->state() != TraceImporter::State::Idle; }

    void openLog(const QString& path, bool follow = false);
    void runScript(const QString& python, const QString& script);
    // Selects the visible row holding event `eventIndex` (log order).
    bool selectEvent(std::size_t eventIndex);
    // The first event of a kind, or -1.
    int findEvent(ts::dump::EventKind kind) const;
    // The layout currently shown (single page: the layout; comparison: side 0 / 1).
    QString currentMappingText(int side = 0) const;
    QString currentLayoutName(int side = 0) const;
    QString statusText() const;
    // The interpreter Run Script uses: the one of Run ▸ Settings (resolvePython).
    static QString scriptPython(QString* origin = nullptr);
    // The line above the grid: the shown event's lines, source span and raising frame.
    QString contextLine() const;
    // What the right pane says when no event is shown: no log, none selected, or none in it.
    QString emptyText() const;
    // A line under the context line (what Open in Editor did); empty hides it. Cleared when
    // another event is shown.
    void showNotice(const QString& text);
    QString noticeText() const;
    // The shown comparison (both grids with their labels, counts and summary) or layout, for
    // Export Picture (trace_pictures.cpp); nullopt and *whyNot when no layout is shown.
    std::optional<PanelPicture> picture(QString* whyNot) const;

public slots:
    void openLogDialog();
    void runScriptDialog();
    void cancel();

protected:
    // Ctrl+0, Ctrl++ and Ctrl+- zoom this panel's grids while focus is in it, docked or
    // floating (trace_zoom_keys.cpp): the window's zoom actions would zoom the main grid.
    bool event(QEvent* e) override;
    void keyPressEvent(QKeyEvent* e) override;

signals:
    // Any layout: name (buffer/role) and mapping-language text, for the main window's editor.
    void openInEditor(const QString& name, const QString& mappingText);
    void importFinished(bool cancelled, const QString& error);

private:
    void onEvents(std::shared_ptr<const TraceEvents> ev);
    void showRow(int row);
    void updateStatus();
    void emitOpen(int side);
    // The conflict an exception's message reports (on its line), and that conflict's first
    // report.
    const ts::dump::Event* conflictOnLine(const ts::dump::Event& err) const;
    const ts::dump::Event* conflictOfError(const ts::dump::Event& err) const;
    const ts::dump::Event* errorOfConflict(const ts::dump::Event& conflict) const;
    QString contextText(const ts::dump::Event& shown, const ts::dump::Event* raisedBy) const;

    TraceImporter* importer_;
    TraceEventModel* model_;
    QListView* list_;
    QStackedWidget* pages_;
    QLabel* empty_;
    GridView* single_;
    QLabel* singleTitle_;
    QPlainTextEdit* text_;
    QPushButton* singleOpen_;
    ComparisonView* comparison_;
    QPlainTextEdit* message_;
    QLabel* status_;
    QLabel* context_;
    QLabel* notice_;
    QPushButton* cancel_;
    QCheckBox* follow_;
    QCheckBox* repeats_;
    QProgressBar* progress_;
    QString lastError_;
    // What is shown: names and mapping texts per side.
    QString shownName_[2], shownText_[2];
    bool autoSelected_ = false;
    qint64 restoreEvent_ = -1;  // event to select again after Follow re-reads the log
    qint64 keepEvent_ = -1;     // event selected across a rebuild of the list
    bool finishedOnce_ = false; // the current source was read to its end at least once
};

// Creates the Inference Trace dock (View ▸ Panels) in the host's window: its "open in editor"
// offers the layout to the project, and a TileLang script's output that another feature runs
// (FeatureBus::tileLangOutput) is read as a log. The window calls this once.
QDockWidget* installTraceDock(FeatureHost* host);

} // namespace tsw
