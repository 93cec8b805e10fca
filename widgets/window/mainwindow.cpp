// SPDX-License-Identifier: Apache-2.0
#include "window/mainwindow.h"
#include "common/install_paths.h"
#include "window/compare_dialog.h"

#include "banks/bank_docks.h"
#include "common/feature_bus.h"
#include "kernel/kernel_dock.h"
#include "run/measurement_import.h"

#include "common/dock_sizing.h"
#include "common/result_state.h"
#include "common/wording.h"
#include "document/documentmodel.h"
#include "document/layoutlistmodel.h"
#include "document/recent_files.h"
#include "document/recovery.h"
#include "editor/language_reference.h"
#include "editor/mappingeditor.h"
#include "grid/export_dialog.h"
#include "grid/export_job.h"
#include "grid/gridview.h"
#include "kernel/kernel_panel.h"
#include "run/run_panel.h"
#include "trace/sample_logs.h"
#include "trace/trace_viewer.h"
#include "window/detailspane.h"
#include "window/presenter.h"
#include "window/window_panels.h"

#include "tilescope/layout/builtins.h"
#include "tilescope/notation/mapping.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QListView>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QProgressDialog>
#include <QPushButton>
#include <QScreen>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QStyle>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>

namespace tsw {

namespace {
constexpr int kStateVersion = 4; // 4: the bottom panels share one tab group
constexpr int kMaxRecent = 10;
const char* kRecentKey = "recentFiles";
} // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setObjectName(QStringLiteral("MainWindow"));
    doc_ = new DocumentModel(this);
    bus_ = new FeatureBus(this);
    list_ = new LayoutListModel(doc_, this);
    eval_ = new LayoutEvaluator(this);
    recovery_ = new RecoveryManager(doc_, this);

    grid_ = new GridView(this);
    grid_->setObjectName(QStringLiteral("gridView"));
    setCentralWidget(grid_);
    editor_ = new MappingEditor(this);
    details_ = new DetailsPane(this);
    listView_ = new QListView(this);
    listView_->setObjectName(QStringLiteral("layoutList"));
    listView_->setModel(list_);
    listView_->setEditTriggers(QAbstractItemView::EditKeyPressed |
                               QAbstractItemView::DoubleClicked);
    listView_->setAlternatingRowColors(false);
    listView_->setSpacing(1);

    // The default size first: dock sizes below are set against it (and kept as the default
    // arrangement that Reset Panel Arrangement restores).
    resize(1440, 900);
    fitIntoScreen(this);
    createActions();
    createDocks();
    connectDocument();
    installRunUi(this);  // Run menu, toolbar button and dock (run_panel.h)
    new BankDocks(this); // Analysis menu: bank, UB, swizzle, fractal, rasterization docks
    presenter_ = new Presenter(this); // lesson steps, presenter mode (presenter.h)
    // Every panel, wherever its own menu entry lives, is listed in View > Panels and raised
    // when opened; Help stays the last menu whatever was added after it.
    setUpPanelsMenu(this, panelsMenu_);
    keepHelpMenuLast(this);
    // The tools docked below the grid share one tabbed area: side by side, two of them need
    // more width than a laptop screen has.
    tabifyArea(this, Qt::BottomDockWidgetArea);

    statusShape_ = new QLabel;
    statusShape_->setObjectName(QStringLiteral("statusShape"));
    statusEval_ = new QLabel;
    statusEval_->setObjectName(QStringLiteral("statusEval"));
    statusZoom_ = new QLabel;
    statusCell_ = new QLabel;
    statusCell_->setObjectName(QStringLiteral("statusCell"));
    statusCell_->setMinimumWidth(260);
    busyBar_ = new QProgressBar;
    busyBar_->setObjectName(QStringLiteral("evalBusy"));
    busyBar_->setRange(0, 0); // busy: no known end
    busyBar_->setMaximumSize(110, 14);
    busyBar_->setTextVisible(false);
    busyBar_->hide();
    statusBar()->addPermanentWidget(statusCell_);
    statusBar()->addPermanentWidget(statusShape_);
    statusBar()->addPermanentWidget(busyBar_);
    statusBar()->addPermanentWidget(statusEval_);
    statusBar()->addPermanentWidget(statusZoom_);

    // The grid, the status bar's layout summary and the details pane show one evaluation: they
    // are bound to its generation (see onResultState).
    gridState_ = new ResultState(this);
    gridState_->setOnError(ResultState::OnError::KeepDimmed);
    gridState_->setStaleDelayMs(-1); // the evaluator says when it is slow
    gridState_->addView(grid_, [this](bool on) { grid_->setDimmed(on); });
    connect(gridState_, &ResultState::stateChanged, this, &MainWindow::onResultState);

    setAcceptDrops(true);
    // The grid is the point of the window: panels docked below it start low.
    QList<QDockWidget*> bottom;
    for (auto* d : findChildren<QDockWidget*>())
        if (dockWidgetArea(d) == Qt::BottomDockWidgetArea && d->isVisibleTo(this)) bottom << d;
    if (!bottom.isEmpty()) resizeDocks(bottom, QList<int>(bottom.size(), 170), Qt::Vertical);
    defaultState_ = saveState(kStateVersion);
    restoreSettings();
    onActiveChanged();
    updateTitle();
}

MainWindow::~MainWindow() {
    // The document is a child, destroyed by ~QWidget after this class is gone; its undo stack
    // signals indexChanged while it clears, and the slots here would run on a half-destroyed
    // window.
    doc_->undoStack()->disconnect(this);
    doc_->disconnect(this);
}

// ---------------------------------------------------------------- construction

