// The byte records plugins serialize kernels into (kernel_serialize,
// their disk caches): fields appended front to back, unsigned integers
// little-endian, strings as a u64 length and their bytes. ByteReader reads
// them back and says when the bytes run out, so a plugin turns truncated
// or corrupt bytes into a status naming the field, never a read past the
// end.
//
//   ByteWriter out;
//   out.AddRaw("ACMEKRNL");
//   out.AddU32(kFormatVersion);
//   out.AddString(BuildIdentity(PHAL_PLUGIN_VERSION));
//   std::string bytes = out.Take();
//
//   ByteReader in(bytes);
//   std::string_view build;
//   if (!in.Skip(8) || !in.ReadU32(&format) || !in.ReadString(&build)) ...
#ifndef POLYHAL_SDK_PLUGIN_SUPPORT_SERIALIZED_BYTES_H_
#define POLYHAL_SDK_PLUGIN_SUPPORT_SERIALIZED_BYTES_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

namespace phal {

class ByteWriter {
 public:
  void AddRaw(std::string_view bytes) { bytes_.append(bytes); }
  void AddU32(uint32_t value) { AddLittleEndian(value, 4); }
  void AddU64(uint64_t value) { AddLittleEndian(value, 8); }
  void AddString(std::string_view text) {
    AddU64(text.size());
    AddRaw(text);
  }
  // The bytes written; the writer is empty after.
  std::string Take() { return std::move(bytes_); }

 private:
  void AddLittleEndian(uint64_t value, int width) {
    for (int i = 0; i < width; ++i) {
      bytes_.push_back(static_cast<char>((value >> (8 * i)) & 0xFF));
    }
  }

  std::string bytes_;
};

// Reads a record front to back. Every Read returns false, reading
// nothing, when fewer bytes remain than the field needs. Views point into
// the bytes given to the constructor.
class ByteReader {
 public:
  explicit ByteReader(std::string_view bytes) : bytes_(bytes) {}

  bool ReadRaw(size_t size, std::string_view* out) {
    if (bytes_.size() < size) return false;
    *out = bytes_.substr(0, size);
    bytes_.remove_prefix(size);
    return true;
  }
  bool ReadU32(uint32_t* value) {
    uint64_t wide = 0;
    if (!ReadLittleEndian(4, &wide)) return false;
    *value = static_cast<uint32_t>(wide);
    return true;
  }
  bool ReadU64(uint64_t* value) { return ReadLittleEndian(8, value); }
  bool ReadString(std::string_view* text) {
    std::string_view rest = bytes_;
    uint64_t size = 0;
    if (!ReadU64(&size) || bytes_.size() < size) {
      bytes_ = rest;
      return false;
    }
    return ReadRaw(static_cast<size_t>(size), text);
  }
  bool at_end() const { return bytes_.empty(); }

 private:
  bool ReadLittleEndian(size_t width, uint64_t* value) {
    if (bytes_.size() < width) return false;
    uint64_t result = 0;
    for (size_t i = 0; i < width; ++i) {
      result |= uint64_t{static_cast<unsigned char>(bytes_[i])} << (8 * i);
    }
    bytes_.remove_prefix(width);
    *value = result;
    return true;
  }

  std::string_view bytes_;
};

}  // namespace phal

#endif  // POLYHAL_SDK_PLUGIN_SUPPORT_SERIALIZED_BYTES_H_
