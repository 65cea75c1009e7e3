// libFuzzer target: any input read as a StableHLO portable artifact must
// become StableHLO text or an error naming a byte offset, never crash, hang
// or leak; text that comes out is lowered, and a lowered module verified.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/frontend/portable_artifact.h"
#include "core/frontend/stablehlo_parser.h"
#include "core/hlo/verifier.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  phal::StatusOr<std::string> text =
      phal::PortableArtifactToStableHlo(bytes, "fuzz.mlirbc");
  if (!text.ok()) return 0;
  phal::StatusOr<phal::StableHloModule> parsed =
      phal::ParseStableHlo(*text, "fuzz.mlirbc");
  if (parsed.ok() && parsed->module != nullptr) {
    (void)phal::VerifyModule(*parsed->module);
  }
  return 0;
}
