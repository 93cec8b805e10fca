// SPDX-License-Identifier: Apache-2.0
// DocumentModel: the open project (ts::Document) with its file, dirty state and undo stack.
// Every edit goes through a QUndoStack command; widgets only call these methods and listen to
// the signals. Files are written atomically (QSaveFile).
#pragma once

#include "tilescope/notation/document.h"

#include <QObject>
#include <QString>
#include <QUndoStack>

namespace tsw {

// A layout's identity for as long as the window runs: it survives renames, moves, edits and a
// delete undone, and is never reused. Views that name or depict a layout keep its LayoutId and
// ask the model for the name when they draw, so a rename reaches every view by construction.
// 0 is no layout.
using LayoutId = quint64;

class DocumentModel : public QObject {
    Q_OBJECT
public:
    explicit DocumentModel(QObject* parent = nullptr);
    ~DocumentModel() override;

    const ts::Document& document() const { return doc_; }
    int count() const { return static_cast<int>(doc_.layouts.size()); }
    const ts::DocLayout& layout(int i) const { return doc_.layouts.at(std::size_t(i)); }
    int active() const { return doc_.active; }
    const ts::DocLayout* activeLayout() const;
    QUndoStack* undoStack() { return &undo_; }

    // Identity and revision (see LayoutId). A revision changes whenever the layout's text does
    // (an edit, an undo, a redo, another project): what was computed on one revision (a
    // highlight, an analysis) belongs to that revision only. Revisions are unique across all
    // layouts and projects of this model, so a (id, revision) pair never comes back.
    LayoutId idAt(int i) const;
    int indexOf(LayoutId id) const;    // -1: not in the project (removed, another project)
    QString nameOf(LayoutId id) const; // "" when not in the project
    quint64 revisionAt(int i) const;   // 0 for an index out of range
    quint64 revisionOf(LayoutId id) const;
    LayoutId activeId() const { return idAt(active()); }
    // Which project is open: changes on New, Open and recovery (documentReset), never otherwise.
    quint64 projectSerial() const { return projectSerial_; }

    QString filePath() const { return path_; }
    QString displayName() const; // file name or "Untitled"
    bool isDirty() const { return forcedDirty_ || !undo_.isClean(); }

    // Undoable edits. `typing` merges consecutive text edits of one layout into one step.
    void setText(int i, const QString& text, bool typing = false);
    void rename(int i, const QString& name);
    // `undoText` (with %1 for the final name) names the undo step; default "Add layout “%1”".
    int addLayout(const ts::DocLayout& l, int at = -1, const QString& undoText = {});
    // A layout handed in from outside (the command line's --text, the Python bridge's show()):
    // not the user's edit, so a document without unsaved edits still has none (nothing to ask
    // about on close, nothing to recover after SIGTERM); an edit to it afterwards is one.
    // `replace` >= 0 puts it in place of that layout (a fresh document's placeholder), else it is
    // added. Returns the layout's index.
    int receiveLayout(const QString& name, const QString& text, int replace = -1);
    void removeLayout(int i);
    void duplicateLayout(int i);
    void setActive(int i); // not an edit (not undoable, not dirty)
    // Neither is the view (input/output, colouring, zoom): applied at once, not undoable, not
    // dirty; saved with the project when the project is saved.
    void setView(int i, const ts::ViewSettings& v);
    // The analysis kept with a layout (the access set up in the bank panel, a lesson step's):
    // undoable and saved with the project; consecutive changes of one layout within a second
    // (typing an access) form one undo step.
    void setAnalysis(int i, const ts::AnalysisSettings& a);
    // A lesson step's caption (one line: line breaks become spaces): undoable, one step each,
    // saved with the project.
    void setCaption(int i, const QString& caption);
    // Moves a layout to index `to` (a lesson's steps reordered): one undo step; every layout
    // keeps its id and revision (nothing was recomputed) and the active layout stays active at
    // its new index.
    void moveLayout(int from, int to);
    QString uniqueName(const QString& base) const;

    // Files. On failure returns false, sets *error (including the JSON path) and changes
    // nothing.
    void newDocument();
    bool load(const QString& path, QString* error);
    bool loadJson(const QByteArray& json, const QString& fileName, QString* error);
    bool save(const QString& path, QString* error);
    QByteArray toJson() const;
    // The project's Run history (a JSON array, "" when none); a change marks the project
    // modified, since a measurement is part of the work saved with it.
    QByteArray runsJson() const { return QByteArray::fromStdString(doc_.runs); }
    void setRunsJson(const QByteArray& runs);
    // Replaces the document (recovery): dirty, associated with `path` (may be empty).
    void replaceDocument(const ts::Document& d, const QString& path, bool dirty);

    // Internal (commands).
    void applyText(int i, const QString& text);
    void applyView(int i, const ts::ViewSettings& v);
    void applyAnalysis(int i, const ts::AnalysisSettings& a);
    void applyName(int i, const QString& name);
    void applyCaption(int i, const QString& caption);
    void applyMove(int from, int to);
    // Returns the inserted layout's id: `id` when given (a delete undone keeps its identity).
    LayoutId applyInsert(int at, const ts::DocLayout& l, LayoutId id = 0);
    void applyRemove(int at);

signals:
    void textChanged(int index);
    void viewChanged(int index);
    void analysisChanged(int index);
    void nameChanged(int index);
    void captionChanged(int index);
    // A layout moved from `from` to `to` (indices before and after the move; the layouts in
    // between shift by one). Sent around the move, as Qt's models want it.
    void layoutAboutToBeMoved(int from, int to);
    void layoutMoved(int from, int to);
    void layoutAboutToBeInserted(int index);
    void layoutInserted(int index);
    void layoutAboutToBeRemoved(int index);
    void layoutRemoved(int index);
    void documentAboutToReset();
    void documentReset();
    void activeChanged(int index);
    void dirtyChanged(bool dirty);
    void filePathChanged(const QString& path);

private:
    void setPath(const QString& p);
    void setForcedDirty(bool d);
    void renumber(); // every layout a new id and revision (another project)
    ts::Document doc_;
    std::vector<LayoutId> ids_;      // parallel to doc_.layouts
    std::vector<quint64> revisions_; // parallel to doc_.layouts
    LayoutId nextId_ = 1;
    quint64 nextRevision_ = 1;
    quint64 projectSerial_ = 1;
    QUndoStack undo_;
    QString path_;
    bool forcedDirty_ = false;
    bool lastDirty_ = false;
};

// The project a fresh window shows: one small teaching fragment.
ts::Document defaultDocument();

} // namespace tsw
