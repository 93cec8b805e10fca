// SPDX-License-Identifier: Apache-2.0
#include "run/run_history.h"

#include <QColor>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSettings>

namespace tsw {

QJsonObject RunRecord::toJson() const {
    return QJsonObject{{"when", when.toString(Qt::ISODate)},
                       {"layout", layout},
                       {"pattern", pattern},
                       {"target", target},
                       {"dtype", dtype},
                       {"ok", ok},
                       {"compile_only", compileOnly},
                       {"predicted_wf", predictedWf},
                       {"measured_wf", measuredWf},
                       {"cycles_per_instr", cyclesPerInstr},
                       {"ns_per_instr", nsPerInstr},
                       {"ns_per_wavefront", nsPerWavefront},
                       {"latency_ms", latencyMs},
                       {"seconds", seconds},
                       {"round_trip", roundTrip},
                       {"verdict", verdict},
                       {"device", device},
                       {"driver", driver},
                       {"ncu_version", ncuVersion},
                       {"source", source}};
}

RunRecord RunRecord::fromJson(const QJsonObject& o) {
    RunRecord r;
    r.when = QDateTime::fromString(o.value("when").toString(), Qt::ISODate);
    r.layout = o.value("layout").toString();
    r.pattern = o.value("pattern").toString();
    r.target = o.value("target").toString();
    r.dtype = o.value("dtype").toString();
    r.ok = o.value("ok").toBool();
    r.compileOnly = o.value("compile_only").toBool();
    r.predictedWf = o.value("predicted_wf").toDouble(-1);
    r.measuredWf = o.value("measured_wf").toDouble(-1);
    r.cyclesPerInstr = o.value("cycles_per_instr").toDouble(-1);
    r.nsPerInstr = o.value("ns_per_instr").toDouble(-1);
    r.nsPerWavefront = o.value("ns_per_wavefront").toDouble(-1);
    r.latencyMs = o.value("latency_ms").toDouble(-1);
    r.seconds = o.value("seconds").toDouble(-1);
    r.roundTrip = o.value("round_trip").toString();
    r.verdict = o.value("verdict").toString();
    r.device = o.value("device").toString();
    r.driver = o.value("driver").toString();
    r.ncuVersion = o.value("ncu_version").toString();
    r.source = o.value("source").toString();
    return r;
}

RunHistoryModel::RunHistoryModel(QObject* parent) : QAbstractTableModel(parent) {}

int RunHistoryModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(runs_.size());
}
int RunHistoryModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

namespace {
QString num(double v, int prec = 2) {
    return v < 0 ? QStringLiteral("—") : QString::number(v, 'f', prec);
}
} // namespace

QString RunHistoryModel::statusOf(const RunRecord& r) {
    if (r.ok) return r.compileOnly ? QStringLiteral("compiled") : QStringLiteral("ok");
    return r.verdict.startsWith(QLatin1String("Cancelled")) ? QStringLiteral("cancelled")
                                                            : QStringLiteral("failed");
}

QVariant RunHistoryModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= int(runs_.size())) return {};
    const RunRecord& r = runs_[std::size_t(index.row())];
    if (role == Qt::ForegroundRole && !r.ok)
        return index.column() == Status ? QColor(0xb0, 0x00, 0x20) : QColor(0x6b, 0x72, 0x80);
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case Status:
            return statusOf(r);
        case Layout:
            return r.layout;
        case Pattern:
            return r.pattern;
        case Target:
            return r.target;
        case Predicted:
            return num(r.predictedWf);
        case Measured:
            return num(r.measuredWf);
        case Time:
            if (r.nsPerInstr >= 0) return QStringLiteral("%1 ns/instr").arg(num(r.nsPerInstr, 3));
            if (r.latencyMs >= 0) return QStringLiteral("%1 ms").arg(num(r.latencyMs, 4));
            return QStringLiteral("—");
        case Verdict:
            return r.verdict;
        }
    } else if (role == Qt::ToolTipRole) {
        return QStringLiteral("%9: %10\n%1\n%2 on %3 (%4)\nround trip: %5\ncycles/instr/SM: %6\n"
                              "ns/wavefront/SM: %7\nwhole run: %8 s")
                   .arg(r.when.toString(Qt::ISODate), r.pattern, r.target, r.device,
                        r.roundTrip.isEmpty() ? QStringLiteral("—") : r.roundTrip,
                        num(r.cyclesPerInstr), num(r.nsPerWavefront, 3), num(r.seconds),
                        statusOf(r), r.verdict) +
               (r.source.isEmpty() ? QString()
                                   : QStringLiteral("\nimported from %1\ndriver %2, ncu %3")
                                         .arg(r.source, r.driver.isEmpty() ? "—" : r.driver,
                                              r.ncuVersion.isEmpty() ? "—" : r.ncuVersion));
    } else if (role == Qt::UserRole) {
        return r.ok;
    }
    return {};
}

