# Building a Polyhal plugin, in this tree or against an installed Polyhal
# (find_package(Polyhal) includes this file):
#
# phal_add_plugin(NAME name SOURCES ... [LIBRARIES ...] [DESCRIPTION text]
#                 [VERSION version] [ABI_VERSION major.minor])
#   Builds target phal_plugin_<name>, a MODULE library exporting exactly one
#   symbol, phal_plugin_entry, and writes its JSON manifest. ABI_VERSION is
#   the newest ABI the plugin negotiates, written into the manifest (default:
#   the ABI of the Polyhal it builds against). The library goes to
#   PHAL_PLUGIN_OUTPUT_DIRECTORY and the manifest <name>.json to
#   PHAL_MANIFEST_OUTPUT_DIRECTORY when those are set (the Polyhal tree sets
#   them to lib/polyhal and share/polyhal/plugins.d), else both to the
#   current binary directory, so `PHAL_PLUGIN_PATH=<build>/<name>.json`
#   loads the plugin from its build folder. `cmake --install` puts the
#   library in <libdir>/polyhal and a manifest pointing at it in
#   <datadir>/polyhal/plugins.d, where an installed Polyhal looks.
#
# phal_add_conformance_test(NAME name PLUGIN plugin TIER tier
#                           [JOBS n] [TIMEOUT seconds] [ISOLATE]
#                           [CORPUS dir] [FILTER glob]
#                           [ENVIRONMENT VAR=value ...])
#   Registers a CTest certification run, `polyhal conformance --plugin
#   PLUGIN --tier TIER`, which passes only when the plugin is certified at
#   TIER. The report goes to <build>/conformance/<name>/. ENVIRONMENT sets
#   variables for the run (e.g. PHAL_GPU_EMULATION=1 for a plugin's
#   emulated device). A plugin joins CI with one line, e.g.
#     phal_add_conformance_test(NAME conformance_cpu PLUGIN cpu TIER 3)
include_guard(GLOBAL)
include(GNUInstallDirs)
set(PHAL_PLUGIN_CMAKE_DIR ${CMAKE_CURRENT_LIST_DIR})

# The path the loader resolves from a manifest in `manifest_dir` to
# `library`: relative, so a build or install folder can move.
function(phal_manifest_library_path manifest_dir library out)
  file(RELATIVE_PATH path ${manifest_dir} ${library})
  if(NOT path MATCHES "/")
    set(path "./${path}")
  endif()
  set(${out} ${path} PARENT_SCOPE)
endfunction()

function(phal_write_manifest file library_path)
  set(PHAL_MANIFEST_LIBRARY ${library_path})
  configure_file(${PHAL_PLUGIN_CMAKE_DIR}/plugin-manifest.json.in ${file}
                 @ONLY)
endfunction()

