// SPDX-License-Identifier: Apache-2.0
// The Kernel panel's buffer and access tables (see kernel_models.h).
#include "kernel/kernel_models.h"

#include <QBrush>
#include <QColor>
#include <QFont>
#include <QStringList>

namespace tsw {

namespace {

QString q(const std::string& s) {
    return QString::fromStdString(s);
}

QString dims(const std::vector<std::int64_t>& d) {
    QStringList p;
    for (std::int64_t e : d)
        p << QString::number(e);
    return QStringLiteral("[") + p.join(QStringLiteral(", ")) + QStringLiteral("]");
}

bool isShared(const ts::kernel::Buffer& b) {
    return b.scope == "shared" || b.scope == "shared.dyn";
}

// A repr shortened to its head ("Layout((3, 128, 32) -> (3, 1, 16, 256), ...") for a cell; the
// tooltip has all of it.
QString shortRepr(const std::string& repr) {
    QString r = q(repr).simplified();
    const qsizetype cut = r.indexOf(QStringLiteral(", transform"));
    const qsizetype cut2 = r.indexOf(QStringLiteral(", replicate"));
    qsizetype at = cut >= 0 ? cut : cut2;
    if (cut >= 0 && cut2 >= 0) at = std::min(cut, cut2);
    if (at > 0) r = r.left(at) + QStringLiteral(", …)");
    return r;
}

// Measured counts are over every block of the launch; the predictions are per block.
QString perBlock(std::int64_t total, std::int64_t blocks) {
    if (blocks <= 0) return QString::number(total);
    if (total % blocks == 0) return QString::number(total / blocks);
    return QString::number(double(total) / double(blocks), 'f', 1);
}

const QColor kConflict(253, 224, 221), kMatch(220, 242, 222), kDiffers(250, 200, 195);
const QColor kMuted(110, 110, 110);

} // namespace

// ---------------------------------------------------------------- buffers

void BufferModel::setKernel(std::shared_ptr<const KernelLoad> load, int index) {
    beginResetModel();
    load_ = std::move(load);
    kernel_ = load_ && index >= 0 && std::size_t(index) < load_->kernels.size() ? index : -1;
    if (kernel_ < 0) load_.reset();
    rows_.clear();
    if (const auto* k = kernel())
        for (std::size_t i = 0; i < k->buffers.size(); ++i)
            if (k->buffers[i].scope != "global" && k->buffers[i].scope != "param")
                rows_.push_back(int(i));
    endResetModel();
}

const ts::kernel::KernelXray* BufferModel::kernel() const {
    return load_ ? &load_->kernels[std::size_t(kernel_)] : nullptr;
}

int BufferModel::rowOf(int buffer) const {
    for (std::size_t r = 0; r < rows_.size(); ++r)
        if (rows_[r] == buffer) return int(r);
    return -1;
}

int BufferModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(rows_.size());
}

int BufferModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QString BufferModel::layoutText(const ts::kernel::Buffer& b, QString* why) {
    if (!b.layout_mapping.empty()) return q(b.layout_mapping);
    if (why) {
        if (!b.layout_error.empty())
            *why = QStringLiteral("TileLang's layout for %1 did not read: %2")
                       .arg(q(b.name), q(b.layout_error));
        else if (b.layout_repr.empty())
            *why = QStringLiteral("no inferred layout for %1 (open the kernel's .py, or put its "
                                  "lowering's meta.json next to the .cu)")
                       .arg(q(b.name));
        else
            *why = QStringLiteral("the layout of %1 has no mapping text").arg(q(b.name));
    }
    return {};
}

