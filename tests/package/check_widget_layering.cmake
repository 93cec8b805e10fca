# SPDX-License-Identifier: Apache-2.0
# ctest widgets_layering: every widgets/ folder's includes against its floor (RULES, as
# widgets/CMakeLists.txt declares them: "folder:allowed|allowed;..."), then proof that the check
# refuses what it must: a copy of the widget folders in which a feature includes the window and
# a sibling feature.
#   cmake -DSCRIPT=<check_widget_includes.cmake> -DWIDGETS=<widgets/> -DRULES=... -DWORK=<dir> -P
foreach(rule ${RULES})
  string(REPLACE ":" ";" parts "${rule}")
  list(GET parts 0 folder)
  list(GET parts 1 allowed)
  execute_process(COMMAND ${CMAKE_COMMAND} -DFOLDER=${WIDGETS}/${folder} -DALLOWED=${allowed}
                          -P ${SCRIPT} RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "widgets/${folder}: ${err}")
  endif()
  message(STATUS "widgets/${folder} includes only ${allowed}")
endforeach()

# The negative case: banks/ (a feature) given a file that includes window/ and run/.
file(REMOVE_RECURSE ${WORK})
file(GLOB folders RELATIVE ${WIDGETS} ${WIDGETS}/*)
foreach(f ${folders})
  if(IS_DIRECTORY ${WIDGETS}/${f})
    file(MAKE_DIRECTORY ${WORK}/${f})
  endif()
endforeach()
file(WRITE ${WORK}/banks/reaches_up.cpp
     "#include \"banks/bank_panel.h\"\n#include \"window/mainwindow.h\"\n#include \"run/run_panel.h\"\n")
execute_process(COMMAND ${CMAKE_COMMAND} -DFOLDER=${WORK}/banks
                        -DALLOWED=banks|common|grid|document|editor -P ${SCRIPT}
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(rc EQUAL 0 OR NOT err MATCHES "window/mainwindow.h" OR NOT err MATCHES "run/run_panel.h")
  message(FATAL_ERROR "the layering check let a feature include the window or a sibling "
                      "(rc ${rc}): ${err}")
endif()
message(STATUS "refused, as it must be: a feature including window/ and run/")
