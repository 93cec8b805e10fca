// SPDX-License-Identifier: Apache-2.0
#include "document/layoutlistmodel.h"

#include "document/documentmodel.h"

namespace tsw {

LayoutListModel::LayoutListModel(DocumentModel* doc, QObject* parent)
    : QAbstractListModel(parent), doc_(doc) {
    auto changed = [this](int i) {
        const QModelIndex ix = index(i);
        emit dataChanged(ix, ix);
    };
    connect(doc, &DocumentModel::nameChanged, this, changed);
    connect(doc, &DocumentModel::textChanged, this, changed);
    connect(doc, &DocumentModel::layoutAboutToBeInserted, this,
            [this](int i) { beginInsertRows({}, i, i); });
    connect(doc, &DocumentModel::layoutInserted, this, [this](int) { endInsertRows(); });
    connect(doc, &DocumentModel::layoutAboutToBeRemoved, this,
            [this](int i) { beginRemoveRows({}, i, i); });
    connect(doc, &DocumentModel::layoutRemoved, this, [this](int) { endRemoveRows(); });
    // QAbstractItemModel's destination is the row before which the moved row goes, counted
    // before the move: one past `to` when moving down.
    connect(doc, &DocumentModel::layoutAboutToBeMoved, this, [this](int from, int to) {
        beginMoveRows({}, from, from, {}, to > from ? to + 1 : to);
    });
    connect(doc, &DocumentModel::layoutMoved, this, [this](int, int) { endMoveRows(); });
    connect(doc, &DocumentModel::documentAboutToReset, this, [this] { beginResetModel(); });
    connect(doc, &DocumentModel::documentReset, this, [this] { endResetModel(); });
}

int LayoutListModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : doc_->count();
}

QVariant LayoutListModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const auto& l = doc_->layout(index.row());
    const QString text = QString::fromStdString(l.text);
    switch (role) {
    case Qt::DisplayRole:
    case Qt::EditRole:
        return QString::fromStdString(l.name);
    case Qt::ToolTipRole:
        return text;
    case TextRole:
        return text;
    case KindRole:
        return text.contains(QLatin1String("Layout(")) ? QStringLiteral("layout")
                                                       : QStringLiteral("mapping");
    default:
        return {};
    }
}

bool LayoutListModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    if (role != Qt::EditRole || !checkIndex(index, CheckIndexOption::IndexIsValid)) return false;
    const QString name = value.toString().trimmed();
    if (name.isEmpty()) return false;
    doc_->rename(index.row(), name);
    return true;
}

Qt::ItemFlags LayoutListModel::flags(const QModelIndex& index) const {
    if (!index.isValid()) return Qt::NoItemFlags;
    return Qt::ItemIsSelectable | Qt::ItemIsEnabled | Qt::ItemIsEditable | Qt::ItemNeverHasChildren;
}

QHash<int, QByteArray> LayoutListModel::roleNames() const {
    auto r = QAbstractListModel::roleNames();
    r[TextRole] = "text";
    r[KindRole] = "kind";
    return r;
}

} // namespace tsw
