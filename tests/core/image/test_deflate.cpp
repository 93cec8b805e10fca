// SPDX-License-Identifier: Apache-2.0
// The deflate encoder and PNG writer checked against zlib's inflate, an independent decoder:
// every input must come back byte for byte, and the stream must be one zlib inflate accepts.
#include "tilescope/image/deflate.h"
#include "tilescope/image/png.h"
#include "tilescope/support/errors.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <atomic>
#include <cstring>
#include <filesystem>
#include <random>

namespace {

using Bytes = std::vector<std::uint8_t>;

Bytes inflateAll(const Bytes& z, std::size_t expected) {
    Bytes out(expected + 16);
    uLongf n = uLongf(out.size());
    const int rc = uncompress(out.data(), &n, z.data(), uLong(z.size()));
    EXPECT_EQ(rc, Z_OK) << "zlib refused the stream";
    out.resize(rc == Z_OK ? n : 0);
    return out;
}

void roundTrip(const Bytes& in, const char* what) {
    const Bytes z = ts::image::zlibCompress(in.data(), in.size());
    EXPECT_EQ(inflateAll(z, in.size()), in) << what;
}

TEST(Deflate, SmallAndDegenerateInputsRoundTrip) {
    roundTrip({}, "empty");
    roundTrip({0}, "one zero");
    roundTrip({7}, "one byte");
    roundTrip({0, 0, 0}, "three zeros");
    roundTrip(Bytes(5, 255), "five equal bytes");
    for (std::size_t n = 1; n < 600; n += 37)
        roundTrip(Bytes(n, 0), "zeros");
}

TEST(Deflate, RandomBytesRoundTripAndStayNearTheirSize) {
    std::mt19937 rng(1);
    Bytes in(300000);
    for (auto& b : in)
        b = std::uint8_t(rng());
    const Bytes z = ts::image::zlibCompress(in.data(), in.size());
    EXPECT_EQ(inflateAll(z, in.size()), in);
    EXPECT_LT(z.size(), in.size() + in.size() / 50); // incompressible: Huffman codes near 8 bits
}

TEST(Deflate, SkewedRunsAndRepeatsRoundTripAcrossBlocks) {
    // Every kind of token: zero runs of every length around 258, repeats at distances up to the
    // 32 KiB window and just past it, literals from a skewed alphabet (codes longer than 15 bits
    // before limiting), and enough tokens for several blocks.
    std::mt19937 rng(2);
    Bytes in;
    while (in.size() < 3000000) {
        switch (rng() % 5) {
        case 0:
            in.insert(in.end(), rng() % 700, 0);
            break;
        case 1: {
            const std::size_t d = 1 + rng() % 33000, len = 3 + rng() % 400;
            if (d <= in.size())
                for (std::size_t k = 0; k < len; ++k)
                    in.push_back(in[in.size() - d]);
            break;
        }
        default:
            for (int k = 0, m = int(rng() % 200); k < m; ++k) {
                // Geometric: byte b with probability ~ 2^-b, so a few bytes are very rare.
                std::uint8_t b = 0;
                while (b < 40 && (rng() & 1))
                    ++b;
                in.push_back(b);
            }
        }
    }
    roundTrip(in, "mixed");
}

TEST(Deflate, ZerosCompressToAlmostNothing) {
    const Bytes in(5 << 20, 0);
    const Bytes z = ts::image::zlibCompress(in.data(), in.size());
    EXPECT_EQ(inflateAll(z, in.size()), in);
    EXPECT_LT(z.size(), 12000u);
}

TEST(Deflate, ChecksumsAgreeWithZlib) {
    std::mt19937 rng(3);
    Bytes in(100003);
    for (auto& b : in)
        b = std::uint8_t(rng());
    EXPECT_EQ(ts::image::adler32(in.data(), in.size()),
              std::uint32_t(adler32(adler32(0, nullptr, 0), in.data(), uInt(in.size()))));
    EXPECT_EQ(ts::image::crc32(in.data(), in.size()),
              std::uint32_t(crc32(0, in.data(), uInt(in.size()))));
    EXPECT_EQ(ts::image::adler32Portable(in.data(), in.size()),
              ts::image::adler32(in.data(), in.size()));
    EXPECT_EQ(ts::image::crc32Portable(in.data(), in.size()),
              ts::image::crc32(in.data(), in.size()));
    const Bytes ones(20000, 255); // the largest sums, over several reductions
    EXPECT_EQ(ts::image::adler32Portable(ones.data(), ones.size()),
              std::uint32_t(adler32(adler32(0, nullptr, 0), ones.data(), uInt(ones.size()))));
}

// Decodes an 8-bit RGB, filter-per-row PNG with zlib alone, undoing every filter type (the
// writer only uses Up, but the decoder does not assume it).
std::vector<std::uint32_t> decodeRgbPng(const Bytes& f, int& w, int& h) {
    auto be = [&](std::size_t at) {
        return std::uint32_t(f[at]) << 24 | std::uint32_t(f[at + 1]) << 16 |
               std::uint32_t(f[at + 2]) << 8 | f[at + 3];
    };
    EXPECT_EQ(std::memcmp(f.data(), "\x89PNG\r\n\x1a\n", 8), 0);
    Bytes z;
    for (std::size_t p = 8; p + 12 <= f.size();) {
        const std::uint32_t n = be(p);
        const std::string type(reinterpret_cast<const char*>(&f[p + 4]), 4);
        EXPECT_EQ(be(p + 8 + n), ts::image::crc32(&f[p + 4], n + 4)) << type;
        if (type == "IHDR") {
            w = int(be(p + 8));
            h = int(be(p + 12));
            EXPECT_EQ(f[p + 16], 8);
            EXPECT_EQ(f[p + 17], 2);
        }
        if (type == "IDAT") z.insert(z.end(), &f[p + 8], &f[p + 8 + n]);
        p += 12 + n;
    }
    const std::size_t line = 1 + 3 * std::size_t(w);
    Bytes raw = inflateAll(z, line * std::size_t(h));
    EXPECT_EQ(raw.size(), line * std::size_t(h));
    std::vector<std::uint32_t> px(std::size_t(w) * std::size_t(h));
    Bytes prev(line - 1, 0), cur(line - 1);
    for (int y = 0; y < h && raw.size() == line * std::size_t(h); ++y) {
        const std::uint8_t* r = &raw[std::size_t(y) * line];
        for (std::size_t x = 0; x < line - 1; ++x) {
            const int a = x >= 3 ? cur[x - 3] : 0, b = prev[x], c = x >= 3 ? prev[x - 3] : 0;
            int pred = 0;
            switch (r[0]) {
            case 1:
                pred = a;
                break;
            case 2:
                pred = b;
                break;
            case 3:
                pred = (a + b) / 2;
                break;
            case 4: {
                const int p = a + b - c, pa = std::abs(p - a), pb = std::abs(p - b),
                          pc = std::abs(p - c);
                pred = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
                break;
            }
            default:
                break;
            }
            cur[x] = std::uint8_t(r[1 + x] + pred);
        }
        for (int x = 0; x < w; ++x)
            px[std::size_t(y) * std::size_t(w) + std::size_t(x)] =
                0xff000000u | std::uint32_t(cur[3 * std::size_t(x)]) << 16 |
                std::uint32_t(cur[3 * std::size_t(x) + 1]) << 8 | cur[3 * std::size_t(x) + 2];
        prev = cur;
    }
    return px;
}

TEST(Png, GridLikeAndNoisyImagesDecodeToTheirPixels) {
    std::mt19937 rng(4);
    for (auto [w, h] : {std::pair{1, 1}, {3, 2}, {257, 130}, {1335, 301}}) {
        // Flat cells with noisy "labels" in some rows: the shapes the writer is tuned for.
        std::vector<std::uint32_t> img(std::size_t(w) * std::size_t(h) + 5);
        const std::size_t stride = std::size_t(w) + 5 % (w + 1); // rows need not be packed
        img.resize(stride * std::size_t(h));
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x) {
                std::uint32_t c = 0xff000000u | (std::uint32_t(x / 40 * 2654435761u) & 0xffffff);
                if (y % 40 > 12 && y % 40 < 24 && x % 40 > 8 && x % 40 < 30) c ^= rng() & 0x0f0f0f;
                img[std::size_t(y) * stride + std::size_t(x)] = c;
            }
        const Bytes f = ts::image::encodePng(img.data(), w, h, stride);
        int dw = 0, dh = 0;
        const auto px = decodeRgbPng(f, dw, dh);
        ASSERT_EQ(dw, w);
        ASSERT_EQ(dh, h);
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x)
                ASSERT_EQ(px[std::size_t(y) * std::size_t(w) + std::size_t(x)],
                          img[std::size_t(y) * stride + std::size_t(x)] | 0xff000000u)
                    << x << "," << y << " of " << w << "x" << h;
    }
    EXPECT_THROW(ts::image::encodePng(nullptr, 0, 5, 0), ts::InputError);
}

} // namespace

