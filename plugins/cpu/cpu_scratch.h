// Scratch memory that the thread running a kernel keeps between kernels.
#ifndef POLYHAL_PLUGINS_CPU_CPU_SCRATCH_H_
#define POLYHAL_PLUGINS_CPU_CPU_SCRATCH_H_

#include <cstddef>
#include <memory>

namespace phal::cpu {

// What a kernel run uses scratch memory for; a thread keeps one buffer per
// purpose, so the purposes of one run never share memory.
enum class ScratchSlot { kSums, kLhs, kRhs, kPartial, kCount };

// At least `bytes` of the calling thread's scratch for `slot`, aligned for
// any element type, its contents undefined. Megabytes newly allocated are
// new pages from the operating system, faulted in one at a time on first
// touch; a dot's or convolution's sums and widened operands allocated on
// every launch spent a third of a bf16 convolution's time in page faults.
// So a thread keeps the largest buffer of each slot it has needed (up to
// kMaxKeptBytes; larger ones belong to the Scratch alone) until it exits.
// A Scratch must not outlive its thread's next Scratch of the same slot,
// and is used by the tasks the thread hands to the pool only while the
// thread waits for them (ThreadPool::ParallelFor).
class Scratch {
 public:
  static constexpr std::size_t kMaxKeptBytes = std::size_t{256} << 20;

  Scratch(ScratchSlot slot, std::size_t bytes);
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;

  template <typename T>
  T* As() const {
    return static_cast<T*>(data_);
  }

 private:
  std::unique_ptr<std::max_align_t[]> own_;
  void* data_ = nullptr;
};

}  // namespace phal::cpu

#endif  // POLYHAL_PLUGINS_CPU_CPU_SCRATCH_H_
