// Filling in an extensible out-struct the core passes to a plugin (device
// properties, memory-space info): the plugin fills a complete struct of its
// own and copies the members that fit in the caller's struct_size, so a core
// built against an older, shorter struct never sees a write past its end.
#ifndef POLYHAL_SDK_PLUGIN_SUPPORT_EXTENSIBLE_STRUCT_H_
#define POLYHAL_SDK_PLUGIN_SUPPORT_EXTENSIBLE_STRUCT_H_

#include <algorithm>
#include <cstddef>
#include <cstring>

#include "sdk/base/status.h"

namespace phal {

// Copies the members of `full` after the struct_size/next header into `out`,
// up to out->struct_size, leaving out's struct_size and extension chain as
// they were. InvalidArgument when `out` is NULL or too small for the header.
template <typename Struct>
Status CopyFittingMembers(const Struct& full, Struct* out) {
  constexpr std::size_t kHeader = offsetof(Struct, next) + sizeof(const void*);
  if (out == nullptr || out->struct_size < kHeader) {
    return InvalidArgument(
        "output struct is NULL or its struct_size is smaller than its "
        "struct_size/next header");
  }
  const std::size_t end =
      std::min<std::size_t>(out->struct_size, sizeof(Struct));
  std::memcpy(reinterpret_cast<char*>(out) + kHeader,
              reinterpret_cast<const char*>(&full) + kHeader, end - kHeader);
  return OkStatus();
}

}  // namespace phal

#endif  // POLYHAL_SDK_PLUGIN_SUPPORT_EXTENSIBLE_STRUCT_H_