void MainWindow::createActions() {
    auto* st = style();
    auto act = [this](const QString& text, auto slot, QKeySequence key = {}) {
        auto* a = new QAction(text, this);
        if (!key.isEmpty()) a->setShortcut(key);
        connect(a, &QAction::triggered, this, slot);
        return a;
    };
    // File.
    QMenu* file = fileMenu_ = menuBar()->addMenu(QStringLiteral("&File"));
    auto* newAct = act(QStringLiteral("&New"), &MainWindow::newDocument, QKeySequence::New);
    newAct->setIcon(st->standardIcon(QStyle::SP_FileIcon));
    auto* openAct = act(QStringLiteral("&Open…"), &MainWindow::open, QKeySequence::Open);
    openAct->setIcon(st->standardIcon(QStyle::SP_DialogOpenButton));
    auto* saveAct = act(QStringLiteral("&Save"), &MainWindow::save, QKeySequence::Save);
    saveAct->setIcon(st->standardIcon(QStyle::SP_DialogSaveButton));
    // QKeySequence::SaveAs is empty on some platforms (the generic and offscreen themes).
    auto* saveAsAct = act(QStringLiteral("Save &As…"), &MainWindow::saveAs,
                          QKeySequence(QStringLiteral("Ctrl+Shift+S")));
    auto* exportAct = act(QStringLiteral("&Export View…"), &MainWindow::exportViewDialog,
                          QKeySequence(QStringLiteral("Ctrl+E")));
    exportAct->setObjectName(QStringLiteral("exportViewAction"));
    file->addAction(newAct);
    file->addAction(openAct);
    file->addAction(act(QStringLiteral("Open &Kernel…"), [this] { openKernel(QString()); }));
    recentMenu_ = file->addMenu(QStringLiteral("Open &Recent"));
    samplesMenu_ = file->addMenu(QStringLiteral("Sa&mples"));
    sampleLogsMenu_ = file->addMenu(QStringLiteral("Sample &Logs"));
    file->addSeparator();
    file->addAction(saveAct);
    file->addAction(saveAsAct);
    file->addSeparator();
    file->addAction(exportAct);
    file->addSeparator();
    file->addAction(act(QStringLiteral("&Quit"), &QWidget::close, QKeySequence::Quit));

    // Edit.
    QMenu* edit = menuBar()->addMenu(QStringLiteral("&Edit"));
    undoAct_ = doc_->undoStack()->createUndoAction(this, QStringLiteral("&Undo"));
    undoAct_->setShortcut(QKeySequence::Undo);
    undoAct_->setIcon(st->standardIcon(QStyle::SP_ArrowBack));
    redoAct_ = doc_->undoStack()->createRedoAction(this, QStringLiteral("&Redo"));
    redoAct_->setShortcut(QKeySequence::Redo);
    redoAct_->setIcon(st->standardIcon(QStyle::SP_ArrowForward));
    edit->addAction(undoAct_);
    edit->addAction(redoAct_);
    // The toolbar's buttons keep short labels (the menu's text grows with the command's name and
    // made the toolbar reflow); the full text is in their tooltips.
    QUndoStack* stack = doc_->undoStack();
    undoTbAct_ = new QAction(st->standardIcon(QStyle::SP_ArrowBack), QStringLiteral("Undo"), this);
    undoTbAct_->setObjectName(QStringLiteral("undoToolbarAction"));
    redoTbAct_ =
        new QAction(st->standardIcon(QStyle::SP_ArrowForward), QStringLiteral("Redo"), this);
    redoTbAct_->setObjectName(QStringLiteral("redoToolbarAction"));
    connect(undoTbAct_, &QAction::triggered, stack, &QUndoStack::undo);
    connect(redoTbAct_, &QAction::triggered, stack, &QUndoStack::redo);
    auto syncUndoButtons = [this, stack] {
        undoTbAct_->setEnabled(stack->canUndo());
        redoTbAct_->setEnabled(stack->canRedo());
        const QString u = undoAct_->shortcut().toString(QKeySequence::NativeText);
        const QString r = redoAct_->shortcut().toString(QKeySequence::NativeText);
        undoTbAct_->setToolTip(stack->canUndo()
                                   ? QStringLiteral("Undo %1 (%2)").arg(stack->undoText(), u)
                                   : QStringLiteral("Nothing to undo"));
        redoTbAct_->setToolTip(stack->canRedo()
                                   ? QStringLiteral("Redo %1 (%2)").arg(stack->redoText(), r)
                                   : QStringLiteral("Nothing to redo"));
    };
    connect(stack, &QUndoStack::indexChanged, this, syncUndoButtons);
    connect(stack, &QUndoStack::cleanChanged, this, syncUndoButtons);
    syncUndoButtons();
    edit->addSeparator();
    auto* copyAct = act(QStringLiteral("&Copy as TileLang Code"), &MainWindow::copyAsTileLang,
                        QKeySequence(QStringLiteral("Ctrl+Shift+C")));
    edit->addAction(copyAct);
    edit->addAction(act(QStringLiteral("Copy as C&uTe"), &MainWindow::copyAsCuTe));
    edit->addAction(act(QStringLiteral("Copy as T&riton LinearLayout"), &MainWindow::copyAsTriton));
    edit->addAction(act(QStringLiteral("Co&mpare Layouts…"), &MainWindow::compareLayouts));
    edit->addSeparator();
    edit->addAction(act(QStringLiteral("New &Layout"), &MainWindow::addLayout,
                        QKeySequence(QStringLiteral("Ctrl+T"))));
    edit->addAction(act(
        QStringLiteral("&Duplicate Layout"), [this] { doc_->duplicateLayout(doc_->active()); },
        QKeySequence(QStringLiteral("Ctrl+D"))));
    edit->addAction(act(
        QStringLiteral("Re&name Layout"), [this] { listView_->edit(list_->index(doc_->active())); },
        QKeySequence(Qt::Key_F2)));
    // Del deletes a layout only while the Layouts list has focus (elsewhere it edits text).
    auto* delAct = act(
        QStringLiteral("Dele&te Layout"), [this] { doc_->removeLayout(doc_->active()); },
        QKeySequence(QKeySequence::Delete));
    delAct->setObjectName(QStringLiteral("deleteLayoutAction"));
    delAct->setShortcutContext(Qt::WidgetShortcut);
    listView_->addAction(delAct);
    edit->addAction(delAct);

    // View.
    QMenu* view = menuBar()->addMenu(QStringLiteral("&View"));
    viewGroup_ = new QActionGroup(this);
    const std::pair<QString, ViewMode> views[] = {
        {QStringLiteral("&Input View"), ViewMode::Input},
        {QStringLiteral("&Output View"), ViewMode::Output}};
    for (const auto& [name, v] : views) {
        auto* a = new QAction(name, viewGroup_);
        a->setCheckable(true);
        a->setData(int(v));
        a->setToolTip(
            v == ViewMode::Input
                ? QStringLiteral("Logical cells, labelled with their physical offset (Layouts)")
                : QStringLiteral(
                      "Physical cells, labelled with their source coordinates (Layouts)"));
        connect(a, &QAction::triggered, this, [this, v = v] { setViewMode(v); });
        view->addAction(a);
    }
    view->addSeparator();
    colorGroup_ = new QActionGroup(this);
    QMenu* colorMenu = view->addMenu(QStringLiteral("&Colour By"));
    const std::pair<QString, ColorMode> colors[] = {
        {QStringLiteral("Thread"), ColorMode::Thread},
        {QStringLiteral("Warp"), ColorMode::Warp},
        {QStringLiteral("Slot"), ColorMode::Slot},
        {QStringLiteral("Replica"), ColorMode::Replica}};
    int key = 1;
    for (const auto& [name, c] : colors) {
        auto* a = new QAction(name, colorGroup_);
        a->setCheckable(true);
        a->setData(int(c));
        a->setShortcut(QKeySequence(QStringLiteral("Ctrl+%1").arg(key++)));
        connect(a, &QAction::triggered, this, [this, c = c] { setColorMode(c); });
        colorMenu->addAction(a);
    }
    view->addSeparator();
    auto* zin = act(
        QStringLiteral("Zoom &In"), [this] { grid_->zoomIn(); }, QKeySequence::ZoomIn);
    auto* zout = act(
        QStringLiteral("Zoom &Out"), [this] { grid_->zoomOut(); }, QKeySequence::ZoomOut);
    auto* zfit = act(
        QStringLiteral("Zoom to &Fit"), [this] { grid_->zoomToFit(); },
        QKeySequence(QStringLiteral("Ctrl+0")));
    view->addAction(zin);
    view->addAction(zout);
    view->addAction(zfit);
    legendAct_ = new QAction(QStringLiteral("Show &Legend"), this);
    legendAct_->setCheckable(true);
    legendAct_->setChecked(true);
    connect(legendAct_, &QAction::toggled, grid_, &GridView::setLegendVisible);
    view->addAction(legendAct_);
    view->addSeparator();
    panelsMenu_ = view->addMenu(QStringLiteral("&Panels"));
    view->addAction(act(QStringLiteral("&Reset Panel Arrangement"), [this] { resetPanels(); }));

    // Help.
    QMenu* help = menuBar()->addMenu(QStringLiteral("&Help"));
    helpSamplesMenu_ = help->addMenu(QStringLiteral("&Samples"));
    helpSampleLogsMenu_ = help->addMenu(QStringLiteral("Sample &Logs"));
    help->addAction(act(
        QStringLiteral("&Mapping Language"), [this] { LanguageReference::showFor(this); },
        QKeySequence(QKeySequence::HelpContents)));
    help->addAction(act(QStringLiteral("&About Tilescope"), [this] {
        QMessageBox::about(this, QStringLiteral("About Tilescope"),
                           QStringLiteral("<b>Tilescope %1</b><br>An explorer of TileLang GPU tile "
                                          "layouts.")
                               .arg(QStringLiteral(TILESCOPE_VERSION)));
    }));
    rebuildRecentMenu();
    rebuildSamplesMenu(samplesMenu_);
    rebuildSamplesMenu(helpSamplesMenu_);
    // TileLang compiler logs, opened in the Trace panel (the installed app has no source tree to
    // browse to them; they are embedded with the samples).
    for (QMenu* m : {sampleLogsMenu_, helpSampleLogsMenu_})
        fillSampleLogsMenu(m, samplesDirectory(),
                           [this](const QString& path) { openTraceLog(path, false); });

    // Toolbar.
    QToolBar* tb = toolBar_ = addToolBar(QStringLiteral("Main"));
    tb->setObjectName(QStringLiteral("mainToolbar"));
    tb->setMovable(false);
    tb->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    tb->setIconSize(QSize(16, 16));
    tb->addAction(newAct);
    tb->addAction(openAct);
    tb->addAction(saveAct);
    tb->addSeparator();
    tb->addAction(undoTbAct_);
    tb->addAction(redoTbAct_);
    tb->addSeparator();
    auto* vlabel = new QLabel(QStringLiteral("  View "));
    vlabel->setStyleSheet(QStringLiteral("color: #6b7280;"));
    tb->addWidget(vlabel);
    for (auto* a : viewGroup_->actions())
        tb->addAction(a);
    tb->addSeparator();
    auto* clabel = new QLabel(QStringLiteral("  Colour "));
    clabel->setStyleSheet(QStringLiteral("color: #6b7280;"));
    tb->addWidget(clabel);
    for (auto* a : colorGroup_->actions())
        tb->addAction(a);
    tb->addSeparator();
    tb->addAction(zfit);
    tb->addAction(copyAct);
    tb->addAction(exportAct);
}

