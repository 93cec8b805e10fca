// SPDX-License-Identifier: Apache-2.0
#include "window/compare_dialog.h"

#include "document/documentmodel.h"
#include "trace/trace_viewer.h"

#include "tilescope/notation/compare_pair.h"
#include "tilescope/notation/mapping.h"
#include "tilescope/support/errors.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QVBoxLayout>
#include <optional>
#include <variant>

namespace tsw {

CompareDialog::CompareDialog(DocumentModel* doc, QWidget* parent) : QDialog(parent), doc_(doc) {
    setWindowTitle(QStringLiteral("Compare Layouts"));
    setObjectName(QStringLiteral("compareDialog"));
    auto* row = new QHBoxLayout;
    for (int k = 0; k < 2; ++k) {
        boxes_[k] = new QComboBox(this);
        boxes_[k]->setObjectName(k ? QStringLiteral("compareRight")
                                   : QStringLiteral("compareLeft"));
        boxes_[k]->setSizeAdjustPolicy(QComboBox::AdjustToContents);
        row->addWidget(new QLabel(k ? QStringLiteral("with") : QStringLiteral("Compare"), this));
        row->addWidget(boxes_[k], 1);
        connect(boxes_[k], &QComboBox::currentIndexChanged, this, &CompareDialog::refresh);
    }
    message_ = new QLabel(this);
    message_->setObjectName(QStringLiteral("compareMessage"));
    message_->setWordWrap(true);
    message_->setStyleSheet(QStringLiteral("color: #b00020;"));
    view_ = new ComparisonView(this);
    // "Open in Editor" on a side makes that layout the active one (it is already a project
    // layout: nothing to add).
    connect(view_, &ComparisonView::openInEditor, this, [this](int k) {
        if (side(k) >= 0) doc_->setActive(side(k));
    });
    auto* v = new QVBoxLayout(this);
    v->addLayout(row);
    v->addWidget(message_);
    v->addWidget(view_, 1);
    resize(1100, 650);
    // Any change of what the sides show redraws them; nothing stays from text that is gone.
    connect(doc_, &DocumentModel::textChanged, this, [this](int i) {
        if (i == side(0) || i == side(1)) refresh();
    });
    for (auto sig : {&DocumentModel::nameChanged, &DocumentModel::layoutInserted,
                     &DocumentModel::layoutRemoved})
        connect(doc_, sig, this, &CompareDialog::repopulate);
    // A moved layout stays the side it was: the sides follow their layouts to the new indices.
    connect(doc_, &DocumentModel::layoutMoved, this, [this](int from, int to) {
        auto moved = [from, to](int i) {
            if (i == from) return to;
            if (from < i && i <= to) return i - 1;
            if (to <= i && i < from) return i + 1;
            return i;
        };
        const int a = side(0), b = side(1);
        repopulate();
        setPair(moved(a), b < 0 ? b : moved(b));
    });
    connect(doc_, &DocumentModel::documentReset, this, [this] {
        repopulate();
        showDefaultPair();
    });
    repopulate();
    showDefaultPair();
}

void CompareDialog::showDefaultPair() {
    setPair(doc_->active(), -1);
}

int CompareDialog::side(int k) const {
    return boxes_[k]->currentIndex();
}

QString CompareDialog::messageText() const {
    return message_->text();
}

void CompareDialog::setPair(int a, int b) {
    const QSignalBlocker b0(boxes_[0]), b1(boxes_[1]);
    boxes_[0]->setCurrentIndex(a);
    boxes_[1]->setCurrentIndex(b);
    refresh();
}

void CompareDialog::repopulate() {
    const int keep[2] = {side(0), side(1)};
    for (int k = 0; k < 2; ++k) {
        const QSignalBlocker block(boxes_[k]);
        boxes_[k]->clear();
        for (int i = 0; i < doc_->count(); ++i)
            boxes_[k]->addItem(QString::fromStdString(doc_->layout(i).name));
        boxes_[k]->setCurrentIndex(std::min(keep[k], doc_->count() - 1));
    }
    refresh();
}

void CompareDialog::refresh() {
    const int a = side(0), b = side(1);
    if (a >= 0 && a < doc_->count() && b < 0) {
        // Only two fragments or two T.Layouts compare cell by cell: the nearest of a's kind.
        const ts::ComparePartner p =
            ts::nearestComparable(doc_->document().layouts, std::size_t(a));
        if (p.index) {
            setPair(a, int(*p.index));
            return;
        }
        view_->clear();
        message_->setText(QString::fromStdString(p.why) +
                          QStringLiteral(": add one, or choose two of one kind above."));
        return;
    }
    if (a < 0 || b < 0 || a >= doc_->count() || b >= doc_->count()) {
        view_->clear();
        message_->setText(QStringLiteral("Add a second layout to compare."));
        return;
    }
    std::optional<ts::Mapping> m[2];
    QString names[2], texts[2];
    for (int k = 0; k < 2; ++k) {
        const ts::DocLayout& l = doc_->layout(k ? b : a);
        names[k] = QString::fromStdString(l.name);
        texts[k] = QString::fromStdString(l.text);
        try {
            m[k] = ts::parseMapping(l.text);
            const ts::Shape& s =
                std::visit([](const auto& x) -> const ts::Shape& { return x.inputShape(); }, *m[k]);
            long long cells = 1;
            for (auto d : s)
                cells *= d;
            if (cells > kMaxCells) {
                view_->clear();
                message_->setText(QStringLiteral("«%1» has %2 cells, more than this view compares "
                                                 "(%3): use tilescope-cli diff.")
                                      .arg(names[k])
                                      .arg(cells)
                                      .arg(kMaxCells));
                return;
            }
        } catch (const std::exception& e) {
            view_->clear();
            message_->setText(
                QStringLiteral("«%1»: %2").arg(names[k], QString::fromUtf8(e.what())));
            return;
        }
    }
    message_->clear();
    view_->setLayouts(*m[0], names[0], texts[0], *m[1], names[1], texts[1]);
}

} // namespace tsw
