# SPDX-License-Identifier: Apache-2.0
# ccache, where installed, for every build tree: `make`, the CMake presets (asan, fuzz: CI builds
# them after `make test`) and tools/fuzz.sh alike. Its settings travel in the launcher (cmake -E
# env), not in the caller's environment, so that a plain `cmake --preset asan` shares the cache
# too: the checkout as the base directory, so that trees and clones at other paths hit the same
# entries (the binaries hold no absolute path: cmake/hardening.cmake). A launcher given on the
# command line wins, except a bare ccache (the Makefile's earlier form), which gets these settings.
option(TILESCOPE_CCACHE "Compile through ccache where it is installed" ON)
if(TILESCOPE_CCACHE)
  find_program(TILESCOPE_CCACHE_PROGRAM ccache)
  set(launcher "${CMAKE_CXX_COMPILER_LAUNCHER}")
  if(launcher)
    get_filename_component(launcher_name "${launcher}" NAME)
  endif()
  if(TILESCOPE_CCACHE_PROGRAM AND (NOT launcher OR launcher_name STREQUAL "ccache"))
    set(CMAKE_CXX_COMPILER_LAUNCHER ${CMAKE_COMMAND} -E env CCACHE_BASEDIR=${CMAKE_SOURCE_DIR}
                                    CCACHE_NOHASHDIR=1
                                    CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime
                                    ${TILESCOPE_CCACHE_PROGRAM})
  endif()
endif()

# Debug information of an optimised build: full (-g, the default, what the packages' -dbgsym
# carries) or lines (-g1: line tables, enough for backtraces, addr2line and stepping by line; a
# fifth less compile time, and smaller objects to link). The Makefile's development tree uses
# lines, as the asan preset does; the debug preset (`cmake --preset debug`) has full information.
set(TILESCOPE_DEBUG_INFO "full" CACHE STRING "Debug information in RelWithDebInfo: full or lines")
set_property(CACHE TILESCOPE_DEBUG_INFO PROPERTY STRINGS full lines)
if(TILESCOPE_DEBUG_INFO STREQUAL "lines")
  add_compile_options($<$<CONFIG:RelWithDebInfo>:-g1>)
elseif(NOT TILESCOPE_DEBUG_INFO STREQUAL "full")
  message(FATAL_ERROR "TILESCOPE_DEBUG_INFO is full or lines, not '${TILESCOPE_DEBUG_INFO}'")
endif()

# Test programs: their sources are not hot and never ship, so in the optimised configurations they
# are compiled with -O1 and line tables only (-g1), which took 40 % off a core test's compile and
# 15 % off a GUI test's; the code they test keeps the tree's flags. They link with mold where it is
# installed (tools/install-deps.sh installs it): linking the GUI tests against the static widget
# libraries was most of an incremental rebuild. The sanitizer trees keep their own flags, and so
# does a test whose own code is its run time (OPTIMIZED: golden_tests parses 64 MB of JSON).
find_program(TILESCOPE_MOLD mold)
function(tilescope_test_program target)
  cmake_parse_arguments(PARSE_ARGV 1 TEST "OPTIMIZED" "" "")
  if(NOT TEST_OPTIMIZED AND NOT TILESCOPE_SANITIZE AND NOT TILESCOPE_FUZZ)
    target_compile_options(${target} PRIVATE $<$<CONFIG:RelWithDebInfo,Release>:-O1 -g1>)
  endif()
  if(TILESCOPE_MOLD)
    target_link_options(${target} PRIVATE -fuse-ld=mold)
  endif()
endfunction()
