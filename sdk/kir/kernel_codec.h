// The canonical byte encoding of a KIR kernel, the one a plugin's
// kernel_serialize uses when it keeps KIR (the KIR interpreter does). Written
// with ByteWriter (sdk/base/byte_codec.h): the magic "PKIR" and a u32
// format version, then every field of the description front to back, in
// the order of the walk kernel_walk.h defines, integers and enums
// little-endian whatever the host's byte order, the name as a u32 length
// and its bytes.
//
// Decoding checks every count against the bytes that remain before it
// allocates, so truncated or corrupt bytes give a status naming the field,
// never a read past the end; like KernelStorage::Copy it does not validate
// the kernel's semantics (CheckKernelStructure does).
#ifndef POLYHAL_SDK_KIR_KERNEL_CODEC_H_
#define POLYHAL_SDK_KIR_KERNEL_CODEC_H_

#include <memory>
#include <string>
#include <string_view>

#include "sdk/base/status.h"
#include "sdk/kir/kernel_storage.h"

namespace phal {

// Bumped whenever the walk or the encoding of a field changes.
inline constexpr uint32_t kKirKernelFormatVersion = 1;

std::string EncodeKernel(const KernelStorage& kernel);

// INVALID_ARGUMENT for bytes without the magic or of another format
// version; DATA_LOSS naming the field for bytes that end inside it or go on
// after the last one.
StatusOr<std::unique_ptr<KernelStorage>> DecodeKernel(std::string_view bytes);

}  // namespace phal

#endif  // POLYHAL_SDK_KIR_KERNEL_CODEC_H_
