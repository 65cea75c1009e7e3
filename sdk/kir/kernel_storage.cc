#include "sdk/kir/kernel_storage.h"

#include <cstring>

#include "sdk/kir/kernel_walk.h"

namespace phal {
namespace {

using kernel_walk::KirKernelError;

// Replaces every pointer of a shallow copy of the caller's description with
// a copy owned by the storage.
class Copier {
 public:
  explicit Copier(KernelStorage& storage) : storage_(storage) {}

  template <typename T>
  Status Scalar(const T&, const std::string&) {
    return OkStatus();
  }
  template <typename T>
  Status Array(const T*& pointer, uint64_t count, const std::string& what) {
    PHAL_ASSIGN_OR_RETURN(T * copy, Records(pointer, count, 0, what));
    (void)copy;
    return OkStatus();
  }
  template <typename T>
  StatusOr<T*> Records(const T*& pointer, uint64_t count, uint64_t,
                       const std::string& what) {
    if (count == 0) {
      pointer = nullptr;
      return static_cast<T*>(nullptr);
    }
    if (pointer == nullptr) {
      return KirKernelError(
          KernelStorageFiller::desc(storage_),
          what + " is NULL but has " + std::to_string(count) + " entries");
    }
    T* copy = KernelStorageFiller::Allocate<T>(storage_, count);
    std::memcpy(static_cast<void*>(copy), pointer, count * sizeof(T));
    pointer = copy;
    return copy;
  }
  template <typename T>
  StatusOr<T*> Struct(const T*& pointer, const char* what) {
    return Records(pointer, 1, 0, std::string(what) + " description");
  }
  Status Name(const char*& name) {
    name = KernelStorageFiller::SetName(storage_, name != nullptr ? name : "");
    return OkStatus();
  }

 private:
  KernelStorage& storage_;
};

}  // namespace

StatusOr<std::unique_ptr<KernelStorage>> KernelStorage::Copy(
    const phal_kernel_desc_t& desc) {
  if (desc.struct_size < sizeof(phal_kernel_desc_t)) {
    return KirKernelError(desc, "struct_size " +
                                    std::to_string(desc.struct_size) +
                                    " is less than the " +
                                    std::to_string(sizeof(phal_kernel_desc_t)) +
                                    " bytes of phal_kernel_desc_t");
  }
  std::unique_ptr<KernelStorage> storage = KernelStorageFiller::New();
  std::memcpy(static_cast<void*>(&storage->desc_), &desc, sizeof(desc));
  storage->desc_.next = nullptr;
  Copier copier(*storage);
  PHAL_RETURN_IF_ERROR(kernel_walk::WalkKernel(copier, storage->desc_));
  return storage;
}

}  // namespace phal
