// The one byte codec of the project: every serialized format (kernels a
// plugin serializes, KIR, compiled programs, cache entries) is written with
// ByteWriter and read with ByteReader. Fields are appended front to back,
// integers little-endian whatever the host's byte order, strings as a u64
// length and their bytes. A format starts with a header, its magic bytes
// and a u32 version; ByteReader says when the bytes run out, so a reader
// turns truncated or corrupt bytes into a status naming the field, never a
// read past the end.
//
//   ByteWriter out;
//   out.AddHeader("ACMEKRNL", kFormatVersion);
//   out.AddString(BuildIdentity(PHAL_PLUGIN_VERSION));
//   std::string bytes = out.Take();
//
//   ByteReader in(bytes);
//   uint32_t version = 0;
//   std::string_view build;
//   if (!in.ReadHeader("ACMEKRNL", &version) || !in.ReadString(&build)) ...
#ifndef POLYHAL_SDK_BASE_BYTE_CODEC_H_
#define POLYHAL_SDK_BASE_BYTE_CODEC_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace phal {

// The `width` bytes (1 to 8) of `value`, least significant first, appended
// to `out`; and the value of the `width` bytes at `at`, read the same way.
// For formats with fields at fixed offsets; ByteWriter and ByteReader write
// and read fields one after another with them.
inline void AppendLittleEndian(std::string& out, uint64_t value, size_t width) {
  for (size_t i = 0; i < width; ++i) {
    out.push_back(static_cast<char>((value >> (8 * i)) & 0xFF));
  }
}
inline uint64_t LoadLittleEndian(const void* at, size_t width) {
  const auto* bytes = static_cast<const unsigned char*>(at);
  uint64_t value = 0;
  for (size_t i = 0; i < width; ++i) {
    value |= uint64_t{bytes[i]} << (8 * i);
  }
  return value;
}

class ByteWriter {
 public:
  void AddRaw(std::string_view bytes) { bytes_.append(bytes); }
  // The magic bytes of a format, then its version.
  void AddHeader(std::string_view magic, uint32_t version) {
    AddRaw(magic);
    AddU32(version);
  }
  void AddU8(uint8_t value) { AddLittleEndian(value, 1); }
  void AddU32(uint32_t value) { AddLittleEndian(value, 4); }
  void AddU64(uint64_t value) { AddLittleEndian(value, 8); }
  void AddI64(int64_t value) { AddU64(static_cast<uint64_t>(value)); }
  // Any integer or enum, in its own width (1, 2, 4 or 8 bytes).
  template <typename T>
  void AddInteger(T value) {
    static_assert(std::is_integral_v<T> || std::is_enum_v<T>);
    static_assert(sizeof(T) <= 8);
    AddLittleEndian(static_cast<uint64_t>(value), sizeof(T));
  }
  void AddF64(double value) {
    uint64_t bits = 0;
    std::memcpy(&bits, &value, sizeof(bits));
    AddU64(bits);
  }
  void AddString(std::string_view text) {
    AddU64(text.size());
    AddRaw(text);
  }
  // The bytes written so far.
  const std::string& bytes() const { return bytes_; }
  // The bytes written; the writer is empty after.
  std::string Take() { return std::move(bytes_); }

 private:
  void AddLittleEndian(uint64_t value, size_t width) {
    AppendLittleEndian(bytes_, value, width);
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
  bool ReadU8(uint8_t* value) {
    uint64_t wide = 0;
    if (!ReadLittleEndian(1, &wide)) return false;
    *value = static_cast<uint8_t>(wide);
    return true;
  }
  bool ReadI64(int64_t* value) {
    uint64_t bits = 0;
    if (!ReadU64(&bits)) return false;
    *value = static_cast<int64_t>(bits);
    return true;
  }
  // What AddInteger wrote for a T.
  template <typename T>
  bool ReadInteger(T* value) {
    static_assert(std::is_integral_v<T> || std::is_enum_v<T>);
    static_assert(sizeof(T) <= 8);
    uint64_t bits = 0;
    if (!ReadLittleEndian(sizeof(T), &bits)) return false;
    if constexpr (std::is_enum_v<T>) {
      *value = static_cast<T>(
          static_cast<std::make_unsigned_t<std::underlying_type_t<T>>>(bits));
    } else {
      *value = static_cast<T>(static_cast<std::make_unsigned_t<T>>(bits));
    }
    return true;
  }
  bool ReadF64(double* value) {
    uint64_t bits = 0;
    if (!ReadU64(&bits)) return false;
    std::memcpy(value, &bits, sizeof(bits));
    return true;
  }
  // True when the bytes start with `magic`, which is consumed with the
  // version after it; false, reading nothing, on other bytes.
  bool ReadHeader(std::string_view magic, uint32_t* version) {
    const std::string_view rest = bytes_;
    std::string_view found;
    if (!ReadRaw(magic.size(), &found) || found != magic || !ReadU32(version)) {
      bytes_ = rest;
      return false;
    }
    return true;
  }
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
  size_t remaining() const { return bytes_.size(); }

 private:
  bool ReadLittleEndian(size_t width, uint64_t* value) {
    if (bytes_.size() < width) return false;
    *value = LoadLittleEndian(bytes_.data(), width);
    bytes_.remove_prefix(width);
    return true;
  }

  std::string_view bytes_;
};

}  // namespace phal

#endif  // POLYHAL_SDK_BASE_BYTE_CODEC_H_
