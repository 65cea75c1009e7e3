# Cross-compiling Polyhal for AArch64 Linux with Debian's cross toolchain
# (g++-aarch64-linux-gnu) against an arm64 sysroot of unpacked Debian
# packages. scripts/aarch64.sh builds the sysroot and uses this file; by hand:
#
#   cmake -S . -B build-aarch64/build \
#     -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-toolchain.cmake \
#     -DPHAL_AARCH64_SYSROOT=$HOME/.cache/polyhal/aarch64-sysroot
#
# The C and C++ runtime headers and start files are the cross toolchain's
# own (/usr/aarch64-linux-gnu); everything else (LLVM 16, OpenBLAS, Boost,
# nlohmann-json, GoogleTest, zlib, ...) is found in the sysroot only, so no
# amd64 header or library can slip into the build. LLVM's own
# llvm/Config/llvm-config.h is the arm64 one, so InitializeNativeTarget()
# is AArch64's. Test programs run under qemu-aarch64-static with the sysroot
# as the loader prefix (CMAKE_CROSSCOMPILING_EMULATOR).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)

set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)

# The sysroot: -DPHAL_AARCH64_SYSROOT, else $PHAL_AARCH64_SYSROOT, else
# $XDG_CACHE_HOME or ~/.cache /polyhal/aarch64-sysroot, where
# scripts/aarch64.sh makes it. It must be outside the source and build
# trees: LLVM's include folder is part of the installable
# Polyhal::emitter_llvm. try_compile projects read this file again and get
# the same answer.
if(NOT PHAL_AARCH64_SYSROOT)
  if(DEFINED ENV{PHAL_AARCH64_SYSROOT})
    set(PHAL_AARCH64_SYSROOT "$ENV{PHAL_AARCH64_SYSROOT}")
  elseif(DEFINED ENV{XDG_CACHE_HOME})
    set(PHAL_AARCH64_SYSROOT "$ENV{XDG_CACHE_HOME}/polyhal/aarch64-sysroot")
  else()
    set(PHAL_AARCH64_SYSROOT "$ENV{HOME}/.cache/polyhal/aarch64-sysroot")
  endif()
endif()
if(NOT EXISTS "${PHAL_AARCH64_SYSROOT}/usr/lib/aarch64-linux-gnu")
  message(FATAL_ERROR "no arm64 sysroot at ${PHAL_AARCH64_SYSROOT}: "
                      "scripts/aarch64.sh builds it")
endif()
set(PHAL_AARCH64_SYSROOT "${PHAL_AARCH64_SYSROOT}" CACHE PATH
    "The arm64 sysroot (unpacked Debian packages)")
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES PHAL_AARCH64_SYSROOT)

set(CMAKE_SYSROOT "${PHAL_AARCH64_SYSROOT}")
set(CMAKE_FIND_ROOT_PATH "${PHAL_AARCH64_SYSROOT}")
# Programs (python3, the host's tools) from the host; headers, libraries
# and CMake packages from the sysroot only.
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# Debian keeps LLVM under /usr/lib/llvm-16.
if(NOT LLVM_DIR)
  set(LLVM_DIR "${PHAL_AARCH64_SYSROOT}/usr/lib/llvm-16/lib/cmake/llvm"
      CACHE PATH "LLVM 16's CMake package in the arm64 sysroot")
endif()

# Run-time dependencies resolve in the sysroot: the linker follows them
# there, and qemu's loader prefix is the sysroot.
string(APPEND CMAKE_EXE_LINKER_FLAGS_INIT
  " -Wl,-rpath-link,${PHAL_AARCH64_SYSROOT}/usr/lib/aarch64-linux-gnu")
string(APPEND CMAKE_SHARED_LINKER_FLAGS_INIT
  " -Wl,-rpath-link,${PHAL_AARCH64_SYSROOT}/usr/lib/aarch64-linux-gnu")
string(APPEND CMAKE_MODULE_LINKER_FLAGS_INIT
  " -Wl,-rpath-link,${PHAL_AARCH64_SYSROOT}/usr/lib/aarch64-linux-gnu")
find_program(PHAL_QEMU_AARCH64 NAMES qemu-aarch64-static qemu-aarch64)
if(PHAL_QEMU_AARCH64)
  set(CMAKE_CROSSCOMPILING_EMULATOR
      "${PHAL_QEMU_AARCH64};-L;${PHAL_AARCH64_SYSROOT}")
endif()
