// SPDX-License-Identifier: Apache-2.0
// LessonPanel: the "Lesson steps" panel, where a teacher authors a lesson in the app. It lists
// the project's layouts as steps ("2. padded to 33 — caption", with the analysis each keeps) and
// acts on the active one: Save Current as Step (the caption typed here and the analysis the
// window shows for it, e.g. the access typed in the Bank conflicts panel), Add Step from
// Current (a copy after it, with the caption), Move Up / Down (or drag), Delete Step; a caption
// is also edited in place. Every action is one step of the document's undo stack. What the
// panel shows is read from the document on every change (LessonStepsModel), so renames, undo,
// redo and another project reach it by construction.
#pragma once

#include <QLabel>
#include <QWidget>

class QAction;
class QLineEdit;
class QListView;
class QPushButton;

namespace tsw {

class DocumentModel;
class FeatureBus;
class LessonStepsModel;

class LessonPanel : public QWidget {
    Q_OBJECT
public:
    // `bus` (may be null) is asked what analysis the window shows for the active layout.
    LessonPanel(DocumentModel* doc, FeatureBus* bus, QWidget* parent = nullptr);

    QAction* saveStepAction() const { return saveAct_; }
    QAction* addStepAction() const { return addAct_; }
    QAction* moveUpAction() const { return upAct_; }
    QAction* moveDownAction() const { return downAct_; }
    QAction* deleteStepAction() const { return deleteAct_; }
    QLineEdit* captionEdit() const { return caption_; }
    QListView* stepsView() const { return view_; }
    LessonStepsModel* stepsModel() const { return model_; }
    // The panel's last word on an action ("Step 2 saved: …", "Type a caption first …").
    QString noteText() const { return note_->text(); }

public slots:
    void saveCurrentAsStep();
    void addStepFromCurrent();
    void moveUp();
    void moveDown();
    void deleteStep();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void followActive();  // selection and caption field show the active layout
    void updateActions(); // what can be done to the active step
    void say(const QString& text, bool problem = false);
    DocumentModel* doc_;
    FeatureBus* bus_;
    LessonStepsModel* model_;
    QListView* view_;
    QLineEdit* caption_;
    QLabel* note_;
    QAction *saveAct_, *addAct_, *upAct_, *downAct_, *deleteAct_;
};

} // namespace tsw
