// SPDX-License-Identifier: Apache-2.0
// DetailsPane: what the grid's cell under the mouse is, the current highlight, and the layout's
// TileLang repr. Fed by the main window; holds no state of its own beyond what it shows.
#pragma once

#include "grid/gridmodel.h"

#include <QWidget>

class QTextBrowser;

namespace tsw {

class DetailsPane : public QWidget {
    Q_OBJECT
public:
    explicit DetailsPane(QWidget* parent = nullptr);
    void setCell(const CellInfo& info);
    void setHighlight(const QString& text);
    void setLayoutSummary(const QString& title, const QString& repr);
    // Marks the layout section as not the current text's (greyed, with `note` saying why);
    // empty to mark it current again.
    void setLayoutStale(const QString& note);
    QString layoutTitle() const { return title_; }
    QString highlightText() const { return highlight_; }
    QString layoutNote() const { return staleNote_; }
    QString html() const;
    QString plainText() const;

private:
    void refresh();
    QTextBrowser* view_;
    CellInfo cell_;
    QString highlight_, title_, repr_, staleNote_;
};

} // namespace tsw
