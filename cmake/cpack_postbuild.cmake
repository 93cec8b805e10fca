# SPDX-License-Identifier: Apache-2.0
# Run by cpack after each generator has made its packages (CPACK_POST_BUILD_SCRIPTS). Mends the
# -dbgsym .ddeb that CPack 3.25 makes: its md5sums name the files by their paths in CPack's staging
# directory (`dpkg --verify` and lintian find none of them), and it has no /usr/share/doc entry.
# The md5sums are written again from the files, and /usr/share/doc/PACKAGE-dbgsym becomes a
# symlink to PACKAGE's (which the .ddeb depends on), as debhelper's -dbgsym packages have it, for
# the copyright file and changelog.
find_program(TILESCOPE_DPKG_DEB dpkg-deb REQUIRED)
foreach(pkg IN LISTS CPACK_PACKAGE_FILES)
  if(NOT pkg MATCHES "/([^/_]+)-dbgsym_[^/]*\\.ddeb$")
    continue()
  endif()
  set(main ${CMAKE_MATCH_1})
  set(dir "${pkg}.tree")
  file(REMOVE_RECURSE "${dir}")
  execute_process(COMMAND ${TILESCOPE_DPKG_DEB} --raw-extract "${pkg}" "${dir}"
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "dpkg-deb --raw-extract ${pkg}: ${err}")
  endif()
  file(GLOB_RECURSE files LIST_DIRECTORIES false RELATIVE "${dir}" "${dir}/usr/*")
  list(SORT files)
  set(sums "")
  foreach(f IN LISTS files)
    file(MD5 "${dir}/${f}" md5)
    string(APPEND sums "${md5}  ${f}\n")
  endforeach()
  if(sums STREQUAL "")
    message(FATAL_ERROR "${pkg} holds no files")
  endif()
  file(WRITE "${dir}/DEBIAN/md5sums" "${sums}")
  file(MAKE_DIRECTORY "${dir}/usr/share/doc")
  file(CREATE_LINK ${main} "${dir}/usr/share/doc/${main}-dbgsym" SYMBOLIC)
  execute_process(COMMAND ${TILESCOPE_DPKG_DEB} --root-owner-group -Zgzip --build "${dir}" "${pkg}"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "dpkg-deb --build ${pkg}: ${out}${err}")
  endif()
  file(REMOVE_RECURSE "${dir}")
endforeach()
