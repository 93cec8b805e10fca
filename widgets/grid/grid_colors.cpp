// SPDX-License-Identifier: Apache-2.0
// Colours (grid_colors.h). Qt's QColor keeps 16-bit channels: HSL and float RGB are rounded to
// 16 bits, then to 8 with a rounding division by 257; both steps are reproduced here so that the
// colours stay those the GUI always showed.
#include "grid/grid_colors.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace tsw {

namespace {

int round16(float v) {
    return v >= 0.0f ? int(v + 0.5f) : int(v - 0.5f);
}
int to8(int c16) {
    return (c16 + 128 - ((c16 + 128) >> 8)) >> 8;
}
Argb rgb8(int r, int g, int b) {
    return 0xff000000u | Argb(r) << 16 | Argb(g) << 8 | Argb(b);
}

// HSL (each 0..1) to RGB by way of 16-bit channels.
Argb fromHsl(float h, float s, float l) {
    const int H = round16(h * 36000.0f), S = round16(s * 65535.0f), L = round16(l * 65535.0f);
    if (S == 0) return rgb8(to8(L), to8(L), to8(L));
    const float hh = H == 36000 ? 0.0f : float(H) / 36000.0f, ss = float(S) / 65535.0f,
                ll = float(L) / 65535.0f;
    const float t2 = ll < 0.5f ? ll * (1.0f + ss) : ll + ss - ll * ss, t1 = 2.0f * ll - t2;
    float t3[3] = {hh + 1.0f / 3.0f, hh, hh - 1.0f / 3.0f};
    int c[3];
    for (int i = 0; i < 3; ++i) {
        if (t3[i] < 0.0f)
            t3[i] += 1.0f;
        else if (t3[i] > 1.0f)
            t3[i] -= 1.0f;
        float v;
        if (t3[i] * 6.0f < 1.0f)
            v = t1 + (t2 - t1) * t3[i] * 6.0f;
        else if (t3[i] * 2.0f < 1.0f)
            v = t2;
        else if (t3[i] * 3.0f < 2.0f)
            v = t1 + (t2 - t1) * (2.0f / 3.0f - t3[i]) * 6.0f;
        else
            v = t1;
        c[i] = round16(v * 65535.0f);
        if (c[i] == 1) c[i] = 0;
    }
    return rgb8(to8(c[0]), to8(c[1]), to8(c[2]));
}

} // namespace

Argb threadColor(std::int64_t thread) {
    const std::int64_t lane = thread % 32, warp = thread / 32;
    static const double kLight[4] = {0.78, 0.66, 0.85, 0.72};
    static const double kSat[4] = {0.72, 0.58, 0.62, 0.50};
    const double hue = std::fmod(double(lane) * (360.0 / 32.0) + double(warp % 2) * 5.6, 360.0);
    return fromHsl(float(hue / 360.0), float(kSat[warp % 4]), float(kLight[warp % 4]));
}

Argb categoricalColor(std::int64_t i) {
    // The twelve base colours, then the same 15 % lighter and 15 % darker (in HSV value): this
    // runs per cell (warp colouring) and per overview block, so the 36 are a table.
    static constexpr std::array<Argb, 36> kColors = {
        0x7eb0d5, 0xfd7f6f, 0xb2e061, 0xbd7ebe, 0xffb55a, 0xffee65, 0xbeb9db, 0xfdcce5, 0x8bd3c7,
        0xe6c79c, 0xa0c4a8, 0xd3a5a5, 0x91caf5, 0xffa094, 0xccff71, 0xd991da, 0xffc680, 0xfff28b,
        0xdad5fc, 0xfff2f8, 0xa0f3e5, 0xffe1b6, 0xb8e1c1, 0xf3bebe, 0x6e99b9, 0xdc6e61, 0x9bc354,
        0xa46ea5, 0xde9d4e, 0xdecf58, 0xa5a1be, 0xdcb1c7, 0x79b7ad, 0xc8ad88, 0x8baa92, 0xb78f8f};
    return 0xff000000u | kColors[std::size_t(((i % 36) + 36) % 36)];
}

Argb rampColor(double t) {
    static constexpr Argb kStops[9] = {0x9e0142, 0xd53e4f, 0xf46d43, 0xfdae61, 0xfee08b,
                                       0xe6f598, 0xabdda4, 0x66c2a5, 0x3288bd};
    t = std::clamp(t, 0.0, 1.0) * 8.0;
    const int k = std::min(7, static_cast<int>(t));
    const double f = t - k;
    auto channel = [&](int shift) {
        const float a = float(((kStops[k] >> shift) & 0xff) * 257) / 65535.0f;
        const float b = float(((kStops[k + 1] >> shift) & 0xff) * 257) / 65535.0f;
        return to8(round16(float(a + (b - a) * f) * 65535.0f));
    };
    return rgb8(channel(16), channel(8), channel(0));
}

bool isDark(Argb c) {
    return 0.299 * ((c >> 16) & 0xff) + 0.587 * ((c >> 8) & 0xff) + 0.114 * (c & 0xff) < 128;
}

} // namespace tsw
