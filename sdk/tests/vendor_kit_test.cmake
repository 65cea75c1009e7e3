# cmake -DBUILD=<build> -DSOURCE=<checkout> -DWORK=<dir> -DGENERATOR=<g>
#       [-DSANITIZE=ON] -P vendor_kit_test.cmake
#
# What a vendor outside the tree does, end to end: install Polyhal to a
# fresh prefix, copy the installed template and rename it, build the copy
# on its own against the prefix with find_package(Polyhal), run its unit
# tests, load it with the installed polyhal command through
# PHAL_PLUGIN_PATH and certify it at tier 3; and build a C application
# against the installed libpolyhal with pkg-config.
function(run)
  cmake_parse_arguments(ARG "" "WHAT" "COMMAND;ENV" ${ARGN})
  execute_process(COMMAND ${CMAKE_COMMAND} -E env ${ARG_ENV} ${ARG_COMMAND}
    RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE output)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "${ARG_WHAT} failed (${result}):\n${output}")
  endif()
  set(output "${output}" PARENT_SCOPE)
endfunction()

# An instrumented install (PHAL_SANITIZE) links only into instrumented code.
set(sanitize_flags "")
set(sanitize_cmake_args "")
if(SANITIZE)
  set(sanitize_flags -fsanitize=address,undefined -fno-omit-frame-pointer)
  list(JOIN sanitize_flags " " joined)
  set(sanitize_cmake_args -DCMAKE_CXX_FLAGS=${joined}
      -DCMAKE_MODULE_LINKER_FLAGS=${joined}
      -DCMAKE_EXE_LINKER_FLAGS=${joined})
endif()

file(REMOVE_RECURSE ${WORK})
set(prefix ${WORK}/prefix)
run(WHAT "cmake --install"
    COMMAND ${CMAKE_COMMAND} --install ${BUILD} --prefix ${prefix})

# A vendor's copy of the installed template, renamed as
# docs/writing-a-plugin.md says ("Copy and rename").
set(template_dir ${prefix}/share/polyhal/template)
if(NOT EXISTS ${template_dir}/CMakeLists.txt)
  message(FATAL_ERROR "cmake --install shipped no template plugin sources "
                      "in ${template_dir}")
endif()
file(COPY ${template_dir}/ DESTINATION ${WORK}/acme)
# The commands of docs/writing-a-plugin.md, as a vendor types them (a
# script, so CMake's list separator never meets their semicolons).
file(WRITE ${WORK}/rename.sh [[
cd "$1" || exit 1
for f in template_*; do mv "$f" "acme_${f#template_}"; done
sed -i 's/phal_plugin_template/phal_plugin_acme/g; s/template_/acme_/g;
        s/TEMPLATE_/ACME_/g; s/NAME template/NAME acme/;
        s/PLUGIN template/PLUGIN acme/; s/template plugin/acme plugin/g' *
! grep -l 'template_' *
]])
run(WHAT "renaming the template to acme"
    COMMAND sh ${WORK}/rename.sh ${WORK}/acme)

run(WHAT "configuring the copy against the installed package"
    COMMAND ${CMAKE_COMMAND} -S ${WORK}/acme -B ${WORK}/acme/out
      -G ${GENERATOR} -DCMAKE_PREFIX_PATH=${prefix}
      -DCMAKE_BUILD_TYPE=RelWithDebInfo ${sanitize_cmake_args})
run(WHAT "building the copy out of the tree"
    COMMAND ${CMAKE_COMMAND} --build ${WORK}/acme/out)
set(manifest ${WORK}/acme/out/acme.json)
if(NOT EXISTS ${manifest})
  message(FATAL_ERROR "the copy's build wrote no manifest at ${manifest}")
endif()
run(WHAT "the copy's unit tests"
    COMMAND ${CMAKE_CTEST_COMMAND} --test-dir ${WORK}/acme/out
      --output-on-failure --no-tests=error -E conformance)

set(polyhal ${prefix}/bin/polyhal)
run(WHAT "polyhal plugins" COMMAND ${polyhal} plugins
    ENV PHAL_PLUGIN_PATH=${manifest})
if(NOT output MATCHES "acme" OR output MATCHES "skipped")
  message(FATAL_ERROR "the installed polyhal did not load the copy "
                      "from ${manifest}:\n${output}")
endif()
run(WHAT "certifying the copy at tier 3"
    COMMAND ${polyhal} conformance --plugin acme --tier 3 --jobs 2
      --report ${WORK}/report
    ENV PHAL_PLUGIN_PATH=${manifest})
message(STATUS "${output}")

find_program(PKG_CONFIG pkg-config)
file(GLOB_RECURSE pc_file ${prefix}/*.pc)
list(FILTER pc_file INCLUDE REGEX "/polyhal\\.pc$")
if(NOT pc_file)
  message(FATAL_ERROR "cmake --install wrote no polyhal.pc under ${prefix}")
endif()
get_filename_component(pc_dir "${pc_file}" DIRECTORY)
get_filename_component(lib_dir "${pc_dir}" DIRECTORY)
if(PKG_CONFIG)
  run(WHAT "pkg-config polyhal"
      COMMAND ${PKG_CONFIG} --cflags --libs polyhal
      ENV PKG_CONFIG_PATH=${pc_dir})
  string(STRIP "${output}" flags)
  separate_arguments(flags UNIX_COMMAND "${flags}")
  run(WHAT "compiling samples/c/hello_buffer.c with pkg-config's flags"
      COMMAND cc -std=c11 -Wall -Wextra -Werror -pedantic ${sanitize_flags}
        ${SOURCE}/samples/c/hello_buffer.c ${flags} -o ${WORK}/hello_buffer)
  run(WHAT "hello_buffer against the installed libpolyhal"
      COMMAND ${WORK}/hello_buffer
      ENV LD_LIBRARY_PATH=${lib_dir} PHAL_PLUGIN_PATH=${manifest})
  if(NOT output MATCHES "round-tripped")
    message(FATAL_ERROR "hello_buffer did not round-trip a buffer:\n${output}")
  endif()
endif()
