// SPDX-License-Identifier: Apache-2.0
// FontRaster (font_raster.h).
#include "grid/font_raster.h"

#include <fontconfig/fontconfig.h>
#include <ft2build.h>
#include FT_FREETYPE_H

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <unordered_map>

namespace tsw {

namespace {

// Decodes one UTF-8 code point at s[i], advancing i; malformed bytes give U+FFFD.
char32_t nextCodePoint(std::string_view s, std::size_t& i) {
    const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned char c = b(i);
    int n = c < 0x80 ? 0 : (c >> 5) == 6 ? 1 : (c >> 4) == 14 ? 2 : (c >> 3) == 30 ? 3 : -1;
    if (n < 0 || i + std::size_t(n) >= s.size()) { // a bad lead byte, or cut short
        ++i;
        return 0xfffd;
    }
    char32_t cp = n == 0 ? c : c & (0x3f >> n);
    for (int k = 1; k <= n; ++k) {
        if ((b(i + std::size_t(k)) & 0xc0) != 0x80) {
            ++i;
            return 0xfffd;
        }
        cp = (cp << 6) | (b(i + std::size_t(k)) & 0x3f);
    }
    i += std::size_t(n) + 1;
    return cp;
}

std::string fontconfigFile(bool bold) {
    if (!FcInit()) return {};
    FcPattern* p =
        FcNameParse(reinterpret_cast<const FcChar8*>(bold ? "sans-serif:bold" : "sans-serif"));
    std::string file;
    if (p) {
        FcConfigSubstitute(nullptr, p, FcMatchPattern);
        FcDefaultSubstitute(p);
        FcResult r;
        if (FcPattern* m = FcFontMatch(nullptr, p, &r)) {
            FcChar8* f = nullptr;
            if (FcPatternGetString(m, FC_FILE, 0, &f) == FcResultMatch && f)
                file = reinterpret_cast<const char*>(f);
            FcPatternDestroy(m);
        }
        FcPatternDestroy(p);
    }
    return file;
}

// x / 255 rounded, for x <= 255 * 255, without a division.
inline std::uint32_t div255(std::uint32_t x) {
    x += 128;
    return (x + (x >> 8)) >> 8;
}

struct Glyph {
    int left = 0, top = 0, width = 0, rows = 0;
    double advance = 0; // unhinted, pixels
    FT_UInt index = 0;  // in the face, for kerning
    std::vector<std::uint8_t> coverage;
};

} // namespace

struct FontRaster::Impl {
    FT_Library lib = nullptr;
    FT_Face face[2] = {nullptr, nullptr};
    int sizeSet[2] = {0, 0};
    bool boldTried = false;
    // (bold, px, code point) -> glyph
    std::unordered_map<std::uint64_t, Glyph> cache;

