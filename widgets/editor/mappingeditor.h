// SPDX-License-Identifier: Apache-2.0
// MappingEditor: three ways to write one mapping, all producing mapping-language text:
//  - Code: a free text box (typed or pasted TileLang: T.Fragment(...), builtins, method chains);
//  - Fields: shape, thread map, index map(s), replicate as separate inputs;
//  - Builtin: a picker over the core registry with typed parameter fields.
// The text is the source of truth: editing fields or the builtin form rewrites it, and setText()
// fills the fields and the picker back where the text allows. Errors are shown underlined at their
// column with the message; the editor never parses or evaluates anything itself (that happens off
// the UI thread): the Fields page follows the text when its evaluation arrives (syncFields).
#pragma once

#include "tilescope/layout/layout.h"

#include <QPlainTextEdit>
#include <QWidget>

class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QSpinBox;
class QTabWidget;

namespace tsw {

// A plain text edit whose own undo is off, so Ctrl+Z reaches the document's undo stack.
class CodeEdit : public QPlainTextEdit {
    Q_OBJECT
public:
    explicit CodeEdit(QWidget* parent = nullptr);

protected:
    bool event(QEvent* e) override;
    void keyPressEvent(QKeyEvent* e) override;
};

class MappingEditor : public QWidget {
    Q_OBJECT
public:
    explicit MappingEditor(QWidget* parent = nullptr);

    QString text() const;
    // Programmatic update (from the document): no textEdited() signal.
    void setText(const QString& text);
    void setError(int column, const QString& message, const QString& details = {});
    void clearError();
    QString errorText() const;
    int errorColumn() const { return errorColumn_; }
    void setBusy(bool busy);
    // Which layout language the text is read as ("TileLang", "CuTe layout", ...).
    QString notationText() const;
    bool isBusy() const;
    // The shown error belongs to older text (the new text is being checked): greyed, not red.
    void setErrorStale(bool stale);
    bool errorStale() const { return errorStale_; }
    // Fills the Fields page from the parsed mapping of `text` (ignored when the text changed).
    void syncFields(const QString& text, const ts::Mapping& mapping);

    CodeEdit* codeEdit() const { return code_; }
    QTabWidget* tabs() const { return tabs_; }
    QLineEdit* shapeField() const { return shape_; }
    QLineEdit* threadField() const { return thread_; }
    QLineEdit* indexField() const { return index_; }
    QSpinBox* replicateField() const { return replicate_; }
    QComboBox* builtinPicker() const { return builtin_; }
    QWidget* builtinParamWidget(const QString& name) const;

    // The text the Fields / Builtin pages currently describe.
    QString textFromFields() const;
    QString textFromBuiltin() const;

signals:
    void textEdited(const QString& text);

private:
    void onCodeChanged();
    void onFieldsEdited();
    void onBuiltinEdited();
    void rebuildBuiltinForm(int index);
    void syncFromText(const QString& text);
    bool syncBuiltin(const QString& text);
    void emitEdited(const QString& text);
    void updateKind();
    void updateNotation(const QString& text);

    QTabWidget* tabs_;
    CodeEdit* code_;
    QLabel* error_;
    QLabel* busy_;
    QLabel* notation_;
    QComboBox* kind_;
    QLineEdit *shape_, *thread_, *index_;
    QLabel *threadLabel_, *indexLabel_, *fieldsNote_;
    QSpinBox* replicate_;
    QComboBox* builtin_;
    QLabel* builtinSummary_;
    QWidget* builtinForm_;
    QFormLayout* builtinLayout_;
    std::vector<std::pair<QString, QWidget*>> params_;
    bool updating_ = false;
    QString lastEmitted_;
    int errorColumn_ = 0;
    QString errorMessage_; // the current error, without its place
    void showErrorText();
    bool errorStale_ = false;
};

} // namespace tsw
