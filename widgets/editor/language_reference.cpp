// SPDX-License-Identifier: Apache-2.0
#include "editor/language_reference.h"

#include "common/wording.h"

#include "tilescope/layout/builtins.h"
#include "tilescope/notation/mapping.h"

#include <QDialogButtonBox>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScreen>
#include <QTextBrowser>
#include <QVBoxLayout>

#include <map>

namespace tsw {

namespace {

struct Entry {
    QString code, text;
};

QString kindName(ts::ParamKind k) {
    switch (k) {
    case ts::ParamKind::Shape:
        return QStringLiteral("shape");
    case ts::ParamKind::Dtype:
        return QStringLiteral("dtype");
    case ts::ParamKind::Int:
        return QStringLiteral("int");
    case ts::ParamKind::Bool:
        return QStringLiteral("bool");
    case ts::ParamKind::String:
        return QStringLiteral("string");
    }
    return {};
}

const std::vector<Entry>& constructors() {
    static const std::vector<Entry> e = {
        {QStringLiteral("T.Layout(shape, lambda i, j: (r, c))"),
         QStringLiteral("A layout: each logical index goes to physical coordinates (shared "
                        "memory, global memory).")},
        {QStringLiteral("T.Fragment(shape, forward_thread_fn=lambda i, j: t, "
                        "forward_index_fn=lambda i, j: s)"),
         QStringLiteral("A fragment: each logical index goes to a thread and a register slot.")},
        {QStringLiteral("T.Fragment(shape, forward_fn=lambda i, j: (t, s))"),
         QStringLiteral("Thread and slot from one lambda.")},
        {QStringLiteral("T.Fragment(shape, forward_thread_fn=lambda i, rep: t, replicate=R)"),
         QStringLiteral("R copies of each element; the last lambda parameter is the replica. "
                        "Without forward_index_fn the slots are inferred.")},
        {QStringLiteral("frag = T.Fragment(...)  # comment"),
         QStringLiteral("Pasted code works: an assignment, newlines, comments, T.-prefixed "
                        "builtins.")},
    };
    return e;
}

const std::vector<Entry>& methods() {
    static const std::vector<Entry> e = {
        {QStringLiteral("Layout.repeat(dim, factor)"),
         QStringLiteral("Repeats the layout factor times along dimension dim.")},
        {QStringLiteral("Layout.expand(leading_shape)"),
         QStringLiteral("Adds leading dimensions that index whole copies.")},
        {QStringLiteral("Fragment.repeat(repeats, repeat_on_thread=False, lower_dim_first=True)"),
         QStringLiteral("Tiles the fragment; copies go to new registers, or to new threads with "
                        "repeat_on_thread=True.")},
        {QStringLiteral("Fragment.replicate(n)"), QStringLiteral("n threads hold each element.")},
        {QStringLiteral("Fragment.condense_rep_var()"),
         QStringLiteral("Folds the replica variable into the thread map, as TileLang does.")},
        {QStringLiteral(".inverse()"),
         QStringLiteral("The inverse mapping; an error names the first two colliding cells, or "
                        "the first unreached output, when the layout is not a bijection.")},
    };
    return e;
}

const std::vector<Entry>& operators() {
    static const std::vector<Entry> e = {
        {QStringLiteral("+  -  *  //  %"),
         QStringLiteral("Integer arithmetic; // and % round toward minus infinity, as in "
                        "Python.")},
        {QStringLiteral("^  &  |  <<  >>"), QStringLiteral("Bitwise operators.")},
        {QStringLiteral("<  <=  >  >=  ==  !="),
         QStringLiteral("Comparisons give a truth value: 1 or 0 where it meets an integer, as TVM "
                        "casts it ((i < 4) * 32 + j); a layout output must not be one.")},
        {QStringLiteral("-x   (x)"), QStringLiteral("Unary minus and parentheses.")},
        {QStringLiteral("_i, _j, ..., _rep"),
         QStringLiteral("The placeholders TileLang prints in dumps; dump text parses as typed "
                        "text does.")},
    };
    return e;
}

QString functionHelp(const std::string& name) {
    static const std::map<std::string, QString> help = {
        {"min", QStringLiteral("The smallest of two or more values.")},
        {"max", QStringLiteral("The largest of two or more values.")},
        {"T.min", QStringLiteral("As min (how TVM prints it).")},
        {"T.max", QStringLiteral("As max (how TVM prints it).")},
        {"T.floordiv", QStringLiteral("Floor division, as //.")},
        {"T.floormod", QStringLiteral("Floor modulo, as %.")},
        {"T.truncdiv", QStringLiteral("Division rounding toward zero.")},
        {"T.truncmod", QStringLiteral("Remainder with the sign of the dividend.")},
        {"T.Div", QStringLiteral("As T.truncdiv.")},
        {"T.Mod", QStringLiteral("As T.truncmod.")},
        {"T.bitwise_xor", QStringLiteral("As ^.")},
        {"T.bitwise_and", QStringLiteral("As &.")},
        {"T.bitwise_or", QStringLiteral("As |.")},
        {"T.shift_left", QStringLiteral("As <<.")},
        {"T.shift_right", QStringLiteral("As >>.")},
        {"T.Cast", QStringLiteral("T.Cast(dtype, x): x, unchanged (index arithmetic is exact).")},
        {"T.if_then_else", QStringLiteral("T.if_then_else(cond, a, b): a where cond holds, else b; "
                                          "cond is a comparison such as i < 4.")},
        {"T.Select", QStringLiteral("T.Select(cond, a, b): as T.if_then_else, with a and b of one "
                                    "type.")},
        {"T.And", QStringLiteral("Both truth values.")},
        {"T.Or", QStringLiteral("Either truth value.")},
        {"T.Not", QStringLiteral("The opposite truth value.")},
        {"T.likely", QStringLiteral("Its argument (a hint to the code generator).")},
        {"T.bool",
         QStringLiteral("An integer that is 0 or 1 as a truth value (TVM refuses others).")},
        {"T.abs", QStringLiteral("The absolute value.")},
    };
    if (auto it = help.find(name); it != help.end()) return it->second;
    if (name.rfind("T.int", 0) == 0 || name.rfind("T.uint", 0) == 0)
        return QStringLiteral("A typed literal, e.g. %1(5): the value, unchanged.")
            .arg(QString::fromStdString(name));
    return {};
}

bool matches(const QStringList& words, const QString& haystack) {
    for (const QString& w : words)
        if (!haystack.contains(w, Qt::CaseInsensitive)) return false;
    return true;
}

QString entryHtml(const QString& code, const QString& text) {
    return QStringLiteral("<p style='margin-top:6px;margin-bottom:0'><code><b>%1</b></code><br>%2"
                          "</p>")
        .arg(code.toHtmlEscaped(), text.toHtmlEscaped());
}

} // namespace

QString LanguageReference::html(const QString& filter, QStringList* shownBuiltins,
                                int* shownEntries) {
    const QStringList words = filter.simplified().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    QString out;
    int entries = 0;
    auto section = [&](const QString& title, const std::vector<Entry>& list) {
        QString body;
        for (const Entry& e : list)
            if (matches(words, e.code + QLatin1Char(' ') + e.text)) {
                body += entryHtml(e.code, e.text);
                ++entries;
            }
        if (!body.isEmpty()) out += QStringLiteral("<h3>%1</h3>").arg(title) + body;
    };
    section(QStringLiteral("Layouts and fragments"), constructors());
    section(QStringLiteral("Methods"), methods());

    std::vector<Entry> exprs = operators();
    for (const std::string& f : ts::expressionFunctions())
        exprs.push_back({QString::fromStdString(f) + QStringLiteral("(…)"), functionHelp(f)});
    section(QStringLiteral("Index expressions"), exprs);

    QString builtinsBody;
    QStringList shown;
    for (const ts::Builtin& b : ts::builtins()) {
        QString params;
        QString search = QString::fromStdString(b.name + " " + b.summary);
        for (const ts::BuiltinParam& p : b.params) {
            params +=
                QStringLiteral("<br>&nbsp;&nbsp;<code>%1</code> <i>%2</i>%3%4")
                    .arg(QString::fromStdString(p.name).toHtmlEscaped(), kindName(p.kind),
                         p.defaultText
                             ? QStringLiteral(" = <code>%1</code>")
                                   .arg(QString::fromStdString(*p.defaultText).toHtmlEscaped())
                             : QString(),
                         p.help.empty() ? QString()
                                        : QStringLiteral(": ") +
                                              QString::fromStdString(p.help).toHtmlEscaped());
            search += QString::fromStdString(" " + p.name + " " + p.help);
        }
        if (!matches(words, search)) continue;
        shown << QString::fromStdString(b.name);
        builtinsBody +=
            QStringLiteral(
                "<p style='margin-top:6px;margin-bottom:0'><code><b>%1</b></code><br>%2%3"
                "</p>")
                .arg(QString::fromStdString(ts::builtinSignature(b)).toHtmlEscaped(),
                     QString::fromStdString(b.summary).toHtmlEscaped(), params);
    }
    if (!builtinsBody.isEmpty())
        out +=
            QStringLiteral("<h3>Builtins (%1)</h3>")
                .arg(
                    shown.size() == int(ts::builtins().size())
                        ? QString::number(shown.size())
                        : QStringLiteral("%1 of %2").arg(shown.size()).arg(ts::builtins().size())) +
            QStringLiteral("<p>They take <code>(shape, dtype)</code> where TileLang takes a "
                           "buffer.</p>") +
            builtinsBody;

    QStringList dtypes;
    for (const std::string& d : ts::knownDtypes())
        dtypes << QString::fromStdString(d);
    const QString dt = dtypes.join(QStringLiteral(", "));
    if (matches(words, QStringLiteral("dtype dtypes ") + dt)) {
        out += QStringLiteral("<h3>Dtypes</h3><p>%1</p>").arg(dt.toHtmlEscaped());
        ++entries;
    }
    if (out.isEmpty())
        out = QStringLiteral("<p>Nothing matches “%1”.</p>").arg(filter.toHtmlEscaped());
    if (shownBuiltins) *shownBuiltins = shown;
    if (shownEntries) *shownEntries = entries + int(shown.size());
    return out;
}

QRect LanguageReference::fittedGeometry(const QRect& available) {
    // Room is left for the window manager's title bar and frame.
    const int w = std::min(780, int(available.width() * 0.9));
    const int h = std::min(760, int(available.height() * 0.85));
    QRect r(0, 0, w, h);
    r.moveCenter(available.center());
    return r;
}

LanguageReference::LanguageReference(QWidget* parent) : QDialog(parent) {
    setObjectName(QStringLiteral("languageReference"));
    setWindowTitle(QStringLiteral("Mapping Language Reference"));
    setModal(false);
    filter_ = new QLineEdit(this);
    filter_->setObjectName(QStringLiteral("referenceFilter"));
    filter_->setPlaceholderText(QStringLiteral("Filter: swizzle, mma, floordiv, replicate…"));
    filter_->setClearButtonEnabled(true);
    count_ = new QLabel(this);
    count_->setStyleSheet(QStringLiteral("color: #6b7280;"));
    browser_ = new QTextBrowser(this);
    browser_->setObjectName(QStringLiteral("referenceText"));
    browser_->setOpenLinks(false);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::close);

