// A kernel description with storage of its own: a deep copy of a
// phal_kernel_desc_t (whose arrays the core owns only during the call that
// hands it over), and the byte encoding of one. One walk over the
// description's fields serves the copy, the encoder and the decoder, so the
// three always agree on what a kernel holds.
//
// Neither Copy nor Decode validates the kernel's semantics (that is the
// interpreter's compile step); they check only what they need to walk it:
// pointers present where counts are non-zero, a known kind, the buffer
// whose rank sizes a gather's slice_sizes, and, for Decode, that every
// field is inside the bytes.
#ifndef POLYHAL_SDK_KIR_INTERPRETER_KERNEL_STORAGE_H_
#define POLYHAL_SDK_KIR_INTERPRETER_KERNEL_STORAGE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "polyhal/kernel.h"
#include "sdk/base/status.h"

namespace phal::kir_interpreter {

class KernelStorage {
 public:
  static StatusOr<std::unique_ptr<KernelStorage>> Copy(
      const phal_kernel_desc_t& desc);
  static StatusOr<std::unique_ptr<KernelStorage>> Decode(
      std::string_view bytes);

  // The encoding Decode reads back: a magic number and format version in
  // the host's byte order (so bytes from a host of the other byte order are
  // refused), then every field of the description.
  std::string Encode() const;

  // Points into this object's storage; valid for its lifetime.
  const phal_kernel_desc_t& desc() const { return desc_; }
  const std::string& name() const { return name_; }

  // The description points into the object itself.
  KernelStorage(const KernelStorage&) = delete;
  KernelStorage& operator=(const KernelStorage&) = delete;

 private:
  // The walkers of kernel_storage.cc, which fill a storage in place.
  class Copier;
  class Decoder;

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

}  // namespace phal::kir_interpreter

#endif  // POLYHAL_SDK_KIR_INTERPRETER_KERNEL_STORAGE_H_
