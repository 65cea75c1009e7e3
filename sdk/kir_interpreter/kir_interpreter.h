// The KIR interpreter: runs any kernel of the kernel IR
// (polyhal/kernel.h) on host memory, every kind and node op on every
// element type, with the results of the core's reference interpreter (the
// StableHLO semantics it implements, bit for bit: integers, pred and data
// movement exactly; real floats computed in double and rounded once to the
// element type; complex values in std::complex<double>; reductions, dot and
// convolution accumulated in the order the reference uses).
//
// A new plugin links it to run the kernels it does not compile yet: its
// kernel_emit keeps a Kernel (Kernel::Create), its launch calls Run with the
// host addresses of the bound buffers, and kernel_serialize/deserialize use
// Serialize and Deserialize.
//
// Kernels are validated when created: buffer indices in range, operands in
// topological order, READ ranks and types, parameter and result counts and
// types per kind, element types and node ops the interpreter defines.
// Malformed KIR gets an error status naming the kernel, the body and the
// node (%index and op) at fault; it never crashes the process, and a READ
// index out of bounds at run time is an OUT_OF_RANGE status, never a wild
// read.
#ifndef POLYHAL_SDK_KIR_INTERPRETER_KIR_INTERPRETER_H_
#define POLYHAL_SDK_KIR_INTERPRETER_KIR_INTERPRETER_H_

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "polyhal/kernel.h"
#include "sdk/base/status.h"

namespace phal::kir_interpreter {

// One kernel, owned and ready to run. Movable, not copyable.
//
// Thread safety: a Kernel is immutable once created. Run, Serialize and the
// accessors are const and may be called from any number of threads at
// once (several streams running one kernel); each Run allocates its own
// scratch memory.
class Kernel {
 public:
  // Validates `desc` and makes a deep copy of everything it points at, so
  // the caller's description (valid only during kernel_emit) may go away.
  // INVALID_ARGUMENT for malformed KIR, UNIMPLEMENTED for a node op or
  // kernel kind unknown to this interpreter or an op not defined for its
  // element type.
  static StatusOr<Kernel> Create(const phal_kernel_desc_t& desc);

  // Rebuilds a kernel from the bytes Serialize produced (by this version of
  // the library or an earlier one with the same format version), validating
  // it as Create does. Bytes that are not such an encoding get
  // INVALID_ARGUMENT (DATA_LOSS for a truncated or padded encoding), never
  // a crash.
  static StatusOr<Kernel> Deserialize(std::string_view bytes);

  Kernel(Kernel&& other) noexcept;
  Kernel& operator=(Kernel&& other) noexcept;
  ~Kernel();

  // The kernel's own description; it and every array it points at live as
  // long as this Kernel.
  const phal_kernel_desc_t& desc() const;
  const std::string& name() const;

  // Bytes buffer `index` must hold (dense, row-major); 0 for an index out
  // of range.
  uint64_t BufferByteSize(uint32_t index) const;

  // Runs the kernel once. buffers[i] is the host address of buffer i of
  // desc(), holding BufferByteSize(i) bytes, in the order of desc().buffers;
  // it needs no particular alignment. A buffer may be bound twice only where
  // kernel.h allows it (an in-place loop output, a scatter's operand and
  // output); outputs overlapping inputs in other ways are staged so the
  // result is still that of reading every input first. Returns
  // INVALID_ARGUMENT for a wrong buffer count and OUT_OF_RANGE for a READ
  // (or a gather or scatter index) out of bounds, naming the kernel and
  // node.
  Status Run(std::span<uint8_t* const> buffers) const;

  // A self-contained byte string (magic, format version, then every field
  // of the description) that Deserialize turns back into this kernel.
  std::string Serialize() const;

 private:
  class Impl;
  explicit Kernel(std::unique_ptr<const Impl> impl);

  std::unique_ptr<const Impl> impl_;
};

}  // namespace phal::kir_interpreter

#endif  // POLYHAL_SDK_KIR_INTERPRETER_KIR_INTERPRETER_H_