void MainWindow::createDocks() {
    setDockNestingEnabled(true);
    auto dock = [this](const QString& title, const QString& name, QWidget* w,
                       Qt::DockWidgetArea area) {
        auto* d = new QDockWidget(title, this);
        d->setObjectName(name);
        d->setWidget(w);
        d->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable |
                       QDockWidget::DockWidgetClosable);
        addDockWidget(area, d);
        panelsMenu_->addAction(d->toggleViewAction());
        return d;
    };
    auto* layouts = dock(QStringLiteral("Layouts"), QStringLiteral("layoutsDock"), listView_,
                         Qt::LeftDockWidgetArea);
    auto* ed = dock(QStringLiteral("Mapping"), QStringLiteral("editorDock"), editor_,
                    Qt::LeftDockWidgetArea);
    auto* det = dock(QStringLiteral("Details"), QStringLiteral("detailsDock"), details_,
                     Qt::RightDockWidgetArea);
    // The feature libraries, each with its docks (hidden until opened from View ▸ Panels): the
    // inference trace of compiler logs and the kernel X-ray. A layout one of them offers
    // becomes a layout of the project, made active, and the status bar says where it came from.
    traceViewer_ = qobject_cast<TraceViewer*>(installTraceDock(this)->widget());
    kernelPanel_ = installKernelDock(this);
    connect(bus_, &FeatureBus::openLayoutRequested, this,
            [this](const QString& name, const QString& text, const QString& origin) {
                ts::DocLayout l;
                l.name = name.toStdString();
                l.text = text.toStdString();
                doc_->addLayout(l);
                statusBar()->showMessage(
                    QStringLiteral("Added «%1» from %2 to the project").arg(name, origin), 4000);
            });
    splitDockWidget(layouts, ed, Qt::Vertical);
    resizeDocks({layouts, ed}, {180, 420}, Qt::Vertical);
    resizeDocks({layouts, det}, {400, 250}, Qt::Horizontal);
}

void MainWindow::openTraceLog(const QString& path, bool follow) {
    if (auto* dock = qobject_cast<QDockWidget*>(traceViewer_->parentWidget())) {
        dock->show();
        dock->raise();
    }
    traceViewer_->openLog(path, follow);
}

void MainWindow::openKernel(const QString& path) {
    if (auto* dock = qobject_cast<QDockWidget*>(kernelPanel_->parentWidget())) {
        dock->show();
        dock->raise();
    }
    if (path.isEmpty())
        kernelPanel_->openKernelDialog();
    else
        kernelPanel_->openKernel(path);
}