namespace {

// Pieces made separately concatenate into one stream, whatever their number and sizes (the
// parallel path of zlibCompress and encodePng, exercised here on any machine).
TEST(Deflate, PiecesConcatenateIntoOneStream) {
    std::mt19937 rng(5);
    Bytes in;
    while (in.size() < 400000) {
        if (rng() % 3 == 0)
            in.insert(in.end(), rng() % 900, 0);
        else
            for (int k = 0, m = int(rng() % 300); k < m; ++k)
                in.push_back(std::uint8_t(rng() % 7));
    }
    for (std::size_t k : {1, 2, 3, 7}) {
        std::vector<Bytes> pieces;
        for (std::size_t p = 0; p < k; ++p)
            pieces.push_back(ts::image::deflatePiece(in.data(), in.size() * p / k,
                                                     in.size() * (p + 1) / k, p + 1 == k));
        const Bytes z = ts::image::zlibStream(pieces, ts::image::adler32(in.data(), in.size()));
        EXPECT_EQ(inflateAll(z, in.size()), in) << k << " pieces";
    }
    // A piece boundary inside a zero run: the next piece may not refer back across it.
    const Bytes zeros(100000, 0);
    const Bytes z =
        ts::image::zlibStream({ts::image::deflatePiece(zeros.data(), 0, 50001, false),
                               ts::image::deflatePiece(zeros.data(), 50001, zeros.size(), true)},
                              ts::image::adler32(zeros.data(), zeros.size()));
    EXPECT_EQ(inflateAll(z, zeros.size()), zeros);
}

} // namespace

