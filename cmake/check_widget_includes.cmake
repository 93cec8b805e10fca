# SPDX-License-Identifier: Apache-2.0
# Refuses an include that runs against the widget floors (widgets/CMakeLists.txt): every
# `#include "X/..."` in FOLDER's sources, where X is a folder of widgets/, must name a folder in
# ALLOWED ("a|b|c"). Run at build time for each folder's library (so a new include fails the
# build that compiles it) and by ctest widgets_layering.
#   cmake -DFOLDER=<widgets/x> -DALLOWED="x|common|grid" [-DSTAMP=<file>] -P check_widget_includes.cmake
get_filename_component(root "${FOLDER}" DIRECTORY)
get_filename_component(name "${FOLDER}" NAME)
file(GLOB children RELATIVE "${root}" "${root}/*")
set(widget_folders "")
foreach(c ${children})
  if(IS_DIRECTORY "${root}/${c}")
    list(APPEND widget_folders "${c}")
  endif()
endforeach()
file(GLOB sources "${FOLDER}/*.cpp" "${FOLDER}/*.h")
set(problems "")
foreach(src ${sources})
  file(STRINGS "${src}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*[\"<][A-Za-z0-9_]+/")
  foreach(line ${lines})
    string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*[\"<]([A-Za-z0-9_]+)/.*$" "\\1" dir "${line}")
    list(FIND widget_folders "${dir}" is_widget)
    if(is_widget GREATER -1 AND NOT dir MATCHES "^(${ALLOWED})$")
      get_filename_component(file "${src}" NAME)
      string(APPEND problems "\n  widgets/${name}/${file}: ${line}")
    endif()
  endforeach()
endforeach()
if(problems)
  string(REPLACE "|" ", " allowed_list "${ALLOWED}")
  message(FATAL_ERROR "widgets/${name} may include only ${allowed_list} (and the core); "
                      "what it needs from the window or another feature goes through "
                      "common/feature_host.h and common/feature_bus.h:${problems}")
endif()
if(STAMP)
  file(WRITE "${STAMP}" "ok\n")
endif()
