// SPDX-License-Identifier: Apache-2.0
// A deflate (RFC 1951) encoder in a zlib (RFC 1950) wrapper, made for grid images: after PNG's
// "Up" filter most of such an image is long runs of zero bytes (rows that repeat the row above),
// which general encoders hash byte by byte (libdeflate's fastest level spends as long on 5 MB of
// zeros as on the picture). Here a zero run costs a word-at-a-time scan and a few length codes;
// the rest goes through a one-entry hash match finder, and each block gets its own Huffman codes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ts::image {

// The zlib stream of `n` bytes at `data` (any content; inflate gives them back exactly). Large
// inputs are cut into pieces compressed at once on the usable cores.
std::vector<std::uint8_t> zlibCompress(const std::uint8_t* data, std::size_t n);

// Inputs below this many bytes a piece are not split (a thread costs more than it saves).
inline constexpr std::size_t kMinPieceBytes = std::size_t{1} << 20;

// One piece of a deflate stream: data[begin, end) as blocks that, unless `last`, end with an
// empty stored block on a byte boundary, so that pieces concatenate into one stream. Matches
// stay inside the piece (data before `begin` need not exist yet), so pieces can be made at once.
std::vector<std::uint8_t> deflatePiece(const std::uint8_t* data, std::size_t begin, std::size_t end,
                                       bool last);
// The zlib stream of pieces in order (header, pieces, the Adler-32 of the whole input).
std::vector<std::uint8_t> zlibStream(const std::vector<std::vector<std::uint8_t>>& pieces,
                                     std::uint32_t adler);
// How many pieces zlibCompress makes of n bytes.
std::size_t pieceCount(std::size_t n);

// Checksums (SIMD through libdeflate where it was found at build time, plain C++ otherwise).
std::uint32_t adler32(const std::uint8_t* data, std::size_t n);
std::uint32_t crc32(const std::uint8_t* data, std::size_t n, std::uint32_t crc = 0);
// The plain C++ forms, used where libdeflate is absent (and tested everywhere).
std::uint32_t adler32Portable(const std::uint8_t* data, std::size_t n);
std::uint32_t crc32Portable(const std::uint8_t* data, std::size_t n, std::uint32_t crc = 0);

} // namespace ts::image
