// SPDX-License-Identifier: Apache-2.0
#include "sweep.h"

#include "tilescope/banks/bank_model.h"

#include <string>

using nlohmann::json;

namespace tsprobe {

namespace {

json request(const std::string& name, const ts::AccessPlan& plan, const json& tile = nullptr) {
    json p;
    ts::toJson(p, plan);
    json r = {{"name", name}, {"plan", p}};
    if (!tile.is_null()) r["tile"] = tile;
    return r;
}

json strided(ts::SharedOp op, int bytes, long stride, bool broadcast = false) {
    ts::AccessPlan plan;
    plan.instructions.push_back(broadcast ? ts::broadcastInstruction(op, bytes, 0)
                                          : ts::stridedInstruction(op, bytes, stride));
    std::string name = ts::sharedOpName(op) + " " + std::to_string(bytes) + "B " +
                       (broadcast ? std::string("broadcast") : "stride " + std::to_string(stride));
    return request(name, plan, {{"elem_bytes", bytes}});
}

// fp16 tile of 16 rows x 64 columns stored with `pitch` elements per row, optionally with the
// 128B XOR swizzle (16-byte chunk c of row r stored at chunk c ^ (r % 8)). The ld/stmatrix .x4
// reads the 16x16 sub-tile at the origin: lane t gives row t % 16, chunk t / 16.
json matrixPattern(ts::SharedOp op, int pitch, bool swizzle, bool trans, const std::string& what) {
    auto phys = [&](int r, int c) {
        int chunk = c / 8;
        if (swizzle) chunk ^= r % 8;
        return long(r) * pitch + chunk * 8 + c % 8;
    };
    std::vector<std::int64_t> rows, table;
    for (int t = 0; t < 32; ++t)
        rows.push_back(phys(t % 16, 8 * (t / 16)) * 2);
    for (int r = 0; r < 16; ++r)
        for (int c = 0; c < 64; ++c)
            table.push_back(phys(r, c));
    ts::AccessPlan plan;
    plan.instructions.push_back(ts::matrixInstruction(op, 4, trans, rows));
    return request(ts::sharedOpName(op) + ".x4" + (trans ? ".trans " : " ") + what, plan,
                   {{"elem_bytes", 2}, {"elements", 16 * 64}, {"phys_of_logical", table}});
}

// A warp reading the 16 x 64 fp16 tile row by row with 16-byte vectors: 4 instructions, lane t
// reads row 4k + t / 8, chunk t % 8. Conflict-free unswizzled; checks a multi-instruction plan.
json rowVectorPattern(ts::SharedOp op, int pitch, bool swizzle, const std::string& what) {
    ts::AccessPlan plan;
    std::vector<std::int64_t> table;
    auto phys = [&](int r, int c) {
        int chunk = c / 8;
        if (swizzle) chunk ^= r % 8;
        return long(r) * pitch + chunk * 8 + c % 8;
    };
    for (int k = 0; k < 4; ++k) {
        ts::Instruction ins;
        ins.op = op;
        ins.bytes_per_lane = 16;
        for (int t = 0; t < 32; ++t)
            ins.lanes.push_back({t, phys(4 * k + t / 8, 8 * (t % 8)) * 2});
        plan.instructions.push_back(ins);
    }
    for (int r = 0; r < 16; ++r)
        for (int c = 0; c < 64; ++c)
            table.push_back(phys(r, c));
    return request(ts::sharedOpName(op) + " 16B rows " + what, plan,
                   {{"elem_bytes", 2}, {"elements", 16 * 64}, {"phys_of_logical", table}});
}

// Column read of the same tile: lane t reads element (t % 16, 8 * (t / 16)) as 4 bytes; the
// unswizzled tile puts 16 lanes on one bank pair, padding (72) and swizzle spread them.
json columnPattern(int pitch, bool swizzle, const std::string& what) {
    auto phys = [&](int r, int c) {
        int chunk = c / 8;
        if (swizzle) chunk ^= r % 8;
        return long(r) * pitch + chunk * 8 + c % 8;
    };
    ts::AccessPlan plan;
    ts::Instruction ins;
    ins.bytes_per_lane = 4;
    for (int t = 0; t < 32; ++t)
        ins.lanes.push_back({t, phys(t % 16, 8 * (t / 16)) * 2});
    plan.instructions.push_back(ins);
    std::vector<std::int64_t> table;
    for (int r = 0; r < 16; ++r)
        for (int c = 0; c < 64; ++c)
            table.push_back(phys(r, c));
    return request("ld 4B column pairs " + what, plan,
                   {{"elem_bytes", 2}, {"elements", 16 * 64}, {"phys_of_logical", table}});
}

} // namespace

json builtinSweep() {
    using ts::SharedOp;
    json pats = json::array();
    for (long s : {1, 2, 3, 4, 8, 16, 32, 33})
        pats.push_back(strided(SharedOp::Load, 4, s));
    pats.push_back(strided(SharedOp::Load, 4, 0, true));
    for (long s : {1, 2, 4, 16})
        pats.push_back(strided(SharedOp::Load, 8, s));
    for (long s : {1, 2, 8})
        pats.push_back(strided(SharedOp::Load, 16, s));
    pats.push_back(strided(SharedOp::Load, 2, 1));
    pats.push_back(strided(SharedOp::Load, 1, 1));
    for (long s : {1, 2, 32, 33})
        pats.push_back(strided(SharedOp::Store, 4, s));
    pats.push_back(strided(SharedOp::Store, 4, 0, true));
    for (long s : {1, 4})
        pats.push_back(strided(SharedOp::Store, 8, s));
    for (long s : {1, 2, 8})
        pats.push_back(strided(SharedOp::Store, 16, s));
    pats.push_back(matrixPattern(SharedOp::LdMatrix, 64, false, false, "row-major pitch 64"));
    pats.push_back(matrixPattern(SharedOp::LdMatrix, 64, true, false, "128B swizzle"));
    pats.push_back(matrixPattern(SharedOp::LdMatrix, 72, false, false, "padded pitch 72"));
    pats.push_back(matrixPattern(SharedOp::LdMatrix, 64, true, true, "128B swizzle"));
    pats.push_back(matrixPattern(SharedOp::StMatrix, 64, false, false, "row-major pitch 64"));
    pats.push_back(matrixPattern(SharedOp::StMatrix, 64, true, false, "128B swizzle"));
    pats.push_back(rowVectorPattern(SharedOp::Load, 64, false, "pitch 64"));
    pats.push_back(rowVectorPattern(SharedOp::Store, 64, true, "128B swizzle"));
    pats.push_back(columnPattern(64, false, "pitch 64"));
    pats.push_back(columnPattern(72, false, "padded pitch 72"));
    pats.push_back(columnPattern(64, true, "128B swizzle"));
    return {{"ncu", true}, {"iterations", 4096},   {"repetitions", 10},
            {"warmup", 2}, {"ncu_iterations", 64}, {"patterns", pats}};
}

json listSweep() {
    json out = json::array();
    const json sweep = builtinSweep();
    for (const json& p : sweep["patterns"]) {
        ts::PlanCost c = ts::analyzePlan(ts::planFromJson(p["plan"]));
        out.push_back({{"name", p["name"]},
                       {"instructions", c.instructions.size()},
                       {"predicted_wavefronts", c.wavefronts},
                       {"predicted_excess", c.excess}});
    }
    return {{"patterns", out}};
}

} // namespace tsprobe
