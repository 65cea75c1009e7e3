// libFuzzer target: any input, split into parts at "// -----" lines as the
// StableHLO tools do, must parse and lower to a module or to an error, never
// crash, hang or leak. A module that lowers is also run through the HLO
// verifier.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/frontend/source_text.h"
#include "core/frontend/stablehlo_parser.h"
#include "core/hlo/verifier.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const phal::SourceText source(text, "fuzz.mlir");
  for (const phal::StableHloPart& part : phal::SplitStableHloParts(text)) {
    phal::StatusOr<phal::StableHloModule> parsed =
        phal::ParseStableHloPart(source, part);
    if (parsed.ok() && parsed->module != nullptr) {
      (void)phal::VerifyModule(*parsed->module);
    }
  }
  return 0;
}
