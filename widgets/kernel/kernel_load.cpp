// SPDX-License-Identifier: Apache-2.0
// The Kernel panel's computations (see kernel_load.h).
#include "kernel/kernel_load.h"

#include "common/wording.h"

#include "tilescope/banks/bank_model.h"
#include "tilescope/device/tilelang_kernel.h"
#include "tilescope/notation/mapping.h"
#include "tilescope/support/errors.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <algorithm>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sys/stat.h>

namespace tsw {

namespace {

// Generated kernels are tens of kilobytes; a file far past that is not one, and reading it whole
// would only make the panel slow to say so.
constexpr qint64 kMaxSourceBytes = qint64(64) << 20;

std::string readText(const QString& path, qint64 limit) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        throw ts::InputError(QDir::toNativeSeparators(path).toStdString() + ": " +
                             f.errorString().toStdString());
    if (f.size() > limit)
        throw ts::InputError(QDir::toNativeSeparators(path).toStdString() + ": " +
                             std::to_string(f.size() >> 20) +
                             " MiB is not a generated kernel (at most " +
                             std::to_string(limit >> 20) + " MiB are read)");
    const QByteArray b = f.readAll();
    return b.toStdString();
}

QString q(const std::string& s) {
    return QString::fromStdString(s);
}

// The meta.json's own description of which file it was lowered from.
bool metaDescribes(const nlohmann::json& meta, const QString& fileName) {
    return meta.is_object() && meta.value("source", std::string()) == fileName.toStdString();
}

} // namespace

// ---------------------------------------------------------------- loading a kernel

QString siblingMeta(const QString& path) {
    const QFileInfo fi(path);
    const QDir dir = fi.absoluteDir();
    for (const QString& name :
         {fi.completeBaseName() + QStringLiteral(".meta.json"), QStringLiteral("meta.json")})
        if (QFileInfo(dir.filePath(name)).isFile()) return dir.filePath(name);
    return {};
}

