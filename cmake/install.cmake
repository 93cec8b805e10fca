# SPDX-License-Identifier: Apache-2.0
# Install rules for the binaries and what users reach for (samples, docs, man pages, the Python
# bridge, the licence), and CPack: a .deb for Debian 12 with its -dbgsym package, and a
# relocatable .tar.gz (`make package`). Desktop entry, icons, MIME type and metainfo are installed
# by resources/CMakeLists.txt. docs/packaging.md says what the package holds and how it is checked.
include(GNUInstallDirs)
set(tilescope_installed tilescope-cli tilescope-probe)
if(TILESCOPE_GUI)
  list(APPEND tilescope_installed tilescope)
endif()
# The probe loads the CUDA libraries with dlopen (nothing of them is NEEDED under --as-needed),
# so its build RPATH only names CUDA's directory; GNU ld drops that RPATH's empty entry, which
# makes CMake's install-time RPATH rewrite fail to find it. Linking with the install RPATH
# (none) from the start avoids the rewrite.
set_target_properties(tilescope-probe PROPERTIES BUILD_WITH_INSTALL_RPATH ON)
if(TILESCOPE_GUI)
  # qt_standard_project_setup() gives every target the install RPATH $ORIGIN:$ORIGIN/../lib, for
  # Qt libraries shipped beside an app; this one uses the system's Qt and ships none, and a
  # system binary must not search its own directory for libraries.
  set_target_properties(tilescope tilescope-render-qt PROPERTIES INSTALL_RPATH "")
endif()
install(TARGETS ${tilescope_installed} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
if(TILESCOPE_GUI)
  # Loaded by tilescope-cli render for SVG, PDF and the PNGs its raster picture leaves to Qt.
  install(TARGETS tilescope-render-qt LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/tilescope)
endif()

# The samples and their compiler logs as files (the GUI's File > Samples menu reads them there,
# relative to its binary; the CLI reads any of them by path), beside the copies embedded in the
# GUI.
install(DIRECTORY ${CMAKE_SOURCE_DIR}/samples/ DESTINATION ${CMAKE_INSTALL_DATADIR}/tilescope/samples
        FILES_MATCHING PATTERN "*.tilescope.json" PATTERN "*.log" PATTERN "*.ipynb")

# Documentation: the README with the pages and pictures it links (docs/, BENCHMARKS.md,
# CONTRIBUTING.md), so that its relative links work in /usr/share/doc/tilescope; the changelog
# (Debian's format, gzip -9n) and the machine-readable copyright file.
set(TILESCOPE_MAINTAINER "Seed 94db35ef maintainers <maintainers@users.noreply.a-seed-94db35ef.example>"
    CACHE STRING "The package's Maintainer (and the changelog's and copyright's contact)")
install(FILES ${CMAKE_SOURCE_DIR}/README.md ${CMAKE_SOURCE_DIR}/BENCHMARKS.md
              ${CMAKE_SOURCE_DIR}/CONTRIBUTING.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/docs DESTINATION ${CMAKE_INSTALL_DOCDIR})
configure_file(${CMAKE_SOURCE_DIR}/packaging/copyright ${CMAKE_BINARY_DIR}/packaging/copyright
               @ONLY)
configure_file(${CMAKE_SOURCE_DIR}/packaging/changelog ${CMAKE_BINARY_DIR}/packaging/changelog
               @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/packaging/copyright DESTINATION ${CMAKE_INSTALL_DOCDIR})

# Man pages (cmake/manpages.cmake): tilescope-cli(1) generated from its declarations,
# tilescope(1) and tilescope-probe(1) written by hand; the changelog compressed alike.
include(${CMAKE_CURRENT_LIST_DIR}/manpages.cmake)

# The Python bridge where Debian's python3 imports it (no pip needed); python/pyproject.toml
# still builds it for `pip install` (setuptools, declared there).
set(TILESCOPE_PYTHON_DIR "lib/python3/dist-packages" CACHE STRING
    "Where the Python bridge is installed, under the prefix")
install(DIRECTORY ${CMAKE_SOURCE_DIR}/python/tilescope DESTINATION ${TILESCOPE_PYTHON_DIR}
        FILES_MATCHING PATTERN "*.py" PATTERN "__pycache__" EXCLUDE)

# Everything the packages hold, and nothing else (`make package` builds this, not the tests).
add_custom_target(tilescope_packaged)
add_dependencies(tilescope_packaged ${tilescope_installed} tilescope_man)
if(TILESCOPE_GUI)
  add_dependencies(tilescope_packaged tilescope-render-qt tilescope_icons)
endif()

set(CPACK_PACKAGE_NAME tilescope)
set(CPACK_PACKAGE_VENDOR "Tilescope")
set(CPACK_PACKAGE_CONTACT "${TILESCOPE_MAINTAINER}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "explorer of GPU tile layouts: TileLang layouts, fragments, bank conflicts")
# Debian's extended description: lines within 80 columns (CPack indents each by one space).
set(CPACK_PACKAGE_DESCRIPTION
    "Tilescope draws TileLang T.Layout and T.Fragment objects as grids: which thread
owns which element, in which register or shared-memory slot. It models
shared-memory bank conflicts of loads and stores, reads TileLang compiler logs,
and renders grids to PNG, SVG and PDF from the command line (tilescope-cli).
tilescope-probe measures bank conflicts on an NVIDIA GPU when one is present.")
set(CPACK_RESOURCE_FILE_LICENSE ${CMAKE_SOURCE_DIR}/LICENSE)
set(CPACK_GENERATOR "DEB;TGZ")
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
# Depends from the binaries' actual shared libraries (dpkg-shlibdeps: libqt6widgets6, libqt6svg6,
# libstdc++6, ...). The Qt platform and SVG plugins are loaded at run time, not linked, but they
# ship in libqt6gui6 and libqt6svg6, which the linked libraries already pull in; Wayland sessions
# need qt6-wayland, an XCB session works without it.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "qt6-wayland, fonts-dejavu-core")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "python3")
# Debug symbols as Debian ships them: tilescope-dbgsym_VERSION_ARCH.ddeb with
# /usr/lib/debug/.build-id/xx/yyyy.debug; the .deb's binaries are stripped by that split (the .deb
# is built from unstripped binaries, cmake/cpack_options.cmake).
set(CPACK_DEBIAN_DEBUGINFO_PACKAGE ON)
set(CPACK_PROJECT_CONFIG_FILE ${CMAKE_CURRENT_LIST_DIR}/cpack_options.cmake)
# Before packaging: sections Debian's dh_strip removes (.comment: the compiler's version string).
set(CPACK_PRE_BUILD_SCRIPTS ${CMAKE_CURRENT_LIST_DIR}/cpack_prebuild.cmake)
# After: the -dbgsym package's md5sums and doc link mended (CPack 3.25 writes its staging paths).
set(CPACK_POST_BUILD_SCRIPTS ${CMAKE_CURRENT_LIST_DIR}/cpack_postbuild.cmake)
include(CPack)
