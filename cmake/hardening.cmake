# SPDX-License-Identifier: Apache-2.0
# The compiler and linker flags Debian builds its packages with (dpkg-buildflags with
# hardening=+all: stack protector, _FORTIFY_SOURCE=2, format checks, PIE, RELRO and BIND_NOW), and
# the path maps that keep the machine's source and build directories out of every binary, so that
# two checkouts at different paths build the same package. On by default; not under the sanitizers
# or libFuzzer (their own instrumentation, and _FORTIFY_SOURCE hides calls from ASan; their reports
# and coverage want real paths).
option(TILESCOPE_HARDENING "Debian's hardening flags (stack protector, fortify, PIE, BIND_NOW)" ON)
option(TILESCOPE_REPRODUCIBLE "Map the source and build directories out of binaries" ON)

if(TILESCOPE_HARDENING AND NOT TILESCOPE_SANITIZE AND NOT TILESCOPE_FUZZ)
  add_compile_options(-fstack-protector-strong -Wformat -Werror=format-security)
  # _FORTIFY_SOURCE needs optimisation (glibc warns at -O0): not in Debug builds. Undefined first,
  # in case the toolchain or CXXFLAGS already set another level.
  add_compile_options("$<$<NOT:$<CONFIG:Debug>>:-U_FORTIFY_SOURCE>"
                      "$<$<NOT:$<CONFIG:Debug>>:-D_FORTIFY_SOURCE=2>")
  # Position-independent executables (-fPIE/-pie; GCC's and Debian's default already, said here
  # so that no toolchain drops it) and full RELRO.
  set(CMAKE_POSITION_INDEPENDENT_CODE ON)
  include(CheckPIESupported)
  check_pie_supported()
  add_link_options(LINKER:-z,relro LINKER:-z,now)
endif()

if(TILESCOPE_REPRODUCIBLE AND NOT TILESCOPE_SANITIZE AND NOT TILESCOPE_FUZZ)
  # __FILE__ and the debug information name files relative to the checkout ("./core/...") and the
  # build tree ("build/..."). GCC uses the last map that matches, so the build tree's (which may
  # lie inside the checkout) comes second. Not in the sanitizer and fuzzing builds, whose reports
  # and coverage tools want real paths (they are never packaged). A debugger finds the sources of
  # a mapped build with `directory /path/to/checkout` (gdb).
  add_compile_options(-ffile-prefix-map=${CMAKE_SOURCE_DIR}=.
                      -ffile-prefix-map=${CMAKE_BINARY_DIR}=build)
endif()
