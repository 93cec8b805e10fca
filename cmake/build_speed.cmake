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
                                    CCACHE_NOHASHDIR=1 ${TILESCOPE_CCACHE_PROGRAM})
  endif()
endif()
