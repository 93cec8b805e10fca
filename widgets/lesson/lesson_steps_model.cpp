// SPDX-License-Identifier: Apache-2.0
// LessonStepsModel (see lesson_steps_model.h).
#include "lesson/lesson_steps_model.h"

#include "document/documentmodel.h"

#include <QMimeData>
#include <algorithm>

namespace tsw {

namespace {
const char* kStepMime = "application/x-tilescope-lesson-step";
} // namespace

QString analysisSummary(const ts::AnalysisSettings& a) {
    if (a.panel == "banks") {
        QString s = QStringLiteral("banks: %1 %2")
                        .arg(QString::fromStdString(a.access), QString::fromStdString(a.dtype));
        if (a.vector > 0) s += QStringLiteral(", %1 per lane").arg(a.vector);
        if (a.store) s += QStringLiteral(", store");
        s += a.step >= 0 ? QStringLiteral(", instruction %1").arg(a.step + 1)
                         : QStringLiteral(", all instructions");
        return s;
    }
    if (a.panel == "fractal")
        return QStringLiteral("fractal: %1 %2")
            .arg(QString::fromStdString(a.fractal), QString::fromStdString(a.dtype));
    if (!a.panel.empty()) return QString::fromStdString(a.panel);
    return QStringLiteral("no analysis");
}

LessonStepsModel::LessonStepsModel(DocumentModel* doc, QObject* parent)
    : QAbstractListModel(parent), doc_(doc) {
    auto changed = [this](int i) {
        const QModelIndex ix = index(i);
        emit dataChanged(ix, ix);
    };
    connect(doc, &DocumentModel::nameChanged, this, changed);
    connect(doc, &DocumentModel::captionChanged, this, changed);
    connect(doc, &DocumentModel::analysisChanged, this, changed);
    connect(doc, &DocumentModel::layoutAboutToBeInserted, this,
            [this](int i) { beginInsertRows({}, i, i); });
    connect(doc, &DocumentModel::layoutInserted, this, [this](int i) {
        endInsertRows();
        rowsChangedFrom(i + 1);
    });
    connect(doc, &DocumentModel::layoutAboutToBeRemoved, this,
            [this](int i) { beginRemoveRows({}, i, i); });
    connect(doc, &DocumentModel::layoutRemoved, this, [this](int i) {
        endRemoveRows();
        rowsChangedFrom(i);
    });
    // Qt's destination is the row before which the moved row goes, counted before the move.
    connect(doc, &DocumentModel::layoutAboutToBeMoved, this, [this](int from, int to) {
        beginMoveRows({}, from, from, {}, to > from ? to + 1 : to);
    });
    connect(doc, &DocumentModel::layoutMoved, this, [this](int from, int to) {
        endMoveRows();
        rowsChangedFrom(std::min(from, to));
    });
    connect(doc, &DocumentModel::documentAboutToReset, this, [this] { beginResetModel(); });
    connect(doc, &DocumentModel::documentReset, this, [this] { endResetModel(); });
}

void LessonStepsModel::rowsChangedFrom(int first) {
    if (first < rowCount()) emit dataChanged(index(first), index(rowCount() - 1));
}

int LessonStepsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : doc_->count();
}

QVariant LessonStepsModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const ts::DocLayout& l = doc_->layout(index.row());
    const QString name = QString::fromStdString(l.name);
    const QString caption = QString::fromStdString(l.caption);
    switch (role) {
    case Qt::DisplayRole: {
        // "Step n ·", not "n.": lesson layouts are often named "1. ..." themselves.
        QString first = QStringLiteral("Step %1 · %2").arg(index.row() + 1).arg(name);
        first +=
            caption.isEmpty() ? QStringLiteral(" — (no caption)") : QStringLiteral(" — ") + caption;
        return first + QStringLiteral("\n    ") + analysisSummary(l.analysis);
    }
    case Qt::EditRole:
    case CaptionRole:
        return caption;
    case AnalysisRole:
        return analysisSummary(l.analysis);
    case Qt::ToolTipRole:
        return QStringLiteral("<b>%1</b><br>%2<br><i>%3</i><br><small>Double-click or F2 edits "
                              "the caption; drag to reorder.</small>")
            .arg(name.toHtmlEscaped(),
                 caption.isEmpty() ? QStringLiteral("(no caption)") : caption.toHtmlEscaped(),
                 analysisSummary(l.analysis).toHtmlEscaped());
    default:
        return {};
    }
}

bool LessonStepsModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    if (role != Qt::EditRole || !checkIndex(index, CheckIndexOption::IndexIsValid)) return false;
    doc_->setCaption(index.row(), value.toString());
    return true;
}

Qt::ItemFlags LessonStepsModel::flags(const QModelIndex& index) const {
    if (!index.isValid()) return Qt::ItemIsDropEnabled; // between rows
    return Qt::ItemIsSelectable | Qt::ItemIsEnabled | Qt::ItemIsEditable |
           Qt::ItemNeverHasChildren | Qt::ItemIsDragEnabled;
}

QStringList LessonStepsModel::mimeTypes() const {
    return {QString::fromLatin1(kStepMime)};
}

QMimeData* LessonStepsModel::mimeData(const QModelIndexList& indexes) const {
    if (indexes.size() != 1 || !indexes.first().isValid()) return nullptr;
    auto* m = new QMimeData;
    m->setData(QString::fromLatin1(kStepMime), QByteArray::number(indexes.first().row()));
    return m;
}

bool LessonStepsModel::canDropMimeData(const QMimeData* data, Qt::DropAction action, int, int,
                                       const QModelIndex&) const {
    return action == Qt::MoveAction && data && data->hasFormat(QString::fromLatin1(kStepMime));
}

bool LessonStepsModel::dropMimeData(const QMimeData* data, Qt::DropAction action, int row,
                                    int column, const QModelIndex& parent) {
    if (!canDropMimeData(data, action, row, column, parent)) return false;
    bool ok = false;
    const int from = data->data(QString::fromLatin1(kStepMime)).toInt(&ok);
    if (!ok || from < 0 || from >= doc_->count()) return false;
    // Dropped on a row: before it; below the last row: at the end.
    const int before = parent.isValid() ? parent.row() : (row < 0 ? doc_->count() : row);
    moveRows({}, from, 1, {}, before);
    // The move is done here; the view must not remove the dragged row itself.
    return false;
}

bool LessonStepsModel::moveRows(const QModelIndex& sourceParent, int sourceRow, int count,
                                const QModelIndex& destinationParent, int destinationChild) {
    if (sourceParent.isValid() || destinationParent.isValid() || count != 1 || sourceRow < 0 ||
        sourceRow >= doc_->count())
        return false;
    const int to = destinationChild > sourceRow ? destinationChild - 1 : destinationChild;
    if (to == sourceRow) return false;
    doc_->moveLayout(sourceRow, std::clamp(to, 0, doc_->count() - 1));
    return true;
}

} // namespace tsw
