// SPDX-License-Identifier: Apache-2.0
#include "tilescope/kernel/kernel_view.h"

#include "tilescope/support/errors.h"
#include "tilescope/trace/dump.h"

#include <nlohmann/json.hpp>
#include <unordered_map>

namespace ts::kernel {

namespace {

std::string dtypeOfCType(const std::string& ctype, int bytes) {
    if (ctype == "half_t" || ctype == "half") return "float16";
    if (ctype == "bfloat16_t") return "bfloat16";
    if (ctype == "float") return "float32";
    if (ctype == "double") return "float64";
    if (ctype == "int" || ctype == "int32_t") return "int32";
    if (ctype == "signed char" || ctype == "int8_t" || ctype == "char") return "int8";
    if (ctype == "fp8_e4_t") return "float8_e4m3";
    switch (bytes) {
    case 1:
        return "uint8";
    case 2:
        return "float16";
    case 8:
        return "float64";
    default:
        return "float32";
    }
}

} // namespace

void attachLayouts(KernelXray& k, const nlohmann::json& layouts) {
    if (!layouts.is_array()) return;
    for (const auto& l : layouts) {
        const std::string name = l.value("buffer", "");
        for (auto& b : k.buffers) {
            if (b.name != name) continue;
            b.dtype = l.value("dtype", "");
            if (l.contains("shape") && l["shape"].is_array())
                for (const auto& d : l["shape"])
                    if (d.is_number_integer()) b.shape.push_back(d.get<std::int64_t>());
            b.layout_kind = l.value("kind", "");
            b.layout_repr = l.value("text", "");
            try {
                b.layout_mapping = dump::mappingText(dump::parseRepr(b.layout_repr));
            } catch (const std::exception& e) {
                b.layout_error = e.what();
            }
        }
    }
}

BufferTile bufferTile(const KernelXray& k, int buffer) {
    if (buffer < 0 || std::size_t(buffer) >= k.buffers.size())
        throw InputError("no buffer " + std::to_string(buffer));
    const Buffer& b = k.buffers[std::size_t(buffer)];
    if (b.scope != "shared" && b.scope != "shared.dyn")
        throw InputError(b.name + " is not in shared memory (" + b.scope + ")");
    BufferTile t;
    const int elem =
        b.element_bytes > 0 && b.element_bytes <= 16 && b.ctype != "void" && b.ctype != "uchar"
            ? b.element_bytes
            : (b.dtype.empty() ? 4 : dtypeBytes(b.dtype));
    t.dtype = !b.dtype.empty() ? b.dtype : dtypeOfCType(b.ctype, elem);
    if (b.layout_kind == "layout" && !b.layout_mapping.empty()) {
        t.spec = b.layout_mapping;
        t.why = "the layout TileLang inferred for " + b.name;
        return t;
    }
    const int e = dtypeBytes(t.dtype);
    std::int64_t bytes = b.bytes > 0 ? b.bytes : b.accessed_end;
    if (bytes <= 0) throw InputError(b.name + " has no known size");
    const std::int64_t cols = std::max<std::int64_t>(1, 128 / e);
    const std::int64_t rows = (bytes + 127) / 128;
    t.spec = "T.Layout([" + std::to_string(rows) + ", " + std::to_string(cols) +
             "], lambda i, j: (i, j))";
    t.why = b.layout_error.empty() ? "no inferred layout for " + b.name +
                                         ": its bytes as rows of 128 (one bank line each)"
                                   : "the inferred layout of " + b.name + " did not read (" +
                                         b.layout_error + "): its bytes as rows of 128";
    return t;
}

SharedAccess instanceAccess(const SharedTile& tile, std::int64_t base, const Instruction& ins,
                            int warp, int* outside) {
    std::unordered_map<std::int64_t, std::int32_t> cellAt;
    const int e = tile.elementBytes();
    cellAt.reserve(std::size_t(tile.cells()) * std::size_t(e));
    for (std::int64_t c = 0; c < tile.cells(); ++c)
        for (int byte = 0; byte < e; ++byte)
            cellAt.emplace(base + tile.addressOfCell(c) + byte, std::int32_t(c));
    SharedAccess a;
    a.kind = sharedOpName(ins.op);
    a.plan.instructions.push_back(ins);
    a.warp.push_back(warp);
    a.touches.emplace_back();
    const int bytes = ins.isMatrix() ? 16 : ins.bytes_per_lane;
    a.vector_elements = std::max(1, bytes / e);
    int out = 0;
    for (const auto& lane : ins.lanes) {
        if (!lane.active) continue;
        if (ins.isMatrix() && lane.lane >= 8 * ins.matrices) continue;
        std::vector<std::int32_t> cells;
        for (int byte = 0; byte < bytes; byte += e) {
            auto it = cellAt.find(lane.byte_address + byte);
            if (it == cellAt.end()) {
                ++out;
                continue;
            }
            if (cells.empty() || cells.back() != it->second) cells.push_back(it->second);
        }
        a.addTouch(a.touches.back(), lane.lane, cells.data(), int(cells.size()));
    }
    if (outside) *outside = out;
    return a;
}

} // namespace ts::kernel
