// The bytes of a serialized executable (phal_executable_serialize): what
// the executor needs to run a program on a device of the plugin that
// compiled it, without the HLO or the KIR. All integers little-endian:
//
//   PHAL_SERIALIZED_EXECUTABLE_MAGIC (8 bytes) | u32 format version |
//   header: plugin name | plugin release | target | device name |
//   program: entry | replica count | partition count | parameter shapes |
//            result shapes | constants (shape + bytes) | process ops (each
//            a module in HLO text) | offloaded parts (name + computation) |
//            computations (leaves, slots, steps) |
//   kernels: name + the plugin's kernel_serialize bytes, per kernel of the
//            plan, then per offloaded part (no bytes: the plugin declined
//            it, or a kernel only such a part runs) |
//   u64 FNV-1a of every byte before it
//
// Strings and byte runs are a u64 length and the bytes; lists a u64 count
// and the elements. Reading is bounds-checked throughout, the checksum
// catches corruption, and the plan is checked for every index the executor
// follows, so a truncated or corrupt file is an error status, never a
// crash. The format is not a security boundary: as with a shared library,
// the kernels' device code runs as written.
#ifndef POLYHAL_CORE_EXECUTOR_SERIALIZED_PROGRAM_H_
#define POLYHAL_CORE_EXECUTOR_SERIALIZED_PROGRAM_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/compiler/program.h"
#include "sdk/base/status.h"

namespace phal {

// Bumped whenever the layout above or the meaning of Program changes; a
// reader accepts only its own version.
inline constexpr uint32_t kSerializedProgramFormatVersion = 5;

// Who compiled the executable, and for what.
struct SerializedProgramHeader {
  std::string plugin;          // the plugin's name, e.g. "cpu"
  std::string plugin_version;  // its release
  std::string target;          // the compile-only device's target, or ""
  std::string device;          // the name of the device compiled for
};

// One kernel as its plugin's kernel_serialize returned it.
struct SerializedKernel {
  std::string name;
  std::string bytes;
};

struct SerializedProgram {
  SerializedProgramHeader header;
  // The plan; its `kernels` is empty: kernels[i] is the plan's kernel i.
  std::unique_ptr<Program> program;
  std::vector<SerializedKernel> kernels;
};

// The bytes of `program`'s plan (its KIR kernels are left out) with
// `kernels`, one per kernel of the plan.
std::string WriteSerializedProgram(
    const SerializedProgramHeader& header, const Program& program,
    const std::vector<SerializedKernel>& kernels);

// Reads WriteSerializedProgram's bytes: INVALID_ARGUMENT for bytes that are
// not a serialized executable, FAILED_PRECONDITION for another format
// version, DATA_LOSS for truncated or corrupt bytes or a plan whose indices
// do not hold together.
StatusOr<SerializedProgram> ReadSerializedProgram(std::string_view bytes);

}  // namespace phal

#endif  // POLYHAL_CORE_EXECUTOR_SERIALIZED_PROGRAM_H_
