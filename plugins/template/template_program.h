// Whole programs (ABI 1.13): the template takes the core's KIR graph of a
// program, or of the parts of one it accepts, and runs its kernels one
// after another with the SDK's KIR interpreter on host memory, in one
// launch. It is the shape of the whole-program slots at their simplest:
// PHAL_TEMPLATE_MODE=program turns them on (the default, kernels, reads no
// program format, so the core hands over kernels only), and
// PHAL_TEMPLATE_DECLINE=opcode,opcode,... names HLO opcodes it refuses, so
// that the core runs those as kernels and the rest as parts.
// TODO(vendor): hand the graph (or the HLO text) to your graph compiler:
// keep values on chip across kernels, schedule transfers over the whole
// part, fuse as your hardware likes.
#ifndef POLYHAL_PLUGINS_TEMPLATE_TEMPLATE_PROGRAM_H_
#define POLYHAL_PLUGINS_TEMPLATE_TEMPLATE_PROGRAM_H_

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "polyhal/plugin.h"
#include "sdk/base/status.h"
#include "sdk/kir_interpreter/kir_interpreter.h"

namespace phal::template_plugin {

// A compiled part: deep copies of its kernels, constants and bindings.
// Immutable once made; Run may be called from several streams at once.
class Program {
 public:
  static StatusOr<std::unique_ptr<Program>> Create(
      const phal_program_desc_t& desc);
  // Rebuilds a program from Serialize's bytes.
  static StatusOr<std::unique_ptr<Program>> Deserialize(std::string_view bytes);
  // Whether `bytes` start as Serialize's do.
  static bool IsProgram(std::string_view bytes);

  const std::string& name() const { return name_; }
  uint32_t buffer_count() const {
    return static_cast<uint32_t>(buffer_bytes_.size());
  }
  uint64_t BufferByteSize(uint32_t index) const { return buffer_bytes_[index]; }

  // Runs the part once: buffers[i] is the host address of launch buffer i
  // (the parameters, then the results).
  Status Run(std::span<uint8_t* const> buffers) const;
  std::string Serialize() const;

 private:
  struct Value {
    uint32_t kind = 0;
    uint32_t parameter = 0;
    uint64_t byte_size = 0;
    std::vector<uint8_t> constant;
  };
  Status Check() const;

  std::string name_;
  uint32_t parameter_count_ = 0;
  std::vector<uint64_t> buffer_bytes_;
  std::vector<Value> values_;
  std::vector<kir_interpreter::Kernel> kernels_;
  std::vector<std::vector<uint32_t>> bindings_;
  std::vector<uint32_t> results_;
};

}  // namespace phal::template_plugin

#endif  // POLYHAL_PLUGINS_TEMPLATE_TEMPLATE_PROGRAM_H_
