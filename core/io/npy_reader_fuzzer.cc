// libFuzzer target: any bytes must decode as a .npy file to an array literal
// or to an error, never crash, hang, leak or allocate more than the input
// describes. An array that decodes must encode, and the encoded file must
// decode and encode again to the same bytes.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "core/io/npy.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  phal::StatusOr<phal::Literal> literal = phal::DecodeNpy(bytes, "fuzz.npy");
  if (!literal.ok()) return 0;
  phal::StatusOr<std::string> encoded = phal::EncodeNpy(*literal);
  if (!encoded.ok()) std::abort();
  phal::StatusOr<phal::Literal> decoded = phal::DecodeNpy(*encoded, "encoded");
  if (!decoded.ok()) std::abort();
  phal::StatusOr<std::string> reencoded = phal::EncodeNpy(*decoded);
  if (!reencoded.ok() || *reencoded != *encoded) std::abort();
  return 0;
}
