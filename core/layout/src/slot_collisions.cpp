// SPDX-License-Identifier: Apache-2.0
#include "tilescope/layout/slot_collisions.h"

#include "layout_eval.h"
#include "tilescope/support/errors.h"
#include "tilescope/support/limits.h"

#include <algorithm>
#include <cstdint>
#include <string>

namespace ts {

std::string SlotCollisions::summary() const {
    if (!first) return "no two elements share a register";
    std::string s = "elements " + formatCell(first->first) + " and " + formatCell(first->second) +
                    " are both in thread " + std::to_string(first->target[0]) + ", local slot " +
                    std::to_string(first->target[1]);
    s += "; " + std::to_string(elements()) + " elements share a register with another (" +
         std::to_string(sharedSlots) + (sharedSlots == 1 ? " register holds" : " registers hold") +
         " more than one)";
    return s;
}

SlotCollisions findSlotCollisions(const FragmentTable& t) {
    SlotCollisions out;
    const std::int64_t R = t.replicate;
    const std::size_t L = t.localRank;
    const std::int64_t points = t.cells() * R;
    auto key = [&](std::int64_t p) {
        std::int64_t k = t.threads[p];
        for (std::size_t d = 0; d < L; ++d)
            k = k * t.localShape[d] + t.local[(p / R) * L + d];
        return k;
    };
    for (std::int64_t p = 0; p < points; ++p)
        if (t.threads[p] < 0) return out; // negative threads are reported by evaluation
    std::int64_t space = t.threadExtent;
    for (std::int64_t e : t.localShape)
        space = (space > limits::kMaxStoredValues / std::max<std::int64_t>(e, 1)) ? -1 : space * e;
    if (space > 0 && space <= (std::int64_t{1} << 31)) {
        // Most fragments share no register: one bit per slot says so without the tables below
        // (a 16M-cell fragment's would be over 100 MB).
        std::vector<std::uint64_t> seen(static_cast<std::size_t>((space + 63) / 64), 0);
        bool repeated = false;
        if (R == 1 && L == 1) {
            // The common fragment (one replica, one local index): the key without key()'s
            // division per point, which took most of this pass on 16M cells.
            const std::int64_t* th = t.threads.data();
            const std::int64_t* lo = t.local.data();
            const std::int64_t slots = t.localShape[0];
            for (std::int64_t p = 0; p < points; ++p) {
                const std::uint64_t k = static_cast<std::uint64_t>(th[p] * slots + lo[p]);
                const std::uint64_t bit = std::uint64_t{1} << (k & 63);
                if (seen[k >> 6] & bit) {
                    repeated = true;
                    break;
                }
                seen[k >> 6] |= bit;
            }
        } else {
            for (std::int64_t p = 0; p < points && !repeated; ++p) {
                const std::uint64_t k = static_cast<std::uint64_t>(key(p));
                const std::uint64_t bit = std::uint64_t{1} << (k & 63);
                repeated = seen[k >> 6] & bit;
                seen[k >> 6] |= bit;
            }
        }
        if (!repeated) return out;
    }
    std::vector<char> colliding(static_cast<std::size_t>(t.cells()), 0);
    std::int64_t firstA = -1, firstB = -1;
    auto hit = [&](std::int64_t earlier, std::int64_t p, bool newlyShared) {
        out.sharedSlots += newlyShared;
        ++out.count;
        colliding[earlier / R] = colliding[p / R] = 1;
        if (firstB < 0) firstA = earlier, firstB = p;
    };
    if (space > 0 && space <= std::max<std::int64_t>(4 * points, 1 << 20)) {
        // Direct table: the first point seen in each slot, and whether the slot is shared yet.
        std::vector<std::int64_t> seen(static_cast<std::size_t>(space), -1);
        std::vector<char> shared(static_cast<std::size_t>(space), 0);
        for (std::int64_t p = 0; p < points; ++p) {
            const std::int64_t k = key(p);
            if (seen[k] < 0) {
                seen[k] = p;
                continue;
            }
            hit(seen[k], p, !shared[k]);
            shared[k] = 1;
        }
    } else {
        // Sparse slots: sort (slot, point) so a slot's points are adjacent in point order.
        std::vector<std::pair<std::int64_t, std::int64_t>> keyed(static_cast<std::size_t>(points));
        for (std::int64_t p = 0; p < points; ++p)
            keyed[p] = {key(p), p};
        std::sort(keyed.begin(), keyed.end());
        std::int64_t bestB = -1, bestA = -1;
        for (std::size_t i = 0; i < keyed.size();) {
            std::size_t j = i + 1;
            for (; j < keyed.size() && keyed[j].first == keyed[i].first; ++j) {
                out.sharedSlots += j == i + 1;
                ++out.count;
                colliding[keyed[i].second / R] = colliding[keyed[j].second / R] = 1;
            }
            // The reported pair is the one a row-major scan meets first (smallest second point).
            if (j > i + 1 && (bestB < 0 || keyed[i + 1].second < bestB))
                bestA = keyed[i].second, bestB = keyed[i + 1].second;
            i = j;
        }
        firstA = bestA, firstB = bestB;
    }
    if (firstA >= 0) {
        Collision c;
        auto point = [&](std::int64_t p) {
            auto v = detail::unflatten(p / R, t.inputShape);
            if (R > 1) v.push_back(p % R);
            return v;
        };
        c.first = point(firstA);
        c.second = point(firstB);
        c.target.push_back(t.threads[firstA]);
        for (std::size_t d = 0; d < L; ++d)
            c.target.push_back(t.local[(firstA / R) * L + d]);
        out.first = c;
    }
    for (std::int64_t c = 0; c < t.cells(); ++c)
        if (colliding[c]) out.cells.push_back(c);
    return out;
}

} // namespace ts
