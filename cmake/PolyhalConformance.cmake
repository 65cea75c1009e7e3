# phal_add_conformance_test(NAME name PLUGIN plugin TIER tier
#                           [JOBS n] [TIMEOUT seconds] [ISOLATE]
#                           [CORPUS dir] [FILTER glob])
#
# Registers a CTest certification run: `polyhal conformance --plugin PLUGIN
# --tier TIER`, which passes only when the plugin is certified at TIER. The
# report goes to <build>/conformance/<name>/. A plugin joins CI with one
# line in its CMakeLists.txt (CORPUS and FILTER pass --corpus and --filter),
# e.g.
#   phal_add_conformance_test(NAME conformance_cpu PLUGIN cpu TIER 3)
function(phal_add_conformance_test)
  if(NOT PHAL_BUILD_TESTS)
    return()
  endif()
  cmake_parse_arguments(ARG "ISOLATE" "NAME;PLUGIN;TIER;JOBS;TIMEOUT;CORPUS;FILTER" "" ${ARGN})
  if(NOT ARG_JOBS)
    set(ARG_JOBS 2)
  endif()
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 120)
  endif()
  set(command $<TARGET_FILE:polyhal_cli> conformance --plugin ${ARG_PLUGIN}
      --tier ${ARG_TIER} --jobs ${ARG_JOBS} --timeout ${ARG_TIMEOUT}
      --report ${CMAKE_BINARY_DIR}/conformance/${ARG_NAME})
  if(ARG_ISOLATE)
    list(APPEND command --isolate)
  endif()
  if(ARG_CORPUS)
    list(APPEND command --corpus ${ARG_CORPUS})
  endif()
  if(ARG_FILTER)
    list(APPEND command --filter ${ARG_FILTER})
  endif()
  add_test(NAME ${ARG_NAME} COMMAND ${command})
  set_tests_properties(${ARG_NAME} PROPERTIES
    ENVIRONMENT "PHAL_PLUGIN_PATH=${PHAL_MANIFEST_OUTPUT_DIRECTORY}"
    LABELS conformance TIMEOUT 1200
    # Certification runs are the longest tests: started first, they overlap
    # with the rest of the suite instead of running alone at its end.
    COST 1000)
endfunction()