KernelLoad loadKernel(const KernelRequest& r, const CancelToken& token, LoweringStopper* stopper) {
    KernelLoad out;
    out.path = r.path;
    const QFileInfo fi(r.path);
    const std::string file = QDir::toNativeSeparators(r.path).toStdString();
    const std::string name = fi.fileName().toStdString();
    try {
        if (!fi.exists()) throw ts::InputError(file + ": no such file");
        if (!fi.isFile()) throw ts::InputError(file + ": not a file");
        const bool isPy = fi.suffix().compare(QStringLiteral("py"), Qt::CaseInsensitive) == 0;

        // The sibling meta.json: a .cu's launch configuration and inferred layouts; for a .py,
        // the arch and function it was lowered with when it says it describes this file.
        nlohmann::json meta;
        const QString metaPath = siblingMeta(r.path);
        if (!metaPath.isEmpty()) {
            try {
                meta = nlohmann::json::parse(readText(metaPath, kMaxSourceBytes));
                if (!meta.is_object()) throw ts::InputError("not a JSON object");
            } catch (const std::exception& e) {
                out.notes << QStringLiteral("%1 next to it was not used: %2")
                                 .arg(QFileInfo(metaPath).fileName(),
                                      QString::fromUtf8(e.what()).split(QLatin1Char('\n')).first());
                meta = nlohmann::json();
            }
        }

        nlohmann::json lowering; // the launch configuration and the layouts, when known
        if (isPy) {
            std::string function;
            QString arch = r.arch;
            if (metaDescribes(meta, fi.fileName())) {
                function = meta.value("function", std::string());
                if (arch.isEmpty() && meta.contains("arch") && meta["arch"].is_string())
                    arch = q(meta["arch"].get<std::string>());
            }
            if (arch.isEmpty()) arch = QStringLiteral("sm_80");
            out.arch = arch;
            std::string python = r.python.toStdString();
            if (python.empty()) {
                std::string why;
                python = ts::findTileLangPython(ts::tileLangSearchDirs(file), &why);
                if (python.empty())
                    throw ts::InputError(
                        file + ": a TileLang Python file is lowered by TileLang, and " + why +
                        ". Set TILESCOPE_PYTHON to a Python that imports tilelang, or open "
                        "the generated .cu");
            }
            out.python = q(python);
            if (token.cancelled() || (stopper && stopper->stopped())) return out;
            QElapsedTimer t;
            t.start();
            ts::kernel::LoweredKernel low;
            try {
                low = ts::kernel::lowerTileLangFile(python, file, function, arch.toStdString(),
                                                    r.lowerTimeoutS,
                                                    stopper ? stopper->flag() : nullptr);
            } catch (const ts::kernel::LoweringCancelled&) {
                return out; // cancelled: no message
            }
            out.lowered = true;
            out.lowerSeconds = low.seconds > 0 ? low.seconds : t.elapsed() / 1000.0;
            out.source = std::move(low.source);
            out.launches = std::move(low.kernels);
            lowering = std::move(low.meta);
            out.notes << QStringLiteral("lowered by TileLang %1 for %2 in %3 s (%4)")
                             .arg(q(low.tilelang_version), arch)
                             .arg(out.lowerSeconds, 0, 'f', 1)
                             .arg(q(python));
        } else {
            out.source = readText(r.path, kMaxSourceBytes);
            if (!meta.is_null()) {
                try {
                    out.launches = ts::kernel::launchesFromMeta(meta);
                    lowering = meta;
                    out.metaPath = metaPath;
                    out.arch = q(meta.value("arch", std::string()));
                } catch (const std::exception& e) {
                    out.notes << QStringLiteral("%1 next to it was not used: %2")
                                     .arg(QFileInfo(metaPath).fileName(),
                                          QString::fromUtf8(e.what()));
                }
            }
        }
        if (token.cancelled()) return out;

        // As the CLI: one X-ray per launch of the lowering (its block and dynamic shared
        // memory), else every __global__ kernel with __launch_bounds__.
        std::vector<ts::kernel::KernelXray> xs;
        if (!out.launches.empty()) {
            QStringList missing;
            for (const auto& l : out.launches) {
                try {
                    for (auto& x : ts::kernel::xrayKernels(out.source, ts::kernel::optionsFor(l)))
                        xs.push_back(std::move(x));
                } catch (const ts::InputError&) {
                    // A meta.json of another kernel in the same folder names a function this
                    // file does not have; a parse error is the file's own and goes through.
                    missing << q(l.name);
                }
                if (token.cancelled()) return out;
            }
            if (xs.empty()) {
                out.notes << QStringLiteral("%1 describes %2, which this file does not define: "
                                            "not used")
                                 .arg(QFileInfo(out.metaPath).fileName(), missing.join(", "));
                out.launches.clear();
                out.metaPath.clear();
                lowering = nlohmann::json();
            } else if (!missing.isEmpty()) {
                out.notes << QStringLiteral("not in this file, though the lowering lists them: %1")
                                 .arg(missing.join(", "));
            }
        }
        if (xs.empty()) xs = ts::kernel::xrayKernels(out.source, {});
        if (!out.metaPath.isEmpty())
            out.notes << QStringLiteral("launch configuration and inferred layouts from %1")
                             .arg(QDir::toNativeSeparators(out.metaPath));
        else if (!isPy)
            out.notes << QStringLiteral("no meta.json next to it: block from __launch_bounds__, "
                                        "dynamic shared memory inferred from the accesses, no "
                                        "inferred layouts");
        if (lowering.is_object() && lowering.contains("layouts"))
            for (auto& x : xs)
                ts::kernel::attachLayouts(x, lowering["layouts"]);
        out.kernels = std::move(xs);
        out.ok = true;
    } catch (const ts::ParseError& e) {
        out.error = q(name + ": " + e.message());
        out.errorContext = q(e.caretLines());
    } catch (const std::bad_alloc&) {
        out.error = q(name + ": out of memory while reading the kernel");
    } catch (const std::exception& e) {
        QString m = QString::fromUtf8(e.what());
        // Core messages that name the file already start with its path.
        if (!m.startsWith(QString::fromStdString(file)) &&
            !m.startsWith(QString::fromStdString(name)))
            m = q(name) + QStringLiteral(": ") + m;
        out.error = m;
    }
    return out;
}

