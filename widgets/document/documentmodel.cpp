// SPDX-License-Identifier: Apache-2.0
#include "document/documentmodel.h"

#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QUndoCommand>
#include <algorithm>

namespace tsw {

namespace {

enum CommandId { kTypingId = 1, kAnalysisId = 2 };

class SetTextCmd : public QUndoCommand {
public:
    SetTextCmd(DocumentModel* m, int i, QString before, QString after, bool typing)
        : m_(m), i_(i), before_(std::move(before)), after_(std::move(after)), typing_(typing) {
        setText(
            QStringLiteral("Edit mapping of “%1”").arg(QString::fromStdString(m->layout(i).name)));
        stamp_ = QDateTime::currentMSecsSinceEpoch();
    }
    void undo() override { m_->applyText(i_, before_); }
    void redo() override { m_->applyText(i_, after_); }
    int id() const override { return typing_ ? kTypingId : -1; }
    bool mergeWith(const QUndoCommand* other) override {
        auto* o = static_cast<const SetTextCmd*>(other);
        // Consecutive keystrokes within a second form one undo step.
        if (o->i_ != i_ || !o->typing_ || o->stamp_ - stamp_ > 1000) return false;
        after_ = o->after_;
        stamp_ = o->stamp_;
        return true;
    }

private:
    DocumentModel* m_;
    int i_;
    QString before_, after_;
    bool typing_;
    qint64 stamp_;
};

class SetAnalysisCmd : public QUndoCommand {
public:
    SetAnalysisCmd(DocumentModel* m, int i, ts::AnalysisSettings before, ts::AnalysisSettings after)
        : m_(m), i_(i), before_(std::move(before)), after_(std::move(after)) {
        setText(
            QStringLiteral("Bank access of “%1”").arg(QString::fromStdString(m->layout(i).name)));
        stamp_ = QDateTime::currentMSecsSinceEpoch();
    }
    void undo() override { m_->applyAnalysis(i_, before_); }
    void redo() override { m_->applyAnalysis(i_, after_); }
    int id() const override { return kAnalysisId; }
    bool mergeWith(const QUndoCommand* other) override {
        auto* o = static_cast<const SetAnalysisCmd*>(other);
        if (o->i_ != i_ || o->stamp_ - stamp_ > 1000) return false;
        after_ = o->after_;
        stamp_ = o->stamp_;
        return true;
    }

private:
    DocumentModel* m_;
    int i_;
    ts::AnalysisSettings before_, after_;
    qint64 stamp_;
};

class RenameCmd : public QUndoCommand {
public:
    RenameCmd(DocumentModel* m, int i, QString before, QString after)
        : m_(m), i_(i), before_(std::move(before)), after_(std::move(after)) {
        setText(QStringLiteral("Rename layout"));
    }
    void undo() override { m_->applyName(i_, before_); }
    void redo() override { m_->applyName(i_, after_); }

private:
    DocumentModel* m_;
    int i_;
    QString before_, after_;
};

class CaptionCmd : public QUndoCommand {
public:
    CaptionCmd(DocumentModel* m, int i, QString before, QString after)
        : m_(m), i_(i), before_(std::move(before)), after_(std::move(after)) {
        setText(QStringLiteral("Caption of “%1”").arg(QString::fromStdString(m->layout(i).name)));
    }
    void undo() override { m_->applyCaption(i_, before_); }
    void redo() override { m_->applyCaption(i_, after_); }

private:
    DocumentModel* m_;
    int i_;
    QString before_, after_;
};

class MoveCmd : public QUndoCommand {
public:
    MoveCmd(DocumentModel* m, int from, int to) : m_(m), from_(from), to_(to) {
        setText(QStringLiteral("Move “%1” to position %2")
                    .arg(QString::fromStdString(m->layout(from).name))
                    .arg(to + 1));
    }
    void undo() override { m_->applyMove(to_, from_); }
    void redo() override { m_->applyMove(from_, to_); }

private:
    DocumentModel* m_;
    int from_, to_;
};

class InsertCmd : public QUndoCommand {
public:
    InsertCmd(DocumentModel* m, int at, ts::DocLayout l, bool insert, const QString& text)
        : m_(m), at_(at), l_(std::move(l)), insert_(insert) {
        setText(text);
        if (!insert_) id_ = m_->idAt(at_);
    }
    // The layout put back (a delete undone, an insert redone) is the same layout: same id.
    void undo() override {
        insert_ ? m_->applyRemove(at_) : void(id_ = m_->applyInsert(at_, l_, id_));
    }
    void redo() override {
        insert_ ? void(id_ = m_->applyInsert(at_, l_, id_)) : m_->applyRemove(at_);
    }

private:
    DocumentModel* m_;
    int at_;
    ts::DocLayout l_;
    bool insert_;
    LayoutId id_ = 0;
};

} // namespace

ts::Document defaultDocument() {
    ts::Document d;
    ts::DocLayout l;
    l.name = "gemm 8x8 fragment";
    l.text = "T.Fragment([8, 8], forward_thread_fn=lambda i, j: 4 * i + j // 2, "
             "forward_index_fn=lambda i, j: j % 2)";
    d.layouts.push_back(l);
    return d;
}

DocumentModel::DocumentModel(QObject* parent) : QObject(parent), doc_(defaultDocument()) {
    renumber();
    connect(&undo_, &QUndoStack::cleanChanged, this, [this] {
        const bool d = isDirty();
        if (d != lastDirty_) {
            lastDirty_ = d;
            emit dirtyChanged(d);
        }
    });
}

// The undo stack, destroyed after this body, emits cleanChanged on its way out; by then the
// window listening to dirtyChanged may be half destroyed (UBSan caught the call into it).
DocumentModel::~DocumentModel() {
    disconnect(&undo_, nullptr, this, nullptr);
    blockSignals(true);
}

const ts::DocLayout* DocumentModel::activeLayout() const {
    if (doc_.active < 0 || doc_.active >= count()) return nullptr;
    return &doc_.layouts[std::size_t(doc_.active)];
}

LayoutId DocumentModel::idAt(int i) const {
    return i >= 0 && i < int(ids_.size()) ? ids_[std::size_t(i)] : 0;
}
int DocumentModel::indexOf(LayoutId id) const {
    if (id == 0) return -1;
    for (std::size_t i = 0; i < ids_.size(); ++i)
        if (ids_[i] == id) return int(i);
    return -1;
}
QString DocumentModel::nameOf(LayoutId id) const {
    const int i = indexOf(id);
    return i < 0 ? QString() : QString::fromStdString(layout(i).name);
}
quint64 DocumentModel::revisionAt(int i) const {
    return i >= 0 && i < int(revisions_.size()) ? revisions_[std::size_t(i)] : 0;
}
quint64 DocumentModel::revisionOf(LayoutId id) const {
    return revisionAt(indexOf(id));
}
void DocumentModel::renumber() {
    ids_.clear();
    revisions_.clear();
    for (std::size_t i = 0; i < doc_.layouts.size(); ++i) {
        ids_.push_back(nextId_++);
        revisions_.push_back(nextRevision_++);
    }
}

QString DocumentModel::displayName() const {
    return path_.isEmpty() ? QStringLiteral("Untitled") : QFileInfo(path_).fileName();
}

void DocumentModel::setText(int i, const QString& text, bool typing) {
    if (i < 0 || i >= count()) return;
    const QString before = QString::fromStdString(layout(i).text);
    if (before == text) return;
    undo_.push(new SetTextCmd(this, i, before, text, typing));
}

// How a layout is looked at is not an edit of the project: a teacher who only browses a sample
// is not asked to save it, and undo steps stay about mappings and layouts. The view is still
// written whenever the project is saved.
void DocumentModel::setView(int i, const ts::ViewSettings& v) {
    if (i < 0 || i >= count() || layout(i).view == v) return;
    applyView(i, v);
}

void DocumentModel::setAnalysis(int i, const ts::AnalysisSettings& a) {
    if (i < 0 || i >= count() || layout(i).analysis == a) return;
    undo_.push(new SetAnalysisCmd(this, i, layout(i).analysis, a));
}

void DocumentModel::rename(int i, const QString& name) {
    if (i < 0 || i >= count()) return;
    const QString t = name.trimmed();
    if (t.isEmpty() || t.toStdString() == layout(i).name) return;
    undo_.push(new RenameCmd(this, i, QString::fromStdString(layout(i).name), t));
}

void DocumentModel::setCaption(int i, const QString& caption) {
    if (i < 0 || i >= count()) return;
    // One line: the caption is drawn as one line above the grid (a pasted line break would
    // push the grid down and out of a presenter's screen).
    QString c = caption;
    c.replace(QLatin1Char('\n'), QLatin1Char(' ')).replace(QLatin1Char('\r'), QLatin1Char(' '));
    c = c.trimmed();
    const QString before = QString::fromStdString(layout(i).caption);
    if (c == before) return;
    undo_.push(new CaptionCmd(this, i, before, c));
}

void DocumentModel::moveLayout(int from, int to) {
    if (from < 0 || from >= count() || to < 0 || to >= count() || from == to) return;
    undo_.push(new MoveCmd(this, from, to));
}

QString DocumentModel::uniqueName(const QString& base) const {
    QString n = base;
    for (int k = 2;; ++k) {
        if (!doc_.find(n.toStdString())) return n;
        n = QStringLiteral("%1 %2").arg(base).arg(k);
    }
}

int DocumentModel::receiveLayout(const QString& name, const QString& text, int replace) {
    const bool hadEdits = isDirty();
    int at = replace;
    if (replace >= 0 && replace < count()) {
        setText(replace, text);
        rename(replace, name);
    } else {
        at = addLayout({name.toStdString(), text.toStdString(), {}, {}});
    }
    if (!hadEdits) undo_.setClean();
    return at;
}

int DocumentModel::addLayout(const ts::DocLayout& l, int at, const QString& undoText) {
    if (at < 0 || at > count()) at = count();
    ts::DocLayout x = l;
    x.name = uniqueName(QString::fromStdString(l.name.empty() ? "layout" : l.name)).toStdString();
    const QString name = QString::fromStdString(x.name);
    undo_.push(new InsertCmd(this, at, x, true,
                             undoText.isEmpty() ? QStringLiteral("Add layout “%1”").arg(name)
                                                : undoText.arg(name)));
    setActive(at);
    return at;
}

void DocumentModel::removeLayout(int i) {
    if (i < 0 || i >= count() || count() <= 1) return; // a project keeps at least one layout
    undo_.push(new InsertCmd(
        this, i, layout(i), false,
        QStringLiteral("Delete layout “%1”").arg(QString::fromStdString(layout(i).name))));
}

void DocumentModel::duplicateLayout(int i) {
    if (i < 0 || i >= count()) return;
    ts::DocLayout l = layout(i);
    l.name += " copy";
    addLayout(l, i + 1, QStringLiteral("Duplicate layout as “%1”"));
}

void DocumentModel::setActive(int i) {
    if (i < 0 || i >= count() || i == doc_.active) return;
    doc_.active = i;
    emit activeChanged(i);
}

void DocumentModel::applyText(int i, const QString& text) {
    doc_.layouts[std::size_t(i)].text = text.toStdString();
    revisions_[std::size_t(i)] = nextRevision_++;
    setActive(i);
    emit textChanged(i);
}
void DocumentModel::applyView(int i, const ts::ViewSettings& v) {
    doc_.layouts[std::size_t(i)].view = v;
    setActive(i);
    emit viewChanged(i);
}
void DocumentModel::applyAnalysis(int i, const ts::AnalysisSettings& a) {
    doc_.layouts[std::size_t(i)].analysis = a;
    emit analysisChanged(i);
}
void DocumentModel::applyName(int i, const QString& name) {
    doc_.layouts[std::size_t(i)].name = name.toStdString();
    emit nameChanged(i);
}
void DocumentModel::applyCaption(int i, const QString& caption) {
    doc_.layouts[std::size_t(i)].caption = caption.toStdString();
    emit captionChanged(i);
}
void DocumentModel::applyMove(int from, int to) {
    emit layoutAboutToBeMoved(from, to);
    auto rotate = [from, to](auto& v) {
        if (from < to)
            std::rotate(v.begin() + from, v.begin() + from + 1, v.begin() + to + 1);
        else
            std::rotate(v.begin() + to, v.begin() + from, v.begin() + from + 1);
    };
    rotate(doc_.layouts);
    rotate(ids_);
    rotate(revisions_);
    // The active layout stays active wherever it now is.
    int a = doc_.active;
    if (a == from)
        a = to;
    else if (from < a && a <= to)
        --a;
    else if (to <= a && a < from)
        ++a;
    const bool activeMoved = a != doc_.active;
    doc_.active = a;
    emit layoutMoved(from, to);
    if (activeMoved) emit activeChanged(a);
}
LayoutId DocumentModel::applyInsert(int at, const ts::DocLayout& l, LayoutId id) {
    emit layoutAboutToBeInserted(at);
    if (id == 0) id = nextId_++;
    doc_.layouts.insert(doc_.layouts.begin() + at, l);
    ids_.insert(ids_.begin() + at, id);
    revisions_.insert(revisions_.begin() + at, nextRevision_++);
    if (doc_.active >= at) ++doc_.active;
    emit layoutInserted(at);
    doc_.active = -1;
    setActive(at);
    return id;
}
void DocumentModel::applyRemove(int at) {
    emit layoutAboutToBeRemoved(at);
    doc_.layouts.erase(doc_.layouts.begin() + at);
    ids_.erase(ids_.begin() + at);
    revisions_.erase(revisions_.begin() + at);
    emit layoutRemoved(at);
    const int a = std::min(at, count() - 1);
    doc_.active = -1;
    setActive(a);
}

void DocumentModel::setPath(const QString& p) {
    if (p == path_) return;
    path_ = p;
    emit filePathChanged(p);
}

void DocumentModel::setForcedDirty(bool d) {
    forcedDirty_ = d;
    const bool now = isDirty();
    if (now != lastDirty_) {
        lastDirty_ = now;
        emit dirtyChanged(now);
    }
}

void DocumentModel::replaceDocument(const ts::Document& d, const QString& path, bool dirty) {
    undo_.clear();
    emit documentAboutToReset();
    doc_ = d;
    if (doc_.layouts.empty()) doc_ = defaultDocument();
    doc_.active = std::clamp(doc_.active, 0, count() - 1);
    renumber();
    ++projectSerial_;
    setPath(path);
    undo_.setClean();
    emit documentReset();
    emit activeChanged(doc_.active);
    setForcedDirty(dirty);
}

void DocumentModel::newDocument() {
    replaceDocument(defaultDocument(), QString(), false);
}

bool DocumentModel::loadJson(const QByteArray& json, const QString& fileName, QString* error) {
    try {
        ts::Document d = ts::parseDocument(json.toStdString(), fileName.toStdString());
        if (d.layouts.empty())
            throw ts::DocumentError(fileName.toStdString(), "/layouts",
                                    "the project has no layouts");
        replaceDocument(d, fileName, false);
        return true;
    } catch (const ts::DocumentError& e) {
        if (error) {
            *error = QString::fromUtf8(e.what());
            if (!e.jsonPath().empty() && !error->contains(QString::fromStdString(e.jsonPath())))
                *error += QStringLiteral(" (at %1)").arg(QString::fromStdString(e.jsonPath()));
        }
    } catch (const std::exception& e) {
        if (error) *error = QStringLiteral("%1: %2").arg(fileName, QString::fromUtf8(e.what()));
    }
    return false;
}

bool DocumentModel::load(const QString& path, QString* error) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        if (error) *error = QStringLiteral("cannot open %1: %2").arg(path, f.errorString());
        return false;
    }
    if (f.size() > (64 << 20)) {
        if (error)
            *error = QStringLiteral("%1 is larger than 64 MiB; not a project file").arg(path);
        return false;
    }
    return loadJson(f.readAll(), QFileInfo(path).absoluteFilePath(), error);
}

void DocumentModel::setRunsJson(const QByteArray& runs) {
    const std::string r = runs.toStdString();
    if (r == doc_.runs) return;
    doc_.runs = r;
    setForcedDirty(true);
}

QByteArray DocumentModel::toJson() const {
    return QByteArray::fromStdString(ts::serializeDocument(doc_));
}

bool DocumentModel::save(const QString& path, QString* error) {
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly)) {
        if (error) *error = QStringLiteral("cannot write %1: %2").arg(path, f.errorString());
        return false;
    }
    f.write(toJson());
    if (!f.commit()) {
        if (error) *error = QStringLiteral("cannot write %1: %2").arg(path, f.errorString());
        return false;
    }
    setPath(QFileInfo(path).absoluteFilePath());
    undo_.setClean();
    setForcedDirty(false);
    return true;
}

} // namespace tsw
