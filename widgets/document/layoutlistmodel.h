// SPDX-License-Identifier: Apache-2.0
// LayoutListModel: the document's layouts as a list (name editable through the undo stack).
#pragma once

#include <QAbstractListModel>

namespace tsw {

class DocumentModel;

class LayoutListModel : public QAbstractListModel {
    Q_OBJECT
public:
    enum Roles { TextRole = Qt::UserRole + 1, KindRole };
    explicit LayoutListModel(DocumentModel* doc, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    QHash<int, QByteArray> roleNames() const override;

private:
    DocumentModel* doc_;
};

} // namespace tsw