// ---------------------------------------------------------------- measured

MeasuredLoad loadMeasured(const QString& path, const KernelLoad& load) {
    MeasuredLoad out;
    out.path = path;
    const std::string name = QFileInfo(path).fileName().toStdString();
    try {
        out.measured = ts::kernel::readMeasured(readText(path, kMaxSourceBytes), name);
        bool any = false;
        for (const auto& k : load.kernels) {
            if (!out.measured.kernel(k.name)) {
                out.comparisons.emplace_back();
                continue;
            }
            const auto n = ts::kernel::blocksOf(k.name, load.launches, out.measured);
            out.comparisons.push_back(ts::kernel::compare(k, out.measured, n));
            any = true;
        }
        if (!any) {
            QStringList names;
            for (const auto& m : out.measured.kernels)
                names << q(m.name);
            throw ts::InputError(
                name + " measured " +
                (names.isEmpty() ? std::string("no kernel") : names.join(", ").toStdString()) +
                ", not a kernel of this file");
        }
        out.ok = true;
    } catch (const std::exception& e) {
        QString m = QString::fromUtf8(e.what());
        if (!m.startsWith(q(name))) m = q(name) + QStringLiteral(": ") + m;
        out.error = m;
        out.comparisons.clear();
    }
    return out;
}

// ---------------------------------------------------------------- heat

QString perInstructionRange(const ts::kernel::SiteCost& c) {
    if (c.instructions == 0) return QStringLiteral("—");
    if (c.min_wavefronts == c.max_wavefronts) return QString::number(c.min_wavefronts);
    return QStringLiteral("%1–%2").arg(c.min_wavefronts).arg(c.max_wavefronts);
}

namespace {

std::shared_ptr<const TileData> makeTile(const ts::kernel::KernelXray& k, int kernel, int buffer) {
    auto t = std::make_shared<TileData>();
    t->kernel = kernel;
    t->buffer = buffer;
    t->tile = ts::kernel::bufferTile(k, buffer);
    const ts::Mapping m = ts::parseMapping(t->tile.spec);
    const ts::Layout* l = std::get_if<ts::Layout>(&m);
    if (!l)
        throw ts::InputError("the tile of " + k.buffers[std::size_t(buffer)].name +
                             " is not a T.Layout");
    auto shared = std::make_shared<ts::SharedTile>(*l, t->tile.dtype);
    // Cells labelled with their bank, as in the bank panel: the cells of one colour that share
    // a label are what a conflict is made of.
    ts::LayoutTable table;
    table.inputShape = shared->shape();
    table.outRank = 1;
    table.out.resize(std::size_t(shared->cells()));
    for (std::int64_t c = 0; c < shared->cells(); ++c)
        table.out[std::size_t(c)] = shared->addressOfCell(c) / 4 % 32;
    table.outputShape = {32};
    t->grid = GridModel::fromLayout(std::move(table), ViewMode::Input, false);
    QStringList dims;
    for (std::int64_t e : shared->shape())
        dims << QString::number(e);
    t->shape = dims.join(QStringLiteral(" x "));
    t->base = k.buffers[std::size_t(buffer)].address;
    t->shared = std::move(shared);
    return t;
}

} // namespace