QString runChartLabel(int ordinal, const QString& layout, const QString& pattern) {
    auto shorten = [](QString t, int n) {
        t = t.simplified();
        return t.size() > n ? t.left(n - 1) + QStringLiteral("…") : t;
    };
    // A lanes lambda's body tells it apart; its "lanes:lambda t:" prefix does not.
    QString p = pattern;
    p.replace(QStringLiteral("lambda "), QStringLiteral("λ"));
    return QStringLiteral("%1 %2<br>%3")
        .arg(ordinal)
        .arg(shorten(layout, 16).toHtmlEscaped(), shorten(p, 22).toHtmlEscaped());
}

QVariant RunHistoryModel::headerData(int section, Qt::Orientation o, int role) const {
    if (role != Qt::DisplayRole) return {};
    if (o == Qt::Vertical) return section + 1;
    static const char* names[] = {
        "Status", "Layout", "Pattern", "Target", "Predicted wf/instr", "Measured wf/instr",
        "Time",   "Verdict"};
    return section >= 0 && section < ColumnCount ? QString::fromLatin1(names[section]) : QVariant();
}

void RunHistoryModel::add(const RunRecord& r) {
    if (int(runs_.size()) >= kMaxRuns) {
        beginRemoveRows({}, 0, 0);
        runs_.erase(runs_.begin());
        endRemoveRows();
    }
    beginInsertRows({}, int(runs_.size()), int(runs_.size()));
    runs_.push_back(r);
    endInsertRows();
}

void RunHistoryModel::clear() {
    beginResetModel();
    runs_.clear();
    endResetModel();
}

QByteArray RunHistoryModel::toJson() const {
    QJsonArray a;
    for (const auto& r : runs_)
        a.append(r.toJson());
    return QJsonDocument(QJsonObject{{"format", "tilescope-runs"}, {"version", 1}, {"runs", a}})
        .toJson(QJsonDocument::Compact);
}

QByteArray RunHistoryModel::recordsArrayJson() const {
    if (runs_.empty()) return {};
    QJsonArray a;
    for (const auto& r : runs_)
        a.append(r.toJson());
    return QJsonDocument(a).toJson(QJsonDocument::Compact);
}

void RunHistoryModel::setRecords(std::vector<RunRecord> records) {
    if (int(records.size()) > kMaxRuns) records.erase(records.begin(), records.end() - kMaxRuns);
    beginResetModel();
    runs_ = std::move(records);
    endResetModel();
}

bool RunHistoryModel::fromJson(const QByteArray& json) {
    QJsonParseError err{};
    const QJsonDocument d = QJsonDocument::fromJson(json, &err);
    if (err.error != QJsonParseError::NoError || !d.isObject()) return false;
    const QJsonValue runs = d.object().value("runs");
    if (!runs.isArray()) return false;
    std::vector<RunRecord> v;
    for (const auto& e : runs.toArray()) {
        if (!e.isObject()) return false;
        v.push_back(RunRecord::fromJson(e.toObject()));
    }
    if (int(v.size()) > kMaxRuns) v.erase(v.begin(), v.end() - kMaxRuns);
    beginResetModel();
    runs_ = std::move(v);
    endResetModel();
    return true;
}

void RunHistoryModel::save(QSettings& s) const {
    s.setValue(QStringLiteral("run/history"), toJson());
}

void RunHistoryModel::load(QSettings& s) {
    const QByteArray j = s.value(QStringLiteral("run/history")).toByteArray();
    if (!j.isEmpty()) fromJson(j);
}

} // namespace tsw
