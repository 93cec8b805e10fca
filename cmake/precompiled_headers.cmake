# SPDX-License-Identifier: Apache-2.0
# Precompiled headers where parsing headers is most of a compile: the widget libraries and the GUI
# tests (Qt), and the core tests (GoogleTest). Each group compiles its header once, in one host
# target, and the group's other targets reuse it: they are compiled with the same flags, so the
# host's .gch is valid for them (GCC's -Winvalid-pch, which CMake adds, says so when it is not, and
# the header is then parsed as usual: a slower build, never a different one). The core modules and
# the CLI have none: their compiles are code generation (nlohmann/json's templates at -O2), which a
# PCH does not save; measured, it saved 6 % there (BENCHMARKS.md, "Build times").
#
# ccache caches these compiles too when told that the PCH's time macros and defines are stable
# (CCACHE_SLOPPINESS in cmake/build_speed.cmake's launcher).
option(TILESCOPE_PCH "Precompile the heavy headers each group of targets shares" ON)

# The standard headers most sources of every group include.
set(TILESCOPE_PCH_STD
    <algorithm> <cstdint> <functional> <map> <memory> <optional> <set> <sstream> <stdexcept>
    <string> <string_view> <unordered_map> <utility> <vector>)

# tilescope_pch(<target> HEADERS <header>...): <target> precompiles these headers.
# tilescope_pch(<target> REUSE <host>): <target> uses <host>'s precompiled header.
function(tilescope_pch target)
  if(NOT TILESCOPE_PCH)
    return()
  endif()
  cmake_parse_arguments(PARSE_ARGV 1 PCH "" "REUSE" "HEADERS")
  if(PCH_REUSE)
    target_precompile_headers(${target} REUSE_FROM ${PCH_REUSE})
  else()
    target_precompile_headers(${target} PRIVATE ${PCH_HEADERS})
  endif()
endfunction()
