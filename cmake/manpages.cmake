# SPDX-License-Identifier: Apache-2.0
# Man pages and the changelog, compressed as Debian wants them (gzip -9n: no name, no time stamp,
# so two builds give the same bytes). tilescope-cli(1) is printed by the built tilescope-cli from
# the same CLI11 declarations that parse its arguments (`tilescope-cli --man-page`, app/cli/man.cpp),
# so it documents every command the binary has. tilescope(1) and tilescope-probe(1) are written by
# hand in packaging/man; the package test fails when their --help names an option they lack.
# The pages carry the date of the changelog's newest entry, not the build's.

# The newest entry of packaging/changelog: its version must be the project's, its date dates the
# man pages.
file(STRINGS ${CMAKE_SOURCE_DIR}/packaging/changelog changelog_head LIMIT_COUNT 1)
if(NOT changelog_head MATCHES "^tilescope \\(${PROJECT_VERSION}\\) ")
  message(WARNING "packaging/changelog's newest entry is '${changelog_head}', not version "
                  "${PROJECT_VERSION}: add an entry for this version")
endif()
file(STRINGS ${CMAKE_SOURCE_DIR}/packaging/changelog changelog_trailer REGEX "^ -- " LIMIT_COUNT 1)
if(NOT changelog_trailer MATCHES ", ([0-9][0-9]?) ([A-Z][a-z][a-z]) ([0-9][0-9][0-9][0-9]) ")
  message(FATAL_ERROR "packaging/changelog: no date in '${changelog_trailer}'")
endif()
set(day ${CMAKE_MATCH_1})
set(year ${CMAKE_MATCH_3})
list(FIND "Jan;Feb;Mar;Apr;May;Jun;Jul;Aug;Sep;Oct;Nov;Dec" ${CMAKE_MATCH_2} month)
math(EXPR month "${month} + 1")
if(month LESS 10)
  set(month 0${month})
endif()
if(day LESS 10 AND NOT day MATCHES "^0")
  set(day 0${day})
endif()
set(TILESCOPE_RELEASE_DATE ${year}-${month}-${day})

find_program(TILESCOPE_GZIP gzip REQUIRED)
set(man_dir ${CMAKE_BINARY_DIR}/man)
set(man_outputs)

# tilescope-cli(1): run the CLI just built (sh for the redirections; the page is replaced only
# when the CLI succeeded).
add_custom_command(
  OUTPUT ${man_dir}/tilescope-cli.1 ${man_dir}/tilescope-cli.1.gz
  COMMAND sh -c "TILESCOPE_MAN_DATE=$1 \"$2\" --man-page > \"$3.tmp\" && mv \"$3.tmp\" \"$3\" && $4 -9n -c \"$3\" > \"$3.gz\""
          sh ${TILESCOPE_RELEASE_DATE} $<TARGET_FILE:tilescope-cli> ${man_dir}/tilescope-cli.1
          ${TILESCOPE_GZIP}
  DEPENDS tilescope-cli
  COMMENT "Writing tilescope-cli(1) from the CLI's declarations"
  VERBATIM)
list(APPEND man_outputs ${man_dir}/tilescope-cli.1.gz)

# The hand-written pages, with the version and date filled in.
set(hand_pages tilescope-probe)
if(TILESCOPE_GUI)
  list(APPEND hand_pages tilescope)
endif()
foreach(page ${hand_pages})
  configure_file(${CMAKE_SOURCE_DIR}/packaging/man/${page}.1 ${man_dir}/${page}.1 @ONLY)
  add_custom_command(
    OUTPUT ${man_dir}/${page}.1.gz
    COMMAND sh -c "\"$1\" -9n -c \"$2\" > \"$2.gz\"" sh ${TILESCOPE_GZIP} ${man_dir}/${page}.1
    DEPENDS ${man_dir}/${page}.1
    VERBATIM)
  list(APPEND man_outputs ${man_dir}/${page}.1.gz)
endforeach()

# The changelog (configured in install.cmake with the maintainer), compressed likewise.
add_custom_command(
  OUTPUT ${CMAKE_BINARY_DIR}/packaging/changelog.gz
  COMMAND sh -c "\"$1\" -9n -c \"$2\" > \"$2.gz\"" sh ${TILESCOPE_GZIP}
          ${CMAKE_BINARY_DIR}/packaging/changelog
  DEPENDS ${CMAKE_BINARY_DIR}/packaging/changelog
  VERBATIM)

add_custom_target(tilescope_man ALL DEPENDS ${man_outputs} ${CMAKE_BINARY_DIR}/packaging/changelog.gz)
install(FILES ${man_outputs} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES ${CMAKE_BINARY_DIR}/packaging/changelog.gz DESTINATION ${CMAKE_INSTALL_DOCDIR})
