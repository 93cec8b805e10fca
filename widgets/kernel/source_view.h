// SPDX-License-Identifier: Apache-2.0
// SourceView: the kernel's source, read-only, with line numbers in a gutter and one marked line
// (the selected access's, or the line a parse error names) highlighted and scrolled into view.
#pragma once

#include <QPlainTextEdit>

namespace tsw {

class SourceView : public QPlainTextEdit {
    Q_OBJECT
public:
    explicit SourceView(QWidget* parent = nullptr);
    void setSource(const QString& text);
    // 1-based; 0 clears the mark. `error` marks it as the line a failure names (red, not blue).
    void markLine(int line, bool error = false);
    int markedLine() const { return marked_; }
    int gutterWidth() const;
    void paintGutter(QPaintEvent* e);

protected:
    void resizeEvent(QResizeEvent* e) override;

private:
    void updateGutter(const QRect& rect, int dy);
    QWidget* gutter_;
    int marked_ = 0;
    bool error_ = false;
};

} // namespace tsw
