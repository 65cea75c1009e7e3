#include "sdk/kir/kernel_codec.h"

#include <cstring>
#include <type_traits>

#include "sdk/base/byte_codec.h"
#include "sdk/kir/kernel_walk.h"

namespace phal {
namespace {

constexpr std::string_view kMagic = "PKIR";

// Every field is encoded in as many bytes as it has in memory (a node's 64
// bytes hold no padding), so a count can be checked against the bytes
// that remain with sizeof.
static_assert(sizeof(phal_kir_node_t) == 64,
              "a node is encoded field by field");

template <typename T>
void Put(ByteWriter& out, const T& value) {
  if constexpr (std::is_enum_v<T>) {
    out.AddU32(EnumValue(value));
  } else if constexpr (sizeof(T) == 1) {
    out.AddU8(static_cast<uint8_t>(value));
  } else if constexpr (sizeof(T) == 4) {
    out.AddU32(static_cast<uint32_t>(value));
  } else {
    static_assert(sizeof(T) == 8, "KIR integers are 8, 32 or 64 bits");
    out.AddU64(static_cast<uint64_t>(value));
  }
}

void Put(ByteWriter& out, const phal_kir_node_t& node) {
  Put(out, node.op);
  Put(out, node.type);
  Put(out, node.operand_begin);
  Put(out, node.operand_count);
  for (int64_t attribute : node.attributes) Put(out, attribute);
  for (uint64_t word : node.constant) Put(out, word);
}

// False when the bytes end inside the field.
template <typename T>
bool Get(ByteReader& in, T* value) {
  if constexpr (std::is_enum_v<T> || sizeof(T) == 4) {
    // An enum field may hold a value of a newer ABI: stored, not loaded.
    uint32_t bits = 0;
    if (!in.ReadU32(&bits)) return false;
    std::memcpy(value, &bits, sizeof(bits));
  } else if constexpr (sizeof(T) == 1) {
    uint8_t bits = 0;
    if (!in.ReadU8(&bits)) return false;
    std::memcpy(value, &bits, sizeof(bits));
  } else {
    uint64_t bits = 0;
    if (!in.ReadU64(&bits)) return false;
    std::memcpy(value, &bits, sizeof(bits));
  }
  return true;
}

bool Get(ByteReader& in, phal_kir_node_t* node) {
  bool ok = Get(in, &node->op) && Get(in, &node->type) &&
            Get(in, &node->operand_begin) && Get(in, &node->operand_count);
  for (int64_t& attribute : node->attributes) ok = ok && Get(in, &attribute);
  for (uint64_t& word : node->constant) ok = ok && Get(in, &word);
  return ok;
}

// Appends the description's fields.
class Encoder {
 public:
  explicit Encoder(ByteWriter& out) : out_(out) {}

  template <typename T>
  Status Scalar(const T& field, const std::string&) {
    Put(out_, field);
    return OkStatus();
  }
  template <typename T>
  Status Array(const T* pointer, uint64_t count, const std::string&) {
    for (uint64_t i = 0; i < count; ++i) Put(out_, pointer[i]);
    return OkStatus();
  }
  template <typename T>
  StatusOr<T*> Records(const T* pointer, uint64_t, uint64_t,
                       const std::string&) {
    return const_cast<T*>(pointer);
  }
  template <typename T>
  StatusOr<T*> Struct(const T* pointer, const char*) {
    return const_cast<T*>(pointer);
  }
  Status Name(const char* name) {
    const std::string_view text = name;
    out_.AddU32(static_cast<uint32_t>(text.size()));
    out_.AddRaw(text);
    return OkStatus();
  }

 private:
  ByteWriter& out_;
};

// Reads the fields Encoder wrote into a zeroed description.
class Decoder {
 public:
  Decoder(KernelStorage& storage, std::string_view bytes)
      : storage_(storage), size_(bytes.size()), in_(bytes) {}

  ByteReader& in() { return in_; }

  template <typename T>
  Status Scalar(T& field, const std::string& what) {
    return Get(in_, &field) ? OkStatus() : Truncated(what);
  }
  template <typename T>
  Status Array(const T*& pointer, uint64_t count, const std::string& what) {
    pointer = nullptr;
    if (count == 0) return OkStatus();
    if (count > in_.remaining() / sizeof(T)) return Truncated(what);
    T* array = KernelStorageFiller::Allocate<T>(storage_, count);
    for (uint64_t i = 0; i < count; ++i) {
      if (!Get(in_, &array[i])) return Truncated(what);
    }
    pointer = array;
    return OkStatus();
  }
  // `min_bytes`: the least each record's fields take in the encoding, so
  // that a corrupt count cannot make it allocate more than the bytes hold.
  template <typename T>
  StatusOr<T*> Records(const T*& pointer, uint64_t count, uint64_t min_bytes,
                       const std::string& what) {
    pointer = nullptr;
    if (count == 0) return static_cast<T*>(nullptr);
    if (count > in_.remaining() / min_bytes) return Truncated(what);
    T* records = KernelStorageFiller::Allocate<T>(storage_, count);
    pointer = records;
    return records;
  }
  template <typename T>
  StatusOr<T*> Struct(const T*& pointer, const char*) {
    T* record = KernelStorageFiller::Allocate<T>(storage_, 1);
    pointer = record;
    return record;
  }
  Status Name(const char*& name) {
    uint32_t length = 0;
    std::string_view text;
    if (!in_.ReadU32(&length) || !in_.ReadRaw(length, &text)) {
      return Truncated("the kernel name");
    }
    name = KernelStorageFiller::SetName(storage_, std::string(text));
    return OkStatus();
  }

 private:
  Status Truncated(const std::string& what) const {
    return Status(PHAL_DATA_LOSS, "serialized KIR kernel ends inside " + what +
                                      " (" + std::to_string(size_) + " bytes)");
  }

  KernelStorage& storage_;
  std::size_t size_;
  ByteReader in_;
};

}  // namespace

std::string EncodeKernel(const KernelStorage& kernel) {
  ByteWriter out;
  out.AddHeader(kMagic, kKirKernelFormatVersion);
  Encoder encoder(out);
  phal_kernel_desc_t desc = kernel.desc();
  (void)kernel_walk::WalkKernel(encoder, desc);
  return out.Take();
}

StatusOr<std::unique_ptr<KernelStorage>> DecodeKernel(std::string_view bytes) {
  std::unique_ptr<KernelStorage> storage = KernelStorageFiller::New();
  Decoder decoder(*storage, bytes);
  uint32_t version = 0;
  if (!decoder.in().ReadHeader(kMagic, &version)) {
    return InvalidArgument("not a serialized KIR kernel (no PKIR magic)");
  }
  if (version != kKirKernelFormatVersion) {
    return InvalidArgument("serialized KIR kernel of format version " +
                           std::to_string(version) + "; this library reads " +
                           std::to_string(kKirKernelFormatVersion));
  }
  phal_kernel_desc_t& desc = KernelStorageFiller::desc(*storage);
  desc.struct_size = sizeof(phal_kernel_desc_t);
  PHAL_RETURN_IF_ERROR(kernel_walk::WalkKernel(decoder, desc));
  if (!decoder.in().at_end()) {
    return Status(PHAL_DATA_LOSS, "serialized KIR kernel " + storage->name() +
                                      " has " +
                                      std::to_string(decoder.in().remaining()) +
                                      " bytes after its last field");
  }
  return storage;
}

}  // namespace phal
