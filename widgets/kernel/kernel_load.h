// SPDX-License-Identifier: Apache-2.0
// The Kernel panel's computations, runnable off the UI thread and free of widgets: a kernel file
// read and X-rayed (a .cu with the launch configuration and inferred layouts of a sibling
// meta.json, or a TileLang .py lowered in a child Python), a measurement compared with it line by
// line, and one instance of an access (a warp, an iteration) as heat on its buffer's tile. Every
// number comes from core/kernel and core/banks; this only packages it for the panel.
#pragma once

#include "common/latest_job.h"
#include "grid/gridmodel.h"

#include "tilescope/banks/access.h"
#include "tilescope/kernel/kernel_view.h"
#include "tilescope/kernel/kernel_xray.h"
#include "tilescope/kernel/lowering.h"
#include "tilescope/kernel/measured.h"

#include <QString>
#include <QStringList>
#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace tsw {

// Lets Cancel stop the TileLang child a lowering runs (stop() may be called from any thread).
class LoweringStopper {
public:
    // Cancel: a lowering not started yet does not start, a running one's child is killed (the
    // core polls the flag, ts::runProcess).
    void stop() { stopped_.store(true); }
    bool stopped() const { return stopped_.load(); }
    const std::atomic<bool>* flag() const { return &stopped_; }

private:
    std::atomic<bool> stopped_{false};
};

struct KernelRequest {
    QString path;
    // .py: the target to lower for; empty: the sibling meta.json's "arch" when it describes
    // this file, else sm_80 (the CLI's default).
    QString arch;
    // .py: a Python known to import tilelang (found on an earlier lowering); empty: search as
    // the CLI does (ts::findTileLangPython).
    QString python;
    double lowerTimeoutS = 300; // a hung lowering is killed after this
};

struct KernelLoad {
    bool ok = false;
    QString error; // what failed, naming the file (and line and column where the parser says)
    QString errorContext; // the offending source line with a caret under the column, if known
    QString path;
    bool lowered = false; // a .py lowered by TileLang
    QString python;       // the Python that lowered it
    QString arch;         // what it was lowered for (.py) or the meta.json says (.cu)
    double lowerSeconds = 0;
    QString metaPath;  // the meta.json used with a .cu (empty: none)
    QStringList notes; // what was used or left out and why, one line each
    std::string source;
    std::vector<ts::kernel::KernelLaunch> launches;
    std::vector<ts::kernel::KernelXray> kernels;
};

// Reads, lowers (a .py) and X-rays the kernel file. Never throws: a failure is `error`.
KernelLoad loadKernel(const KernelRequest& r, const CancelToken& token = {},
                      LoweringStopper* stopper = nullptr);

// The meta.json that goes with a .cu or .py: <stem>.meta.json, else meta.json, in its folder;
// empty when there is none.
QString siblingMeta(const QString& path);

struct MeasuredLoad {
    bool ok = false;
    QString error;
    QString path;
    ts::kernel::Measured measured;
    // [kernel of the load]; none for a kernel the file did not measure
    std::vector<std::optional<ts::kernel::Comparison>> comparisons;
};

// Reads a measured.json and compares it with every kernel of `load`. Never throws.
MeasuredLoad loadMeasured(const QString& path, const KernelLoad& load);

// The tile a shared buffer is drawn on, with the grid it is drawn as (cells labelled with
// their bank), built once per buffer and shared by every instance shown on it.
struct TileData {
    int kernel = -1, buffer = -1;
    ts::kernel::BufferTile tile;
    std::shared_ptr<const ts::SharedTile> shared;
    std::int64_t base = 0; // the buffer's first byte in the shared window
    GridModel grid;
    QString shape; // "3 x 128 x 32"
};

struct HeatRequest {
    std::shared_ptr<const KernelLoad> load;
    int kernel = 0, site = -1, warp = 0;
    std::int64_t iteration = 0;
    std::shared_ptr<const TileData> tile; // reused when it is this site's buffer's
};

struct LaneTag {
    int row = 0, col = 0, lane = 0;
};

struct HeatResult {
    bool ok = false;
    bool cancelled = false;
    QString error; // why there is no heat (not analysed, no tile, ...)
    int site = -1, warp = 0;
    std::int64_t iteration = 0, iterations = 0;
    std::shared_ptr<const TileData> tile;
    bool issued = true;         // false: no lane of this warp is active here
    int wavefronts = 0;         // the X-ray's number for this instance
    int bankWavefronts = 0;     // the bank model's alone (cp.async may wait on global lines)
    int ideal = 0;              // of this instance
    int outside = 0;            // lane bytes outside the tile
    std::int64_t cells = 0;     // cells touched
    std::vector<double> values; // per grid cell: the instance's wavefronts, NaN when untouched
    double lo = 0, hi = 1;      // the colour scale, fixed for the access (min ideal .. max)
    std::vector<LaneTag> tags;  // one cell per active lane, for its lane number
    QString caption;            // which tile, why it, and the instance's cost
};

HeatResult computeHeat(const HeatRequest& r, const CancelToken& token = {});

// "8 – 8" style range, "—" for a site without numbers.
QString perInstructionRange(const ts::kernel::SiteCost& c);

} // namespace tsw
