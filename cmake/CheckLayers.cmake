# cmake -DROOT=<checkout> -P CheckLayers.cmake
#
# Fails when a file includes a header of a layer it may not depend on
# (docs/architecture.md, "Layers"): no file under sdk/ or plugins/ includes
# a core/ header, each part of the core includes only its own headers and
# those of the parts it links, nothing under core/ includes the conformance
# suite or the CLI, and nothing below the CLI includes it. Tests,
# benchmarks and fuzzers of the core are linked into the core's test
# binaries and may include any core part; under sdk/ and plugins/ they
# follow the same rule as the code.

# Each core part and the parts it links directly.
set(deps_hlo "")
set(deps_io hlo)
set(deps_reference hlo)
set(deps_frontend hlo)
set(deps_compiler reference hlo)
set(deps_abi "")
set(deps_loader abi)
set(deps_executor compiler frontend loader abi)
set(deps_runtime executor frontend compiler loader abi distributed)
set(deps_distributed executor)
set(parts abi hlo io reference frontend compiler loader executor runtime
    distributed)

function(closure part out)
  set(result ${part})
  foreach(dep IN LISTS deps_${part})
    closure(${dep} sub)
    list(APPEND result ${sub})
  endforeach()
  list(REMOVE_DUPLICATES result)
  set(${out} ${result} PARENT_SCOPE)
endfunction()

set(violations "")
function(check_file file allowed_regex)
  file(STRINGS ${file} lines REGEX "^[ \t]*#[ \t]*include[ \t]*\"core/")
  foreach(line IN LISTS lines)
    string(REGEX MATCH "\"core/([a-z_]+)/" match "${line}")
    set(included ${CMAKE_MATCH_1})
    if(NOT included MATCHES "${allowed_regex}")
      file(RELATIVE_PATH relative ${ROOT} ${file})
      string(STRIP "${line}" line)
      list(APPEND violations "${relative}: ${line}")
      set(violations ${violations} PARENT_SCOPE)
    endif()
  endforeach()
endfunction()

file(GLOB_RECURSE outside LIST_DIRECTORIES false
  ${ROOT}/sdk/*.h ${ROOT}/sdk/*.hpp ${ROOT}/sdk/*.c ${ROOT}/sdk/*.cc
  ${ROOT}/plugins/*.h ${ROOT}/plugins/*.c ${ROOT}/plugins/*.cc)
foreach(file IN LISTS outside)
  check_file(${file} "^$")
endforeach()

# The two bottom SDK layers: sdk/base includes only its own headers, and
# sdk/kir (the kernel IR) only its own and sdk/base's.
foreach(layer base kir)
  if(layer STREQUAL "base")
    set(allowed "base")
  else()
    set(allowed "base|kir")
  endif()
  file(GLOB layer_files LIST_DIRECTORIES false
    ${ROOT}/sdk/${layer}/*.h ${ROOT}/sdk/${layer}/*.cc)
  foreach(file IN LISTS layer_files)
    if(file MATCHES "_test\\.cc$")
      continue()
    endif()
    file(STRINGS ${file} lines REGEX "^[ \t]*#[ \t]*include[ \t]*\"sdk/")
    foreach(line IN LISTS lines)
      if(NOT line MATCHES "\"sdk/(${allowed})/")
        file(RELATIVE_PATH relative ${ROOT} ${file})
        string(STRIP "${line}" line)
        list(APPEND violations
          "${relative}: ${line} (sdk/${layer} includes only sdk/${allowed})")
      endif()
    endforeach()
  endforeach()
endforeach()

file(GLOB_RECURSE python_bindings LIST_DIRECTORIES false
  ${ROOT}/sdk/python/*.h ${ROOT}/sdk/python/*.cc)
foreach(file IN LISTS python_bindings)
  file(STRINGS ${file} lines REGEX "^[ \t]*#[ \t]*include[ \t]*\"")
  foreach(line IN LISTS lines)
    if(NOT line MATCHES "\"polyhal/[a-z_]+\\.(h|hpp)\"")
      file(RELATIVE_PATH relative ${ROOT} ${file})
      string(STRIP "${line}" line)
      list(APPEND violations "${relative}: ${line} (the public C API only)")
    endif()
  endforeach()
endforeach()

# The PJRT plugin stands on the public C API alone: its own headers, the C
# ABI's and PJRT's.
file(GLOB_RECURSE pjrt_plugin LIST_DIRECTORIES false
  ${ROOT}/sdk/pjrt/*.h ${ROOT}/sdk/pjrt/*.cc ${ROOT}/sdk/pjrt/*.def)
foreach(file IN LISTS pjrt_plugin)
  file(STRINGS ${file} lines REGEX "^[ \t]*#[ \t]*include[ \t]*\"")
  foreach(line IN LISTS lines)
    if(NOT line MATCHES
       "\"(polyhal/[a-z_]+\\.(h|hpp)|xla/pjrt/c/pjrt_c_api\\.h|sdk/pjrt/[a-z_]+\\.(h|def))\"")
      file(RELATIVE_PATH relative ${ROOT} ${file})
      string(STRIP "${line}" line)
      list(APPEND violations
        "${relative}: ${line} (the PJRT plugin uses the public C API only)")
    endif()
  endforeach()
endforeach()

foreach(part IN LISTS parts)
  closure(${part} allowed)
  list(JOIN allowed "|" alternatives)
  file(GLOB sources LIST_DIRECTORIES false
    ${ROOT}/core/${part}/*.h ${ROOT}/core/${part}/*.cc)
  foreach(file IN LISTS sources)
    if(file MATCHES "_(test|benchmark|fuzzer)\\.cc$|_test_util\\.h$")
      continue()
    endif()
    check_file(${file} "^(${alternatives})$")
  endforeach()
endforeach()

# The two layers above the core: the suite, then the CLI on top.
function(check_upward file forbidden_regex)
  file(STRINGS ${file} lines
    REGEX "^[ \t]*#[ \t]*include[ \t]*\"(${forbidden_regex})/")
  foreach(line IN LISTS lines)
    file(RELATIVE_PATH relative ${ROOT} ${file})
    string(STRIP "${line}" line)
    list(APPEND violations "${relative}: ${line} (a layer above)")
    set(violations ${violations} PARENT_SCOPE)
  endforeach()
endfunction()
file(GLOB_RECURSE below_suite LIST_DIRECTORIES false
  ${ROOT}/core/*.h ${ROOT}/core/*.cc ${ROOT}/sdk/*.h ${ROOT}/sdk/*.hpp
  ${ROOT}/sdk/*.cc ${ROOT}/plugins/*.h ${ROOT}/plugins/*.cc)
foreach(file IN LISTS below_suite)
  check_upward(${file} "conformance|cli")
endforeach()
file(GLOB_RECURSE suite LIST_DIRECTORIES false
  ${ROOT}/conformance/*.h ${ROOT}/conformance/*.cc)
foreach(file IN LISTS suite)
  check_upward(${file} "cli")
endforeach()

if(violations)
  list(LENGTH violations count)
  list(JOIN violations "\n  " text)
  message(FATAL_ERROR "${count} include(s) break the layers of "
    "docs/architecture.md:\n  ${text}")
endif()
message(STATUS "layers: every include follows docs/architecture.md")
