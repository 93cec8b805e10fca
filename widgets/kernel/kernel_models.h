// SPDX-License-Identifier: Apache-2.0
// The Kernel panel's two tables as item models over one X-rayed kernel: its buffers, and its
// shared-memory accesses (one row per access site, in source order) with, once a measurement is
// imported, the measured counts and the match status of the access's source line. Views sort
// them through a QSortFilterProxyModel on kSortRole (numbers for numeric columns, so 96 sorts
// after 9).
#pragma once

#include "kernel/kernel_load.h"

#include <QAbstractTableModel>
#include <map>
#include <memory>
#include <optional>

namespace tsw {

inline constexpr int kSortRole = Qt::UserRole + 1;
// The row's access site (index into KernelXray::sites) or buffer, whatever the sorting.
inline constexpr int kIndexRole = Qt::UserRole + 2;

class BufferModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Name, Scope, TileLang, Bytes, Address, Layout, ColumnCount };
    using QAbstractTableModel::QAbstractTableModel;
    // null: empty. The kernel's parameters (global memory) are not listed, as in the CLI.
    void setKernel(std::shared_ptr<const KernelLoad> load, int index);
    const ts::kernel::KernelXray* kernel() const;
    // The table row of a buffer (index into KernelXray::buffers), -1 when it is not listed.
    int rowOf(int buffer) const;
    int bufferAt(int row) const { return rows_.at(std::size_t(row)); }
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;
    // What "Open layout" opens for a buffer: the mapping text of its inferred layout, or empty
    // with `why` saying why there is none.
    static QString layoutText(const ts::kernel::Buffer& b, QString* why = nullptr);

private:
    std::shared_ptr<const KernelLoad> load_;
    int kernel_ = -1;
    std::vector<int> rows_; // [row] -> buffer index
};

class AccessModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        Line,
        Op,
        Buffer,
        Instructions,
        Wavefronts,
        PerInstruction,
        Excess,
        // Shown once a measurement is imported; before Status, whose text is the longest.
        MeasuredInstructions,
        MeasuredWavefronts,
        Match,
        Status,
        ColumnCount
    };
    using QAbstractTableModel::QAbstractTableModel;
    void setKernel(std::shared_ptr<const KernelLoad> load, int index);
    // The imported measurement's comparison for this kernel (nullopt: none imported).
    void setComparison(std::optional<ts::kernel::Comparison> c);
    bool hasComparison() const { return cmp_.has_value(); }
    const ts::kernel::KernelXray* kernel() const;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;
    // The status column's text for a site (without a measurement).
    static QString statusText(const ts::kernel::Site& s, const ts::kernel::SiteCost& c);
    // The comparison of a source line (null: not measured or no measurement).
    const ts::kernel::LineComparison* lineComparison(int line) const;

private:
    std::shared_ptr<const KernelLoad> load_;
    int kernel_ = -1;
    std::optional<ts::kernel::Comparison> cmp_;
    std::map<int, std::size_t> byLine_; // line -> index into cmp_->lines
};

} // namespace tsw