    auto* top = new QHBoxLayout;
    top->addWidget(filter_, 1);
    top->addWidget(count_);
    auto* v = new QVBoxLayout(this);
    v->addLayout(top);
    v->addWidget(browser_, 1);
    v->addWidget(buttons);
    // Small enough for any laptop screen; the text scrolls.
    setMinimumSize(360, 260);
    connect(filter_, &QLineEdit::textChanged, this, [this] { refresh(); });
    refresh();
}

void LanguageReference::setFilter(const QString& text) {
    filter_->setText(text);
}

QString LanguageReference::filter() const {
    return filter_->text();
}

void LanguageReference::refresh() {
    browser_->setHtml(html(filter_->text(), &shownBuiltins_, &shownEntries_));
    count_->setText(
        filter_->text().trimmed().isEmpty()
            ? countNoun(qint64(ts::builtins().size()), QStringLiteral("builtin"))
            : countNoun(shownEntries_, QStringLiteral("match"), QStringLiteral("matches")));
}

LanguageReference* LanguageReference::showFor(QWidget* owner) {
    auto* ref = owner->findChild<LanguageReference*>(QStringLiteral("languageReference"),
                                                     Qt::FindDirectChildrenOnly);
    const bool fresh = !ref;
    if (fresh) ref = new LanguageReference(owner);
    if (fresh) {
        QScreen* screen = owner->screen() ? owner->screen() : QGuiApplication::primaryScreen();
        if (screen) ref->setGeometry(fittedGeometry(screen->availableGeometry()));
    }
    ref->show();
    ref->raise();
    ref->activateWindow();
    ref->filter_->setFocus();
    ref->filter_->selectAll();
    return ref;
}

} // namespace tsw
