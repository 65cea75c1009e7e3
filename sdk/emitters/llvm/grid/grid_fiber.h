// Fibers for the grid emulator: the threads of one emulated block run as
// contexts on stacks of their own (ucontext), switched cooperatively on one
// host thread. Every switch is announced to AddressSanitizer and
// ThreadSanitizer when the build uses them, so that neither mistakes a
// fiber's stack for a buffer overflow or its handover for a data race.
//
// Not thread-safe: a fiber and its home belong to one host thread.
#ifndef POLYHAL_SDK_EMITTERS_LLVM_GRID_GRID_FIBER_H_
#define POLYHAL_SDK_EMITTERS_LLVM_GRID_GRID_FIBER_H_

#include <ucontext.h>

#include <cstddef>
#include <cstdint>
#include <memory>

#include "sdk/base/status.h"

namespace phal::llvm_emitter::grid {

// The context fibers switch back to: the host thread's own stack.
class FiberHome {
 public:
  FiberHome();
  FiberHome(const FiberHome&) = delete;
  FiberHome& operator=(const FiberHome&) = delete;

 private:
  friend class Fiber;
  ucontext_t context_{};
  // The sanitizers' state, used only in builds with ASan or TSan.
  [[maybe_unused]] void* tsan_fiber_ = nullptr;
  [[maybe_unused]] void* asan_fake_stack_ = nullptr;
  [[maybe_unused]] const void* asan_stack_bottom_ = nullptr;
  [[maybe_unused]] size_t asan_stack_size_ = 0;
};

class Fiber {
 public:
  // A fiber with a stack of `stack_bytes` (rounded up to pages) below a
  // guard page, so an overflow faults instead of corrupting a neighbour.
  static StatusOr<std::unique_ptr<Fiber>> Create(size_t stack_bytes);
  ~Fiber();
  Fiber(const Fiber&) = delete;
  Fiber& operator=(const Fiber&) = delete;

  // Makes the next Resume start `entry(argument)` afresh on an empty stack,
  // abandoning whatever the fiber was running. `entry` never returns: it
  // ends by suspending for good.
  void Reset(void (*entry)(void*), void* argument);
  // Runs the fiber from where it stopped until it suspends. Called on the
  // home's context.
  void Resume(FiberHome& home);
  // Switches from inside the fiber back to `home`; returns at the next
  // Resume.
  void Suspend(FiberHome& home);

  // The stack's bounds, [stack_begin(), stack_end()).
  uintptr_t stack_begin() const;
  uintptr_t stack_end() const;

 private:
  Fiber(void* mapping, size_t mapping_bytes, size_t guard_bytes);
  static void Start(unsigned high, unsigned low);
  void Arrived(FiberHome& home);

  void* mapping_;
  size_t mapping_bytes_;
  size_t guard_bytes_;
  ucontext_t context_{};
  void (*entry_)(void*) = nullptr;
  void* argument_ = nullptr;
  FiberHome* home_ = nullptr;
  // The sanitizers' state, used only in builds with ASan or TSan.
  [[maybe_unused]] void* tsan_fiber_ = nullptr;
  [[maybe_unused]] void* asan_fake_stack_ = nullptr;
};

}  // namespace phal::llvm_emitter::grid

#endif  // POLYHAL_SDK_EMITTERS_LLVM_GRID_GRID_FIBER_H_
