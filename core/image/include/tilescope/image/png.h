// PNG files (8-bit RGB, one IDAT) from 32-bit pixels, as grid images need them: every row gets
// the "Up" filter (grid rows repeat inside a cell, so it turns them into zeros) and deflate.h
// packs the result.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ts::image {

// The PNG of `width` x `height` pixels 0xAARRGGBB (alpha ignored: the image is opaque), rows
// `stride` pixels apart.
std::vector<std::uint8_t> encodePng(const std::uint32_t* pixels, int width, int height,
                                    std::size_t stride);

// Writes bytes to `path` through a temporary file renamed over it, so an interrupted write
// never leaves a torn file. Throws ts::InputError naming the path and the reason.
void writeFileAtomically(const std::string& path, const std::vector<std::uint8_t>& bytes);

} // namespace ts::image
