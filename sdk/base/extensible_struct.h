// Filling in an extensible out-struct (types.h: struct_size, then the next
// chain, then the members): the one who answers fills a complete struct of
// its own and copies the members that fit in the caller's struct_size, so a
// caller built against an older, shorter struct never sees a write past its
// end. The core answers applications with it (device properties, buffer
// descriptions) and plugins answer the core (device properties,
// memory-space info).
#ifndef POLYHAL_SDK_BASE_EXTENSIBLE_STRUCT_H_
#define POLYHAL_SDK_BASE_EXTENSIBLE_STRUCT_H_

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <string>
#include <string_view>

#include "polyhal/types.h"
#include "sdk/base/status.h"

namespace phal {

// Copies the members of `full` after the struct_size/next header into `out`,
// up to out->struct_size, leaving out's struct_size and extension chain as
// they were. InvalidArgument naming `what` when `out` is NULL or too small
// for the header.
template <typename Struct>
Status CopyFittingMembers(const Struct& full, Struct* out,
                          std::string_view what = "out") {
  constexpr std::size_t kHeader = PHAL_STRUCT_SIZE(Struct, next);
  if (out == nullptr) return InvalidArgument(std::string(what) + " is NULL");
  if (out->struct_size < kHeader) {
    return InvalidArgument(std::string(what) + "->struct_size " +
                           std::to_string(out->struct_size) +
                           " is smaller than the " + std::to_string(kHeader) +
                           "-byte header; set it to sizeof the struct");
  }
  const std::size_t end =
      std::min<std::size_t>(out->struct_size, sizeof(Struct));
  std::memcpy(reinterpret_cast<char*>(out) + kHeader,
              reinterpret_cast<const char*>(&full) + kHeader, end - kHeader);
  return OkStatus();
}

}  // namespace phal

#endif  // POLYHAL_SDK_BASE_EXTENSIBLE_STRUCT_H_
