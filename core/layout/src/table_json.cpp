// SPDX-License-Identifier: Apache-2.0
#include "tilescope/layout/table_json.h"

#include <nlohmann/json.hpp>
#include <sstream>

namespace ts {

namespace {

void writeList(std::ostream& os, const std::int64_t* v, std::size_t n) {
    os << '[';
    for (std::size_t k = 0; k < n; ++k)
        os << (k ? "," : "") << v[k];
    os << ']';
}

void writeList(std::ostream& os, const Shape& s) {
    writeList(os, s.data(), s.size());
}

// Row-major coordinates of consecutive cells, advanced like an odometer.
struct Odometer {
    const Shape& shape;
    std::vector<std::int64_t> c;
    explicit Odometer(const Shape& s) : shape(s), c(s.size(), 0) {}
    void next() {
        for (std::size_t k = c.size(); k-- > 0;) {
            if (++c[k] < shape[k]) return;
            c[k] = 0;
        }
    }
};

// `,"cells":[{"in":[...],<rest>}, ...]` in row-major order; `rest` writes a cell's own fields.
template <class Rest>
void writeCells(std::ostream& os, const Shape& shape, std::int64_t cells, Rest rest) {
    os << ",\"cells\":[";
    Odometer in(shape);
    for (std::int64_t c = 0; c < cells; ++c, in.next()) {
        os << (c ? ",{\"in\":" : "{\"in\":");
        writeList(os, in.c);
        rest(c);
        os << '}';
    }
    os << ']';
}

// `,"notes":[...]` (ts::mappingNotes) when the mapping has any: absent otherwise, so tables of
// mappings without notes read as before.
void writeNotes(std::ostream& os, const Mapping& m) {
    const std::vector<std::string>& notes = mappingNotes(m);
    if (!notes.empty()) os << ",\"notes\":" << nlohmann::json(notes).dump();
}

} // namespace

SlotCollisions writeTableJson(std::ostream& os, const Mapping& m, bool summary) {
    if (const Layout* l = std::get_if<Layout>(&m)) {
        LayoutTable t = l->evaluate();
        os << "{\"kind\":\"layout\",\"input_shape\":";
        writeList(os, t.inputShape);
        os << ",\"output_shape\":";
        writeList(os, t.outputShape);
        writeNotes(os, m);
        if (!summary)
            writeCells(os, t.inputShape, t.cells(), [&](std::int64_t c) {
                os << ",\"out\":";
                writeList(os, t.out.data() + c * t.outRank, t.outRank);
            });
        os << '}';
        return {};
    }
    const FragmentTable t = std::get<Fragment>(m).evaluate();
    os << "{\"kind\":\"fragment\",\"input_shape\":";
    writeList(os, t.inputShape);
    os << ",\"thread_extent\":" << t.threadExtent << ",\"replicate\":" << t.replicate
       << ",\"local_size\":";
    if (t.localRank == 1)
        os << t.localShape[0];
    else
        writeList(os, t.localShape);
    SlotCollisions collisions = findSlotCollisions(t);
    os << ",\"slot_collisions\":" << collisions.elements()
       << ",\"shared_registers\":" << collisions.sharedSlots;
    writeNotes(os, m);
    if (!summary)
        writeCells(os, t.inputShape, t.cells(), [&](std::int64_t c) {
            os << ",\"threads\":";
            writeList(os, t.threads.data() + c * t.replicate,
                      static_cast<std::size_t>(t.replicate));
            os << ",\"local\":";
            if (t.localRank == 1)
                os << t.local[c];
            else
                writeList(os, t.local.data() + c * t.localRank, t.localRank);
        });
    os << '}';
    return collisions;
}

nlohmann::json tableJson(const Mapping& m, bool summary) {
    std::ostringstream os;
    writeTableJson(os, m, summary);
    return nlohmann::json::parse(os.str());
}

} // namespace ts
