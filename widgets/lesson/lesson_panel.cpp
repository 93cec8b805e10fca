// SPDX-License-Identifier: Apache-2.0
// LessonPanel (see lesson_panel.h).
#include "lesson/lesson_panel.h"

#include "common/feature_bus.h"
#include "document/documentmodel.h"
#include "lesson/lesson_steps_model.h"

#include <QAction>
#include <QHBoxLayout>
#include <QItemSelectionModel>
#include <QKeyEvent>
#include <QLineEdit>
#include <QListView>
#include <QPushButton>
#include <QToolButton>
#include <QUndoStack>
#include <QVBoxLayout>

namespace tsw {

LessonPanel::LessonPanel(DocumentModel* doc, FeatureBus* bus, QWidget* parent)
    : QWidget(parent), doc_(doc), bus_(bus) {
    setObjectName(QStringLiteral("lessonPanel"));
    model_ = new LessonStepsModel(doc, this);
    view_ = new QListView(this);
    view_->setObjectName(QStringLiteral("lessonSteps"));
    view_->setModel(model_);
    view_->setEditTriggers(QAbstractItemView::EditKeyPressed | QAbstractItemView::DoubleClicked);
    view_->installEventFilter(this); // F2 edits the caption here (eventFilter)
    view_->setDragDropMode(QAbstractItemView::InternalMove);
    view_->setDefaultDropAction(Qt::MoveAction);
    view_->setDragDropOverwriteMode(false);
    view_->setSpacing(2);
    // A caption is read whole: rows wrap to the panel's width rather than scroll sideways.
    view_->setWordWrap(true);
    view_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    view_->setResizeMode(QListView::Adjust);

    caption_ = new QLineEdit(this);
    caption_->setObjectName(QStringLiteral("lessonCaption"));
    caption_->setPlaceholderText(
        QStringLiteral("Caption of the active step (one line, shown above the grid)"));
    caption_->setClearButtonEnabled(true);
    connect(caption_, &QLineEdit::returnPressed, this, &LessonPanel::saveCurrentAsStep);

    auto action = [this](const QString& text, const QString& name, const QString& tip,
                         const QKeySequence& key, void (LessonPanel::*slot)()) {
        auto* a = new QAction(text, this);
        a->setObjectName(name);
        a->setToolTip(tip);
        if (!key.isEmpty()) {
            a->setShortcut(key);
            a->setShortcutContext(Qt::WindowShortcut);
        }
        connect(a, &QAction::triggered, this, slot);
        return a;
    };
    saveAct_ = action(QStringLiteral("&Save Current as Step"), QStringLiteral("saveLessonStep"),
                      QStringLiteral("Keep the caption typed here and the analysis shown now "
                                     "(the access in the Bank conflicts panel) with the active "
                                     "layout: a lesson step (Ctrl+Alt+S)"),
                      QKeySequence(QStringLiteral("Ctrl+Alt+S")), &LessonPanel::saveCurrentAsStep);
    addAct_ = action(QStringLiteral("&Add Step from Current"), QStringLiteral("addLessonStep"),
                     QStringLiteral("A copy of the active layout, with the analysis shown now "
                                    "and the caption typed here, as the next step (Ctrl+Alt+N)"),
                     QKeySequence(QStringLiteral("Ctrl+Alt+N")), &LessonPanel::addStepFromCurrent);
    upAct_ = action(QStringLiteral("Move Step &Up"), QStringLiteral("moveLessonStepUp"),
                    QStringLiteral("Move the active step one place earlier (Ctrl+Alt+Up)"),
                    QKeySequence(QStringLiteral("Ctrl+Alt+Up")), &LessonPanel::moveUp);
    downAct_ = action(QStringLiteral("Move Step &Down"), QStringLiteral("moveLessonStepDown"),
                      QStringLiteral("Move the active step one place later (Ctrl+Alt+Down)"),
                      QKeySequence(QStringLiteral("Ctrl+Alt+Down")), &LessonPanel::moveDown);
    deleteAct_ = action(QStringLiteral("De&lete Step"), QStringLiteral("deleteLessonStep"),
                        QStringLiteral("Remove the active step (its layout) from the project"),
                        QKeySequence(), &LessonPanel::deleteStep);

    auto button = [this](QAction* a, const QString& label) {
        auto* b = new QToolButton(this);
        b->setDefaultAction(a);
        // Shorter than the menu's words; the button takes the action's text again whenever the
        // action changes (enabled or not), so it is put back then.
        b->setText(label);
        connect(a, &QAction::changed, b, [b, label] { b->setText(label); });
        b->setObjectName(a->objectName() + QStringLiteral("Button"));
        b->setToolButtonStyle(Qt::ToolButtonTextOnly);
        return b;
    };
    auto* captionRow = new QHBoxLayout;
    captionRow->addWidget(caption_, 1);
    captionRow->addWidget(button(saveAct_, QStringLiteral("Save as Step")));
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(button(addAct_, QStringLiteral("Add Step")));
    buttons->addWidget(button(upAct_, QStringLiteral("Up")));
    buttons->addWidget(button(downAct_, QStringLiteral("Down")));
    buttons->addWidget(button(deleteAct_, QStringLiteral("Delete")));
    buttons->addStretch(1);
    note_ = new QLabel(this);
    note_->setObjectName(QStringLiteral("lessonNote"));
    note_->setWordWrap(true);
    // The caption field and the buttons above the list: the panel scrolls when the window is
    // small, and what it scrolls away first must be steps, not the controls.
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(4, 4, 4, 4);
    v->addLayout(captionRow);
    v->addLayout(buttons);
    v->addWidget(note_);
    v->addWidget(view_, 1);

    // A click on a step makes it the active layout (as the Layouts list does).
    connect(view_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& now) {
                if (now.isValid() && now.row() != doc_->active()) doc_->setActive(now.row());
            });
    connect(doc, &DocumentModel::activeChanged, this, &LessonPanel::followActive);
    connect(doc, &DocumentModel::documentReset, this, &LessonPanel::followActive);
    connect(doc, &DocumentModel::layoutMoved, this, &LessonPanel::followActive);
    connect(doc, &DocumentModel::layoutInserted, this, &LessonPanel::updateActions);
    connect(doc, &DocumentModel::layoutRemoved, this, &LessonPanel::updateActions);
    connect(doc, &DocumentModel::captionChanged, this, [this](int i) {
        if (i == doc_->active()) caption_->setText(QString::fromStdString(doc_->layout(i).caption));
    });
    // The note is about the action just taken ("Added step 3 «name»"): any later change (an
    // edit, an undo, a rename, another step or project) may make its numbers or names wrong, so
    // it goes. The panel's own action says its note after its edit.
    connect(doc->undoStack(), &QUndoStack::indexChanged, note_, &QLabel::clear);
    connect(doc, &DocumentModel::activeChanged, note_, &QLabel::clear);
    connect(doc, &DocumentModel::documentReset, note_, &QLabel::clear);
    followActive();
}

