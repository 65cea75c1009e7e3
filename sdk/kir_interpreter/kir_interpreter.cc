#include "sdk/kir_interpreter/kir_interpreter.h"

#include <new>
#include <stdexcept>
#include <string>
#include <utility>

#include "sdk/kir/kernel_codec.h"
#include "sdk/kir/kernel_storage.h"
#include "sdk/kir_interpreter/compiled_kernel.h"
#include "sdk/kir_interpreter/kernel_checks.h"

namespace phal::kir_interpreter {

class Kernel::Impl {
 public:
  static StatusOr<std::unique_ptr<const Impl>> Compile(
      std::unique_ptr<KernelStorage> storage) {
    std::unique_ptr<Impl> impl(new Impl);
    PHAL_ASSIGN_OR_RETURN(impl->compiled_, CompileKernel(storage->desc()));
    impl->storage_ = std::move(storage);
    return std::unique_ptr<const Impl>(std::move(impl));
  }

  const KernelStorage& storage() const { return *storage_; }
  const CompiledKernel& compiled() const { return *compiled_; }

 private:
  Impl() = default;

  std::unique_ptr<KernelStorage> storage_;
  std::unique_ptr<CompiledKernel> compiled_;
};

namespace {

// Allocation failures (a kernel or its scratch larger than memory) become
// statuses: no exception leaves the library.
template <typename Fn>
auto Guarded(const char* what, Fn&& fn) -> decltype(fn()) {
  try {
    return fn();
  } catch (const std::bad_alloc&) {
    return ResourceExhausted(std::string("out of memory while ") + what);
  } catch (const std::length_error&) {
    return ResourceExhausted(std::string("out of memory while ") + what);
  }
}

}  // namespace

Kernel::Kernel(std::unique_ptr<const Impl> impl) : impl_(std::move(impl)) {}
Kernel::Kernel(Kernel&& other) noexcept = default;
Kernel& Kernel::operator=(Kernel&& other) noexcept = default;
Kernel::~Kernel() = default;

StatusOr<Kernel> Kernel::Create(const phal_kernel_desc_t& desc) {
  return Guarded("copying a kernel", [&]() -> StatusOr<Kernel> {
    PHAL_ASSIGN_OR_RETURN(std::unique_ptr<KernelStorage> storage,
                          KernelStorage::Copy(desc));
    PHAL_ASSIGN_OR_RETURN(std::unique_ptr<const Impl> impl,
                          Impl::Compile(std::move(storage)));
    return Kernel(std::move(impl));
  });
}

StatusOr<Kernel> Kernel::Deserialize(std::string_view bytes) {
  return Guarded("decoding a kernel", [&]() -> StatusOr<Kernel> {
    PHAL_ASSIGN_OR_RETURN(std::unique_ptr<KernelStorage> storage,
                          DecodeKernel(bytes));
    PHAL_ASSIGN_OR_RETURN(std::unique_ptr<const Impl> impl,
                          Impl::Compile(std::move(storage)));
    return Kernel(std::move(impl));
  });
}

const phal_kernel_desc_t& Kernel::desc() const {
  return impl_->storage().desc();
}

const std::string& Kernel::name() const { return impl_->storage().name(); }

uint64_t Kernel::BufferByteSize(uint32_t index) const {
  const phal_kernel_desc_t& kernel = desc();
  if (index >= kernel.buffer_count) return 0;
  return ::phal::BufferByteSize(kernel.buffers[index]);
}

Status Kernel::Run(std::span<uint8_t* const> buffers) const {
  const phal_kernel_desc_t& kernel = desc();
  if (buffers.size() != kernel.buffer_count) {
    return KernelError(kernel, "takes " + std::to_string(kernel.buffer_count) +
                                   " buffers, got " +
                                   std::to_string(buffers.size()));
  }
  for (uint32_t i = 0; i < kernel.buffer_count; ++i) {
    if (buffers[i] == nullptr && BufferByteSize(i) > 0) {
      return KernelError(kernel, "buf" + std::to_string(i) + " is NULL");
    }
  }
  return Guarded("running a kernel",
                 [&]() { return impl_->compiled().Run(buffers); });
}

std::string Kernel::Serialize() const { return EncodeKernel(impl_->storage()); }

}  // namespace phal::kir_interpreter
