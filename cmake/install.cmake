# SPDX-License-Identifier: Apache-2.0
# Install rules for the binaries (GNUInstallDirs: bin/ under CMAKE_INSTALL_PREFIX), and CPack:
# a .deb for Debian 12 and a relocatable .tar.gz (`make package`). Desktop entry, icons and
# metainfo are installed by resources/CMakeLists.txt.
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
install(TARGETS ${tilescope_installed} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
if(TILESCOPE_GUI)
  # Loaded by tilescope-cli render for SVG, PDF and the PNGs its raster picture leaves to Qt.
  install(TARGETS tilescope-render-qt LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/tilescope)
endif()
install(FILES ${CMAKE_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})

set(CPACK_PACKAGE_NAME tilescope)
set(CPACK_PACKAGE_VENDOR "Tilescope")
set(CPACK_PACKAGE_CONTACT "Tilescope developers <tilescope@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Explorer of GPU tile layouts (TileLang layouts, fragments, bank conflicts)")
set(CPACK_PACKAGE_DESCRIPTION
    "Tilescope draws TileLang T.Layout and T.Fragment objects as grids, models shared-memory bank
conflicts, reads TileLang compiler logs, and renders grids from the command line
(tilescope-cli). tilescope-probe measures bank conflicts on an NVIDIA GPU when one is present.")
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
include(CPack)
