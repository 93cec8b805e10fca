// SPDX-License-Identifier: Apache-2.0
// PNG files (8-bit RGB, one IDAT) from 32-bit pixels, as grid images need them: every row gets
// the "Up" filter (grid rows repeat inside a cell, so it turns them into zeros) and deflate.h
// packs the result.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ts::image {

// The PNG of `width` x `height` pixels 0xAARRGGBB (alpha ignored: the image is opaque), rows
// `stride` pixels apart.
std::vector<std::uint8_t> encodePng(const std::uint32_t* pixels, int width, int height,
                                    std::size_t stride);

// Rows on demand: draw(y0, y1, out, worker) writes rows [y0, y1) of the image (width pixels a
// row, packed, 0xAARRGGBB) into out. Workers 0 .. pngWorkers() - 1 call it at once, each for
// rows of its own, at most bandRows + 1 rows a call, so the image is never whole in memory.
using RowSource = std::function<void(int y0, int y1, std::uint32_t* out, std::size_t worker)>;
std::vector<std::uint8_t> encodePngRows(int width, int height, const RowSource& draw,
                                        int bandRows = 64);
// How many workers encodePngRows uses for an image of this size.
std::size_t pngWorkers(int width, int height);

// Writes bytes to `path` through a temporary file renamed over it, so an interrupted write
// never leaves a torn file; an existing file must be writable, and its permissions are kept.
// Throws ts::InputError naming the path and the reason.
void writeFileAtomically(const std::string& path, const std::vector<std::uint8_t>& bytes);

} // namespace ts::image
