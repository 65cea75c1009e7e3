// libFuzzer target: any input must parse to a module or to an error, never
// crash; a module that parses and verifies must print to text that parses
// back to an identical module.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>

#include "core/frontend/hlo_parser.h"
#include "core/hlo/printer.h"
#include "core/hlo/verifier.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  phal::StatusOr<std::unique_ptr<phal::HloModule>> module =
      phal::ParseHloText(text, "fuzz.hlo");
  if (!module.ok() || !phal::VerifyModule(**module).ok()) return 0;
  const std::string printed = phal::HloModuleToText(**module);
  phal::StatusOr<std::unique_ptr<phal::HloModule>> reparsed =
      phal::ParseHloText(printed, "printed.hlo");
  if (!reparsed.ok() || !(*module)->Identical(**reparsed)) std::abort();
  return 0;
}
