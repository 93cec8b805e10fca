// SPDX-License-Identifier: Apache-2.0
// Host program for tools/gen_catlass_goldens.sh: prints the element offsets of CATLASS's own
// fractal layouts (catlass/layout/matrix.hpp and tla/layout.hpp, from the ascend-catlass-dsl
// wheel, compiled for the host) as golden cases Tilescope's make_*_layout builtins must match.
// Both CATLASS implementations (the layout:: classes and tla::MakeLayout) are evaluated; the
// program stops if they disagree, so a case records one CATLASS answer, not a choice.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

// The headers name AscendC::TPosition in catlass/arch/arch.hpp even on the host (only as
// template arguments of position tags this program never uses): an enum is enough.
namespace AscendC {
enum class TPosition {
    GM,
    A1,
    A2,
    B1,
    B2,
    C1,
    C2,
    CO1,
    CO2,
    VECIN,
    VECOUT,
    VECCALC,
    LCM,
    SPM,
    SHM,
    TSCM,
    C2PIPE2GM,
    C2PIPE2LOCAL,
    MAX
};
}

#include "catlass/layout/matrix.hpp"
#include "tla/layout.hpp"

// A 4-bit element: on the device AscendC::int4b_t has SizeOfBits 4; the host build of the
// headers uses sizeof * 8, so the 4-bit width is stated here for this one type.
struct Int4Host {
    std::uint8_t v;
};
template <> struct Catlass::SizeOfBits<Int4Host> { static constexpr std::size_t value = 4; };

namespace {

bool first_case = true;

// `base_only`: layout::zZ::GetOffset gives only the offset of the fractal holding (r, c) (it
// serves tile starts, which are fractal-aligned); it is compared with tla at that fractal's first
// element, and the recorded offset is tla's, whose strides carry the in-fractal term.
template <class Layout, class Tla>
void emit(const char* fam, const char* dtype, long R, long C, const Layout& lay, const Tla& tl,
          const char* spec_fn, const char* citation, long base_only_c0 = 0) {
    std::printf("%s    {\n      \"name\": \"catlass_%s_%s_%ldx%ld\",\n", first_case ? "" : ",\n",
                fam, dtype, R, C);
    first_case = false;
    std::printf("      \"spec\": \"%s((%ld, %ld), \\\"%s\\\")\",\n", spec_fn, R, C, dtype);
    std::printf("      \"source\": \"catlass\",\n      \"citation\": \"%s\",\n", citation);
    std::printf("      \"table\": {\"kind\": \"layout\", \"input_shape\": [%ld, %ld], \"cells\": [",
                R, C);
    for (long r = 0; r < R; ++r)
        for (long c = 0; c < C; ++c) {
            const long b = long(tl(tla::MakeCoord(r, c)));
            const long a = long(lay.GetOffset(Catlass::MatrixCoord(r, c)));
            const long want =
                base_only_c0 ? long(tl(tla::MakeCoord(r - r % 16, c - c % base_only_c0))) : b;
            if (a != want) {
                std::fprintf(stderr,
                             "%s %s %ldx%ld: layout:: says %ld, tla says %ld at (%ld, %ld)\n", fam,
                             dtype, R, C, a, want, r, c);
                std::exit(1);
            }
            std::printf("%s{\"in\":[%ld,%ld],\"out\":[%ld]}", (r || c) ? "," : "", r, c, b);
        }
    std::printf("]}\n    }");
}

template <class T> void fractals(const char* dtype, long R, long C) {
    using namespace Catlass::layout;
    emit("zN", dtype, R, C, zN::MakeLayout<T>(R, C), tla::MakeLayout<T, zN>(R, C), "make_zn_layout",
         "catlass layout/matrix.hpp zN::MakeLayout + tla/layout.hpp MakeLayout<T, zN>");
    emit("nZ", dtype, R, C, nZ::MakeLayout<T>(R, C), tla::MakeLayout<T, nZ>(R, C), "make_nz_layout",
         "catlass layout/matrix.hpp nZ::MakeLayout + tla/layout.hpp MakeLayout<T, nZ>");
    emit("zZ", dtype, R, C, zZ::MakeLayout<T>(R, C), tla::MakeLayout<T, zZ>(R, C), "make_zz_layout",
         "tla/layout.hpp MakeLayout<T, zZ>; fractal starts equal catlass layout/matrix.hpp "
         "zZ::MakeLayout GetOffset",
         long(256 / Catlass::SizeOfBits<T>::value));
}

} // namespace

int main() {
    const long shapes[][2] = {{16, 16}, {32, 32}, {20, 24},  {48, 32}, {16, 64},
                              {1, 1},   {17, 33}, {100, 60}, {33, 7}};
    std::printf("[\n");
    for (const auto& s : shapes) {
        fractals<std::int16_t>("float16", s[0], s[1]);
        fractals<float>("float32", s[0], s[1]);
        fractals<std::int8_t>("int8", s[0], s[1]);
        if (s[1] % 2 == 0) fractals<Int4Host>("int4", s[0], s[1]);
    }
    for (const auto& s : {std::pair{20L, 24L}, {64L, 128L}})
        fractals<std::int16_t>("bfloat16", s.first, s.second);
    for (const auto& s : shapes) {
        using namespace Catlass::layout;
        // L0C: 16 x 16 fractals for every accumulator type; layout::L0C, zN::MakeLayoutInL0C
        // and tla::MakeLayoutL0C must all agree.
        const auto l0c = L0C::MakeLayout<float>(s[0], s[1]);
        const auto inL0C = zN::MakeLayoutInL0C(Catlass::MatrixCoord(s[0], s[1]));
        for (long r = 0; r < s[0]; ++r)
            for (long c = 0; c < s[1]; ++c)
                if (l0c.GetOffset(Catlass::MatrixCoord(r, c)) !=
                    inL0C.GetOffset(Catlass::MatrixCoord(r, c))) {
                    std::fprintf(stderr, "L0C and zN::MakeLayoutInL0C disagree at (%ld, %ld)\n", r,
                                 c);
                    return 1;
                }
        emit("L0C", "float32", s[0], s[1], l0c, tla::MakeLayoutL0C(s[0], s[1]), "make_l0c_layout",
             "catlass layout/matrix.hpp L0C::MakeLayout = zN::MakeLayoutInL0C + tla/layout.hpp "
             "MakeLayoutL0C");
    }
    std::printf("\n]\n");
    return 0;
}
