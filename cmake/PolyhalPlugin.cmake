# phal_add_plugin(NAME name SOURCES ... [LIBRARIES ...] [DESCRIPTION text]
#                 [VERSION version] [ABI_VERSION major.minor])
#
# ABI_VERSION is the newest ABI the plugin negotiates, written into its
# manifest (default 1.1).
# Builds a plugin as a MODULE library in lib/polyhal/ and writes its JSON
# manifest into share/polyhal/plugins.d/, in the build tree and on install.
function(phal_add_plugin)
  cmake_parse_arguments(ARG "" "NAME;DESCRIPTION;VERSION;ABI_VERSION" "SOURCES;LIBRARIES" ${ARGN})
  set(target phal_plugin_${ARG_NAME})
  add_library(${target} MODULE ${ARG_SOURCES})
  phal_target_warnings(${target})
  target_link_libraries(${target} PRIVATE polyhal_sdk ${ARG_LIBRARIES})
  set_target_properties(${target} PROPERTIES
    LIBRARY_OUTPUT_DIRECTORY ${PHAL_PLUGIN_OUTPUT_DIRECTORY}
    PREFIX "lib")
  if(NOT ARG_VERSION)
    set(ARG_VERSION ${PROJECT_VERSION})
  endif()
  if(NOT ARG_ABI_VERSION)
    set(ARG_ABI_VERSION 1.1)
  endif()
  target_compile_definitions(${target} PRIVATE
    PHAL_PLUGIN_NAME="${ARG_NAME}" PHAL_PLUGIN_VERSION="${ARG_VERSION}")
  set(PHAL_MANIFEST_NAME ${ARG_NAME})
  set(PHAL_MANIFEST_DESCRIPTION ${ARG_DESCRIPTION})
  set(PHAL_MANIFEST_VERSION ${ARG_VERSION})
  set(PHAL_MANIFEST_ABI_VERSION ${ARG_ABI_VERSION})
  set(PHAL_MANIFEST_LIBRARY "../../../lib/polyhal/lib${target}.so")
  configure_file(${PROJECT_SOURCE_DIR}/cmake/plugin-manifest.json.in
                 ${PHAL_MANIFEST_OUTPUT_DIRECTORY}/${ARG_NAME}.json @ONLY)
  install(TARGETS ${target} LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/polyhal)
  install(FILES ${PHAL_MANIFEST_OUTPUT_DIRECTORY}/${ARG_NAME}.json
          DESTINATION ${CMAKE_INSTALL_DATADIR}/polyhal/plugins.d)
endfunction()