QVariant BufferModel::data(const QModelIndex& index, int role) const {
    const auto* k = kernel();
    if (!k || !index.isValid() || index.row() >= int(rows_.size())) return {};
    const int bi = rows_[std::size_t(index.row())];
    const ts::kernel::Buffer& b = k->buffers[std::size_t(bi)];
    if (role == kIndexRole) return bi;
    const int col = index.column();
    if (role == Qt::DisplayRole || role == kSortRole) {
        const bool sort = role == kSortRole;
        switch (col) {
        case Name:
            return q(b.name);
        case Scope:
            return q(b.scope);
        case TileLang:
            if (!b.dtype.empty()) return q(b.dtype) + QLatin1Char(' ') + dims(b.shape);
            // Without a lowering, the C declaration is what is known.
            return q(b.ctype) + (b.dims.empty() ? QString() : dims(b.dims)) +
                   QStringLiteral(" (C)");
        case Bytes:
            if (sort) return qlonglong(b.bytes);
            return b.bytes >= 0 ? QString::number(b.bytes) : QStringLiteral("?");
        case Address:
            if (sort) return isShared(b) ? qlonglong(b.address) : qlonglong(-1);
            return isShared(b) ? QString::number(b.address) : QStringLiteral("—");
        case Layout:
            if (!b.layout_repr.empty()) return shortRepr(b.layout_repr);
            if (!b.layout_error.empty()) return QStringLiteral("(did not read)");
            return sort ? QString() : QStringLiteral("—");
        }
        return {};
    }
    if (role == Qt::TextAlignmentRole && (col == Bytes || col == Address))
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ForegroundRole && col == Layout && b.layout_repr.empty()) return QBrush(kMuted);
    if (role == Qt::ToolTipRole) {
        QStringList t;
        t << QStringLiteral("<b>%1</b> (%2), C type %3, %4 B per element")
                 .arg(q(b.name).toHtmlEscaped(), q(b.scope), q(b.ctype).toHtmlEscaped())
                 .arg(b.element_bytes);
        if (!b.note.empty()) t << q(b.note).toHtmlEscaped();
        if (!b.layout_repr.empty())
            t << QStringLiteral("inferred %1: <tt>%2</tt>")
                     .arg(q(b.layout_kind), q(b.layout_repr).toHtmlEscaped());
        if (!b.layout_error.empty())
            t << QStringLiteral("did not read: %1").arg(q(b.layout_error).toHtmlEscaped());
        if (!b.layout_mapping.empty())
            t << QStringLiteral("double-click or Open layout: it opens in the editor as a new "
                                "layout of the project");
        return t.join(QStringLiteral("<br>"));
    }
    return {};
}

QVariant BufferModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal) return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
        case Name:
            return QStringLiteral("Buffer");
        case Scope:
            return QStringLiteral("Scope");
        case TileLang:
            return QStringLiteral("TileLang dtype [shape]");
        case Bytes:
            return QStringLiteral("Bytes");
        case Address:
            return QStringLiteral("Address");
        case Layout:
            return QStringLiteral("Inferred layout");
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case TileLang:
            return QStringLiteral("The buffer as TileLang allocated it (from the lowering); "
                                  "without one, the C declaration");
        case Bytes:
            return QStringLiteral("Bytes allocated (the buffer's note says how they were found)");
        case Address:
            return QStringLiteral("Byte address of the buffer's start in the block's shared "
                                  "memory window");
        case Layout:
            return QStringLiteral("The layout TileLang's inference chose for the buffer");
        }
    }
    return {};
}

// ---------------------------------------------------------------- accesses

void AccessModel::setKernel(std::shared_ptr<const KernelLoad> load, int index) {
    beginResetModel();
    load_ = std::move(load);
    kernel_ = load_ && index >= 0 && std::size_t(index) < load_->kernels.size() ? index : -1;
    if (kernel_ < 0) load_.reset();
    cmp_.reset();
    byLine_.clear();
    endResetModel();
}

void AccessModel::setComparison(std::optional<ts::kernel::Comparison> c) {
    beginResetModel();
    cmp_ = std::move(c);
    byLine_.clear();
    if (cmp_)
        for (std::size_t i = 0; i < cmp_->lines.size(); ++i)
            byLine_[cmp_->lines[i].line] = i;
    endResetModel();
}

