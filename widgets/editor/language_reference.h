// SPDX-License-Identifier: Apache-2.0
// LanguageReference: Help > Mapping Language. A non-modal window sized to fit the screen it opens
// on, with a filter field over a scrollable reference. The builtin list comes from ts::builtins()
// and the expression functions from ts::expressionFunctions(), the tables the interpreter itself
// resolves names in, so the reference cannot drift from the parser.
#pragma once

#include <QDialog>
#include <QStringList>

class QLineEdit;
class QLabel;
class QTextBrowser;

namespace tsw {

class LanguageReference : public QDialog {
    Q_OBJECT
public:
    explicit LanguageReference(QWidget* parent = nullptr);

    void setFilter(const QString& text);
    QString filter() const;
    QLineEdit* filterEdit() const { return filter_; }
    QTextBrowser* browser() const { return browser_; }
    // Builtins and syntax entries listed under the current filter (by name).
    QStringList shownBuiltins() const { return shownBuiltins_; }
    int shownEntries() const { return shownEntries_; }

    // The reference as HTML for a filter (case-insensitive words, all must match an entry).
    static QString html(const QString& filter, QStringList* shownBuiltins = nullptr,
                        int* shownEntries = nullptr);
    // Where the window goes on a screen with this available area: at most 780 x 760, never
    // larger than 90 % x 85 % of the area (a title bar fits above), centred.
    static QRect fittedGeometry(const QRect& available);

    // Shows the window (creating it once per `owner`), raised, with the filter focused.
    static LanguageReference* showFor(QWidget* owner);

private:
    void refresh();

    QLineEdit* filter_;
    QLabel* count_;
    QTextBrowser* browser_;
    QStringList shownBuiltins_;
    int shownEntries_ = 0;
};

} // namespace tsw