void LessonPanel::followActive() {
    const int a = doc_->active();
    if (a >= 0 && a < doc_->count()) {
        const QModelIndex ix = model_->index(a);
        if (view_->currentIndex() != ix)
            view_->selectionModel()->setCurrentIndex(ix, QItemSelectionModel::ClearAndSelect);
        caption_->setText(QString::fromStdString(doc_->layout(a).caption));
    } else {
        caption_->clear();
    }
    updateActions();
}

void LessonPanel::updateActions() {
    const int a = doc_->active(), n = doc_->count();
    const bool has = a >= 0 && a < n;
    saveAct_->setEnabled(has);
    addAct_->setEnabled(has);
    upAct_->setEnabled(has && a > 0);
    downAct_->setEnabled(has && a + 1 < n);
    deleteAct_->setEnabled(has && n > 1); // a project keeps one layout
}

void LessonPanel::say(const QString& text, bool problem) {
    note_->setStyleSheet(problem ? QStringLiteral("color: #b00020;") : QString());
    note_->setText(text);
}

// The analysis the window shows for layout `i` now (the bank panel's typed access), else the
// one it keeps.
static ts::AnalysisSettings shownAnalysis(DocumentModel* doc, FeatureBus* bus, int i) {
    ts::AnalysisSettings a = doc->layout(i).analysis;
    if (bus) emit bus->shownAnalysisRequested(doc->idAt(i), &a);
    return a;
}

