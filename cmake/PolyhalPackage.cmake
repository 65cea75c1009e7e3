# The installed package: `find_package(Polyhal)` for plugins and
# applications built with CMake, and pkg-config's `polyhal` for the rest.
include(CMakePackageConfigHelpers)
set(phal_package_dir ${CMAKE_INSTALL_LIBDIR}/cmake/Polyhal)

install(EXPORT PolyhalTargets NAMESPACE Polyhal::
        DESTINATION ${phal_package_dir})
configure_package_config_file(
  ${PROJECT_SOURCE_DIR}/cmake/PolyhalConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/PolyhalConfig.cmake
  INSTALL_DESTINATION ${phal_package_dir})
write_basic_package_version_file(
  ${CMAKE_CURRENT_BINARY_DIR}/PolyhalConfigVersion.cmake
  COMPATIBILITY SameMajorVersion)
install(FILES
  ${CMAKE_CURRENT_BINARY_DIR}/PolyhalConfig.cmake
  ${CMAKE_CURRENT_BINARY_DIR}/PolyhalConfigVersion.cmake
  ${PROJECT_SOURCE_DIR}/cmake/PolyhalPlugin.cmake
  ${PROJECT_SOURCE_DIR}/cmake/plugin-manifest.json.in
  DESTINATION ${phal_package_dir})

# Relocatable: the prefix is found from where the .pc file lies.
file(RELATIVE_PATH PHAL_PC_PREFIX_FROM_PCFILEDIR
     ${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig ${CMAKE_INSTALL_PREFIX})
configure_file(${PROJECT_SOURCE_DIR}/cmake/polyhal.pc.in
               ${CMAKE_CURRENT_BINARY_DIR}/polyhal.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/polyhal.pc
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
