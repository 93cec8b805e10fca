// SPDX-License-Identifier: Apache-2.0
#include "window/mainwindow.h"

#include "banks/bank_docks.h"
#include "common/feature_bus.h"
#include "common/result_state.h"
#include "common/wording.h"
#include "document/documentmodel.h"
#include "document/layoutlistmodel.h"
#include "document/recovery.h"
#include "editor/mappingeditor.h"
#include "grid/gridview.h"
#include "kernel/kernel_dock.h"
#include "kernel/kernel_panel.h"
#include "lesson/lesson_dock.h"
#include "run/run_panel.h"
#include "trace/trace_viewer.h"
#include "window/compare_dialog.h"
#include "window/detailspane.h"
#include "window/presenter.h"
#include "window/window_panels.h"

#include <QCloseEvent>
#include <QDockWidget>
#include <QLabel>
#include <QListView>
#include <QMenu>
#include <QProgressBar>
#include <QSettings>
#include <QStatusBar>
#include <QTimer>

namespace tsw {

namespace {
constexpr int kStateVersion = 4; // 4: the bottom panels share one tab group
} // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setObjectName(QStringLiteral("MainWindow"));
    doc_ = new DocumentModel(this);
    bus_ = new FeatureBus(this);
    list_ = new LayoutListModel(doc_, this);
    eval_ = new LayoutEvaluator(this);
    recovery_ = new RecoveryManager(doc_, this);

    grid_ = new GridView(this);
    // The grid keeps a usable height when a panel below it grows (a 700-pixel window with the
    // Run panel left it about 200 pixels); no more, so that the window with the Run and Trace
    // panels open still fits a 1024x700 screen.
    grid_->setMinimumHeight(250);
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
    installRunUi(this);      // Run menu, toolbar button and dock (run_panel.h)
    new BankDocks(this);     // Analysis menu: bank, UB, swizzle, fractal, rasterization docks
    installLessonDock(this); // Lesson menu and the Lesson steps panel (lesson_panel.h)
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
                // Its text is what the editor shows, whichever page (a builtin's form) was open.
                editor_->tabs()->setCurrentIndex(0);
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
        shownLayout_ = 0;
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

void MainWindow::closeEvent(QCloseEvent* e) {
    if (!maybeSave()) {
        e->ignore();
        return;
    }
    saveSettings();
    if (!doc_->isDirty() || confirmOnClose_) recovery_->clear();
    e->accept();
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

void MainWindow::resetPanels() {
    const bool maximized = isMaximized();
    restoreState(defaultState_, kStateVersion);
    if (maximized && !isMaximized()) showMaximized();
    // Restoring may ask for more room than the screen has: never wider or taller than it.
    fitIntoScreen(this);
    QTimer::singleShot(0, this, [this] { fitIntoScreen(this); });
}

} // namespace tsw
