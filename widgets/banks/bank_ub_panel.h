// SPDX-License-Identifier: Apache-2.0
// UbPanel: the Ascend Unified Buffer bank model (core ub_bank_model.h analyzeUbStep) for the
// Atlas A2/A3 UB or the Ascend 950 UB: what the CANN guide states and what Tilescope infers in two
// separate boxes, a vector step given as 32-byte block addresses (suffix `w` for a write), and
// its cost: read/write cycles, same-group and read/write conflicts, per-bank rows. A measurement
// from `msprof op` (core msprof_op.h: task duration, aiv_vec_bank_cflt_ratio,
// aiv_vec_bankgroup_cflt_ratio) is shown next to the model's conflict shares once loaded.
#pragma once

#include "grid/panel_picture.h"

#include <QWidget>
#include <optional>

class QComboBox;
class QLabel;
class QPlainTextEdit;
class QTableWidget;

namespace ts {
struct MsprofOpResult;
}

namespace tsw {

class ResultState;

class UbPanel : public QWidget {
    Q_OBJECT
public:
    explicit UbPanel(QWidget* parent = nullptr);
    void setBlocksText(const QString& text);
    void setArch(const QString& arch); // "a2a3" or "950"
    bool analyze();
    QString resultText() const;
    QString assumptionsText() const; // stated, then inferred
    QString statedText() const;
    QString inferredText() const;
    // A measurement from msprof op (its output directory, read off the UI thread by the Load
    // button; synchronous here for callers that already have it). Cleared by clearMeasurement.
    bool loadMeasurement(const QString& dir);
    void setMeasurement(const ts::MsprofOpResult& m);
    void clearMeasurement();
    QString measuredText() const;
    QString errorText() const { return error_; }
    ResultState* resultState() const { return state_; }
    // What Export Picture writes (preview_pictures.cpp); nullopt and *whyNot when the panel's
    // numbers are not current.
    std::optional<PanelPicture> picture(QString* whyNot) const;

private:
    void showMeasured();

    QPlainTextEdit* input_;
    QComboBox* arch_;
    QLabel *stated_, *inferred_, *result_, *measured_;
    QTableWidget* banks_;
    ResultState* state_;
    QString error_;
    // The last measurement's figures (fractions; < 0 when the file did not report them).
    bool haveMeasurement_ = false;
    double bankMax_ = -1, bankMean_ = -1, groupMax_ = -1, groupMean_ = -1;
    QString measuredSource_, measuredDuration_;
    double predictedBank_ = 0, predictedGroup_ = 0;
    bool predicted_ = false;
};

} // namespace tsw
