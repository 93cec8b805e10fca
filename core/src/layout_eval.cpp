#include "layout_eval.h"

#include "tilescope/errors.h"
#include "tilescope/expr_eval.h"

namespace ts::detail {

std::vector<std::string> placeholders(std::size_t rank, bool withRep) {
    std::vector<std::string> v;
    for (std::size_t k = 0; k < rank; ++k)
        v.push_back(placeholderName(k));
    if (withRep) v.push_back(kRepVar);
    return v;
}

std::vector<std::int64_t> unflatten(std::int64_t flat, const Shape& shape) {
    std::vector<std::int64_t> c(shape.size());
    for (std::size_t k = shape.size(); k-- > 0;) {
        c[k] = flat % shape[k];
        flat /= shape[k];
    }
    return c;
}

void forEachBatch(const Shape& shape, const std::vector<Expr>& exprs, std::int64_t rep,
                  const std::function<void(std::int64_t, std::size_t,
                                           const std::vector<const std::int64_t*>&)>& sink) {
    const std::size_t rank = shape.size();
    const std::int64_t total = cellCount(shape);
    Shape extents = shape;
    extents.push_back(rep + 1);
    Program prog(exprs, placeholders(rank, true), extents);
    const std::size_t B = Program::kBatch;

    std::vector<std::vector<std::int64_t>> in(rank + 1, std::vector<std::int64_t>(B));
    std::fill(in[rank].begin(), in[rank].end(), rep);
    std::vector<std::vector<std::int64_t>> out(exprs.size(), std::vector<std::int64_t>(B));
    std::vector<const std::int64_t*> inPtr(rank + 1);
    std::vector<std::int64_t*> outPtr(exprs.size());
    std::vector<const std::int64_t*> outConst(exprs.size());
    for (std::size_t k = 0; k <= rank; ++k)
        inPtr[k] = in[k].data();
    for (std::size_t o = 0; o < exprs.size(); ++o)
        outConst[o] = outPtr[o] = out[o].data();

    std::vector<std::int64_t> coord(rank, 0);
    for (std::int64_t first = 0; first < total; first += static_cast<std::int64_t>(B)) {
        const std::size_t n = static_cast<std::size_t>(std::min<std::int64_t>(B, total - first));
        // Odometer over the row-major coordinates; the last dimension runs in straight spans.
        for (std::size_t p = 0; p < n;) {
            const std::int64_t last = rank ? shape[rank - 1] : 1;
            const std::int64_t start = rank ? coord[rank - 1] : 0;
            const std::size_t span = static_cast<std::size_t>(
                std::min<std::int64_t>(last - start, static_cast<std::int64_t>(n - p)));
            for (std::size_t k = 0; k + 1 < rank; ++k)
                std::fill_n(in[k].data() + p, span, coord[k]);
            if (rank)
                for (std::size_t q = 0; q < span; ++q)
                    in[rank - 1][p + q] = start + static_cast<std::int64_t>(q);
            p += span;
            if (!rank) break;
            coord[rank - 1] += static_cast<std::int64_t>(span);
            for (std::size_t k = rank; k-- > 0;) {
                if (coord[k] < shape[k]) break;
                coord[k] = 0;
                if (k) ++coord[k - 1];
            }
        }
        std::size_t bad = 0;
        std::string msg;
        if (!prog.run(inPtr, outPtr, n, bad, msg)) {
            std::vector<std::int64_t> cell =
                unflatten(first + static_cast<std::int64_t>(bad), shape);
            throw EvalError(msg, cell);
        }
        sink(first, n, outConst);
    }
}

} // namespace ts::detail