function(phal_add_plugin)
  cmake_parse_arguments(ARG "" "NAME;DESCRIPTION;VERSION;ABI_VERSION"
                        "SOURCES;LIBRARIES" ${ARGN})
  if(NOT ARG_NAME OR NOT ARG_SOURCES)
    message(FATAL_ERROR "phal_add_plugin: NAME and SOURCES are required")
  endif()
  set(target phal_plugin_${ARG_NAME})
  add_library(${target} MODULE ${ARG_SOURCES})
  if(COMMAND phal_target_warnings)
    phal_target_warnings(${target})
  endif()
  target_link_libraries(${target} PRIVATE Polyhal::headers ${ARG_LIBRARIES})
  if(NOT ARG_VERSION)
    set(ARG_VERSION ${PROJECT_VERSION})
  endif()
  if(NOT ARG_ABI_VERSION)
    set(ARG_ABI_VERSION ${PHAL_ABI_VERSION})
  endif()
  target_compile_definitions(${target} PRIVATE
    PHAL_PLUGIN_NAME="${ARG_NAME}" PHAL_PLUGIN_VERSION="${ARG_VERSION}")

  # Exactly one exported symbol: hidden visibility hides the plugin's own
  # code, the version script also what static libraries bring in.
  set(version_script ${CMAKE_CURRENT_BINARY_DIR}/${target}.map)
  # file(CONFIGURE) writes only when the content changes, so configuring
  # again does not relink the plugin.
  file(CONFIGURE OUTPUT ${version_script}
       CONTENT "{\n  global:\n    phal_plugin_entry;\n  local:\n    *;\n};\n")
  set_target_properties(${target} PROPERTIES
    PREFIX "lib"
    CXX_VISIBILITY_PRESET hidden
    C_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON
    LINK_DEPENDS ${version_script})
  target_link_options(${target} PRIVATE
    -Wl,--version-script=${version_script} -Wl,--no-undefined)

  set(library_dir ${CMAKE_CURRENT_BINARY_DIR})
  if(PHAL_PLUGIN_OUTPUT_DIRECTORY)
    set(library_dir ${PHAL_PLUGIN_OUTPUT_DIRECTORY})
  endif()
  set(manifest_dir ${CMAKE_CURRENT_BINARY_DIR})
  if(PHAL_MANIFEST_OUTPUT_DIRECTORY)
    set(manifest_dir ${PHAL_MANIFEST_OUTPUT_DIRECTORY})
  endif()
  set_target_properties(${target} PROPERTIES
    LIBRARY_OUTPUT_DIRECTORY ${library_dir}
    PHAL_MANIFEST ${manifest_dir}/${ARG_NAME}.json)

  set(PHAL_MANIFEST_NAME ${ARG_NAME})
  set(PHAL_MANIFEST_DESCRIPTION ${ARG_DESCRIPTION})
  set(PHAL_MANIFEST_VERSION ${ARG_VERSION})
  set(PHAL_MANIFEST_ABI_VERSION ${ARG_ABI_VERSION})
  set(library_file lib${target}${CMAKE_SHARED_MODULE_SUFFIX})
  phal_manifest_library_path(${manifest_dir} ${library_dir}/${library_file}
                             build_path)
  phal_write_manifest(${manifest_dir}/${ARG_NAME}.json ${build_path})

  set(install_manifest_dir ${CMAKE_INSTALL_FULL_DATADIR}/polyhal/plugins.d)
  phal_manifest_library_path(${install_manifest_dir}
    ${CMAKE_INSTALL_FULL_LIBDIR}/polyhal/${library_file} install_path)
  set(install_manifest
      ${CMAKE_CURRENT_BINARY_DIR}/install-manifest/${ARG_NAME}.json)
  phal_write_manifest(${install_manifest} ${install_path})
  install(TARGETS ${target} LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/polyhal)
  install(FILES ${install_manifest}
          DESTINATION ${CMAKE_INSTALL_DATADIR}/polyhal/plugins.d)
endfunction()

function(phal_add_conformance_test)
  if(DEFINED PHAL_BUILD_TESTS AND NOT PHAL_BUILD_TESTS)
    return()
  endif()
  if(NOT TARGET Polyhal::polyhal)
    message(WARNING "phal_add_conformance_test: no polyhal command; not registered")
    return()
  endif()
  cmake_parse_arguments(ARG "ISOLATE" "NAME;PLUGIN;TIER;JOBS;TIMEOUT;CORPUS;FILTER"
                        "ENVIRONMENT;LAUNCHER" ${ARGN})
  if(NOT ARG_JOBS)
    set(ARG_JOBS 2)
  endif()
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 120)
  endif()
  # LAUNCHER: a command the run goes through, e.g. scripts/as-avx2.sh to
  # run as another processor.
  set(command ${ARG_LAUNCHER} $<TARGET_FILE:Polyhal::polyhal> conformance
      --plugin ${ARG_PLUGIN}
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
  # The plugin is found from its own manifest; the reference interpreter it
  # is compared with is built into the command.
  set(plugin_path ${PHAL_MANIFEST_OUTPUT_DIRECTORY})
  if(TARGET phal_plugin_${ARG_PLUGIN})
    get_target_property(plugin_path phal_plugin_${ARG_PLUGIN} PHAL_MANIFEST)
  endif()
  set(environment "PHAL_PLUGIN_PATH=${plugin_path}" ${ARG_ENVIRONMENT})
  # Under the project's AddressSanitizer build the harness and reference
  # run several times slower.
  set(timeout 1200)
  if(PHAL_SANITIZE)
    set(timeout 3600)
  endif()
  add_test(NAME ${ARG_NAME} COMMAND ${command})
  set_tests_properties(${ARG_NAME} PROPERTIES
    ENVIRONMENT "${environment}"
    LABELS conformance TIMEOUT ${timeout}
    # Certification runs are the longest tests: started first, they overlap
    # with the rest of the suite instead of running alone at its end.
    COST 1000)
endfunction()
