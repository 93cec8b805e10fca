// SPDX-License-Identifier: Apache-2.0
// The kernel source with line numbers (see source_view.h).
#include "kernel/source_view.h"

#include <QFontDatabase>
#include <QPainter>
#include <QTextBlock>

namespace tsw {

namespace {
class Gutter : public QWidget {
public:
    explicit Gutter(SourceView* v) : QWidget(v), view_(v) {}
    QSize sizeHint() const override { return {view_->gutterWidth(), 0}; }

protected:
    void paintEvent(QPaintEvent* e) override { view_->paintGutter(e); }

private:
    SourceView* view_;
};
} // namespace

SourceView::SourceView(QWidget* parent) : QPlainTextEdit(parent) {
    setReadOnly(true);
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    // Selecting text to copy stays possible; the caret is not drawn in a read-only view.
    setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    gutter_ = new Gutter(this);
    connect(this, &QPlainTextEdit::blockCountChanged, this,
            [this] { setViewportMargins(gutterWidth(), 0, 0, 0); });
    connect(this, &QPlainTextEdit::updateRequest, this, &SourceView::updateGutter);
    setViewportMargins(gutterWidth(), 0, 0, 0);
}

void SourceView::setSource(const QString& text) {
    marked_ = 0;
    setExtraSelections({});
    setPlainText(text);
}

int SourceView::gutterWidth() const {
    int digits = 1;
    for (int n = std::max(1, blockCount()); n >= 10; n /= 10)
        ++digits;
    return 10 + fontMetrics().horizontalAdvance(QLatin1Char('9')) * std::max(digits, 3);
}

void SourceView::resizeEvent(QResizeEvent* e) {
    QPlainTextEdit::resizeEvent(e);
    const QRect cr = contentsRect();
    gutter_->setGeometry(QRect(cr.left(), cr.top(), gutterWidth(), cr.height()));
}

void SourceView::updateGutter(const QRect& rect, int dy) {
    if (dy)
        gutter_->scroll(0, dy);
    else
        gutter_->update(0, rect.y(), gutter_->width(), rect.height());
}

void SourceView::paintGutter(QPaintEvent* e) {
    QPainter p(gutter_);
    p.fillRect(e->rect(), QColor(244, 244, 246));
    QTextBlock block = firstVisibleBlock();
    int n = block.blockNumber();
    int top = qRound(blockBoundingGeometry(block).translated(contentOffset()).top());
    int bottom = top + qRound(blockBoundingRect(block).height());
    while (block.isValid() && top <= e->rect().bottom()) {
        if (block.isVisible() && bottom >= e->rect().top()) {
            const bool mark = n + 1 == marked_;
            QFont f = font();
            f.setBold(mark);
            p.setFont(f);
            p.setPen(mark ? (error_ ? QColor(180, 20, 20) : QColor(0, 70, 170))
                          : QColor(130, 130, 140));
            p.drawText(0, top, gutter_->width() - 5, fontMetrics().height(), Qt::AlignRight,
                       QString::number(n + 1));
        }
        block = block.next();
        top = bottom;
        bottom = top + qRound(blockBoundingRect(block).height());
        ++n;
    }
}

void SourceView::markLine(int line, bool error) {
    marked_ = line;
    error_ = error;
    QList<QTextEdit::ExtraSelection> sel;
    const QTextBlock b = line > 0 ? document()->findBlockByNumber(line - 1) : QTextBlock();
    if (b.isValid()) {
        QTextEdit::ExtraSelection s;
        s.format.setBackground(error ? QColor(253, 218, 214) : QColor(207, 226, 255));
        s.format.setProperty(QTextFormat::FullWidthSelection, true);
        s.cursor = QTextCursor(b);
        sel << s;
        // The line near the middle of the view, with the lines around it to read it in.
        QTextCursor c(b);
        setTextCursor(c);
        centerCursor();
    }
    setExtraSelections(sel);
    gutter_->update();
}

} // namespace tsw
