# Warnings are errors in project code. Applied per target so third-party
# headers (LLVM, Boost) are included as SYSTEM and stay out of it.
function(phal_target_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Werror)
endfunction()
