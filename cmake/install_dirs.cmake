# SPDX-License-Identifier: Apache-2.0
# Install directories. On Debian the library directory is the multiarch one
# (lib/x86_64-linux-gnu) whatever the prefix, as Debian's own packages install: the private
# render module then goes to /usr/lib/<triplet>/tilescope, where CPack adds no ldconfig
# maintainer scripts (it does for anything directly below /usr/lib), and which dpkg-shlibdeps and
# lintian expect. Programs find it relative to themselves, so `make install PREFIX=...` and the
# relocatable archive work alike.
if(CMAKE_LIBRARY_ARCHITECTURE AND EXISTS /etc/debian_version)
  if(NOT DEFINED CACHE{CMAKE_INSTALL_LIBDIR} OR "$CACHE{CMAKE_INSTALL_LIBDIR}" STREQUAL "lib")
    set(CMAKE_INSTALL_LIBDIR "lib/${CMAKE_LIBRARY_ARCHITECTURE}" CACHE PATH
        "Object code libraries (LIBDIR)" FORCE)
  endif()
endif()
include(GNUInstallDirs)
