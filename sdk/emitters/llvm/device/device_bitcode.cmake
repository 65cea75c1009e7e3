# Script mode (cmake -P): compiles the GPU device library to LLVM bitcode
# for one GPU target and writes the bytes as a C array initializer list.
#   -DCLANG=clang++-16 -DLLVM_AS=llvm-as -DGPU=nvptx64|amdgcn
#   -DSOURCE_ROOT=<repository> -DWORK_DIR=<dir> -DOUTPUT=<file>.inc
# No target CPU is given, and the target-cpu and target-features attributes
# clang adds anyway are removed, so that one bitcode links into a module for
# any sm_* or gfx* (the module's own attributes decide). "no-builtins"
# (from -ffreestanding, which keeps C library calls out of the library
# itself) is removed too: LLVM does not inline a function carrying it into
# one without it, and kernels should inline these.
if(GPU STREQUAL "nvptx64")
  set(triple nvptx64-nvidia-cuda)
  set(target_flags -Wno-unknown-cuda-version)
elseif(GPU STREQUAL "amdgcn")
  set(triple amdgcn-amd-amdhsa)
  # Without this, the module carries amdgpu_code_object_version, a module
  # flag that must equal the kernel module's or linking fails.
  set(target_flags -Xclang -mcode-object-version=none)
else()
  message(FATAL_ERROR "device_bitcode.cmake: unknown GPU '${GPU}'")
endif()

set(source ${SOURCE_ROOT}/sdk/emitters/llvm/device/device_functions.cc)
set(text ${WORK_DIR}/device_functions.${GPU}.ll)
set(bitcode ${WORK_DIR}/device_functions.${GPU}.bc)
execute_process(
  COMMAND ${CLANG} --target=${triple} ${target_flags} -std=c++20 -O2
    -ffreestanding -nogpulib -fno-exceptions -fno-rtti -ffp-contract=off
    -fno-math-errno -Wall -Wextra -Werror -I${SOURCE_ROOT}
    -S -emit-llvm ${source} -o ${text}
  RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "clang failed to compile ${source} for ${triple}")
endif()

file(READ ${text} ir)
string(REGEX REPLACE " \"target-(cpu|features)\"=\"[^\"]*\"" "" ir "${ir}")
string(REGEX REPLACE " \"no-builtins\"" "" ir "${ir}")
file(WRITE ${text} "${ir}")
execute_process(COMMAND ${LLVM_AS} ${text} -o ${bitcode}
                RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "llvm-as failed on ${text}")
endif()

file(READ ${bitcode} hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
file(WRITE ${OUTPUT} "${bytes}\n")