const ts::kernel::KernelXray* AccessModel::kernel() const {
    return load_ ? &load_->kernels[std::size_t(kernel_)] : nullptr;
}

const ts::kernel::LineComparison* AccessModel::lineComparison(int line) const {
    if (!cmp_) return nullptr;
    auto it = byLine_.find(line);
    return it == byLine_.end() ? nullptr : &cmp_->lines[it->second];
}

int AccessModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() || !kernel() ? 0 : int(kernel()->sites.size());
}

int AccessModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QString AccessModel::statusText(const ts::kernel::Site& s, const ts::kernel::SiteCost& c) {
    if (!s.not_analysed.empty()) return QStringLiteral("not analysed: ") + q(s.not_analysed);
    // A cp.async's excess may come from the global lines its phases read, not from the banks:
    // only the bank model's own excess is called a bank conflict.
    const std::int64_t bankExcess = c.bank_wavefronts - c.ideal;
    QString t = bankExcess > 0 ? QStringLiteral("bank conflicts")
                : c.excess > 0 ? QStringLiteral("global lines (no bank conflict)")
                               : QStringLiteral("no conflict");
    if (s.forwardable) t += QStringLiteral(" · may stay in registers");
    if (!s.note.empty()) t += QStringLiteral(" · ") + q(s.note);
    return t;
}

QVariant AccessModel::data(const QModelIndex& index, int role) const {
    const auto* k = kernel();
    if (!k || !index.isValid() || index.row() >= int(k->sites.size())) return {};
    const std::size_t i = std::size_t(index.row());
    const ts::kernel::Site& s = k->sites[i];
    const ts::kernel::SiteCost& c = k->costs[i];
    const bool analysed = s.not_analysed.empty();
    const ts::kernel::LineComparison* lc = lineComparison(s.line);
    const std::int64_t blocks = cmp_ ? cmp_->blocks : 0;
    const int col = index.column();
    if (role == kIndexRole) return index.row();
    if (role == Qt::DisplayRole || role == kSortRole) {
        const bool sort = role == kSortRole;
        // Accesses without numbers sort below every number.
        auto num = [&](std::int64_t v) -> QVariant {
            if (!analysed) return sort ? QVariant(qlonglong(-1)) : QVariant(QStringLiteral("—"));
            return sort ? QVariant(qlonglong(v)) : QVariant(QString::number(v));
        };
        switch (col) {
        case Line:
            return sort ? QVariant(s.line) : QVariant(QString::number(s.line));
        case Op:
            return q(s.opName());
        case Buffer:
            return s.buffer >= 0 ? q(k->buffers[std::size_t(s.buffer)].name) : QStringLiteral("?");
        case Instructions:
            return num(c.instructions);
        case Wavefronts:
            return num(c.wavefronts);
        case PerInstruction:
            if (sort) return analysed ? qlonglong(c.max_wavefronts) : qlonglong(-1);
            return perInstructionRange(c);
        case Excess:
            return num(c.excess);
        case Status:
            return statusText(s, c);
        case MeasuredInstructions:
            if (!lc || lc->status == "not measured")
                return sort ? QVariant(qlonglong(-1)) : QVariant(QString());
            return sort ? QVariant(qlonglong(lc->measured_instructions))
                        : QVariant(perBlock(lc->measured_instructions, blocks));
        case MeasuredWavefronts:
            if (!lc || lc->status == "not measured")
                return sort ? QVariant(qlonglong(-1)) : QVariant(QString());
            return sort ? QVariant(qlonglong(lc->measured_wavefronts))
                        : QVariant(perBlock(lc->measured_wavefronts, blocks));
        case Match:
            return lc ? q(lc->status) : (cmp_ ? QStringLiteral("not measured") : QString());
        }
        return {};
    }
    if (role == Qt::TextAlignmentRole && col != Op && col != Buffer && col != Status &&
        col != Match)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::BackgroundRole) {
        if ((col == Excess || col == Status) && analysed && c.excess > 0) return QBrush(kConflict);
        if (col == Match && lc) {
            if (lc->status.rfind("match", 0) == 0) return QBrush(kMatch);
            if (lc->status == "differs" || lc->status == "measured only") return QBrush(kDiffers);
        }
        return {};
    }
    if (role == Qt::ForegroundRole && !analysed && col != Line && col != Op && col != Buffer)
        return QBrush(kMuted);
    if (role == Qt::ToolTipRole) {
        QStringList t;
        t << QStringLiteral("<b>line %1</b>, column %2: <tt>%3</tt>")
                 .arg(s.line)
                 .arg(s.column)
                 .arg(q(s.text).toHtmlEscaped());
        t << statusText(s, c).toHtmlEscaped();
        if (analysed)
            t << QStringLiteral("per thread block: %1 instructions, %2 wavefronts (ideal %3, "
                                "excess %4); wavefronts per instruction %5")
                     .arg(c.instructions)
                     .arg(c.wavefronts)
                     .arg(c.ideal)
                     .arg(c.excess)
                     .arg(perInstructionRange(c));
        if (lc) {
            t << QStringLiteral("measured on the line over %1 blocks (%2): %3 instructions, %4 "
                                "wavefronts; predicted %5 and %6: %7")
                     .arg(blocks)
                     .arg(q(cmp_->blocks_source))
                     .arg(lc->measured_instructions)
                     .arg(lc->measured_wavefronts)
                     .arg(lc->predicted_instructions)
                     .arg(lc->predicted_wavefronts)
                     .arg(q(lc->status));
            if (!lc->sass.empty()) {
                QStringList sass;
                for (const auto& x : lc->sass)
                    sass << q(x);
                t << QStringLiteral("SASS: ") + sass.join(QStringLiteral(", ")).toHtmlEscaped();
            }
            if (lc->group.size() > 1) {
                QStringList g;
                for (int l : lc->group)
                    g << QString::number(l);
                t << QStringLiteral("line group: ") + g.join(QStringLiteral(", "));
            }
        }
        return t.join(QStringLiteral("<br>"));
    }
    return {};
}

