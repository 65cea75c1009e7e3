#include "plugins/cpu/cpu_scratch.h"

#include <array>

namespace phal::cpu {
namespace {

struct KeptBuffer {
  std::unique_ptr<std::max_align_t[]> data;
  std::size_t bytes = 0;
};

std::unique_ptr<std::max_align_t[]> Allocate(std::size_t bytes) {
  const std::size_t units =
      (bytes + sizeof(std::max_align_t) - 1) / sizeof(std::max_align_t);
  return std::make_unique_for_overwrite<std::max_align_t[]>(units);
}

}  // namespace

Scratch::Scratch(ScratchSlot slot, std::size_t bytes) {
  if (bytes == 0) return;
  if (bytes > kMaxKeptBytes) {
    own_ = Allocate(bytes);
    data_ = own_.get();
    return;
  }
  thread_local std::array<KeptBuffer,
                          static_cast<std::size_t>(ScratchSlot::kCount)>
      kept;
  KeptBuffer& buffer = kept[static_cast<std::size_t>(slot)];
  if (buffer.bytes < bytes) {
    buffer.data.reset();
    buffer.data = Allocate(bytes);
    buffer.bytes = bytes;
  }
  data_ = buffer.data.get();
}

}  // namespace phal::cpu
