cmake_minimum_required(VERSION 3.25)
# Runs `polyhal conformance --isolate` on the faulty plugin and checks that
# every fault is caught and classified: tanh Fail, sort Crash, cosine
# Timeout, the buffer leak a Fail of api.leaks.buffers, while healthy cases
# still Pass and the run is not certified.
#   cmake -DPOLYHAL=... -DPLUGIN=faulty.json -DREPORT_DIR=... -P this file
set(expected
  "tanh.f32.odd.random=Fail"
  "sort.f32.odd.random=Crash"
  "cosine.f32.odd.random=Timeout"
  "api.leaks.buffers=Fail"
  "exponential.f32.odd.random=Pass"
  "add.f32.odd.random=Pass"
  "api.stream.ordering=Pass")
set(filters "")
foreach(entry IN LISTS expected)
  string(REGEX REPLACE "=.*" "" id "${entry}")
  string(APPEND filters "${id},")
endforeach()

file(REMOVE_RECURSE ${REPORT_DIR})
execute_process(
  COMMAND ${POLYHAL} conformance --plugin ${PLUGIN} --isolate --jobs 2
          --timeout 5 --filter ${filters} --report ${REPORT_DIR}
  RESULT_VARIABLE exit_code OUTPUT_VARIABLE output ERROR_VARIABLE errors)
message(STATUS "polyhal conformance exited with ${exit_code}:\n${output}${errors}")
if(NOT exit_code EQUAL 1)
  message(FATAL_ERROR "expected exit status 1 (not certified), got ${exit_code}")
endif()
string(REGEX MATCH "[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped\n$" closing "${output}")
if(NOT closing STREQUAL "3 passed, 4 failed, 0 skipped\n")
  message(FATAL_ERROR "expected the closing line '3 passed, 4 failed, 0 skipped', got '${closing}'")
endif()

file(READ ${REPORT_DIR}/report.json report)
string(JSON certified GET "${report}" verdict certified)
if(certified)
  message(FATAL_ERROR "report.json says the faulty plugin is certified")
endif()
string(JSON count LENGTH "${report}" cases)
math(EXPR last "${count} - 1")
set(seen "")
foreach(i RANGE ${last})
  string(JSON id GET "${report}" cases ${i} id)
  string(JSON status GET "${report}" cases ${i} status)
  list(APPEND seen "${id}=${status}")
endforeach()
foreach(entry IN LISTS expected)
  if(NOT entry IN_LIST seen)
    message(FATAL_ERROR "expected ${entry}; the report has: ${seen}")
  endif()
endforeach()
