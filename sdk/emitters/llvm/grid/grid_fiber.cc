#include "sdk/emitters/llvm/grid/grid_fiber.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#if defined(__SANITIZE_ADDRESS__)
#define PHAL_GRID_FIBER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PHAL_GRID_FIBER_ASAN 1
#endif
#endif
#if defined(__SANITIZE_THREAD__)
#define PHAL_GRID_FIBER_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define PHAL_GRID_FIBER_TSAN 1
#endif
#endif

#if defined(PHAL_GRID_FIBER_ASAN)
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif
#if defined(PHAL_GRID_FIBER_TSAN)
#include <sanitizer/tsan_interface.h>
#endif

namespace phal::llvm_emitter::grid {
namespace {

size_t PageBytes() { return static_cast<size_t>(sysconf(_SC_PAGESIZE)); }

size_t RoundUp(size_t value, size_t multiple) {
  return (value + multiple - 1) / multiple * multiple;
}

}  // namespace

FiberHome::FiberHome() {
#if defined(PHAL_GRID_FIBER_TSAN)
  tsan_fiber_ = __tsan_get_current_fiber();
#endif
}

StatusOr<std::unique_ptr<Fiber>> Fiber::Create(size_t stack_bytes) {
  const size_t guard_bytes = PageBytes();
  const size_t mapping_bytes = guard_bytes + RoundUp(stack_bytes, guard_bytes);
  void* mapping =
      mmap(nullptr, mapping_bytes, PROT_READ | PROT_WRITE,
           MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
  if (mapping == MAP_FAILED) {
    return ResourceExhausted("grid emulator: cannot map a fiber stack of " +
                             std::to_string(mapping_bytes) +
                             " bytes: " + std::strerror(errno));
  }
  // Stacks grow down: the guard page is the lowest.
  if (mprotect(mapping, guard_bytes, PROT_NONE) != 0) {
    const int error = errno;
    munmap(mapping, mapping_bytes);
    return Internal(
        std::string("grid emulator: cannot protect a guard page: ") +
        std::strerror(error));
  }
  return std::unique_ptr<Fiber>(new Fiber(mapping, mapping_bytes, guard_bytes));
}

Fiber::Fiber(void* mapping, size_t mapping_bytes, size_t guard_bytes)
    : mapping_(mapping),
      mapping_bytes_(mapping_bytes),
      guard_bytes_(guard_bytes) {
#if defined(PHAL_GRID_FIBER_TSAN)
  tsan_fiber_ = __tsan_create_fiber(0);
#endif
}

Fiber::~Fiber() {
#if defined(PHAL_GRID_FIBER_TSAN)
  __tsan_destroy_fiber(tsan_fiber_);
#endif
  munmap(mapping_, mapping_bytes_);
}

uintptr_t Fiber::stack_begin() const {
  return reinterpret_cast<uintptr_t>(mapping_) + guard_bytes_;
}

uintptr_t Fiber::stack_end() const {
  return reinterpret_cast<uintptr_t>(mapping_) + mapping_bytes_;
}

void Fiber::Reset(void (*entry)(void*), void* argument) {
  entry_ = entry;
  argument_ = argument;
  void* stack = reinterpret_cast<void*>(stack_begin());
  const size_t stack_bytes = stack_end() - stack_begin();
#if defined(PHAL_GRID_FIBER_ASAN)
  // A fiber abandoned in the middle of a call leaves its frames' redzones
  // poisoned; the new frames must not trip over them.
  __asan_unpoison_memory_region(stack, stack_bytes);
  asan_fake_stack_ = nullptr;
#endif
#if defined(PHAL_GRID_FIBER_TSAN)
  __tsan_destroy_fiber(tsan_fiber_);
  tsan_fiber_ = __tsan_create_fiber(0);
#endif
  getcontext(&context_);
  context_.uc_stack.ss_sp = stack;
  context_.uc_stack.ss_size = stack_bytes;
  context_.uc_link = nullptr;
  // makecontext passes int arguments only: the fiber's address goes in two
  // halves.
  const uintptr_t self = reinterpret_cast<uintptr_t>(this);
  makecontext(&context_, reinterpret_cast<void (*)()>(&Fiber::Start), 2,
              static_cast<unsigned>(self >> 32),
              static_cast<unsigned>(self & 0xffffffffu));
}

void Fiber::Start(unsigned high, unsigned low) {
  Fiber* fiber = reinterpret_cast<Fiber*>((static_cast<uintptr_t>(high) << 32) |
                                          static_cast<uintptr_t>(low));
  fiber->Arrived(*fiber->home_);
  fiber->entry_(fiber->argument_);
}

void Fiber::Resume(FiberHome& home) {
  home_ = &home;
#if defined(PHAL_GRID_FIBER_ASAN)
  __sanitizer_start_switch_fiber(&home.asan_fake_stack_,
                                 reinterpret_cast<void*>(stack_begin()),
                                 stack_end() - stack_begin());
#endif
#if defined(PHAL_GRID_FIBER_TSAN)
  __tsan_switch_to_fiber(tsan_fiber_, 0);
#endif
  swapcontext(&home.context_, &context_);
#if defined(PHAL_GRID_FIBER_ASAN)
  __sanitizer_finish_switch_fiber(home.asan_fake_stack_, nullptr, nullptr);
#endif
}

void Fiber::Suspend(FiberHome& home) {
#if defined(PHAL_GRID_FIBER_ASAN)
  __sanitizer_start_switch_fiber(&asan_fake_stack_, home.asan_stack_bottom_,
                                 home.asan_stack_size_);
#endif
#if defined(PHAL_GRID_FIBER_TSAN)
  __tsan_switch_to_fiber(home.tsan_fiber_, 0);
#endif
  swapcontext(&context_, &home.context_);
  Arrived(*home_);
}

void Fiber::Arrived([[maybe_unused]] FiberHome& home) {
#if defined(PHAL_GRID_FIBER_ASAN)
  // On a fresh stack (after Reset) there is no fake stack to restore yet.
  __sanitizer_finish_switch_fiber(asan_fake_stack_, &home.asan_stack_bottom_,
                                  &home.asan_stack_size_);
#endif
}

}  // namespace phal::llvm_emitter::grid