void MainWindow::connectDocument() {
    connect(doc_, &DocumentModel::activeChanged, this, &MainWindow::onActiveChanged);
    connect(doc_, &DocumentModel::activeChanged, this, &MainWindow::dropLayoutMessage);
    connect(doc_, &DocumentModel::documentReset, this, &MainWindow::dropLayoutMessage);
    connect(doc_, &DocumentModel::documentReset, this, [this] {
        shownLayout_ = -1;
        onActiveChanged();
        updateTitle();
    });
    connect(doc_, &DocumentModel::textChanged, this, [this](int i) {
        if (i != doc_->active()) return;
        dropLayoutMessage();
        editor_->setText(QString::fromStdString(doc_->layout(i).text));
        requestEvaluation(false);
    });
    connect(doc_, &DocumentModel::viewChanged, this, [this](int i) {
        if (i != doc_->active()) return;
        updateViewActions();
        requestEvaluation(true);
    });
    connect(doc_, &DocumentModel::dirtyChanged, this, &MainWindow::updateTitle);
    connect(doc_, &DocumentModel::filePathChanged, this, &MainWindow::updateTitle);
    connect(editor_, &MappingEditor::textEdited, this,
            [this](const QString& t) { doc_->setText(doc_->active(), t, true); });
    connect(listView_->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex& ix) {
                if (ix.isValid()) doc_->setActive(ix.row());
            });
    connect(eval_, &LayoutEvaluator::finished, this, &MainWindow::onEvaluated);
    connect(eval_, &LayoutEvaluator::slow, this, [this] { gridState_->markStale(); });
    connect(grid_, &GridView::cellHovered, this, [this](int r, int c) {
        const CellInfo info = grid_->model().info(r, c);
        details_->setCell(info);
        statusCell_->setText(
            info.valid ? QStringLiteral("cell %1   %2").arg(info.logical, info.label) : QString());
    });
    connect(grid_, &GridView::highlightChanged, this, [this](const Highlight& h) {
        if (!h.active()) {
            details_->setHighlight({});
            return;
        }
        int n = 0;
        const GridModel& m = grid_->model();
        for (int r = 0; r < m.rows(); ++r)
            for (int c = 0; c < m.cols(); ++c)
                n += m.matches(r, c, h);
        details_->setHighlight(
            QStringLiteral("%1: %2").arg(m.describe(h), countNoun(n, QStringLiteral("cell"))));
    });
    connect(grid_, &GridView::zoomRelativeChanged, this, [this] { updateStatus(); });
}

// ---------------------------------------------------------------- settings

void MainWindow::restoreSettings() {
    QSettings s;
    const QByteArray geo = s.value(QStringLiteral("window/geometry")).toByteArray();
    if (!geo.isEmpty())
        restoreGeometry(geo);
    else
        resize(1440, 900);
    // A geometry saved on a larger monitor, or the default on a small screen, fits the screen.
    fitIntoScreen(this);
    restoreState(s.value(QStringLiteral("window/state")).toByteArray(), kStateVersion);
    legendAct_->setChecked(s.value(QStringLiteral("view/legend"), true).toBool());
}

void MainWindow::saveSettings() {
    QSettings s;
    s.setValue(QStringLiteral("window/geometry"), saveGeometry());
    s.setValue(QStringLiteral("window/state"), saveState(kStateVersion));
    s.setValue(QStringLiteral("view/legend"), legendAct_->isChecked());
}

QStringList MainWindow::recentFiles() const {
    return QSettings().value(QLatin1String(kRecentKey)).toStringList();
}

void MainWindow::addRecent(const QString& path) {
    QSettings().setValue(QLatin1String(kRecentKey), addRecentPath(recentFiles(), path, kMaxRecent));
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu() {
    recentMenu_->clear();
    // Lists written before paths were made canonical may hold two spellings of one file.
    const QStringList r = dedupeRecentPaths(recentFiles());
    const QStringList labels = recentLabels(r);
    for (int k = 0; k < r.size(); ++k) {
        const QString p = r[k];
        auto* a = recentMenu_->addAction(labels[k]);
        a->setToolTip(p);
        a->setStatusTip(p);
        connect(a, &QAction::triggered, this, [this, p] {
            if (maybeSave()) openFile(p);
        });
    }
    if (!r.isEmpty()) {
        recentMenu_->addSeparator();
        recentMenu_->addAction(QStringLiteral("Clear List"), this, [this] {
            QSettings().remove(QLatin1String(kRecentKey));
            rebuildRecentMenu();
        });
    }
    recentMenu_->setEnabled(!r.isEmpty());
}

QString MainWindow::samplesDirectory() {
    // TILESCOPE_SAMPLES_DIR, then the checkout's samples while running from its build tree (so
    // edits show), then the installed ones (/usr/share/tilescope/samples, which the CLI reads
    // too), then the copies embedded in the binary.
    const QByteArray env = qgetenv("TILESCOPE_SAMPLES_DIR");
    QStringList candidates;
    if (!env.isEmpty()) candidates << QString::fromLocal8Bit(env);
    if (const QString src = sourceTreeDir(); !src.isEmpty())
        candidates << src + QStringLiteral("/samples");
    if (const QString installed = installedSamplesDir(); !installed.isEmpty())
        candidates << installed;
    for (const QString& c : candidates)
        if (QDir(c).exists() && !QDir(c).entryList({QStringLiteral("*.tilescope.json")}).isEmpty())
            return QDir(c).canonicalPath();
    return embeddedSamplesDir();
}

QString MainWindow::saveAsStart(const QString& docPath, const QString& samplesDir,
                                const QStringList& recent) {
    const QString name = docPath.isEmpty() ? QStringLiteral("untitled.tilescope.json")
                                           : QFileInfo(docPath).fileName();
    const bool sample =
        docPath.startsWith(QLatin1Char(':')) ||
        (!samplesDir.isEmpty() && docPath.startsWith(samplesDir + QLatin1Char('/')));
    if (!docPath.isEmpty() && !sample) return docPath;
    // A sample (or a new project) is saved as the user's own: where the last project was, else
    // the documents folder, never the resources or the bare working directory.
    for (const QString& r : recent) {
        if (r.startsWith(QLatin1Char(':')) ||
            (!samplesDir.isEmpty() && r.startsWith(samplesDir + QLatin1Char('/'))))
            continue;
        const QFileInfo dir(QFileInfo(r).absolutePath());
        if (dir.isDir() && dir.isWritable()) return QDir(dir.absoluteFilePath()).filePath(name);
    }
    QString docs = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    if (docs.isEmpty()) docs = QDir::homePath();
    return QDir(docs).filePath(name);
}

QString MainWindow::sampleTitle(const QString& path) {
    // The project's own "title"; else its file name made readable ("swizzles" -> "Swizzles").
    QFile f(path);
    if (f.open(QIODevice::ReadOnly) && f.size() < (1 << 20)) {
        const QString t = QJsonDocument::fromJson(f.readAll())
                              .object()
                              .value(QStringLiteral("title"))
                              .toString()
                              .trimmed();
        if (!t.isEmpty()) return t;
    }
    QString title = QFileInfo(path).fileName();
    if (title.endsWith(QLatin1String(".tilescope.json")))
        title.chop(int(QStringLiteral(".tilescope.json").size()));
    title.replace(QLatin1Char('_'), QLatin1Char(' '));
    title.replace(QLatin1Char('-'), QLatin1Char(' '));
    if (!title.isEmpty()) title[0] = title[0].toUpper();
    return title;
}

void MainWindow::rebuildSamplesMenu(QMenu* m) {
    m->clear();
    const QString dir = samplesDirectory();
    const QStringList files =
        dir.isEmpty()
            ? QStringList()
            : QDir(dir).entryList({QStringLiteral("*.tilescope.json")}, QDir::Files, QDir::Name);
    // Sorted by the titles the menu shows.
    QList<QPair<QString, QString>> entries;
    for (const QString& f : files)
        entries.append({sampleTitle(dir + QLatin1Char('/') + f), f});
    std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) {
        return QString::localeAwareCompare(a.first, b.first) < 0;
    });
    for (const auto& [title, f] : entries) {
        auto* a = m->addAction(title);
        const QString path = dir + QLatin1Char('/') + f;
        a->setToolTip(path);
        connect(a, &QAction::triggered, this, [this, path] {
            if (maybeSave()) openFile(path);
        });
    }
    m->setEnabled(!files.isEmpty());
}

