// SPDX-License-Identifier: Apache-2.0
// LessonStepsModel: the project's layouts as the steps of a lesson, for the Lesson steps panel.
// It holds nothing of its own: every row is read from the DocumentModel when it is drawn, and
// every change of the document (a caption, a name, an analysis, a move, an undo, another
// project) is passed on as the matching model signal, so the list follows the document by
// construction. Editing a row edits its caption; dragging a row moves the layout (one undo step).
#pragma once

#include "tilescope/notation/document.h"

#include <QAbstractListModel>

namespace tsw {

class DocumentModel;

// "banks: lanes:lambda t: (t, 0) float32, instruction 1", "fractal: zN float16", "no analysis".
QString analysisSummary(const ts::AnalysisSettings& a);

class LessonStepsModel : public QAbstractListModel {
    Q_OBJECT
public:
    enum Roles { CaptionRole = Qt::UserRole + 1, AnalysisRole };
    explicit LessonStepsModel(DocumentModel* doc, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    // Display: "2. padded to 33 — Pad each row …" over the analysis; edit: the caption.
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;

    // Drag to reorder: the dragged row's index travels as the data; a drop moves the layout.
    Qt::DropActions supportedDropActions() const override { return Qt::MoveAction; }
    QStringList mimeTypes() const override;
    QMimeData* mimeData(const QModelIndexList& indexes) const override;
    bool canDropMimeData(const QMimeData* data, Qt::DropAction action, int row, int column,
                         const QModelIndex& parent) const override;
    bool dropMimeData(const QMimeData* data, Qt::DropAction action, int row, int column,
                      const QModelIndex& parent) override;
    // A list view's internal move: one row, moved in the document (one undo step).
    bool moveRows(const QModelIndex& sourceParent, int sourceRow, int count,
                  const QModelIndex& destinationParent, int destinationChild) override;

private:
    void rowsChangedFrom(int first); // the numbers "n." of these rows changed
    DocumentModel* doc_;
};

} // namespace tsw
