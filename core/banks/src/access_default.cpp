// SPDX-License-Identifier: Apache-2.0
// defaultAccess: an access pattern that fits a shared tile (see access.h).
#include "tilescope/banks/access.h"

namespace ts {

std::string defaultAccess(const SharedTile& tile, std::string* why) {
    const Shape& s = tile.shape();
    const int bytes = tile.elementBytes();
    auto say = [&](const std::string& w) {
        if (why) *why = w;
    };
    std::string ldmatrixProblem;
    if (s.size() == 2 && bytes == 2) {
        // ldmatrix lane t reads the 16-byte row (t % 16, 8 * (t / 16)): x4 needs 16 rows and
        // 16 columns, x1 (lanes 0-7) 8 rows and 8 columns, and each such row contiguous in the
        // layout (a transposed layout has none): tried, not assumed.
        auto fits = [&](const char* spec) {
            try {
                matrixAccess(tile, spec, false);
                return true;
            } catch (const std::exception& e) {
                ldmatrixProblem = e.what();
                return false;
            }
        };
        if (s[0] >= 16 && s[1] >= 16 && fits("x4")) {
            say("ldmatrix.x4: four 8x8 matrices of 16-bit elements, as an mma operand load");
            return "ldmatrix:x4";
        }
        if (s[0] >= 8 && s[1] >= 8 && fits("x1")) {
            say(s[0] >= 16
                    ? "ldmatrix.x1: eight 16-byte rows (x4 does not fit: " + ldmatrixProblem + ")"
                    : "ldmatrix.x1: eight 16-byte rows (the tile has " + std::to_string(s[0]) +
                          " rows, too few for x4's 16)");
            return "ldmatrix:x1";
        }
    }
    // One element per lane, row-major: lane t reads flat element t (mod the tile's size).
    std::string coords;
    std::int64_t stride = 1;
    for (std::size_t k = s.size(); k-- > 0;) {
        std::string c = "t";
        if (stride > 1) c += " // " + std::to_string(stride);
        if (31 / stride >= s[k]) c += " % " + std::to_string(s[k]); // lane 31 must stay inside
        coords = k + 1 == s.size() ? c : c + ", " + coords;
        stride *= s[k];
    }
    if (!ldmatrixProblem.empty())
        say("one element per lane, row-major (ldmatrix does not fit: " + ldmatrixProblem + ")");
    else if (bytes == 2)
        say("one element per lane, row-major (ldmatrix needs a 2-D tile of at least 8x8)");
    else
        say("one element per lane, row-major (ldmatrix reads 16-bit elements; this tile has " +
            std::to_string(8 * bytes) + "-bit ones)");
    return "lanes:lambda t: (" + coords + ")";
}

} // namespace ts
