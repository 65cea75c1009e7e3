# PHAL_AS_AVX2_LAUNCHER: the command (scripts/as-avx2.sh) that runs a
# conformance run as an x86-64 processor with AVX2 but no AVX-512 would
# run it, where this processor can run x86-64-v3 code; empty elsewhere
# (another architecture, or a processor without AVX2). The cpu and arm
# plugins register a second certification through it, so that a
# difference between processors fails CI on any machine
# (docs/conformance.md, "As another processor"). Sanitizer builds, which
# look for memory and threading errors, do not run them twice.
set(PHAL_AS_AVX2_LAUNCHER "")
if(CMAKE_HOST_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64" AND
   EXISTS /proc/cpuinfo AND NOT PHAL_SANITIZE AND NOT PHAL_SANITIZE_THREAD)
  file(STRINGS /proc/cpuinfo phal_cpu_flags REGEX "^flags" LIMIT_COUNT 1)
  set(phal_can_run_v3 TRUE)
  foreach(flag avx2 fma bmi2 movbe)
    if(NOT phal_cpu_flags MATCHES " ${flag}( |$)")
      set(phal_can_run_v3 FALSE)
    endif()
  endforeach()
  if(phal_can_run_v3)
    set(PHAL_AS_AVX2_LAUNCHER bash ${PROJECT_SOURCE_DIR}/scripts/as-avx2.sh)
  else()
    message(STATUS "this processor cannot run x86-64-v3 code: no "
                   "certification runs as an AVX2 processor")
  endif()
endif()
