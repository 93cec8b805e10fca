# SPDX-License-Identifier: Apache-2.0
# Run by cpack on the staged files before each package is made (CPACK_PRE_BUILD_SCRIPTS): removes
# the .comment section (the compiler's version string) from every ELF file, as Debian's dh_strip
# does. The build id (.note.gnu.build-id), which names the debug-symbol files, stays.
find_program(TILESCOPE_OBJCOPY objcopy REQUIRED)
file(GLOB_RECURSE staged LIST_DIRECTORIES false "${CPACK_TEMPORARY_INSTALL_DIRECTORY}/*")
foreach(f IN LISTS staged)
  if(IS_SYMLINK "${f}")
    continue()
  endif()
  file(READ "${f}" magic LIMIT 4 HEX)
  if(magic STREQUAL "7f454c46")
    execute_process(COMMAND ${TILESCOPE_OBJCOPY} --remove-section=.comment "${f}"
                    RESULT_VARIABLE rc ERROR_VARIABLE err)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "objcopy --remove-section=.comment ${f}: ${err}")
    endif()
  endif()
endforeach()
