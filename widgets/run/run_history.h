// SPDX-License-Identifier: Apache-2.0
// RunRecord / RunHistoryModel: the runs of this session and earlier ones, to compare layouts
// (unswizzled vs swizzled, padded vs not). Persisted as JSON in QSettings ("run/history",
// newest last, at most kMaxRuns).
#pragma once

#include <QAbstractTableModel>
#include <QDateTime>
#include <QJsonObject>
#include <QMetaType>
#include <QString>
#include <vector>

class QSettings;

namespace tsw {

struct RunRecord {
    QDateTime when;
    QString layout, pattern, target, dtype;
    bool ok = false;
    bool compileOnly = false;   // compiled, deliberately not run
    double predictedWf = -1;    // wavefronts per instruction (model)
    double measuredWf = -1;     // ncu, one warp per SM; -1 when not measured
    double cyclesPerInstr = -1; // per SM, from the timed loop
    double nsPerInstr = -1;
    double nsPerWavefront = -1;
    double latencyMs = -1; // TileLang / Ascend scripts: kernel latency
    double seconds = -1;   // round trip of the whole run (generate + compile + run)
    QString roundTrip;     // "pass", "fail" or ""
    QString verdict;       // "agree", "differs", "predicted only", or the failure
    QString device;
    QString driver, ncuVersion; // imported results: kernel driver and ncu that measured them
    QString source;             // imported results: the file they came from
    QJsonObject toJson() const;
    static RunRecord fromJson(const QJsonObject& o);
};

// A run's label under its bars in the Run chart: its number, its layout and its access pattern
// ("4 full-bank 128B… · ldmatrix:x4"), each shortened on its own, so that runs of one layout
// with different patterns can be told apart; two lines (the chart's labels are rich text).
QString runChartLabel(int ordinal, const QString& layout, const QString& pattern);

class RunHistoryModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        Status,
        Layout,
        Pattern,
        Target,
        Predicted,
        Measured,
        Time,
        Verdict,
        ColumnCount
    };
    // "ok", "compiled", "failed" or "cancelled": what the Status column says.
    static QString statusOf(const RunRecord& r);
    static constexpr int kMaxRuns = 500;
    explicit RunHistoryModel(QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;

    void add(const RunRecord& r);
    void clear();
    const RunRecord& record(int row) const { return runs_.at(std::size_t(row)); }
    const std::vector<RunRecord>& records() const { return runs_; }

    QByteArray toJson() const;
    // The bare array of records (what a project file keeps); setRecords replaces them all.
    QByteArray recordsArrayJson() const;
    void setRecords(std::vector<RunRecord> records);
    bool fromJson(const QByteArray& json); // false on malformed input (model unchanged)
    void save(QSettings& s) const;
    void load(QSettings& s);

private:
    std::vector<RunRecord> runs_;
};

} // namespace tsw

Q_DECLARE_METATYPE(tsw::RunRecord)
