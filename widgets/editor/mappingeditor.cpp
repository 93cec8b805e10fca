// SPDX-License-Identifier: Apache-2.0
#include "editor/mappingeditor.h"

#include "tilescope/layout/builtins.h"
#include "tilescope/notation/interop.h"
#include "tilescope/notation/mapping.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSpinBox>
#include <QTabWidget>
#include <QTextBlock>
#include <QVBoxLayout>

namespace tsw {

namespace {

QString varName(int k) {
    return QString(QChar('i' + k));
}

// TileLang placeholders (_i, _j, _rep) -> lambda variable names (i, j, rep).
QString fromPlaceholders(const std::string& e) {
    QString s = QString::fromStdString(e);
    static const QRegularExpression re(QStringLiteral("\\b_(rep|[i-z])\\b"));
    return s.replace(re, QStringLiteral("\\1"));
}

// Splits on commas at nesting depth 0 (outside brackets and quotes).
QStringList splitTopLevel(const QString& s) {
    QStringList out;
    int depth = 0;
    QChar quote;
    QString cur;
    for (QChar ch : s) {
        if (!quote.isNull()) {
            if (ch == quote) quote = QChar();
        } else if (ch == '"' || ch == '\'') {
            quote = ch;
        } else if (ch == '(' || ch == '[') {
            ++depth;
        } else if (ch == ')' || ch == ']') {
            --depth;
        } else if (ch == ',' && depth == 0) {
            out << cur.trimmed();
            cur.clear();
            continue;
        }
        cur += ch;
    }
    if (!cur.trimmed().isEmpty()) out << cur.trimmed();
    return out;
}

QString unquote(QString s) {
    s = s.trimmed();
    if (s.size() >= 2 && (s.front() == '"' || s.front() == '\'') && s.back() == s.front())
        return s.mid(1, s.size() - 2);
    return s;
}

} // namespace

// ---------------------------------------------------------------- CodeEdit

CodeEdit::CodeEdit(QWidget* parent) : QPlainTextEdit(parent) {
    setUndoRedoEnabled(false);
    QFont f = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    f.setPointSizeF(std::max(10.0, f.pointSizeF()));
    setFont(f);
    setTabChangesFocus(true);
    setPlaceholderText(
        QStringLiteral("T.Fragment([8, 8], forward_thread_fn=lambda i, j: 4 * i + j // 2, "
                       "forward_index_fn=lambda i, j: j % 2)\n\nor a builtin: "
                       "make_gemm_c_fragment((32, 32), 128)"));
}

bool CodeEdit::event(QEvent* e) {
    if (e->type() == QEvent::ShortcutOverride) {
        auto* k = static_cast<QKeyEvent*>(e);
        if (k->matches(QKeySequence::Undo) || k->matches(QKeySequence::Redo)) {
            e->ignore(); // let the window's Undo/Redo actions (document stack) take it
            return false;
        }
    }
    return QPlainTextEdit::event(e);
}

void CodeEdit::keyPressEvent(QKeyEvent* e) {
    if (e->matches(QKeySequence::Undo) || e->matches(QKeySequence::Redo)) {
        e->ignore();
        return;
    }
    QPlainTextEdit::keyPressEvent(e);
}

// ---------------------------------------------------------------- MappingEditor

MappingEditor::MappingEditor(QWidget* parent) : QWidget(parent) {
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(6, 6, 6, 6);
    outer->setSpacing(4);
    tabs_ = new QTabWidget(this);
    tabs_->setDocumentMode(true);
    outer->addWidget(tabs_, 1);

    // Code page.
    auto* codePage = new QWidget;
    auto* cl = new QVBoxLayout(codePage);
    cl->setContentsMargins(0, 4, 0, 0);
    code_ = new CodeEdit(codePage);
    code_->setObjectName(QStringLiteral("mappingText"));
    cl->addWidget(code_);
    tabs_->addTab(codePage, QStringLiteral("Code"));
    connect(code_, &QPlainTextEdit::textChanged, this, &MappingEditor::onCodeChanged);

    // Fields page.
    auto* fieldsPage = new QWidget;
    auto* fl = new QFormLayout(fieldsPage);
    fl->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    kind_ = new QComboBox;
    kind_->addItems({QStringLiteral("T.Fragment"), QStringLiteral("T.Layout")});
    shape_ = new QLineEdit;
    shape_->setPlaceholderText(QStringLiteral("[8, 8]"));
    thread_ = new QLineEdit;
    thread_->setPlaceholderText(QStringLiteral("4 * i + j // 2"));
    index_ = new QLineEdit;
    index_->setPlaceholderText(QStringLiteral("j % 2   (empty: inferred as TileLang does)"));
    replicate_ = new QSpinBox;
    replicate_->setRange(1, 1 << 16);
    threadLabel_ = new QLabel(QStringLiteral("Thread map"));
    indexLabel_ = new QLabel(QStringLiteral("Index map"));
    fieldsNote_ = new QLabel;
    fieldsNote_->setWordWrap(true);
    fieldsNote_->setStyleSheet(QStringLiteral("color: palette(mid);"));
    fl->addRow(QStringLiteral("Kind"), kind_);
    fl->addRow(QStringLiteral("Shape"), shape_);
    fl->addRow(threadLabel_, thread_);
    fl->addRow(indexLabel_, index_);
    fl->addRow(QStringLiteral("Replicate"), replicate_);
    fl->addRow(fieldsNote_);
    for (auto* e : {shape_, thread_, index_})
        connect(e, &QLineEdit::textEdited, this, &MappingEditor::onFieldsEdited);
    connect(replicate_, &QSpinBox::valueChanged, this, &MappingEditor::onFieldsEdited);
    connect(kind_, &QComboBox::currentIndexChanged, this, [this] {
        updateKind();
        onFieldsEdited();
    });
    // The form pages scroll rather than holding the window taller than a laptop screen.
    auto scrolled = [](QWidget* page) {
        auto* area = new QScrollArea;
        area->setWidget(page);
        area->setWidgetResizable(true);
        area->setFrameShape(QFrame::NoFrame);
        return area;
    };
    tabs_->addTab(scrolled(fieldsPage), QStringLiteral("Fields"));

    // Builtin page.
    auto* bPage = new QWidget;
    auto* bl = new QVBoxLayout(bPage);
    bl->setContentsMargins(0, 4, 0, 0);
    builtin_ = new QComboBox;
    builtin_->addItem(QStringLiteral("— choose a builtin layout —"));
    for (const auto& b : ts::builtins()) {
        builtin_->addItem(QString::fromStdString(b.name));
        builtin_->setItemData(builtin_->count() - 1, QString::fromStdString(b.summary),
                              Qt::ToolTipRole);
    }
    builtinSummary_ = new QLabel;
    builtinSummary_->setWordWrap(true);
    builtinForm_ = new QWidget;
    builtinLayout_ = new QFormLayout(builtinForm_);
    builtinLayout_->setContentsMargins(0, 0, 0, 0);
    builtinLayout_->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    bl->addWidget(builtin_);
    bl->addWidget(builtinSummary_);
    bl->addWidget(builtinForm_);
    bl->addStretch(1);
    connect(builtin_, &QComboBox::activated, this, [this](int i) {
        rebuildBuiltinForm(i);
        onBuiltinEdited();
    });
    tabs_->addTab(scrolled(bPage), QStringLiteral("Builtin"));
    connect(tabs_, &QTabWidget::currentChanged, this, [this] { showErrorText(); });

    // Error line.
    auto* status = new QHBoxLayout;
    error_ = new QLabel;
    error_->setObjectName(QStringLiteral("mappingError"));
    error_->setWordWrap(true);
    error_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    error_->setStyleSheet(QStringLiteral("color: #b42318;"));
    busy_ = new QLabel(QStringLiteral("evaluating…"));
    busy_->setStyleSheet(QStringLiteral("color: palette(mid);"));
    busy_->hide();
    // The notation is judged from the first tokens (cheap, on every keystroke): the user sees
    // whether pasted CuTe or Triton text was taken for what it is.
    notation_ = new QLabel;
    notation_->setObjectName(QStringLiteral("mappingNotation"));
    notation_->setStyleSheet(QStringLiteral("color: palette(mid);"));
    status->addWidget(error_, 1);
    status->addWidget(busy_);
    status->addWidget(notation_);
    updateNotation(QString());
    outer->addLayout(status);
    updateKind();
}

QString MappingEditor::text() const {
    return code_->toPlainText();
}

void MappingEditor::setText(const QString& text) {
    if (text != code_->toPlainText()) {
        updating_ = true;
        const int pos = code_->textCursor().position();
        code_->setPlainText(text);
        QTextCursor c = code_->textCursor();
        c.setPosition(std::min(pos, int(text.size())));
        code_->setTextCursor(c);
        updating_ = false;
    }
    if (text != lastEmitted_) syncFromText(text);
    lastEmitted_.clear();
}

void MappingEditor::emitEdited(const QString& text) {
    lastEmitted_ = text;
    emit textEdited(text);
}

void MappingEditor::onCodeChanged() {
    if (updating_) return;
    const QString t = code_->toPlainText();
    // Fields follow typed code only while the user is not on the fields page.
    emitEdited(t);
    syncFromText(t);
}

void MappingEditor::onFieldsEdited() {
    if (updating_) return;
    const QString t = textFromFields();
    updating_ = true;
    code_->setPlainText(t);
    updating_ = false;
    emitEdited(t);
}

void MappingEditor::onBuiltinEdited() {
    if (updating_ || builtin_->currentIndex() <= 0) return;
    const QString t = textFromBuiltin();
    updating_ = true;
    code_->setPlainText(t);
    updating_ = false;
    emitEdited(t);
}

void MappingEditor::updateKind() {
    const bool frag = kind_->currentIndex() == 0;
    threadLabel_->setText(frag ? QStringLiteral("Thread map") : QStringLiteral("—"));
    thread_->setEnabled(frag);
    replicate_->setEnabled(frag);
    indexLabel_->setText(frag ? QStringLiteral("Index map") : QStringLiteral("Output map"));
    index_->setPlaceholderText(frag ? QStringLiteral("j % 2   (empty: inferred as TileLang does)")
                                    : QStringLiteral("j, i   (one expression per output)"));
    fieldsNote_->setText(
        QStringLiteral("Variables: i, j, k… per dimension%1. Operators: + - * // % ^ & | << >>, "
                       "min, max, comparisons (< <= == != >= >), T.if_then_else(cond, a, b), "
                       "T.And / T.Or / T.Not.")
            .arg(frag ? QStringLiteral(", rep for the replica (thread map)") : QString()));
}

QString MappingEditor::textFromFields() const {
    QString shape = shape_->text().trimmed();
    if (shape.isEmpty()) shape = QStringLiteral("[8, 8]");
    if (!shape.startsWith('[') && !shape.startsWith('(')) shape = '[' + shape + ']';
    const int rank = std::max<qsizetype>(1, splitTopLevel(shape.mid(1, shape.size() - 2)).size());
    QStringList vars;
    for (int k = 0; k < rank; ++k)
        vars << varName(k);
    const QString args = vars.join(QStringLiteral(", "));
    if (kind_->currentIndex() == 1) {
        const QStringList outs = splitTopLevel(index_->text());
        const QString body =
            outs.size() == 1 ? outs[0] : '(' + outs.join(QStringLiteral(", ")) + ')';
        return QStringLiteral("T.Layout(%1, lambda %2: %3)")
            .arg(shape, args, body.isEmpty() ? args : body);
    }
    const int R = replicate_->value();
    QString t = QStringLiteral("T.Fragment(%1, forward_thread_fn=lambda %2%3: %4")
                    .arg(shape, args, R > 1 ? QStringLiteral(", rep") : QString(),
                         thread_->text().trimmed().isEmpty() ? QStringLiteral("0")
                                                             : thread_->text().trimmed());
    const QString idx = index_->text().trimmed();
    if (!idx.isEmpty()) {
        const QStringList outs = splitTopLevel(idx);
        t += QStringLiteral(", forward_index_fn=lambda %1: %2")
                 .arg(args,
                      outs.size() == 1 ? outs[0] : '(' + outs.join(QStringLiteral(", ")) + ')');
    }
    if (R > 1) t += QStringLiteral(", replicate=%1").arg(R);
    return t + ')';
}

QWidget* MappingEditor::builtinParamWidget(const QString& name) const {
    for (const auto& [n, w] : params_)
        if (n == name) return w;
    return nullptr;
}

void MappingEditor::rebuildBuiltinForm(int index) {
    while (builtinLayout_->rowCount() > 0)
        builtinLayout_->removeRow(0);
    params_.clear();
    if (index <= 0) {
        builtinSummary_->clear();
        return;
    }
    const ts::Builtin* b = ts::findBuiltin(builtin_->itemText(index).toStdString());
    if (!b) return;
    builtinSummary_->setText(
        QStringLiteral("<code>%1</code><br><span style='color:#555'>%2</span>")
            .arg(QString::fromStdString(ts::builtinSignature(*b)).toHtmlEscaped(),
                 QString::fromStdString(b->summary).toHtmlEscaped()));
    for (const auto& p : b->params) {
        const QString def =
            p.defaultText ? unquote(QString::fromStdString(*p.defaultText)) : QString();
        QWidget* w = nullptr;
        switch (p.kind) {
        case ts::ParamKind::Dtype: {
            auto* c = new QComboBox;
            if (def == QLatin1String("None")) c->addItem(QStringLiteral("None")); // optional
            for (const auto& d : ts::knownDtypes())
                c->addItem(QString::fromStdString(d));
            c->setCurrentText(def.isEmpty() ? QStringLiteral("float16") : def);
            connect(c, &QComboBox::currentIndexChanged, this, &MappingEditor::onBuiltinEdited);
            w = c;
            break;
        }
        case ts::ParamKind::Bool: {
            auto* c = new QCheckBox;
            c->setChecked(def == QLatin1String("True") || def == QLatin1String("true"));
            connect(c, &QCheckBox::toggled, this, &MappingEditor::onBuiltinEdited);
            w = c;
            break;
        }
        case ts::ParamKind::Int: {
            auto* s = new QSpinBox;
            s->setRange(0, 1 << 20);
            if (def == QLatin1String("None")) { // optional: the minimum stands for None
                s->setRange(-1, 1 << 20);
                s->setSpecialValueText(QStringLiteral("None"));
                s->setValue(-1);
            } else {
                s->setValue(def.isEmpty() ? (p.name == "threads" ? 128 : 16) : def.toInt());
            }
            connect(s, &QSpinBox::valueChanged, this, &MappingEditor::onBuiltinEdited);
            w = s;
            break;
        }
        case ts::ParamKind::Shape:
        case ts::ParamKind::String: {
            auto* e = new QLineEdit;
            e->setText(!def.isEmpty() ? def
                                      : (p.kind == ts::ParamKind::Shape ? QStringLiteral("(32, 32)")
                                                                        : QString()));
            if (p.name == "matrix" && def.isEmpty()) e->setText(QStringLiteral("A"));
            connect(e, &QLineEdit::textEdited, this, &MappingEditor::onBuiltinEdited);
            w = e;
            break;
        }
        }
        w->setToolTip(QString::fromStdString(p.help));
        w->setObjectName(QString::fromStdString(p.name));
        builtinLayout_->addRow(QString::fromStdString(p.name), w);
        params_.emplace_back(QString::fromStdString(p.name), w);
    }
}

QString MappingEditor::textFromBuiltin() const {
    const ts::Builtin* b = ts::findBuiltin(builtin_->currentText().toStdString());
    if (!b) return {};
    QStringList args;
    for (std::size_t k = 0; k < b->params.size(); ++k) {
        const auto& p = b->params[k];
        QWidget* w = params_[k].second;
        QString v;
        switch (p.kind) {
        case ts::ParamKind::Dtype: {
            const QString d = static_cast<QComboBox*>(w)->currentText();
            v = d == QLatin1String("None") ? d : '"' + d + '"';
            break;
        }
        case ts::ParamKind::Bool:
            v = static_cast<QCheckBox*>(w)->isChecked() ? QStringLiteral("True")
                                                        : QStringLiteral("False");
            break;
        case ts::ParamKind::Int: {
            auto* sb = static_cast<QSpinBox*>(w);
            const bool none = !sb->specialValueText().isEmpty() && sb->value() == sb->minimum();
            v = none ? QStringLiteral("None") : QString::number(sb->value());
            break;
        }
        case ts::ParamKind::Shape:
            v = static_cast<QLineEdit*>(w)->text().trimmed();
            break;
        case ts::ParamKind::String:
            v = '"' + static_cast<QLineEdit*>(w)->text().trimmed() + '"';
            break;
        }
        const bool isDefault = p.defaultText && (QString::fromStdString(*p.defaultText) == v);
        if (isDefault) continue;
        const bool positional = args.size() == int(k);
        args << (positional && (p.kind == ts::ParamKind::Shape || !p.defaultText)
                     ? v
                     : QString::fromStdString(p.name) + '=' + v);
    }
    return QStringLiteral("%1(%2)").arg(QString::fromStdString(b->name),
                                        args.join(QStringLiteral(", ")));
}

bool MappingEditor::syncBuiltin(const QString& text) {
    static const QRegularExpression re(
        QStringLiteral("^\\s*(?:\\w+\\s*=\\s*)?(?:T\\.)?(make_\\w+)\\s*\\((.*)\\)\\s*$"),
        QRegularExpression::DotMatchesEverythingOption);
    const auto m = re.match(text);
    if (!m.hasMatch()) return false;
    const ts::Builtin* b = ts::findBuiltin(m.captured(1).toStdString());
    if (!b) return false;
    // Reject method chains: the argument list must close at the last ')'.
    int depth = 0;
    const QString inner = m.captured(2);
    for (QChar ch : inner) {
        if (ch == '(' || ch == '[') ++depth;
        if (ch == ')' || ch == ']') --depth;
        if (depth < 0) return false;
    }
    const int idx = builtin_->findText(m.captured(1));
    builtin_->setCurrentIndex(idx);
    rebuildBuiltinForm(idx);
    const QStringList args = splitTopLevel(inner);
    for (int k = 0; k < args.size(); ++k) {
        QString name, value = args[k];
        static const QRegularExpression kw(QStringLiteral("^(\\w+)\\s*=(?!=)\\s*(.*)$"),
                                           QRegularExpression::DotMatchesEverythingOption);
        if (auto km = kw.match(args[k]); km.hasMatch()) {
            name = km.captured(1);
            value = km.captured(2);
        } else if (k < int(b->params.size())) {
            name = QString::fromStdString(b->params[std::size_t(k)].name);
        }
        QWidget* w = builtinParamWidget(name);
        if (!w) continue;
        const QSignalBlocker block(w);
        if (auto* c = qobject_cast<QComboBox*>(w))
            c->setCurrentText(unquote(value));
        else if (auto* c = qobject_cast<QCheckBox*>(w))
            c->setChecked(value.trimmed() == QLatin1String("True"));
        else if (auto* s = qobject_cast<QSpinBox*>(w))
            s->setValue(value.trimmed() == QLatin1String("None") ? s->minimum()
                                                                 : value.trimmed().toInt());
        else if (auto* e = qobject_cast<QLineEdit*>(w))
            e->setText(unquote(value));
    }
    return true;
}

void MappingEditor::syncFields(const QString& text, const ts::Mapping& m) {
    if (text != code_->toPlainText()) return; // evaluated text that is no longer in the editor
    const bool wasUpdating = updating_;
    try {
        QStringList shape;
        updating_ = true;
        if (const auto* f = std::get_if<ts::Fragment>(&m)) {
            for (auto e : f->inputShape())
                shape << QString::number(e);
            kind_->setCurrentIndex(0);
            thread_->setText(fromPlaceholders(ts::printExpr(f->thread())));
            QStringList idx;
            for (const auto& e : f->index())
                idx << fromPlaceholders(ts::printExpr(e));
            index_->setText(idx.join(QStringLiteral(", ")));
            replicate_->setValue(int(f->replicate()));
        } else {
            const auto& l = std::get<ts::Layout>(m);
            for (auto e : l.inputShape())
                shape << QString::number(e);
            kind_->setCurrentIndex(1);
            QStringList outs;
            if (!l.isTabulated())
                for (const auto& e : l.forward())
                    outs << fromPlaceholders(ts::printExpr(e));
            thread_->clear();
            index_->setText(outs.join(QStringLiteral(", ")));
            replicate_->setValue(1);
        }
        shape_->setText('[' + shape.join(QStringLiteral(", ")) + ']');
        updateKind();
    } catch (...) {
        // A mapping the fields cannot express: keep them as they were.
    }
    updating_ = wasUpdating;
}

void MappingEditor::updateNotation(const QString& text) {
    notation_->setText(QStringLiteral("read as %1")
                           .arg(QString::fromStdString(
                               ts::notationName(ts::recognizeNotation(text.toStdString())))));
}

QString MappingEditor::notationText() const {
    return notation_->text();
}

void MappingEditor::syncFromText(const QString& text) {
    updateNotation(text);
    const bool wasUpdating = updating_;
    updating_ = true;
    if (!syncBuiltin(text)) {
        builtin_->setCurrentIndex(0);
        rebuildBuiltinForm(0);
    }
    updating_ = wasUpdating;
}

void MappingEditor::setError(int column, const QString& message, const QString& details) {
    setErrorStale(false);
    errorColumn_ = column;
    errorMessage_ = message;
    showErrorText();
    error_->setToolTip(details.isEmpty() ? message : details);
    QList<QTextEdit::ExtraSelection> sels;
    if (column > 0) {
        const QString t = code_->toPlainText();
        // Columns count from the start of the text (one-line texts); clamp to its end.
        int pos = std::min(column - 1, int(t.size()));
        int end = pos;
        while (end < t.size() && (t[end].isLetterOrNumber() || t[end] == '_'))
            ++end;
        if (end == pos) end = pos + 1;
        QTextEdit::ExtraSelection s;
        s.cursor = QTextCursor(code_->document());
        if (pos >= t.size()) {
            pos = std::max(0, int(t.size()) - 1);
            end = int(t.size());
        }
        s.cursor.setPosition(pos);
        s.cursor.setPosition(end, QTextCursor::KeepAnchor);
        s.format.setUnderlineStyle(QTextCharFormat::WaveUnderline);
        s.format.setUnderlineColor(QColor(0xd9, 0x2d, 0x20));
        s.format.setBackground(QColor(0xfd, 0xe8, 0xe6));
        s.format.setToolTip(message);
        sels << s;
    }
    code_->setExtraSelections(sels);
}

// A column counts in the code; the Fields and Builtin pages do not show it, so there the
// message says where the column is.
void MappingEditor::showErrorText() {
    if (errorMessage_.isEmpty()) return error_->clear();
    if (errorColumn_ <= 0) return error_->setText(QStringLiteral("⚠ %1").arg(errorMessage_));
    const bool codeShown = tabs_->currentIndex() == 0;
    error_->setText(codeShown
                        ? QStringLiteral("⚠ column %1: %2").arg(errorColumn_).arg(errorMessage_)
                        : QStringLiteral("⚠ %1 (column %2 of the text on the Code page)")
                              .arg(errorMessage_)
                              .arg(errorColumn_));
}

void MappingEditor::clearError() {
    setErrorStale(false);
    errorColumn_ = 0;
    errorMessage_.clear();
    error_->clear();
    error_->setToolTip({});
    code_->setExtraSelections({});
}

QString MappingEditor::errorText() const {
    return error_->text();
}

void MappingEditor::setBusy(bool busy) {
    busy_->setVisible(busy);
}

bool MappingEditor::isBusy() const {
    return !busy_->isHidden();
}

void MappingEditor::setErrorStale(bool stale) {
    if (stale == errorStale_) return;
    errorStale_ = stale;
    error_->setStyleSheet(stale ? QStringLiteral("color: #9ca3af; font-style: italic;")
                                : QStringLiteral("color: #b42318;"));
    if (stale) code_->setExtraSelections({}); // the underline pointed into older text
}

} // namespace tsw