// ---------------------------------------------------------------- documents

void MainWindow::updateTitle() {
    setWindowTitle(QStringLiteral("%1[*] — Tilescope").arg(doc_->displayName()));
    setWindowModified(doc_->isDirty());
}

void MainWindow::showError(const QString& title, const QString& text) {
    lastError_ = text;
    statusBar()->showMessage(text, 8000);
    if (QGuiApplication::platformName() == QLatin1String("offscreen") &&
        qEnvironmentVariableIsSet("TILESCOPE_NO_DIALOGS"))
        return;
    auto* box = new QMessageBox(QMessageBox::Warning, title, text, QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setObjectName(QStringLiteral("errorDialog"));
    box->open();
}

bool MainWindow::maybeSave() {
    if (!doc_->isDirty() || !confirmOnClose_) return true;
    // Own buttons: the standard ones carry no mnemonics on every platform (Alt+D must discard).
    QMessageBox box(QMessageBox::Warning, QStringLiteral("Unsaved changes"),
                    QStringLiteral("“%1” has unsaved changes. Save them?").arg(doc_->displayName()),
                    QMessageBox::NoButton, this);
    box.setObjectName(QStringLiteral("unsavedChangesDialog"));
    QPushButton* saveB = box.addButton(QStringLiteral("&Save"), QMessageBox::AcceptRole);
    QPushButton* discardB = box.addButton(QStringLiteral("&Discard"), QMessageBox::DestructiveRole);
    QPushButton* cancelB = box.addButton(QStringLiteral("Cancel"), QMessageBox::RejectRole);
    box.setDefaultButton(saveB);
    box.setEscapeButton(cancelB);
    box.exec();
    if (box.clickedButton() == saveB) return save();
    if (box.clickedButton() == discardB) {
        recovery_->clear();
        return true;
    }
    return false;
}

void MainWindow::newDocument() {
    if (!maybeSave()) return;
    doc_->newDocument();
    recovery_->clear();
    kernelPanel_->clear(); // a new start: no kernel of the last session stays on screen
}

void MainWindow::open() {
    if (!maybeSave()) return;
    const QString start = doc_->filePath().isEmpty() ? dialogStartDir(samplesDirectory())
                                                     : QFileInfo(doc_->filePath()).absolutePath();
    const QString path = QFileDialog::getOpenFileName(
        this, QStringLiteral("Open project"), start,
        QStringLiteral("Tilescope projects (*.tilescope.json *.json);;All files (*)"));
    if (!path.isEmpty()) openFile(path);
}

bool MainWindow::openFile(const QString& path) {
    QString err;
    if (!doc_->load(path, &err)) {
        showError(QStringLiteral("Cannot open project"),
                  QStringLiteral("Tilescope could not open this file; nothing was changed.\n\n%1")
                      .arg(err));
        return false;
    }
    recovery_->clear();
    addRecent(path);
    // A sample lives in the program's resources (":/tilescope/samples/…"): its title says which.
    const QString samples = samplesDirectory();
    statusBar()->showMessage(!samples.isEmpty() && path.startsWith(samples + QLatin1Char('/'))
                                 ? QStringLiteral("Opened the sample “%1”").arg(sampleTitle(path))
                                 : QStringLiteral("Opened %1").arg(QDir::toNativeSeparators(path)),
                             4000);
    return true;
}

bool MainWindow::openFileAskingToSave(const QString& path) {
    return maybeSave() && openFile(path);
}

bool MainWindow::saveFile(const QString& path) {
    QString err;
    if (!doc_->save(path, &err)) {
        showError(QStringLiteral("Cannot save project"), err);
        return false;
    }
    recovery_->clear();
    addRecent(path);
    statusBar()->showMessage(QStringLiteral("Saved %1").arg(path), 4000);
    return true;
}

bool MainWindow::save() {
    if (doc_->filePath().isEmpty() ||
        doc_->filePath().startsWith(samplesDirectory() + QLatin1Char('/')))
        return saveAs();
    return saveFile(doc_->filePath());
}

bool MainWindow::saveAs() {
    QString path = QFileDialog::getSaveFileName(
        this, QStringLiteral("Save project"),
        saveAsStart(doc_->filePath(), samplesDirectory(), recentFiles()),
        QStringLiteral("Tilescope projects (*.tilescope.json)"));
    if (path.isEmpty()) return false;
    if (!path.endsWith(QLatin1String(".json"))) path += QStringLiteral(".tilescope.json");
    return saveFile(path);
}

bool MainWindow::recoverFrom(const RecoveryEntry& e) {
    QFile f(e.file);
    if (!f.open(QIODevice::ReadOnly)) return false;
    try {
        const ts::Document d = ts::parseDocument(f.readAll().toStdString(), e.file.toStdString());
        doc_->replaceDocument(d, e.original, true);
        RecoveryManager::discard(e);
        recovery_->autosaveNow();
        statusBar()->showMessage(
            QStringLiteral("Recovered unsaved work from %1").arg(e.saved.toString()), 6000);
        return true;
    } catch (const std::exception& ex) {
        showError(QStringLiteral("Cannot recover"), QString::fromUtf8(ex.what()));
        return false;
    }
}

void MainWindow::offerRecovery() {
    const QList<RecoveryEntry> entries = RecoveryManager::pending();
    if (entries.isEmpty()) return;
    const RecoveryEntry& e = entries.first();
    QMessageBox box(QMessageBox::Question, QStringLiteral("Recover unsaved work?"),
                    QStringLiteral("Tilescope did not shut down cleanly. Unsaved work of “%1” was "
                                   "autosaved at %2.\n\nRecover it?")
                        .arg(e.original.isEmpty() ? QStringLiteral("Untitled")
                                                  : QFileInfo(e.original).fileName(),
                             e.saved.toString(QStringLiteral("yyyy-MM-dd hh:mm:ss"))),
                    QMessageBox::NoButton, this);
    auto* rec = box.addButton(QStringLiteral("&Recover"), QMessageBox::AcceptRole);
    auto* dis = box.addButton(QStringLiteral("&Discard"), QMessageBox::DestructiveRole);
    box.addButton(QStringLiteral("&Later"), QMessageBox::RejectRole);
    box.exec();
    if (box.clickedButton() == static_cast<QAbstractButton*>(rec))
        recoverFrom(e);
    else if (box.clickedButton() == static_cast<QAbstractButton*>(dis))
        for (const auto& x : entries)
            RecoveryManager::discard(x);
}

// Nobody may be there to answer a prompt (the bridge's terminate(), a session ending), and one
// would keep the process alive until it is killed outright. The panel arrangement is kept, as on
// any quit; nothing is saved to the project that the user did not save. Unsaved edits stay in
// the autosave for the next start to offer; a document without any (a layout handed in by the
// bridge is not an edit: DocumentModel::receiveLayout) leaves nothing to recover.
void MainWindow::endSession() {
    saveSettings();
    recovery_->endSession();
}

void MainWindow::closeEvent(QCloseEvent* e) {
    if (!maybeSave()) {
        e->ignore();
        return;
    }
    saveSettings();
    if (!doc_->isDirty() || confirmOnClose_) recovery_->clear();
    e->accept();
}

// Drops are always copies: a move would make the source (the mapping editor, a file manager)
// delete what it handed over.
void MainWindow::dragEnterEvent(QDragEnterEvent* e) {
    if (!(e->mimeData()->hasUrls() || e->mimeData()->hasText()) ||
        !(e->possibleActions() & Qt::CopyAction))
        return;
    e->setDropAction(Qt::CopyAction);
    e->accept();
}

void MainWindow::dragMoveEvent(QDragMoveEvent* e) {
    if (!(e->mimeData()->hasUrls() || e->mimeData()->hasText()) ||
        !(e->possibleActions() & Qt::CopyAction))
        return;
    e->setDropAction(Qt::CopyAction);
    e->accept();
}

void MainWindow::dropEvent(QDropEvent* e) {
    const QMimeData* m = e->mimeData();
    if (m->hasUrls()) {
        for (const QUrl& u : m->urls())
            if (u.isLocalFile()) {
                e->setDropAction(Qt::CopyAction);
                e->accept();
                // Probe results (measured elsewhere) go into the Run history, not open as a
                // project.
                QStringList results;
                for (const QUrl& r : m->urls())
                    if (r.isLocalFile() && isProbeResultFile(r.toLocalFile()))
                        results << r.toLocalFile();
                if (!results.isEmpty()) {
                    importMeasurements(this, results);
                    return;
                }
                if (maybeSave()) openFile(u.toLocalFile());
                return;
            }
    }
    if (m->hasText()) {
        // Dropped code becomes the active layout's mapping (undoable).
        e->setDropAction(Qt::CopyAction);
        e->accept();
        doc_->setText(doc_->active(), m->text().trimmed());
    }
}

void MainWindow::addLayout() {
    ts::DocLayout l;
    // A name that says nothing the text can change (its kind or shape would go stale at the
    // first edit); made unique ("new layout 2") by the document.
    l.name = "new layout";
    l.text = "T.Fragment([16, 16], forward_thread_fn=lambda i, j: i % 8 * 4 + j // 4, "
             "forward_index_fn=lambda i, j: i // 8 * 4 + j % 4)";
    doc_->addLayout(l);
}

void MainWindow::compareLayouts() {
    if (!compare_) compare_ = new CompareDialog(doc_, this);
    compare_->showDefaultPair();
    compare_->show();
    compare_->raise();
}

void MainWindow::copyAsCuTe() {
    copyConversion(QStringLiteral("CuTe"), &ts::toCuTe);
}

void MainWindow::copyAsTriton() {
    copyConversion(QStringLiteral("Triton LinearLayout"), &ts::toTritonLinear);
}

void MainWindow::showLayoutMessage(const QString& text, int ms) {
    layoutMessage_ = text;
    statusBar()->showMessage(text, ms);
}

void MainWindow::dropLayoutMessage() {
    // A message about the layout as it was ("Not copied: …") is wrong about the new text.
    if (!layoutMessage_.isEmpty() && statusBar()->currentMessage() == layoutMessage_)
        statusBar()->clearMessage();
    layoutMessage_.clear();
}

void MainWindow::copyConversion(const QString& target,
                                ts::Conversion (*convert)(const ts::Mapping&)) {
    if (!mapping_) {
        showLayoutMessage(QStringLiteral("No valid layout to copy as %1").arg(target), 6000);
        return;
    }
    try {
        const ts::Conversion c = convert(*mapping_);
        QApplication::clipboard()->setText(QString::fromStdString(c.text));
        showLayoutMessage(QStringLiteral("Copied as %1%2")
                              .arg(target, c.note.empty() ? QString()
                                                          : QStringLiteral(" (%1)").arg(
                                                                QString::fromStdString(c.note))),
                          c.note.empty() ? 3000 : 10000);
    } catch (const std::exception& e) {
        showLayoutMessage(QStringLiteral("Not copied: no exact %1 form: %2")
                              .arg(target, QString::fromUtf8(e.what())),
                          10000);
    }
}

void MainWindow::copyAsTileLang() {
    QString code;
    if (mapping_) {
        try {
            code = QString::fromStdString(ts::toTileLangCode(*mapping_));
        } catch (const std::exception& e) {
            showLayoutMessage(QString::fromUtf8(e.what()), 6000);
        }
    }
    if (code.isEmpty()) code = editor_->text();
    QApplication::clipboard()->setText(code);
    showLayoutMessage(QStringLiteral("Copied TileLang code to the clipboard"), 3000);
}

bool MainWindow::exportView(const QString& path, double scale) {
    if (grid_->model().isEmpty()) {
        showError(QStringLiteral("Nothing to export"),
                  QStringLiteral("There is no valid layout to export."));
        return false;
    }
    GridRenderer::Style s;
    s.legendInScene = true;
    s.exportPage = true;
    GridRenderer r(grid_->model(), s);
    r.setHighlight(grid_->highlight());
    QString err;
    if (!r.exportFile(path, &err, scale)) {
        showError(QStringLiteral("Export failed"), err);
        return false;
    }
    statusBar()->showMessage(QStringLiteral("Exported %1").arg(path), 4000);
    return true;
}

QString MainWindow::exportStartDirectory() const {
    // The project's folder; for a sample (read-only, shipped) or an untitled project the folder of
    // the last export, else home.
    const QString path = doc_->filePath();
    if (!path.isEmpty() && !path.startsWith(samplesDirectory() + '/') &&
        !path.startsWith(QLatin1Char(':')))
        return QFileInfo(path).absolutePath();
    const QString last = QSettings().value(QStringLiteral("export/lastDir")).toString();
    return !last.isEmpty() && QFileInfo(last).isDir() ? last : QDir::homePath();
}

void MainWindow::exportViewDialog() {
    if (exportJob_ && exportJob_->running()) {
        if (exportJob_->dialog()) exportJob_->dialog()->raise();
        return;
    }
    QString base =
        QString::fromStdString(doc_->activeLayout() ? doc_->activeLayout()->name : "layout");
    // A file name from the layout's name: letters, digits, '-', '.', '_' (no commas or slashes).
    for (QChar& ch : base)
        if (!ch.isLetterOrNumber() && ch != QLatin1Char('-') && ch != QLatin1Char('.'))
            ch = QLatin1Char('_');
    while (base.contains(QStringLiteral("__")))
        base.replace(QStringLiteral("__"), QStringLiteral("_"));
    GridRenderer::Style style;
    style.legendInScene = true;
    style.exportPage = true;
    const QSizeF native = GridRenderer(grid_->model(), style).sceneSize();
    const auto choice = askExportFile(
        this, exportStartDirectory() + QLatin1Char('/') + base + QStringLiteral(".png"), native);
    if (!choice) return;
    QSettings().setValue(QStringLiteral("export/lastDir"), QFileInfo(choice->path).absolutePath());
    startExport(choice->path, choice->scale);
}

bool MainWindow::startExport(const QString& path, double scale) {
    if (grid_->model().isEmpty()) {
        showError(QStringLiteral("Nothing to export"),
                  QStringLiteral("There is no valid layout to export."));
        return false;
    }
    if (exportJob_ && exportJob_->running()) return false;
    GridRenderer::Style s;
    s.legendInScene = true;
    s.exportPage = true;
    GridRenderer r(grid_->model(), s);
    r.setHighlight(grid_->highlight());
    if (exportJob_) exportJob_->deleteLater();
    exportJob_ = new ExportJob(std::move(r), path, scale, this);
    connect(exportJob_, &ExportJob::finished, this,
            [this, path](bool ok, bool cancelled, const QString& err, double seconds) {
                if (ok)
                    statusBar()->showMessage(
                        QStringLiteral("Exported %1 (%2 s)").arg(path).arg(seconds, 0, 'f', 1),
                        6000);
                else if (cancelled)
                    statusBar()->showMessage(
                        QStringLiteral("Export cancelled: %1 was not written").arg(path), 6000);
                else
                    showError(QStringLiteral("Export failed"), err);
                emit exportFinished(ok, cancelled);
            });
    exportJob_->start();
    statusBar()->showMessage(QStringLiteral("Exporting %1…").arg(path));
    return true;
}

// ---------------------------------------------------------------- evaluation

void MainWindow::setViewMode(ViewMode v) {
    if (!doc_->activeLayout()) return;
    ts::ViewSettings s = doc_->activeLayout()->view;
    s.view = viewModeName(v);
    doc_->setView(doc_->active(), s);
}

void MainWindow::setColorMode(ColorMode c) {
    if (!doc_->activeLayout()) return;
    ts::ViewSettings s = doc_->activeLayout()->view;
    s.color = colorModeName(c);
    doc_->setView(doc_->active(), s);
}

void MainWindow::updateViewActions() {
    const ts::DocLayout* l = doc_->activeLayout();
    if (!l) return;
    const ViewMode v = viewModeFromString(l->view.view);
    const ColorMode c = colorModeFromString(l->view.color);
    for (auto* a : viewGroup_->actions())
        a->setChecked(a->data().toInt() == int(v));
    // Colourings by thread, warp, slot and replica describe a fragment's input view; a layout is
    // coloured by offset and a fragment's register file by element, so there they are disabled
    // rather than silently doing nothing. An empty grid (an error) keeps the last state.
    const GridModel::Kind k = grid_->model().kind();
    if (k != GridModel::Kind::Empty) {
        const bool apply = colorModesApply(k);
        for (auto* a : colorGroup_->actions()) {
            a->setEnabled(apply);
            a->setStatusTip(apply ? QString()
                            : k == GridModel::Kind::FragmentOutput
                                ? QStringLiteral("The output view colours each register by the "
                                                 "element it holds")
                                : QStringLiteral("A T.Layout is coloured by physical offset; "
                                                 "these colourings are for fragments"));
        }
    }
    for (auto* a : colorGroup_->actions())
        a->setChecked(a->data().toInt() == int(c));
}

void MainWindow::resetPanels() {
    const bool maximized = isMaximized();
    restoreState(defaultState_, kStateVersion);
    if (maximized && !isMaximized()) showMaximized();
    // Restoring may ask for more room than the screen has: never wider or taller than it.
    fitIntoScreen(this);
    QTimer::singleShot(0, this, [this] { fitIntoScreen(this); });
}

void MainWindow::onActiveChanged() {
    const ts::DocLayout* l = doc_->activeLayout();
    if (!l) {
        // No layout at all: nothing may describe the one that was shown.
        eval_->cancel();
        gridState_->clear();
        mapping_.reset();
        shownLayout_ = -1;
        editor_->setText({});
        editor_->clearError();
        grid_->setModel(GridModel());
        grid_->setMessage(QStringLiteral("No layout: add one with Edit ▸ New Layout"));
        details_->setLayoutSummary({}, {});
        statusShape_->clear();
        statusEval_->clear();
        return;
    }
    const QModelIndex ix = list_->index(doc_->active());
    if (listView_->currentIndex() != ix) listView_->setCurrentIndex(ix);
    editor_->setText(QString::fromStdString(l->text));
    updateViewActions();
    applyZoom_ = true;
    requestEvaluation(true);
}

void MainWindow::requestEvaluation(bool now) {
    const ts::DocLayout* l = doc_->activeLayout();
    if (!l) return;
    const QString text = QString::fromStdString(l->text);
    const ViewMode v = viewModeFromString(l->view.view);
    const ColorMode c = colorModeFromString(l->view.color);
    viewOnly_ = shownLayout_ == doc_->active() && text == shownText_ && !shownText_.isEmpty();
    if (now)
        eval_->evaluateNow(text, v, c);
    else
        eval_->request(text, v, c);
    // What is on screen now belongs to the previous input. Another layout (or project): marked
    // at once. The same layout edited: marked when the evaluation is slow (eval_->slow), so a
    // quick edit does not flash.
    if (shownLayout_ != doc_->active())
        gridState_->invalidateNow();
    else
        gridState_->invalidate();
}

void MainWindow::onEvaluated(const EvalResult& r) {
    const int active = doc_->active();
    const bool sameLayout = shownLayout_ == active;
    const quint64 gen = gridState_->generation();
    lastEvalMillis_ = r.reused ? r.builtMillis : r.millis;
    lastEvalUnchangedEdit_ = r.reused && sameLayout && r.text != shownText_;
    if (r.ok) {
        mapping_ = r.mapping;
        grid_->setMessage({});
        grid_->setModel(r.grid, sameLayout && !applyZoom_);
        if (applyZoom_ && doc_->activeLayout())
            grid_->setZoomRelative(doc_->activeLayout()->view.zoom);
        applyZoom_ = false;
        shownLayout_ = active;
        shownText_ = r.text;
        undrawable_.clear();
        editor_->clearError();
        editor_->syncFields(r.text, *r.mapping);
        // The banner elides a long note; the details pane shows it whole.
        const QString notes = r.grid.notesLine();
        details_->setLayoutSummary(
            r.grid.title(), notes.isEmpty() ? r.repr : r.repr + QStringLiteral("\n\n") + notes);
        gridState_->publish(gen);
        updateViewActions();
    } else if (r.tooLarge && !r.key.isEmpty()) {
        // The text is valid; only this view of it cannot be drawn. Not a text error: the editor
        // stays clean and the grid says why, whole, and what can be shown instead.
        editor_->clearError();
        mapping_.reset();
        grid_->setModel(GridModel());
        undrawable_ = r.error;
        QString msg =
            QStringLiteral("This view cannot be drawn (the text is valid):\n%1").arg(r.error);
        if (r.view == ViewMode::Output)
            msg += QStringLiteral("\n\nThe input view can: View ▸ Input View.");
        grid_->setMessage(msg);
        shownLayout_ = active;
        shownText_ = r.text;
        details_->setLayoutSummary({}, {});
        gridState_->publish(gen);
        updateViewActions();
    } else {
        editor_->setError(r.column, r.error, r.errorLong);
        if (r.tooLarge || !sameLayout) {
            // Nothing valid of this layout to keep: clear everything that described another.
            mapping_.reset();
            grid_->setModel(GridModel());
            grid_->setMessage(r.tooLarge
                                  ? r.error
                                  : QStringLiteral("This layout has an error:\n%1").arg(r.error));
            shownLayout_ = r.tooLarge ? active : -1;
            details_->setLayoutSummary({}, {});
        }
        gridState_->fail(gen, r.error);
    }
    onResultState();
    updateStatus();
}

// Presents the evaluation's state on every view bound to it: the grid's banner, the status bar's
// summary and busy bar, the editor's busy label and error, the details pane.
void MainWindow::onResultState() {
    const ResultState::State st = gridState_->state();
    const bool stale = st == ResultState::State::Stale;
    const bool error = st == ResultState::State::Error;
    const bool shown = !grid_->model().isEmpty();
    busyBar_->setVisible(stale);
    editor_->setBusy(stale);
    editor_->setErrorStale(stale);
    if (stale) {
        grid_->setBanner(!shown ? QString()
                         : viewOnly_
                             ? QStringLiteral("Drawing the new view… the grid shows the "
                                              "previous one")
                             : QStringLiteral("Evaluating… the grid shows the previous text"));
        if (!shown) grid_->setMessage(QStringLiteral("Evaluating…"));
        details_->setLayoutStale(viewOnly_ ? QStringLiteral("drawing the new view; this is the "
                                                            "previous one")
                                           : QStringLiteral("evaluating the new text; this is the "
                                                            "previous one"));
        statusShape_->setText(shown ? QStringLiteral("previous: %1").arg(grid_->model().title())
                                    : QString());
        statusShape_->setStyleSheet(QStringLiteral("color: #9ca3af;"));
        statusEval_->setText(QStringLiteral("evaluating…"));
        return;
    }
    if (error) {
        grid_->setBanner(shown ? QStringLiteral("The mapping has an error — showing the last "
                                                "valid layout")
                               : QString());
        details_->setLayoutStale(shown ? QStringLiteral("the last valid layout: the text has an "
                                                        "error")
                                       : QString());
        statusShape_->setText(shown ? QStringLiteral("last valid: %1").arg(grid_->model().title())
                                    : QString());
        statusShape_->setStyleSheet(QStringLiteral("color: #9ca3af;"));
        statusEval_->setText(QStringLiteral("error"));
        return;
    }
    grid_->setBanner(grid_->model().notesLine());
    details_->setLayoutStale({});
    statusShape_->setStyleSheet({});
    if (st == ResultState::State::Current) {
        statusShape_->setText(undrawable_.isEmpty() ? grid_->model().title()
                                                    : QStringLiteral("this view cannot be drawn"));
        statusEval_->setText(lastEvalUnchangedEdit_
                                 ? QStringLiteral("unchanged (comments or spacing)")
                                 : QStringLiteral("evaluated in %1 ms")
                                       .arg(lastEvalMillis_, 0, 'f', lastEvalMillis_ < 1 ? 2 : 1));
    } else if (st == ResultState::State::Empty) {
        statusShape_->clear();
        statusEval_->clear();
    }
}

QString MainWindow::statusSummary() const {
    return QStringLiteral("%1 | %2").arg(statusShape_->text(), statusEval_->text());
}

void MainWindow::updateStatus() {
    statusZoom_->setText(
        QStringLiteral("zoom %1%").arg(int(std::round(grid_->zoomRelative() * 100))));
}

} // namespace tsw