namespace {

// Rows drawn on demand, in bands, by several workers: the same pixels as the whole image.
TEST(Png, RowsOnDemandGiveTheSameImage) {
    const int w = 700, h = 900;
    auto pixel = [](int x, int y) {
        return 0xff000000u | std::uint32_t((x / 30) * 977 + (y / 30) * 131) % 0xffffff ^
                                 (y % 30 == 7 && x % 13 < 5 ? 0x203040u : 0u);
    };
    std::vector<std::uint32_t> img(std::size_t(w) * h);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            img[std::size_t(y) * w + std::size_t(x)] = pixel(x, y);
    const Bytes whole = ts::image::encodePng(img.data(), w, h, std::size_t(w));
    for (int band : {1, 7, 64, 2000}) {
        std::atomic<int> calls{0};
        const Bytes rows = ts::image::encodePngRows(
            w, h,
            [&](int y0, int y1, std::uint32_t* out, std::size_t) {
                EXPECT_LE(y1 - y0, band + 1);
                ++calls;
                for (int y = y0; y < y1; ++y)
                    for (int x = 0; x < w; ++x)
                        *out++ = pixel(x, y);
            },
            band);
        int dw = 0, dh = 0;
        const auto px = decodeRgbPng(rows, dw, dh);
        ASSERT_EQ(dw, w);
        ASSERT_EQ(dh, h);
        EXPECT_EQ(px, img) << "bands of " << band;
        EXPECT_GE(calls.load(), (h + band - 1) / band);
    }
    EXPECT_FALSE(whole.empty());
    // A source that fails fails the encoding with its own error, on any worker.
    EXPECT_THROW(ts::image::encodePngRows(w, h,
                                          [&](int, int y1, std::uint32_t*, std::size_t) {
                                              if (y1 >= h) throw ts::InputError("no font");
                                          }),
                 ts::InputError);
}

} // namespace

namespace {

// Atomic writes keep an existing file's permissions and leave no temporary behind.
TEST(Png, AtomicWriteKeepsPermissionsAndLeavesNothing) {
    const std::string dir = ::testing::TempDir() + "/atomic-write";
    std::filesystem::create_directories(dir);
    const std::string path = dir + "/private.png";
    ts::image::writeFileAtomically(path, {1, 2, 3});
    std::filesystem::permissions(path, std::filesystem::perms::owner_read |
                                           std::filesystem::perms::owner_write);
    ts::image::writeFileAtomically(path, {4, 5});
    EXPECT_EQ(std::filesystem::file_size(path), 2u);
    EXPECT_EQ(std::filesystem::status(path).permissions() & std::filesystem::perms::all,
              std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
    EXPECT_THROW(ts::image::writeFileAtomically(dir + "/no/such/dir/x.png", {1}), ts::InputError);
    std::filesystem::create_directories(dir + "/adir.png");
    EXPECT_THROW(ts::image::writeFileAtomically(dir + "/adir.png", {1}), ts::InputError);
    std::size_t files = 0;
    for (const auto& e : std::filesystem::directory_iterator(dir))
        files += e.is_regular_file();
    EXPECT_EQ(files, 1u); // private.png only: no temporary left by the failed writes
    std::filesystem::remove_all(dir);
}

} // namespace