HeatResult computeHeat(const HeatRequest& r, const CancelToken& token) {
    HeatResult h;
    h.site = r.site;
    h.warp = r.warp;
    h.iteration = r.iteration;
    try {
        if (!r.load || r.kernel < 0 || std::size_t(r.kernel) >= r.load->kernels.size())
            throw ts::InputError("no kernel");
        const ts::kernel::KernelXray& k = r.load->kernels[std::size_t(r.kernel)];
        if (r.site < 0 || std::size_t(r.site) >= k.sites.size())
            throw ts::InputError("no access selected");
        const ts::kernel::Site& s = k.sites[std::size_t(r.site)];
        if (!s.not_analysed.empty())
            throw ts::InputError("line " + std::to_string(s.line) +
                                 " is not analysed: " + s.not_analysed);
        if (s.buffer < 0) throw ts::InputError("the access's buffer is not known");
        const ts::kernel::SiteCost& c = k.costs[std::size_t(r.site)];
        h.iterations = ts::kernel::siteIterations(k, r.site);
        h.tile = r.tile && r.tile->kernel == r.kernel && r.tile->buffer == s.buffer
                     ? r.tile
                     : makeTile(k, r.kernel, s.buffer);
        if (token.cancelled()) {
            h.cancelled = true;
            return h;
        }
        const TileData& t = *h.tile;
        const ts::Instruction ins = ts::kernel::siteInstruction(k, r.site, r.iteration, r.warp);
        const std::size_t at =
            std::size_t(r.iteration) * std::size_t(std::max(1, c.warps)) + std::size_t(r.warp);
        const int model = at < c.per_instance.size() ? c.per_instance[at] : -1;
        ts::SharedAccess a = ts::kernel::instanceAccess(*t.shared, t.base, ins, r.warp, &h.outside);
        ts::PlanCost cost = ts::analyzePlan(a.plan);
        const ts::InstructionCost& ic = cost.instructions.at(0);
        h.bankWavefronts = ic.wavefronts;
        h.ideal = ic.ideal;
        h.issued = model >= 0;
        h.wavefronts = model >= 0 ? model : 0;
        // The heat carries the X-ray's number for the instance (for cp.async, the global lines
        // it waits on may cost more than its banks), so the colour and the caption agree.
        cost.instructions[0].wavefronts = h.wavefronts;
        const ts::CellHeat heat = ts::instructionHeat(*t.shared, a, cost, 0);
        h.values.assign(heat.wavefronts.size(), std::nan(""));
        for (std::size_t i = 0; i < h.values.size(); ++i)
            if (heat.instruction[i] >= 0) {
                h.values[i] = heat.wavefronts[i];
                ++h.cells;
            }
        const int cols = std::max(1, t.grid.cols());
        for (const ts::LaneTouch& lt : a.touches[0]) {
            const auto cells = a.cellsOf(lt);
            if (!cells.empty())
                h.tags.push_back({int(cells[0] / cols), int(cells[0] % cols), lt.lane});
        }
        // One scale for every instance of the access: stepping warps and iterations does not
        // recolour what did not change. From the access's cheapest possible cost (the ideal) to
        // its dearest instance.
        const double idealPerInstr =
            c.instructions > 0 ? double(c.ideal) / double(c.instructions) : double(h.ideal);
        h.lo = std::min<double>(std::floor(idealPerInstr), h.ideal);
        h.hi = std::max<double>(c.max_wavefronts, h.lo + 1);

        const ts::kernel::Buffer& b = k.buffers[std::size_t(s.buffer)];
        QString cost_;
        if (!h.issued) {
            cost_ = QStringLiteral("no lane active: not issued");
        } else {
            cost_ = QStringLiteral("%1 (ideal %2)")
                        .arg(countNoun(h.wavefronts, QStringLiteral("wavefront")))
                        .arg(h.ideal);
            if (h.wavefronts != h.bankWavefronts)
                cost_ += QStringLiteral(", %1 on the banks; cp.async waits on the global lines")
                             .arg(h.bankWavefronts);
        }
        h.caption = QStringLiteral("%1 %2 [%3]: %4 · warp %5, iteration %6 (0–%7): %8")
                        .arg(q(b.name), q(t.tile.dtype), t.shape, q(t.tile.why))
                        .arg(r.warp)
                        .arg(r.iteration)
                        .arg(std::max<std::int64_t>(0, h.iterations - 1))
                        .arg(cost_);
        if (h.outside > 0)
            h.caption += QStringLiteral(" · %1 outside this tile")
                             .arg(countNoun(h.outside, QStringLiteral("lane byte")));
        h.ok = true;
    } catch (const std::bad_alloc&) {
        h.error = QStringLiteral("out of memory while drawing this access");
    } catch (const std::exception& e) {
        h.error = QString::fromUtf8(e.what()).split(QLatin1Char('\n')).first();
    }
    return h;
}

} // namespace tsw
