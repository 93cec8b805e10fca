// SPDX-License-Identifier: Apache-2.0
// SwizzlePanel: TileLang's 32B/64B/128B XOR tables per dtype; the tile before (row-major) and
// after the chosen swizzle, and with 16-byte padding, side by side, every cell coloured by the
// bank of its first byte (so a column of one colour is a conflict waiting to happen); the
// bijectivity verdict; and the search (core swizzle_search.h) for the cheapest layout under a
// write pattern and a read pattern together.
#pragma once

#include "grid/panel_picture.h"

#include <QWidget>
#include <optional>

class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QTableWidget;

namespace tsw {

class GridView;
class ResultState;

class SwizzlePanel : public QWidget {
    Q_OBJECT
public:
    explicit SwizzlePanel(QWidget* parent = nullptr);
    void setTile(int rows, int cols, const QString& dtype);
    void setSwizzleBytes(int bytes); // 32, 64, 128
    void setPatterns(const QString& write, const QString& read);
    bool refresh();
    bool runSearch();

    QString verdictText() const;
    QString searchText() const; // the proposal, one line
    QString errorText() const { return error_; }
    QTableWidget* xorTable() const { return xor_; }
    QTableWidget* searchTable() const { return results_; }
    GridView* beforeView() const { return before_; }
    GridView* afterView() const { return after_; }
    GridView* paddedView() const { return padded_; }
    ResultState* previewState() const { return preview_; }
    ResultState* searchState() const { return search_; }
    // What Export Picture writes (preview_pictures.cpp); nullopt and *whyNot when the panel's
    // numbers are not current.
    std::optional<PanelPicture> picture(QString* whyNot) const;

private:
    QSpinBox *rows_, *cols_;
    QComboBox *dtype_, *width_;
    QLineEdit *write_, *read_;
    QTableWidget *xor_, *results_;
    QLabel *verdict_, *proposal_, *xorCaption_;
    GridView *before_, *after_, *padded_;
    ResultState *preview_, *search_;
    QString error_;
};

} // namespace tsw
