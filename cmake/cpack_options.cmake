# SPDX-License-Identifier: Apache-2.0
# Read by cpack once per generator (CPACK_PROJECT_CONFIG_FILE). The .deb is made from unstripped
# binaries: its debug-symbol split (CPACK_DEBIAN_DEBUGINFO_PACKAGE) moves the debug information
# into tilescope-dbgsym and strips them. The .tar.gz gets binaries stripped at install.
if(CPACK_GENERATOR STREQUAL "DEB")
  set(CPACK_STRIP_FILES OFF)
endif()
