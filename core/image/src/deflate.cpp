// SPDX-License-Identifier: Apache-2.0
// The encoder of deflate.h. Greedy parsing: a zero run after a zero is one or more matches at
// distance 1; elsewhere a one-entry hash of the next four bytes proposes a match. Tokens are
// buffered per block so that each block's Huffman codes come from its own symbol counts.
#include "tilescope/image/deflate.h"

#include "tilescope/support/cores.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>

#ifdef TILESCOPE_HAVE_LIBDEFLATE
#include <libdeflate.h>
#endif

namespace ts::image {

namespace {

constexpr std::size_t kWindow = 32768;
constexpr std::size_t kMaxMatch = 258;
constexpr std::size_t kBlockTokens = std::size_t{1} << 16;
constexpr int kHashBits = 15;
constexpr int kLitSymbols = 286, kDistSymbols = 30, kLenSymbols = 19;

// RFC 1951, 3.2.5: length and distance codes.
constexpr std::array<int, 29> kLenBase = {3,  4,  5,  6,   7,   8,   9,   10,  11, 13,
                                          15, 17, 19, 23,  27,  31,  35,  43,  51, 59,
                                          67, 83, 99, 115, 131, 163, 195, 227, 258};
constexpr std::array<int, 29> kLenExtra = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                           2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
constexpr std::array<int, 30> kDistBase = {
    1,   2,   3,   4,   5,   7,    9,    13,   17,   25,   33,   49,   65,    97,    129,
    193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
constexpr std::array<int, 30> kDistExtra = {0, 0, 0, 0, 1, 1, 2, 2,  3,  3,  4,  4,  5,  5,  6,
                                            6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};
// The order in which the code-length code's lengths are sent.
constexpr std::array<int, 19> kLenOrder = {16, 17, 18, 0, 8,  7, 9,  6, 10, 5,
                                           11, 4,  12, 3, 13, 2, 14, 1, 15};

struct Codes {
    std::array<std::uint8_t, 259> lenCode{};  // match length -> index into kLenBase
    std::array<std::uint8_t, 512> distCode{}; // distance-1 < 256: [d-1]; else [256 + ((d-1) >> 7)]
    Codes() {
        for (int c = 0; c < 29; ++c)
            for (int l = kLenBase[c]; l < kLenBase[c] + (1 << kLenExtra[c]) && l <= 258; ++l)
                lenCode[std::size_t(l)] = std::uint8_t(c);
        lenCode[258] = 28; // 258 has its own code, not 227 + 31
        for (int c = 0; c < 30; ++c)
            for (int d = kDistBase[c]; d < kDistBase[c] + (1 << kDistExtra[c]); ++d) {
                const int x = d - 1;
                distCode[std::size_t(x < 256 ? x : 256 + (x >> 7))] = std::uint8_t(c);
            }
    }
    int dist(std::uint32_t d) const {
        const std::uint32_t x = d - 1;
        return distCode[x < 256 ? x : 256 + (x >> 7)];
    }
};
const Codes& codes() {
    static const Codes c;
    return c;
}

// Bits are sent least significant first (RFC 1951, 3.1.1).
class BitWriter {
public:
    explicit BitWriter(std::vector<std::uint8_t>& out) : out_(out) {}
    void put(std::uint32_t value, int bits) {
        acc_ |= std::uint64_t(value) << n_;
        n_ += bits;
        if (n_ >= 32) {
            const std::uint8_t b[4] = {std::uint8_t(acc_), std::uint8_t(acc_ >> 8),
                                       std::uint8_t(acc_ >> 16), std::uint8_t(acc_ >> 24)};
            out_.insert(out_.end(), b, b + 4);
            acc_ >>= 32;
            n_ -= 32;
        }
    }
    void flush() {
        for (; n_ > 0; n_ -= 8, acc_ >>= 8)
            out_.push_back(std::uint8_t(acc_));
        n_ = 0;
        acc_ = 0;
    }

private:
    std::vector<std::uint8_t>& out_;
    std::uint64_t acc_ = 0;
    int n_ = 0;
};

// A code needs two used symbols to be complete, which inflate insists on (one code of one bit
// is a special case some decoders refuse).
void atLeastTwo(std::uint32_t* freq, int n) {
    int used = 0;
    for (int i = 0; i < n; ++i)
        used += freq[i] != 0;
    for (int i = 0; i < n && used < 2; ++i)
        if (!freq[i]) {
            freq[i] = 1;
            ++used;
        }
}

// Huffman code lengths of at most maxLen bits for the used symbols of `freq` (two or more), with
// the Kraft sum exactly 1: plain Huffman depths, lengths over the limit cut to it, then codes
// moved one level down until the sum is back to 1 (each move pays one unit of the excess).
void codeLengths(const std::uint32_t* freq, int n, int maxLen, std::uint8_t* len) {
    std::fill(len, len + n, std::uint8_t(0));
    std::vector<std::pair<std::uint32_t, int>> sym;
    for (int i = 0; i < n; ++i)
        if (freq[i]) sym.push_back({freq[i], i});
    std::sort(sym.begin(), sym.end());
    const int m = int(sym.size());
    // Two queues: the sorted leaves and the internal nodes, which are made in weight order.
    std::vector<std::uint64_t> weight(std::size_t(2 * m));
    std::vector<int> parent(std::size_t(2 * m), -1);
    for (int i = 0; i < m; ++i)
        weight[std::size_t(i)] = sym[std::size_t(i)].first;
    int leaf = 0, inner = m, next = m;
    auto take = [&] {
        if (leaf < m && (inner >= next || weight[std::size_t(leaf)] <= weight[std::size_t(inner)]))
            return leaf++;
        return inner++;
    };
    for (; next < 2 * m - 1; ++next) {
        const int a = take(), b = take();
        weight[std::size_t(next)] = weight[std::size_t(a)] + weight[std::size_t(b)];
        parent[std::size_t(a)] = parent[std::size_t(b)] = next;
    }
    std::vector<int> depth(std::size_t(2 * m - 1), 0);
    for (int i = 2 * m - 3; i >= 0; --i)
        depth[std::size_t(i)] = depth[std::size_t(parent[std::size_t(i)])] + 1;
    std::vector<std::uint32_t> count(std::size_t(maxLen + 1), 0);
    for (int i = 0; i < m; ++i)
        ++count[std::size_t(std::min(depth[std::size_t(i)], maxLen))];
    std::uint64_t kraft = 0;
    for (int l = 1; l <= maxLen; ++l)
        kraft += std::uint64_t(count[std::size_t(l)]) << (maxLen - l);
    while (kraft > (std::uint64_t{1} << maxLen)) {
        --count[std::size_t(maxLen)];
        for (int l = maxLen - 1; l > 0; --l)
            if (count[std::size_t(l)]) {
                --count[std::size_t(l)];
                count[std::size_t(l + 1)] += 2;
                break;
            }
        --kraft;
    }
    // The rarest symbols get the longest codes.
    int k = 0;
    for (int l = maxLen; l >= 1; --l)
        for (std::uint32_t c = 0; c < count[std::size_t(l)]; ++c)
            len[sym[std::size_t(k++)].second] = std::uint8_t(l);
}

// Canonical codes (RFC 1951, 3.2.2), bit-reversed for the least-significant-first writer.
void canonicalCodes(const std::uint8_t* len, int n, std::uint16_t* code) {
    int count[16] = {};
    for (int i = 0; i < n; ++i)
        ++count[len[i]];
    count[0] = 0;
    int next[16] = {}, c = 0;
    for (int b = 1; b <= 15; ++b) {
        c = (c + count[b - 1]) << 1;
        next[b] = c;
    }
    for (int i = 0; i < n; ++i) {
        if (!len[i]) continue;
        std::uint32_t v = std::uint32_t(next[len[i]]++), r = 0;
        for (int b = 0; b < len[i]; ++b, v >>= 1)
            r = (r << 1) | (v & 1);
        code[i] = std::uint16_t(r);
    }
}

// A token is a literal byte (< 256) or a match: bit 31, length - 3 in bits 16-23, distance - 1
// in bits 0-15.
constexpr std::uint32_t kMatch = 1u << 31;

struct Block {
    std::vector<std::uint32_t> tokens;
    std::array<std::uint32_t, kLitSymbols> litFreq{};
    std::array<std::uint32_t, kDistSymbols> distFreq{};

    void literal(std::uint8_t b) {
        tokens.push_back(b);
        ++litFreq[b];
    }
    void match(std::size_t len, std::size_t dist) {
        tokens.push_back(kMatch | std::uint32_t(len - 3) << 16 | std::uint32_t(dist - 1));
        ++litFreq[std::size_t(257 + codes().lenCode[len])];
        ++distFreq[std::size_t(codes().dist(std::uint32_t(dist)))];
    }

    void write(BitWriter& bw, bool last) {
        ++litFreq[256];
        atLeastTwo(litFreq.data(), kLitSymbols);
        atLeastTwo(distFreq.data(), kDistSymbols);
        std::uint8_t litLen[kLitSymbols], distLen[kDistSymbols];
        codeLengths(litFreq.data(), kLitSymbols, 15, litLen);
        codeLengths(distFreq.data(), kDistSymbols, 15, distLen);
        int hlit = kLitSymbols, hdist = kDistSymbols;
        while (hlit > 257 && !litLen[hlit - 1])
            --hlit;
        while (hdist > 1 && !distLen[hdist - 1])
            --hdist;

        // The two length lists, run-length coded with symbols 16 (repeat the previous 3-6
        // times), 17 (3-10 zeros) and 18 (11-138 zeros).
        std::vector<std::uint8_t> all(litLen, litLen + hlit);
        all.insert(all.end(), distLen, distLen + hdist);
        std::vector<std::pair<std::uint8_t, std::uint8_t>> seq; // (symbol, extra bits' value)
        std::uint32_t clFreq[kLenSymbols] = {};
        auto emit = [&](int s, int extra) {
            seq.push_back({std::uint8_t(s), std::uint8_t(extra)});
            ++clFreq[s];
        };
        for (std::size_t i = 0; i < all.size();) {
            const std::uint8_t v = all[i];
            std::size_t r = 1;
            while (i + r < all.size() && all[i + r] == v)
                ++r;
            i += r;
            if (v == 0) {
                for (; r >= 11; r -= std::min<std::size_t>(r, 138))
                    emit(18, int(std::min<std::size_t>(r, 138) - 11));
                if (r >= 3) {
                    emit(17, int(r - 3));
                    r = 0;
                }
            } else {
                emit(v, 0);
                --r;
                for (; r >= 3; r -= std::min<std::size_t>(r, 6))
                    emit(16, int(std::min<std::size_t>(r, 6) - 3));
            }
            for (; r > 0; --r)
                emit(v, 0);
        }
        atLeastTwo(clFreq, kLenSymbols);
        std::uint8_t clLen[kLenSymbols];
        std::uint16_t clCode[kLenSymbols] = {};
        codeLengths(clFreq, kLenSymbols, 7, clLen);
        canonicalCodes(clLen, kLenSymbols, clCode);
        int hclen = kLenSymbols;
        while (hclen > 4 && !clLen[kLenOrder[std::size_t(hclen - 1)]])
            --hclen;

        bw.put(last ? 1 : 0, 1);
        bw.put(2, 2); // dynamic Huffman codes
        bw.put(std::uint32_t(hlit - 257), 5);
        bw.put(std::uint32_t(hdist - 1), 5);
        bw.put(std::uint32_t(hclen - 4), 4);
        for (int i = 0; i < hclen; ++i)
            bw.put(clLen[kLenOrder[std::size_t(i)]], 3);
        static constexpr int kExtraBits[3] = {2, 3, 7};
        for (auto [s, extra] : seq) {
            bw.put(clCode[s], clLen[s]);
            if (s >= 16) bw.put(extra, kExtraBits[s - 16]);
        }

        std::uint16_t litCode[kLitSymbols] = {}, distCodes[kDistSymbols] = {};
        canonicalCodes(litLen, kLitSymbols, litCode);
        canonicalCodes(distLen, kDistSymbols, distCodes);
        const Codes& c = codes();
        for (std::uint32_t t : tokens) {
            if (!(t & kMatch)) {
                bw.put(litCode[t], litLen[t]);
                continue;
            }
            const std::uint32_t len = ((t >> 16) & 0xff) + 3, dist = (t & 0xffff) + 1;
            const int lc = c.lenCode[len];
            bw.put(litCode[257 + lc], litLen[257 + lc]);
            if (kLenExtra[std::size_t(lc)])
                bw.put(len - std::uint32_t(kLenBase[std::size_t(lc)]), kLenExtra[std::size_t(lc)]);
            const int dc = c.dist(dist);
            bw.put(distCodes[dc], distLen[dc]);
            if (kDistExtra[std::size_t(dc)])
                bw.put(dist - std::uint32_t(kDistBase[std::size_t(dc)]),
                       kDistExtra[std::size_t(dc)]);
        }
        bw.put(litCode[256], litLen[256]);
        tokens.clear();
        litFreq.fill(0);
        distFreq.fill(0);
    }
};

std::uint32_t load32(const std::uint8_t* p) {
    std::uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
}

// Zero bytes at the start of p[0..n), eight at a time.
std::size_t zeroRun(const std::uint8_t* p, std::size_t n) {
    std::size_t k = 0;
    if constexpr (std::endian::native == std::endian::little) {
        for (; k + 8 <= n; k += 8) {
            std::uint64_t w;
            std::memcpy(&w, p + k, 8);
            if (w) return k + std::size_t(std::countr_zero(w) >> 3);
        }
    }
    while (k < n && !p[k])
        ++k;
    return k;
}

} // namespace

std::vector<std::uint8_t> deflatePiece(const std::uint8_t* data, std::size_t begin, std::size_t end,
                                       bool last) {
    std::vector<std::uint8_t> out;
    out.reserve((end - begin) / 8 + 1024);
    BitWriter bw(out);
    Block block;
    block.tokens.reserve(kBlockTokens + kWindow / 3 + 16);
    std::vector<std::int64_t> head(std::size_t{1} << kHashBits, -1);
    std::size_t i = begin;
    while (i < end) {
        if (block.tokens.size() >= kBlockTokens) block.write(bw, false);
        if (i > begin && data[i] == 0 && data[i - 1] == 0) {
            std::size_t r = zeroRun(data + i, end - i);
            if (r >= 3) {
                for (; r >= 3; r -= std::min(r, kMaxMatch)) {
                    block.match(std::min(r, kMaxMatch), 1);
                    i += std::min(r, kMaxMatch);
                }
                continue;
            }
        }
        if (i + 4 <= end) {
            const std::uint32_t v = load32(data + i);
            const std::size_t h = (v * 2654435761u) >> (32 - kHashBits);
            const std::int64_t cand = head[h];
            head[h] = std::int64_t(i);
            if (cand >= 0 && i - std::size_t(cand) <= kWindow &&
                load32(data + std::size_t(cand)) == v) {
                const std::uint8_t* a = data + cand;
                const std::uint8_t* b = data + i;
                const std::size_t most = std::min(kMaxMatch, end - i);
                std::size_t len = 4;
                while (len < most && a[len] == b[len])
                    ++len;
                block.match(len, i - std::size_t(cand));
                i += len;
                continue;
            }
        }
        block.literal(data[i++]);
    }
    block.write(bw, last);
    if (!last) {
        // An empty stored block: the piece ends on a byte boundary, so the next piece's bytes
        // follow it as they are (RFC 1951, 3.2.4; zlib's Z_SYNC_FLUSH).
        bw.put(0, 3);
        bw.flush();
        out.insert(out.end(), {0x00, 0x00, 0xff, 0xff});
    }
    bw.flush();
    return out;
}

std::vector<std::uint8_t> zlibStream(const std::vector<std::vector<std::uint8_t>>& pieces,
                                     std::uint32_t adler) {
    std::size_t n = 6;
    for (const auto& p : pieces)
        n += p.size();
    std::vector<std::uint8_t> out = {0x78, 0x01}; // deflate, 32 KiB window, fastest level
    out.reserve(n);
    for (const auto& p : pieces)
        out.insert(out.end(), p.begin(), p.end());
    const std::uint8_t tail[4] = {std::uint8_t(adler >> 24), std::uint8_t(adler >> 16),
                                  std::uint8_t(adler >> 8), std::uint8_t(adler)};
    out.insert(out.end(), tail, tail + 4);
    return out;
}

std::size_t pieceCount(std::size_t n) {
    return std::max<std::size_t>(1, std::min(usableCores(), n / kMinPieceBytes));
}

std::vector<std::uint8_t> zlibCompress(const std::uint8_t* data, std::size_t n) {
    const std::size_t k = pieceCount(n);
    std::vector<std::vector<std::uint8_t>> pieces(k);
    runPieces(k, [&](std::size_t p) {
        pieces[p] = deflatePiece(data, n * p / k, n * (p + 1) / k, p + 1 == k);
    });
    return zlibStream(pieces, adler32(data, n));
}

std::uint32_t adler32Portable(const std::uint8_t* data, std::size_t n) {
    // RFC 1950, 8.2; sums reduced every 5552 bytes, the most that cannot overflow 32 bits.
    std::uint32_t a = 1, b = 0;
    while (n) {
        const std::size_t k = std::min<std::size_t>(n, 5552);
        for (std::size_t i = 0; i < k; ++i) {
            a += data[i];
            b += a;
        }
        a %= 65521;
        b %= 65521;
        data += k;
        n -= k;
    }
    return b << 16 | a;
}

std::uint32_t crc32Portable(const std::uint8_t* data, std::size_t n, std::uint32_t crc) {
    // The PNG/zlib CRC (reflected polynomial 0xedb88320), a byte at a time.
    static const std::array<std::uint32_t, 256> table = [] {
        std::array<std::uint32_t, 256> t{};
        for (std::uint32_t i = 0; i < 256; ++i) {
            std::uint32_t c = i;
            for (int k = 0; k < 8; ++k)
                c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
            t[i] = c;
        }
        return t;
    }();
    crc = ~crc;
    for (std::size_t i = 0; i < n; ++i)
        crc = table[(crc ^ data[i]) & 0xff] ^ (crc >> 8);
    return ~crc;
}

std::uint32_t adler32(const std::uint8_t* data, std::size_t n) {
#ifdef TILESCOPE_HAVE_LIBDEFLATE
    return libdeflate_adler32(1, data, n);
#else
    return adler32Portable(data, n);
#endif
}

std::uint32_t crc32(const std::uint8_t* data, std::size_t n, std::uint32_t crc) {
#ifdef TILESCOPE_HAVE_LIBDEFLATE
    return libdeflate_crc32(crc, data, n);
#else
    return crc32Portable(data, n, crc);
#endif
}

} // namespace ts::image
