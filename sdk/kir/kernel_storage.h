// A kernel description with storage of its own: the one deep copy of a
// phal_kernel_desc_t (whose arrays the core owns only during the call that
// hands it over). A plugin that keeps a kernel past kernel_emit keeps a
// KernelStorage; kernel_codec.h encodes one as bytes and decodes it back.
//
// Copy does not validate the kernel's semantics (CheckKernelStructure,
// facts.h, does); it checks only what it needs to walk it: pointers present
// where counts are non-zero, a known kind, and the buffer whose rank sizes
// a gather's slice_sizes.
#ifndef POLYHAL_SDK_KIR_KERNEL_STORAGE_H_
#define POLYHAL_SDK_KIR_KERNEL_STORAGE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "polyhal/kernel.h"
#include "sdk/base/status.h"

namespace phal {

class KernelStorage {
 public:
  // INVALID_ARGUMENT naming the field when `desc` cannot be walked;
  // UNIMPLEMENTED for a kind of a newer ABI.
  static StatusOr<std::unique_ptr<KernelStorage>> Copy(
      const phal_kernel_desc_t& desc);

  // Points into this object's storage; valid for its lifetime.
  const phal_kernel_desc_t& desc() const { return desc_; }
  const std::string& name() const { return name_; }

  // The description points into the object itself.
  KernelStorage(const KernelStorage&) = delete;
  KernelStorage& operator=(const KernelStorage&) = delete;

 private:
  // The copier and the decoder fill a storage in place (kernel_walk.h).
  friend class KernelStorageFiller;

  KernelStorage() = default;

  // An array of `count` zeroed T owned by this storage. T is a KIR struct
  // or integer (an implicit-lifetime type).
  template <typename T>
  T* Allocate(uint64_t count) {
    blocks_.push_back(std::make_unique<std::byte[]>(count * sizeof(T)));
    return reinterpret_cast<T*>(blocks_.back().get());
  }
  void set_name(std::string name) {
    name_ = std::move(name);
    desc_.name = name_.c_str();
  }

  phal_kernel_desc_t desc_{};
  std::string name_;
  std::vector<std::unique_ptr<std::byte[]>> blocks_;
};

}  // namespace phal

#endif  // POLYHAL_SDK_KIR_KERNEL_STORAGE_H_
