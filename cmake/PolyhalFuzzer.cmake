# phal_add_fuzzer(<name> SOURCES <files...> LINK <libraries...>)
#
# A libFuzzer target (PHAL_BUILD_FUZZERS): the executable bin/<name>, linked
# with libFuzzer's main. Its seed corpus is fuzz/<name>/corpus/ and its
# dictionary fuzz/<name>.dict (docs/reliability.md, "Fuzzing").
function(phal_add_fuzzer name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LINK" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_LINK})
  target_link_options(${name} PRIVATE -fsanitize=fuzzer)
  phal_target_warnings(${name})
endfunction()
