// SPDX-License-Identifier: Apache-2.0
// Run preparation: layout checks before anything is started (see run_prepare.h).
#include "tilescope/device/run_prepare.h"

#include "tilescope/notation/mapping.h"
#include "tilescope/support/errors.h"

#include <algorithm>
#include <variant>

namespace ts {

TileDesc sharedTileDesc(const Layout& layout, const std::string& dtype,
                        std::int64_t max_smem_bytes) {
    const int bytes = dtypeBytes(dtype);
    // Size first: a huge tile is refused before its table is checked any further.
    const Shape out = layout.outputShape();
    std::int64_t physical = 1;
    for (std::int64_t e : out)
        physical *= e;
    const std::int64_t tileBytes = physical * bytes;
    if (tileBytes > max_smem_bytes)
        throw InputError("the tile needs " + std::to_string(tileBytes) +
                         " bytes of shared memory (" + formatShape(out) + " x " +
                         std::to_string(bytes) + " B " + dtype + ") but a block can have at most " +
                         std::to_string(max_smem_bytes) + " bytes: use a smaller tile");
    // Padding (physical elements no cell maps to) is allowed; two cells on one element is not.
    if (auto c = layout.findCollision())
        throw InputError("the layout is not a bijection onto shared memory: " + c->describe() +
                         " (each logical element needs its own shared element for the data "
                         "round trip to be checked)");
    SharedTile tile(layout, dtype);
    TileDesc d;
    d.elem_bytes = bytes;
    d.elements = tile.cells(); // logical elements; phys_of_logical may leave padding holes
    d.phys_of_logical.resize(std::size_t(tile.cells()));
    for (std::int64_t c = 0; c < tile.cells(); ++c)
        d.phys_of_logical[std::size_t(c)] = tile.addressOfCell(c) / bytes;
    return d;
}

PreparedRun prepareRun(const std::string& layoutName, const std::string& mappingText,
                       const std::string& dtype, const std::string& access,
                       const AccessOptions& accessOptions, const RunOptions& run) {
    const Mapping m = parseMapping(mappingText);
    const Layout* layout = std::get_if<Layout>(&m);
    if (!layout)
        throw InputError("'" + layoutName +
                         "' is a T.Fragment (a register layout); a device run needs the shared "
                         "tile's T.Layout, with the fragment as the access pattern "
                         "(fragment:<text>)");
    PreparedRun r;
    r.tile = sharedTileDesc(*layout, dtype, run.max_smem_bytes);
    SharedTile tile(*layout, dtype);
    SharedAccess a = buildAccess(tile, access, accessOptions);
    r.plan = a.plan;
    if (r.plan.instructions.empty()) throw InputError("the access pattern issues no instruction");
    validatePlan(r.plan);
    r.predicted = analyzePlan(r.plan);
    r.access = access;
    r.name = layoutName + " / " + access;
    nlohmann::json plan;
    toJson(plan, r.plan);
    nlohmann::json req = {{"name", r.name},
                          {"plan", plan},
                          {"tile",
                           {{"elem_bytes", r.tile.elem_bytes},
                            {"elements", r.tile.elements},
                            {"phys_of_logical", r.tile.phys_of_logical}}},
                          {"arch", run.arch},
                          {"compiler", run.compiler},
                          {"iterations", run.iterations},
                          {"repetitions", run.repetitions},
                          {"warmup", run.warmup},
                          {"timeout_s", run.timeout_s},
                          {"ncu", run.ncu},
                          // What the plan was built from: the probe ignores it and echoes the
                          // request in its result, so an imported result can be matched back to
                          // the layout it measured (the plan is rebuilt and compared).
                          {"spec",
                           {{"layout", layoutName},
                            {"mapping", mappingText},
                            {"dtype", dtype},
                            {"access", access},
                            {"vector", accessOptions.vector},
                            {"store", accessOptions.store}}}};
    r.request = std::move(req);
    return r;
}

PreparedRun probeRequestFor(const ProbeRequestInput& in) {
    AccessOptions ao;
    ao.vector = in.vector;
    ao.store = in.store;
    RunOptions ro;
    ro.ncu = in.ncu;
    ro.timeout_s = std::max(10.0, in.runTimeoutS - 10);
    return prepareRun(in.layoutName, in.mappingText, in.dtype, in.access, ao, ro);
}

double predictedWavefrontsPerInstruction(const PlanCost& c) {
    const std::int64_t n = c.load_instructions + c.store_instructions;
    return n ? double(c.wavefronts) / double(n) : 0.0;
}

} // namespace ts
