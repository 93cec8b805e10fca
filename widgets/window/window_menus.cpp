// SPDX-License-Identifier: Apache-2.0
// MainWindow's menus, toolbar and view/colour actions (createActions and the actions' state).
#include "window/mainwindow.h"
#include "window/panel_picture_menu.h"
#include "window/toolbar_rows.h"

#include "document/documentmodel.h"
#include "document/layoutlistmodel.h"
#include "document/recent_files.h"
#include "editor/language_reference.h"
#include "grid/gridview.h"
#include "trace/sample_logs.h"

#include <QAction>
#include <QActionGroup>
#include <QLabel>
#include <QListView>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QStyle>
#include <QToolBar>

namespace tsw {

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
    installPanelPictureMenu(this, file);
    auto* handoutAct =
        act(QStringLiteral("Export Lesson &Handout…"), &MainWindow::exportHandoutDialog);
    handoutAct->setObjectName(QStringLiteral("exportHandoutAction"));
    handoutAct->setToolTip(QStringLiteral("A PDF with one page per layout (lesson step): its "
                                          "caption, grid, saved analysis and numbers"));
    file->addAction(handoutAct);
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
    // The actions on the layout shown (and Run on Device, which the run feature adds) in a
    // toolbar of their own, which takes a second row when the window is too narrow for both.
    QToolBar* acts = actionsToolBar_ = addToolBar(QStringLiteral("Actions"));
    acts->setObjectName(QStringLiteral("actionsToolbar"));
    acts->setMovable(false);
    acts->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    acts->setIconSize(QSize(16, 16));
    acts->addAction(zfit);
    acts->addAction(copyAct);
    acts->addAction(exportAct);
    keepToolBarsInView(this, tb, acts);
}

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

} // namespace tsw
