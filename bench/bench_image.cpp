// SPDX-License-Identifier: Apache-2.0
// PNG encoding of a grid image: the core's encoder (tilescope/image) against libdeflate on the
// same filtered bytes, side by side, and the raster picture itself. Built where the grid's
// raster code (tsgrid, GUI builds) is.
#include "tilescope/image/deflate.h"
#include "tilescope/image/png.h"
#include "tilescope/notation/mapping.h"

#include "grid/grid_raster.h"

#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>
#include <stdexcept>
#include <vector>

#ifdef TILESCOPE_BENCH_LIBDEFLATE
#include <libdeflate.h>
#endif

namespace {

// `render`'s default picture of the 32x32 accumulator (1335 x 1405), drawn by the CLI's own
// raster code.
struct Picture {
    int w = 0, h = 0;
    std::vector<std::uint32_t> pixels;
};
const Picture& gridImage() {
    static const Picture pic = [] {
        const tsw::GridModel m =
            tsw::GridModel::fromMapping(ts::parseMapping("make_gemm_c_fragment((32, 32), 128)"),
                                        tsw::ViewMode::Input, tsw::ColorMode::Thread);
        std::string why;
        auto fonts = tsw::FontRaster::open(&why);
        if (!fonts) throw std::runtime_error(why);
        auto img = tsw::rasterizeGrid(m, tsw::RasterOptions{}, *fonts, &why);
        if (!img) throw std::runtime_error(why);
        return Picture{img->width, img->height, std::move(img->pixels)};
    }();
    return pic;
}

// The bytes the encoders compress: Up-filtered RGB rows.
const std::vector<std::uint8_t>& filtered() {
    static const std::vector<std::uint8_t> raw = [] {
        const Picture& pic = gridImage();
        const auto& p = pic.pixels;
        const std::size_t w = std::size_t(pic.w), line = 1 + 3 * w;
        std::vector<std::uint8_t> r(line * std::size_t(pic.h));
        for (std::size_t y = 0; y < std::size_t(pic.h); ++y) {
            std::uint8_t* o = r.data() + y * line;
            *o++ = 2;
            for (std::size_t x = 0; x < w; ++x) {
                const std::uint32_t a = p[y * w + x];
                const std::uint32_t b = y ? p[(y - 1) * w + x] : 0;
                *o++ = std::uint8_t((a >> 16) - (b >> 16));
                *o++ = std::uint8_t((a >> 8) - (b >> 8));
                *o++ = std::uint8_t(a - b);
            }
        }
        return r;
    }();
    return raw;
}

void BM_PngEncodeGrid(benchmark::State& s) {
    const Picture& pic = gridImage();
    std::size_t bytes = 0;
    for (auto _ : s)
        bytes = ts::image::encodePng(pic.pixels.data(), pic.w, pic.h, std::size_t(pic.w)).size();
    s.counters["png_bytes"] = double(bytes);
}
BENCHMARK(BM_PngEncodeGrid)->UseRealTime()->Unit(benchmark::kMillisecond);

// The picture without encoding (plan and one band of the whole height).
void BM_RasterGrid(benchmark::State& s) {
    const tsw::GridModel m =
        tsw::GridModel::fromMapping(ts::parseMapping("make_gemm_c_fragment((32, 32), 128)"),
                                    tsw::ViewMode::Input, tsw::ColorMode::Thread);
    std::string why;
    auto fonts = tsw::FontRaster::open(&why);
    for (auto _ : s)
        benchmark::DoNotOptimize(tsw::rasterizeGrid(m, tsw::RasterOptions{}, *fonts, &why));
}
BENCHMARK(BM_RasterGrid)->Unit(benchmark::kMillisecond);

// One piece on one thread: the encoder's own speed, comparable with libdeflate's below.
void BM_DeflateGridOneThread(benchmark::State& s) {
    const auto& raw = filtered();
    std::size_t bytes = 0;
    for (auto _ : s)
        bytes = ts::image::deflatePiece(raw.data(), 0, raw.size(), true).size();
    s.counters["deflate_bytes"] = double(bytes);
}
BENCHMARK(BM_DeflateGridOneThread)->Unit(benchmark::kMillisecond);

#ifdef TILESCOPE_BENCH_LIBDEFLATE
void BM_LibdeflateGridLevel(benchmark::State& s) {
    const auto& raw = filtered();
    libdeflate_compressor* c = libdeflate_alloc_compressor(int(s.range(0)));
    std::vector<std::uint8_t> out(libdeflate_deflate_compress_bound(c, raw.size()));
    std::size_t bytes = 0;
    for (auto _ : s)
        bytes = libdeflate_deflate_compress(c, raw.data(), raw.size(), out.data(), out.size());
    libdeflate_free_compressor(c);
    s.counters["deflate_bytes"] = double(bytes);
}
BENCHMARK(BM_LibdeflateGridLevel)->Arg(1)->Arg(6)->Unit(benchmark::kMillisecond);
#endif

} // namespace
