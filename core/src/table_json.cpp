#include "tilescope/table_json.h"

#include <nlohmann/json.hpp>

namespace ts {

nlohmann::json tableJson(const Mapping& m, bool summary) {
    using nlohmann::json;
    json j;
    if (const Layout* l = std::get_if<Layout>(&m)) {
        LayoutTable t = l->evaluate();
        j["kind"] = "layout";
        j["input_shape"] = t.inputShape;
        j["output_shape"] = t.outputShape;
        if (summary) return j;
        json cells = json::array();
        const auto cellCount = t.cells();
        for (std::int64_t c = 0; c < cellCount; ++c) {
            std::vector<std::int64_t> in(t.inputShape.size());
            std::int64_t r = c;
            for (std::size_t k = in.size(); k-- > 0;) {
                in[k] = r % t.inputShape[k];
                r /= t.inputShape[k];
            }
            std::vector<std::int64_t> out(t.out.begin() + c * t.outRank,
                                          t.out.begin() + (c + 1) * t.outRank);
            cells.push_back({{"in", in}, {"out", out}});
        }
        j["cells"] = std::move(cells);
        return j;
    }
    const Fragment& f = std::get<Fragment>(m);
    FragmentTable t = f.evaluate();
    j["kind"] = "fragment";
    j["input_shape"] = t.inputShape;
    j["thread_extent"] = t.threadExtent;
    j["replicate"] = t.replicate;
    if (t.localRank == 1)
        j["local_size"] = t.localShape[0];
    else
        j["local_size"] = t.localShape;
    if (summary) return j;
    json cells = json::array();
    const auto cellCount = t.cells();
    for (std::int64_t c = 0; c < cellCount; ++c) {
        std::vector<std::int64_t> in(t.inputShape.size());
        std::int64_t r = c;
        for (std::size_t k = in.size(); k-- > 0;) {
            in[k] = r % t.inputShape[k];
            r /= t.inputShape[k];
        }
        std::vector<std::int64_t> th(t.threads.begin() + c * t.replicate,
                                     t.threads.begin() + (c + 1) * t.replicate);
        json cell{{"in", in}, {"threads", th}};
        if (t.localRank == 1)
            cell["local"] = t.local[c];
        else
            cell["local"] = std::vector<std::int64_t>(t.local.begin() + c * t.localRank,
                                                      t.local.begin() + (c + 1) * t.localRank);
        cells.push_back(std::move(cell));
    }
    j["cells"] = std::move(cells);
    return j;
}

} // namespace ts