    ~Impl() {
        for (FT_Face f : face)
            if (f) FT_Done_Face(f);
        if (lib) FT_Done_FreeType(lib);
    }
    // The pair's kerning in pixels (the font's 'kern' table, as Qt's shaping applies it).
    double kerning(bool bold, int px, FT_UInt left, FT_UInt right) {
        FT_Face f = sized(bold, px);
        if (!left || !right || !FT_HAS_KERNING(f)) return 0;
        FT_Vector k;
        if (FT_Get_Kerning(f, left, right, FT_KERNING_UNFITTED, &k) != 0) return 0;
        return double(k.x) / 64.0;
    }
    // The regular or bold face, loaded on first use (only titles are bold). A missing bold face
    // falls back to the regular one.
    bool load(bool bold) {
        static const char* kEnv[2] = {"TILESCOPE_FONT", "TILESCOPE_FONT_BOLD"};
        static const char* kDejaVu[2] = {"/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
                                         "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"};
        std::vector<std::string> tries;
        if (const char* e = std::getenv(kEnv[bold]); e && *e) tries.push_back(e);
        tries.push_back(kDejaVu[bold]);
        for (const std::string& path : tries)
            if (FT_New_Face(lib, path.c_str(), 0, &face[bold]) == 0) return true;
        const std::string f = fontconfigFile(bold);
        return !f.empty() && FT_New_Face(lib, f.c_str(), 0, &face[bold]) == 0;
    }
    FT_Face sized(bool bold, int px) {
        if (bold && !face[1]) {
            if (!boldTried) load(true);
            boldTried = true;
            bold = face[1] != nullptr;
        }
        FT_Face f = face[bold];
        if (sizeSet[bold] != px) {
            FT_Set_Pixel_Sizes(f, 0, FT_UInt(px));
            sizeSet[bold] = px;
        }
        return f;
    }
    const Glyph& glyph(bool bold, int px, char32_t cp) {
        const std::uint64_t key = std::uint64_t(bold) << 63 | std::uint64_t(px) << 32 | cp;
        auto it = cache.find(key);
        if (it != cache.end()) return it->second;
        Glyph g;
        FT_Face f = sized(bold, px);
        g.index = FT_Get_Char_Index(f, cp);
        if (FT_Load_Glyph(f, g.index, FT_LOAD_RENDER | FT_LOAD_NO_HINTING) == 0) {
            const FT_GlyphSlot s = f->glyph;
            g.left = s->bitmap_left;
            g.top = s->bitmap_top;
            g.width = int(s->bitmap.width);
            g.rows = int(s->bitmap.rows);
            g.advance = std::round(double(s->linearHoriAdvance) / 1024.0) / 64.0; // 26.6, as Qt
            g.coverage.resize(std::size_t(g.width) * std::size_t(g.rows));
            for (int y = 0; y < g.rows; ++y)
                std::copy_n(s->bitmap.buffer + std::ptrdiff_t(y) * s->bitmap.pitch, g.width,
                            g.coverage.begin() + std::ptrdiff_t(y) * g.width);
        }
        return cache.emplace(key, std::move(g)).first->second;
    }
};

FontRaster::FontRaster() : d_(std::make_unique<Impl>()) {}
FontRaster::~FontRaster() = default;

std::unique_ptr<FontRaster> FontRaster::open(std::string* error) {
    std::unique_ptr<FontRaster> r(new FontRaster);
    if (FT_Init_FreeType(&r->d_->lib) != 0) {
        if (error) *error = "FreeType did not start";
        return nullptr;
    }
    if (!r->d_->load(false)) {
        if (error) *error = "no font found (DejaVu Sans or fontconfig's sans-serif)";
        return nullptr;
    }
    return r;
}

FontRaster::Metrics FontRaster::metrics(double px, bool bold) {
    const int size = std::max(1, int(std::lround(px)));
    FT_Face f = d_->sized(bold, size);
    // Unrounded design metrics in 1/64 pixel, as Qt gives them for unhinted fonts (FreeType's
    // size metrics are rounded outwards to whole pixels, a pixel taller).
    auto px64 = [&](FT_Short units) {
        return std::round(double(units) * size / f->units_per_EM * 64.0) / 64.0;
    };
    return {px64(f->ascender), -px64(f->descender)};
}

double FontRaster::advance(std::string_view utf8, double px, bool bold) {
    const int size = std::max(1, int(std::lround(px)));
    double w = 0;
    FT_UInt prev = 0;
    for (std::size_t i = 0; i < utf8.size();) {
        const Glyph& g = d_->glyph(bold, size, nextCodePoint(utf8, i));
        w += d_->kerning(bold, size, prev, g.index) + g.advance;
        prev = g.index;
    }
    return w;
}

void FontRaster::draw(PixelView& dst, double x, double baseline, std::string_view utf8, double px,
                      Argb ink, bool bold) {
    const int size = std::max(1, int(std::lround(px)));
    const int by = int(std::lround(baseline));
    const std::uint32_t ir = (ink >> 16) & 0xff, ig = (ink >> 8) & 0xff, ib = ink & 0xff,
                        ia = ink >> 24;
    FT_UInt prev = 0;
    for (std::size_t i = 0; i < utf8.size();) {
        const Glyph& g = d_->glyph(bold, size, nextCodePoint(utf8, i));
        x += d_->kerning(bold, size, prev, g.index);
        prev = g.index;
        const int gx = int(std::lround(x)) + g.left, gy = by - g.top - dst.originY;
        for (int y = std::max(0, -gy); y < g.rows && gy + y < dst.height; ++y) {
            std::uint32_t* row = dst.pixels + std::size_t(gy + y) * dst.stride;
            const std::uint8_t* cov = g.coverage.data() + std::size_t(y) * std::size_t(g.width);
            for (int k = std::max(0, -gx); k < g.width && gx + k < dst.width; ++k) {
                const std::uint32_t a = ia == 255 ? cov[k] : div255(cov[k] * ia);
                if (!a) continue;
                std::uint32_t& p = row[gx + k];
                if (a == 255) {
                    p = 0xff000000u | ink;
                    continue;
                }
                const std::uint32_t pr = (p >> 16) & 0xff, pg = (p >> 8) & 0xff, pb = p & 0xff;
                p = 0xff000000u | div255(pr * (255 - a) + ir * a) << 16 |
                    div255(pg * (255 - a) + ig * a) << 8 | div255(pb * (255 - a) + ib * a);
            }
        }
        x += g.advance;
    }
}

} // namespace tsw
