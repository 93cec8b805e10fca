// SPDX-License-Identifier: Apache-2.0
// Presenter (see presenter.h).
#include "window/presenter.h"

#include "banks/bank_access_keeper.h"
#include "banks/bank_docks.h"
#include "banks/bank_panel.h"
#include "banks/fractal_panel.h"
#include "document/documentmodel.h"
#include "grid/gridview.h"
#include "window/mainwindow.h"
#include "window/presenter_bar.h"

#include "tilescope/notation/mapping.h"

#include <QAbstractSpinBox>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QKeyEvent>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QScopeGuard>
#include <QScreen>
#include <QStatusBar>
#include <QTextEdit>
#include <QToolBar>
#include <functional>

namespace tsw {

namespace {

constexpr int kPresenterStateVersion = 0x7e57;
constexpr double kGridFontScale = 1.6;
constexpr double kPanelFontScale = 1.45;

QMenu* menuNamed(MainWindow* w, const QString& name) {
    for (QAction* a : w->menuBar()->actions())
        if (a->menu() && a->text().remove(QLatin1Char('&')) == name) return a->menu();
    return nullptr;
}

// Keys typed into a text field stay there, presenter mode or not.
bool editsText(QWidget* w) {
    if (!w) return false;
    if (qobject_cast<QLineEdit*>(w) || qobject_cast<QAbstractSpinBox*>(w) ||
        qobject_cast<QPlainTextEdit*>(w) || qobject_cast<QTextEdit*>(w))
        return true;
    if (auto* c = qobject_cast<QComboBox*>(w)) return c->isEditable();
    return false;
}

} // namespace

Presenter::Presenter(MainWindow* w) : QObject(w), w_(w) {
    setObjectName(QStringLiteral("presenter"));
    docks_ = w->findChild<BankDocks*>(QStringLiteral("bankDocks"));

    presentAct_ = new QAction(QStringLiteral("&Presenter Mode"), this);
    presentAct_->setObjectName(QStringLiteral("presenterMode"));
    presentAct_->setCheckable(true);
    presentAct_->setShortcut(QKeySequence(Qt::Key_F11));
    presentAct_->setToolTip(QStringLiteral(
        "Full screen, large fonts, high contrast; the grid and one analysis (F11 or Esc leaves)"));
    connect(presentAct_, &QAction::triggered, this, [this](bool on) { setActive(on); });

    nextAct_ = new QAction(QStringLiteral("Next &Step"), this);
    nextAct_->setShortcut(QKeySequence(QStringLiteral("Ctrl+PgDown")));
    nextAct_->setToolTip(QStringLiteral("The next layout of the project (a lesson's next step)"));
    connect(nextAct_, &QAction::triggered, this, &Presenter::nextStep);
    prevAct_ = new QAction(QStringLiteral("Previous S&tep"), this);
    prevAct_->setShortcut(QKeySequence(QStringLiteral("Ctrl+PgUp")));
    connect(prevAct_, &QAction::triggered, this, &Presenter::previousStep);

    nextInsAct_ = new QAction(QStringLiteral("Step &Forward (next instruction)"), this);
    nextInsAct_->setShortcut(QKeySequence(QStringLiteral("Alt+Right")));
    connect(nextInsAct_, &QAction::triggered, this, &Presenter::nextInstruction);
    prevInsAct_ = new QAction(QStringLiteral("Step &Back (previous instruction)"), this);
    prevInsAct_->setShortcut(QKeySequence(QStringLiteral("Alt+Left")));
    connect(prevInsAct_, &QAction::triggered, this, &Presenter::previousInstruction);

    // On the window too, so the shortcuts work while the menu bar is hidden.
    for (QAction* a : {presentAct_, nextAct_, prevAct_, nextInsAct_, prevInsAct_})
        w->addAction(a);
    if (QMenu* view = menuNamed(w, QStringLiteral("View"))) {
        view->addSeparator();
        view->addAction(presentAct_);
        view->addAction(nextAct_);
        view->addAction(prevAct_);
    }
    if (QMenu* analysis = menuNamed(w, QStringLiteral("Analysis"))) {
        analysis->addSeparator();
        analysis->addAction(nextInsAct_);
        analysis->addAction(prevInsAct_);
    }

    bar_ = new PresenterBar(w, this);
    w->addToolBar(Qt::BottomToolBarArea, bar_);
    bar_->hide();

    DocumentModel* doc = w->document();
    if (docks_) connect(docks_->bankPanel(), &BankPanel::analyzed, this, &Presenter::updateCaption);
    connect(doc, &DocumentModel::activeChanged, this, &Presenter::applyLessonStep);
    connect(doc, &DocumentModel::documentReset, this, &Presenter::applyLessonStep);
    // A caption edited, or the steps reordered ("Step 2 of 6" names the position), is shown at
    // once; the analysis stays as it is.
    connect(doc, &DocumentModel::captionChanged, this, &Presenter::updateCaption);
    connect(doc, &DocumentModel::layoutMoved, this, &Presenter::updateCaption);
    connect(doc, &DocumentModel::layoutInserted, this, &Presenter::updateCaption);
    connect(doc, &DocumentModel::layoutRemoved, this, &Presenter::updateCaption);
    applyLessonStep();
}

// ---------------------------------------------------------------- lesson steps

void Presenter::nextStep() {
    DocumentModel* doc = w_->document();
    if (doc->active() + 1 < doc->count()) doc->setActive(doc->active() + 1);
}

void Presenter::previousStep() {
    DocumentModel* doc = w_->document();
    if (doc->active() > 0) doc->setActive(doc->active() - 1);
}

void Presenter::nextInstruction() {
    if (docks_) docks_->bankPanel()->stepForward();
}

void Presenter::previousInstruction() {
    if (docks_) docks_->bankPanel()->stepBack();
}

void Presenter::applyLessonStep() {
    // The bar names the step and the analysis shown, both decided here.
    const auto refreshBar = qScopeGuard([this] {
        if (bar_) bar_->refresh();
    });
    DocumentModel* doc = w_->document();
    const ts::DocLayout* l = doc->activeLayout();
    GridView* grid = w_->gridView();
    if (!l) {
        grid->setCaption({});
        return;
    }
    updateCaption();
    if (!docks_) return;
    if (l->analysis.empty()) {
        // A fragment step is presented alone, as on entering (chooseAnalysisDock): the previous
        // step's analysis beside it would be about another tile.
        if (active_ && shownDock_ && isFragmentText(l->text)) presentBeside(nullptr);
        return;
    }
    // What the user set up for this step in this session, else the step's own analysis.
    const auto typed = l->analysis.panel == "banks"
                           ? docks_->accessKeeper()->sessionAccess(doc->activeId())
                           : std::nullopt;
    const ts::AnalysisSettings& a = typed ? *typed : l->analysis;
    QDockWidget* dock = nullptr;
    if (a.panel == "banks") {
        docks_->bankPanel()->applyView(QString::fromStdString(l->text),
                                       QString::fromStdString(a.access),
                                       QString::fromStdString(a.dtype), a.vector, a.store, a.step);
        dock = docks_->bankDock();
    } else if (a.panel == "fractal") {
        // The fractal panel takes the tile's shape from the layout.
        try {
            const ts::Mapping m = ts::parseMapping(l->text);
            const ts::Shape& s = std::holds_alternative<ts::Layout>(m)
                                     ? std::get<ts::Layout>(m).inputShape()
                                     : std::get<ts::Fragment>(m).inputShape();
            if (s.size() == 2)
                docks_->fractalPanel()->setTile(int(s[0]), int(s[1]),
                                                QString::fromStdString(a.dtype),
                                                QString::fromStdString(a.fractal));
        } catch (const std::exception&) {
            // The editor shows the mapping's error; the panel keeps its tile.
        }
        dock = docks_->fractalDock();
    }
    if (!dock) return;
    // Presenter mode shows one analysis: the step's replaces the previous one, or comes beside
    // the grid when the previous step (a fragment) was presented alone.
    if (active_ && shownDock_ != dock) presentBeside(dock);
    dock->show();
    dock->raise();
}

void Presenter::presentBeside(QDockWidget* dock) {
    // Moved from the window as it was before presenting, as on entering: a second dock moved
    // after the first left a layout from which leaving could not restore the window
    // (restoreState refused it: toolbars and panels stayed hidden).
    w_->restoreState(savedState_, kPresenterStateVersion);
    for (QDockWidget* d : w_->findChildren<QDockWidget*>())
        if (d != dock) d->hide();
    for (QToolBar* t : w_->findChildren<QToolBar*>())
        t->setVisible(t == bar_);
    if (dock) {
        w_->addDockWidget(Qt::RightDockWidgetArea, dock);
        w_->resizeDocks({dock}, {int(w_->width() * 0.42)}, Qt::Horizontal);
    }
    shownDock_ = dock;
}

bool Presenter::isFragmentText(const std::string& text) {
    try {
        return std::holds_alternative<ts::Fragment>(ts::parseMapping(text));
    } catch (const std::exception&) {
        return false; // the editor shows the mapping's error
    }
}

void Presenter::updateCaption() {
    DocumentModel* doc = w_->document();
    const ts::DocLayout* l = doc->activeLayout();
    if (!l) return;
    QString caption = QString::fromStdString(l->caption);
    if (!caption.isEmpty() && doc->count() > 1)
        caption = QStringLiteral("Step %1 of %2 · %3")
                      .arg(doc->active() + 1)
                      .arg(doc->count())
                      .arg(caption);
    // The caption's numbers are the step's: say so when the panel shows another access.
    if (docks_ && !caption.isEmpty())
        if (const QString d = docks_->accessKeeper()->differenceFromStep(*l); !d.isEmpty())
            caption += QStringLiteral("\n") + d;
    w_->gridView()->setCaption(caption);
}

// ---------------------------------------------------------------- presenter mode

QDockWidget* Presenter::chooseAnalysisDock() const {
    if (!docks_) return nullptr;
    const ts::DocLayout* l = w_->document()->activeLayout();
    if (l && l->analysis.panel == "banks") return docks_->bankDock();
    if (l && l->analysis.panel == "fractal") return docks_->fractalDock();
    // Else the analysis the user was looking at (a visible, not tabbed-away analysis dock), when
    // it can be about what is shown: the analysis panels take a shared T.Layout, so a fragment
    // is presented alone, across the whole screen, not beside a panel about another tile.
    const GridModel::Kind k = w_->gridView()->model().kind();
    if (k != GridModel::Kind::LayoutInput && k != GridModel::Kind::LayoutOutput) return nullptr;
    for (QDockWidget* d : w_->findChildren<QDockWidget*>()) {
        const QString n = d->objectName();
        const bool analysis = n == QLatin1String("bankDock") || n == QLatin1String("ubDock") ||
                              n == QLatin1String("swizzleDock") ||
                              n == QLatin1String("fractalDock") || n == QLatin1String("rasterDock");
        if (analysis && d->isVisible() && !d->visibleRegion().isEmpty()) return d;
    }
    return nullptr;
}

void Presenter::setActive(bool on) {
    if (on == active_) {
        presentAct_->setChecked(on);
        return;
    }
    GridView* grid = w_->gridView();
    BankPanel* bank = docks_ ? docks_->bankPanel() : nullptr;
    if (on) {
        QDockWidget* keep = chooseAnalysisDock();
        savedState_ = w_->saveState(kPresenterStateVersion);
        savedGeometry_ = w_->saveGeometry();
        savedWindowState_ = w_->windowState();
        savedFont_ = w_->font();
        savedMenuBar_ = w_->menuBar()->isVisible();
        savedStatusBar_ = w_->statusBar()->isVisible();
        active_ = true;
        for (QDockWidget* d : w_->findChildren<QDockWidget*>())
            if (d != keep) d->hide();
        for (QToolBar* t : w_->findChildren<QToolBar*>())
            if (t != bar_) t->hide();
        // The menus' shortcuts (colourings Ctrl+1..4, zoom, ...) would die with the menu bar.
        std::function<void(QMenu*)> borrow = [&](QMenu* m) {
            for (QAction* a : m->actions()) {
                if (a->menu()) borrow(a->menu());
                if (!a->shortcut().isEmpty() && !w_->actions().contains(a)) {
                    w_->addAction(a);
                    borrowed_ << a;
                }
            }
        };
        for (QAction* a : w_->menuBar()->actions())
            if (a->menu()) borrow(a->menu());
        w_->menuBar()->hide();
        w_->statusBar()->hide();
        QFont f = savedFont_;
        f.setPointSizeF(f.pointSizeF() * kPanelFontScale);
        w_->setFont(f);
        grid->setPresentation(kGridFontScale, true);
        if (bank) bank->setPresenting(true);
        w_->showFullScreen();
        shownDock_ = keep;
        if (keep) {
            // The analysis beside the grid, both large.
            w_->addDockWidget(Qt::RightDockWidgetArea, keep);
            keep->show();
            keep->raise();
            const QScreen* s = w_->screen();
            const int width = s ? s->geometry().width() : w_->width();
            w_->resizeDocks({keep}, {int(width * 0.42)}, Qt::Horizontal);
        }
        qApp->installEventFilter(this);
        grid->setFocus();
        // The keys that apply, in the bar under the grid: a hint over the grid would hide the
        // rows or the legend the class is looking at.
        bar_->show();
        bar_->refresh();
        bar_->flashHint();
    } else {
        qApp->removeEventFilter(this);
        active_ = false;
        w_->setFont(savedFont_);
        grid->setPresentation(1.0, false);
        if (bank) bank->setPresenting(false);
        w_->menuBar()->setVisible(savedMenuBar_);
        w_->statusBar()->setVisible(savedStatusBar_);
        w_->setWindowState(savedWindowState_);
        if (!(savedWindowState_ & (Qt::WindowFullScreen | Qt::WindowMaximized)))
            w_->restoreGeometry(savedGeometry_);
        w_->restoreState(savedState_, kPresenterStateVersion);
        bar_->hide();
        for (QAction* a : std::as_const(borrowed_))
            w_->removeAction(a);
        borrowed_.clear();
        shownDock_ = nullptr;
    }
    presentAct_->setChecked(on);
    emit activeChanged(on);
}

bool Presenter::eventFilter(QObject* o, QEvent* e) {
    if (!active_ || e->type() != QEvent::KeyPress) return QObject::eventFilter(o, e);
    auto* ke = static_cast<QKeyEvent*>(e);
    if (QApplication::activeWindow() != w_ || editsText(QApplication::focusWidget()))
        return QObject::eventFilter(o, e);
    if (ke->modifiers() & (Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier))
        return QObject::eventFilter(o, e);
    switch (ke->key()) {
    case Qt::Key_PageDown:
        nextStep();
        return true;
    case Qt::Key_PageUp:
        previousStep();
        return true;
    case Qt::Key_Right:
    case Qt::Key_Space:
        nextInstruction();
        return true;
    case Qt::Key_Left:
    case Qt::Key_Backspace:
        previousInstruction();
        return true;
    case Qt::Key_Escape:
        setActive(false);
        return true;
    default:
        return QObject::eventFilter(o, e);
    }
}

} // namespace tsw