void LessonPanel::saveCurrentAsStep() {
    const int i = doc_->active();
    if (i < 0 || i >= doc_->count()) return;
    const QString caption = caption_->text().simplified();
    if (caption.isEmpty()) {
        say(QStringLiteral("Type a caption first: a step is a layout with a caption (and the "
                           "analysis shown with it)."),
            true);
        caption_->setFocus();
        return;
    }
    const ts::DocLayout& l = doc_->layout(i);
    const ts::AnalysisSettings a = shownAnalysis(doc_, bus_, i);
    const QString name = QString::fromStdString(l.name);
    if (a == l.analysis && caption.toStdString() == l.caption) {
        say(QStringLiteral("Step %1 «%2» is already saved as shown.").arg(i + 1).arg(name));
        return;
    }
    // One undo step for the caption and the analysis together.
    doc_->undoStack()->beginMacro(QStringLiteral("Save step “%1”").arg(name));
    doc_->setAnalysis(i, a);
    doc_->setCaption(i, caption);
    doc_->undoStack()->endMacro();
    say(QStringLiteral("Saved step %1 «%2» (%3).").arg(i + 1).arg(name, analysisSummary(a)));
}

void LessonPanel::addStepFromCurrent() {
    const int i = doc_->active();
    if (i < 0 || i >= doc_->count()) return;
    ts::DocLayout l = doc_->layout(i);
    l.analysis = shownAnalysis(doc_, bus_, i);
    // The copy takes a caption typed for it, never the step's own: that caption's numbers are
    // the step's, and the copy is made to be changed.
    const QString caption = caption_->text().simplified();
    l.caption = caption != QString::fromStdString(l.caption).simplified() ? caption.toStdString()
                                                                          : std::string();
    const int at = doc_->addLayout(l, i + 1, QStringLiteral("Add step “%1”"));
    say(QStringLiteral("Added step %1 «%2»: edit its caption and analysis, then Save as Step.")
            .arg(at + 1)
            .arg(QString::fromStdString(doc_->layout(at).name)));
}

void LessonPanel::moveUp() {
    const int i = doc_->active();
    if (i > 0 && i < doc_->count()) doc_->moveLayout(i, i - 1);
}

void LessonPanel::moveDown() {
    const int i = doc_->active();
    if (i >= 0 && i + 1 < doc_->count()) doc_->moveLayout(i, i + 1);
}

void LessonPanel::deleteStep() {
    const int i = doc_->active();
    if (i < 0 || i >= doc_->count() || doc_->count() <= 1) return;
    const QString name = QString::fromStdString(doc_->layout(i).name);
    doc_->removeLayout(i);
    say(QStringLiteral("Deleted step «%1» (Edit ▸ Undo brings it back).").arg(name));
}

// F2 is also the window's Rename Layout shortcut, which would take the key before the view: in the
// steps list it edits the step's caption, as the list says (the view's EditKeyPressed trigger),
// so the view claims it through the shortcut override.
bool LessonPanel::eventFilter(QObject* watched, QEvent* event) {
    if (watched == view_ && event->type() == QEvent::ShortcutOverride) {
        const auto* key = static_cast<QKeyEvent*>(event);
        if (key->key() == Qt::Key_F2 && key->modifiers() == Qt::NoModifier) {
            event->accept();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace tsw
