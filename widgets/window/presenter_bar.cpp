// SPDX-License-Identifier: Apache-2.0
// PresenterBar (see presenter_bar.h).
#include "window/presenter_bar.h"

#include "banks/bank_docks.h"
#include "banks/bank_panel.h"
#include "document/documentmodel.h"
#include "grid/gridview.h"
#include "window/mainwindow.h"
#include "window/presenter.h"

#include <QAction>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QTimer>
#include <QToolButton>

namespace tsw {

namespace {

// The window's action named `text` (mnemonics ignored) in `menu` or its submenus.
QAction* findAction(QMenu* menu, const QString& text) {
    if (!menu) return nullptr;
    for (QAction* a : menu->actions()) {
        if (a->menu())
            if (QAction* f = findAction(a->menu(), text)) return f;
        if (QString(a->text()).remove(QLatin1Char('&')) == text) return a;
    }
    return nullptr;
}

QMenu* menuNamed(MainWindow* w, const QString& name) {
    for (QAction* a : w->menuBar()->actions())
        if (a->menu() && QString(a->text()).remove(QLatin1Char('&')) == name) return a->menu();
    return nullptr;
}

BankPanel* bankPanelOf(MainWindow* w) {
    auto* d = w->findChild<BankDocks*>(QStringLiteral("bankDocks"));
    return d ? d->bankPanel() : nullptr;
}

} // namespace

PresenterBar::PresenterBar(MainWindow* w, Presenter* p)
    : QToolBar(QStringLiteral("Presenter"), w), w_(w), p_(p) {
    setObjectName(QStringLiteral("presenterBar"));
    setMovable(false);
    setFloatable(false);
    setToolButtonStyle(Qt::ToolButtonTextOnly);
    // Dark and quiet, so the grid stays what the room looks at.
    setStyleSheet(QStringLiteral(
        "QToolBar#presenterBar { background: rgba(17, 24, 39, 235); border: none; spacing: 6px; "
        "padding: 2px 8px; }"
        "QToolBar#presenterBar QToolButton { color: white; padding: 2px 10px; border-radius: 4px; }"
        "QToolBar#presenterBar QToolButton:hover { background: rgba(255, 255, 255, 40); }"
        "QToolBar#presenterBar QToolButton:checked { background: #2563eb; }"
        "QToolBar#presenterBar QToolButton:disabled { color: rgba(255, 255, 255, 90); }"
        // A colouring that does not apply (a T.Layout has no threads) is not shown as chosen.
        "QToolBar#presenterBar QToolButton:checked:disabled { background: transparent; }"
        // Drawn by the style sheet: the platform's separator came out as a stray glyph on the
        // dark bar.
        "QToolBar#presenterBar::separator { background: rgba(255, 255, 255, 70); width: 1px; "
        "margin: 6px 6px; }"
        "QToolBar#presenterBar QLabel { color: #d1d5db; padding: 0 6px; }"));
    auto label = [this](const QString& name) {
        auto* l = new QLabel(this);
        l->setObjectName(name);
        return l;
    };

    p->previousStepAction()->setIconText(QStringLiteral("◀"));
    p->nextStepAction()->setIconText(QStringLiteral("▶"));
    addAction(p->previousStepAction());
    stepLabel_ = label(QStringLiteral("presenterStep"));
    stepLabelAct_ = addWidget(stepLabel_);
    addAction(p->nextStepAction());

    instrSep_ = addSeparator();
    p->previousInstructionAction()->setIconText(QStringLiteral("◀"));
    p->nextInstructionAction()->setIconText(QStringLiteral("▶"));
    addAction(p->previousInstructionAction());
    instrLabel_ = label(QStringLiteral("presenterInstruction"));
    instrLabelAct_ = addWidget(instrLabel_);
    addAction(p->nextInstructionAction());

    addSeparator();
    QMenu* view = menuNamed(w, QStringLiteral("View"));
    for (const char* name : {"Thread", "Warp", "Slot", "Replica"})
        if (QAction* a = findAction(view, QString::fromLatin1(name))) {
            colours_ << a;
            addAction(a);
        }
    addSeparator();
    for (const char* name : {"Zoom Out", "Zoom In", "Zoom to Fit"})
        if (QAction* a = findAction(view, QString::fromLatin1(name))) {
            zoom_ << a;
            addAction(a);
        }
    if (QAction* a = findAction(view, QStringLiteral("Zoom Out")))
        a->setIconText(QStringLiteral("−"));
    if (QAction* a = findAction(view, QStringLiteral("Zoom In")))
        a->setIconText(QStringLiteral("+"));
    if (QAction* a = findAction(view, QStringLiteral("Zoom to Fit")))
        a->setIconText(QStringLiteral("Fit"));

    auto* spacer = new QWidget(this);
    spacer->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    addWidget(spacer);
    hint_ = label(QStringLiteral("presenterHint"));
    addWidget(hint_);
    p->presenterAction()->setIconText(QStringLiteral("Leave (Esc)"));
    addAction(p->presenterAction());

    // Tooltips name the keys of every button.
    for (QAction* a : actions())
        if (!a->shortcut().isEmpty())
            a->setToolTip(
                QStringLiteral("%1 (%2)").arg(QString(a->text()).remove(QLatin1Char('&')),
                                              a->shortcut().toString(QKeySequence::NativeText)));

    hintTimer_ = new QTimer(this);
    hintTimer_->setSingleShot(true);
    connect(hintTimer_, &QTimer::timeout, hint_, &QLabel::clear);

    DocumentModel* doc = w->document();
    connect(doc, &DocumentModel::activeChanged, this, &PresenterBar::refresh);
    connect(doc, &DocumentModel::documentReset, this, &PresenterBar::refresh);
    connect(doc, &DocumentModel::layoutInserted, this, &PresenterBar::refresh);
    connect(doc, &DocumentModel::layoutRemoved, this, &PresenterBar::refresh);
    connect(doc, &DocumentModel::layoutMoved, this, &PresenterBar::refresh);
    connect(doc, &DocumentModel::viewChanged, this, &PresenterBar::refresh);
    if (BankPanel* bank = bankPanelOf(w)) {
        connect(bank, &BankPanel::stepChanged, this, &PresenterBar::refresh);
        connect(bank, &BankPanel::analyzed, this, &PresenterBar::refresh);
    }
    // A layout's colourings apply or not (MainWindow::updateViewActions): the hint follows.
    for (QAction* a : colours_)
        connect(a, &QAction::changed, this, &PresenterBar::refresh);
    hide();
}

QAction* PresenterBar::colourAction(int i) const {
    return i >= 0 && i < colours_.size() ? colours_[i] : nullptr;
}

QString PresenterBar::stepText() const {
    return stepLabel_->text();
}

QString PresenterBar::hintText() const {
    return hint_->text();
}

QString PresenterBar::keysText() const {
    QStringList keys;
    const DocumentModel* doc = w_->document();
    if (doc->count() > 1) keys << QStringLiteral("PgDn / PgUp: step");
    const BankPanel* bank = bankPanelOf(w_);
    const bool banks =
        bank && p_->analysisDock() && p_->analysisDock()->objectName() == QLatin1String("bankDock");
    if (banks && bank->instructionCount() > 1) keys << QStringLiteral("→ / ←: instruction");
    bool colours = false;
    for (QAction* a : colours_)
        colours = colours || a->isEnabled();
    if (colours) keys << QStringLiteral("Ctrl+1–4: colour");
    QStringList zoomKeys;
    for (QAction* a : zoom_)
        if (!a->shortcut().isEmpty()) zoomKeys << a->shortcut().toString(QKeySequence::NativeText);
    if (!zoomKeys.isEmpty())
        keys << zoomKeys.join(QStringLiteral(" / ")) + QStringLiteral(": zoom");
    keys << QStringLiteral("Esc: leave");
    return keys.join(QStringLiteral(" · "));
}

void PresenterBar::flashHint(int ms) {
    hint_->setText(keysText());
    hintTimer_->start(ms);
}

void PresenterBar::refresh() {
    const DocumentModel* doc = w_->document();
    const bool steps = doc->count() > 1;
    for (QAction* a : {p_->previousStepAction(), p_->nextStepAction(), stepLabelAct_})
        a->setVisible(steps);
    p_->previousStepAction()->setEnabled(doc->active() > 0);
    p_->nextStepAction()->setEnabled(doc->active() + 1 < doc->count());
    stepLabel_->setText(
        steps ? QStringLiteral("step %1 of %2").arg(doc->active() + 1).arg(doc->count())
              : QString());

    const BankPanel* bank = bankPanelOf(w_);
    const bool banks =
        bank && p_->analysisDock() && p_->analysisDock()->objectName() == QLatin1String("bankDock");
    const int n = bank ? bank->instructionCount() : 0;
    for (QAction* a :
         {p_->previousInstructionAction(), p_->nextInstructionAction(), instrLabelAct_, instrSep_})
        a->setVisible(banks && n > 0);
    if (bank) {
        p_->previousInstructionAction()->setEnabled(n > 0 &&
                                                    bank->currentStep() > bank->firstStep());
        p_->nextInstructionAction()->setEnabled(n > 0 && bank->currentStep() < n - 1);
        instrLabel_->setText(
            bank->currentStep() < 0
                ? QStringLiteral("all %1 instructions").arg(n)
                : QStringLiteral("instruction %1 of %2").arg(bank->currentStep() + 1).arg(n));
    }
    if (hintTimer_->isActive()) hint_->setText(keysText());
}

} // namespace tsw
