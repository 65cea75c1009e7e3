# phal_add_library(name STATIC|OBJECT SOURCES ... [HEADERS ...]
#                  [LINK <PUBLIC|PRIVATE> targets...] [INSTALL])
#
# One part of the tree as a library target `polyhal_<name>`. Its link
# dependencies are the architecture's layers (docs/architecture.md), and the
# layering check (cmake/CheckLayers.cmake) holds its includes to them.
# Sources include from the checkout's root ("sdk/base/status.h"). With
# INSTALL, the library joins the Polyhal CMake package as Polyhal::<name>
# and its HEADERS are installed under include/polyhal-sdk/ at the same
# relative path, so an installed plugin includes them as in-tree code does.
function(phal_add_library name kind)
  cmake_parse_arguments(ARG "INSTALL" "" "SOURCES;HEADERS;LINK" ${ARGN})
  set(target polyhal_${name})
  add_library(${target} ${kind} ${ARG_SOURCES})
  phal_target_warnings(${target})
  target_include_directories(${target} PUBLIC
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}/polyhal-sdk>)
  if(ARG_LINK)
    target_link_libraries(${target} ${ARG_LINK})
  endif()
  # Linked into shared objects (libpolyhal, plugins): position-independent,
  # and hidden so a plugin exports nothing of it.
  set_target_properties(${target} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  if(ARG_INSTALL)
    set_target_properties(${target} PROPERTIES EXPORT_NAME ${name})
    add_library(Polyhal::${name} ALIAS ${target})
    install(TARGETS ${target} EXPORT PolyhalTargets
            ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
    file(RELATIVE_PATH relative ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_SOURCE_DIR})
    foreach(header IN LISTS ARG_HEADERS)
      get_filename_component(subdir ${header} DIRECTORY)
      install(FILES ${header} DESTINATION
              ${CMAKE_INSTALL_INCLUDEDIR}/polyhal-sdk/${relative}/${subdir})
    endforeach()
  endif()
endfunction()