QVariant AccessModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal) return {};
    // Two-line headers where the numbers are much narrower than their names: with the measured
    // columns, eleven columns fit the table's usual width.
    if (role == Qt::DisplayRole) {
        switch (section) {
        case Line:
            return QStringLiteral("Line");
        case Op:
            return QStringLiteral("Op");
        case Buffer:
            return QStringLiteral("Buffer");
        case Instructions:
            return QStringLiteral("Instr.");
        case Wavefronts:
            return QStringLiteral("Wavefronts");
        case PerInstruction:
            return QStringLiteral("Per\ninstr.");
        case Excess:
            return QStringLiteral("Excess");
        case Status:
            return QStringLiteral("Status");
        case MeasuredInstructions:
            return QStringLiteral("Measured\ninstr.");
        case MeasuredWavefronts:
            return QStringLiteral("Measured\nwavefronts");
        case Match:
            return QStringLiteral("Match");
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case Instructions:
            return QStringLiteral("Warp-level instructions per thread block (every warp, every "
                                  "iteration of the loops around the access)");
        case Wavefronts:
            return QStringLiteral("Shared-memory wavefronts per thread block, predicted by the "
                                  "bank model");
        case PerInstruction:
            return QStringLiteral("Wavefronts per instruction, lowest–highest over the warps and "
                                  "iterations");
        case Excess:
            return QStringLiteral("Wavefronts over the ideal (bank conflicts)");
        case MeasuredInstructions:
            return QStringLiteral("Measured on the GPU for the access's source line, per block "
                                  "(the launch's count divided by its blocks)");
        case MeasuredWavefronts:
            return QStringLiteral("Measured wavefronts of the access's source line, per block");
        case Match:
            return QStringLiteral("Prediction against measurement for the source line (over "
                                  "the whole launch)");
        }
    }
    return {};
}

} // namespace tsw
