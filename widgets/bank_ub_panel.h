// UbPanel: the Ascend Unified Buffer bank model (core bank_model.h analyzeUbStep): the
// assumptions stated in full, a vector step given as 32-byte block addresses (suffix `w` for a
// write), and its cost: read/write cycles, same-group and read/write conflicts, per-bank rows.
#pragma once

#include <QWidget>

class QLabel;
class QPlainTextEdit;
class QTableWidget;

namespace tsw {

class ResultState;

class UbPanel : public QWidget {
    Q_OBJECT
public:
    explicit UbPanel(QWidget* parent = nullptr);
    void setBlocksText(const QString& text);
    bool analyze();
    QString resultText() const;
    QString assumptionsText() const;
    QString errorText() const { return error_; }
    ResultState* resultState() const { return state_; }

private:
    QPlainTextEdit* input_;
    QLabel *assumptions_, *result_;
    QTableWidget* banks_;
    ResultState* state_;
    QString error_;
};

} // namespace tsw
