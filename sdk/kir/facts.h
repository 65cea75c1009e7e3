// Facts about the kernel IR (polyhal/kernel.h) that the core, the emitter
// toolkits and the plugins share: the spelling of node ops and kernel kinds,
// how many operands each op takes, the ABI version that brought each op,
// and the structural checks that make a
// kernel description safe to read (buffer indices in range, valid element
// types, bodies in topological order, the result counts each kind needs).
//
// Every function is pure and thread-safe. The checks read only what the
// kernel description points at, during the call.
#ifndef POLYHAL_SDK_KIR_FACTS_H_
#define POLYHAL_SDK_KIR_FACTS_H_

#include <cstdint>
#include <cstring>
#include <string_view>

#include "polyhal/kernel.h"
#include "sdk/base/status.h"

namespace phal {

// The shape of an op's operand list.
enum class KirOpClass {
  kUnknown,  // not an op of this ABI (a newer one, or garbage)
  kLeaf,     // CONSTANT, INDEX, PARAMETER: none; READ: one per buffer dim
  kUnary,
  kBinary,
  kTernary,
};

// The number stored in an enum field of a kernel description, read without
// loading it as the enum: a kernel from a newer ABI, or decoded bytes, may
// hold a value outside it.
template <typename Enum>
uint32_t EnumValue(const Enum& field) {
  static_assert(sizeof(Enum) == sizeof(uint32_t), "ABI enums are 32-bit");
  uint32_t value;
  std::memcpy(&value, &field, sizeof(value));
  return value;
}

// The spelling of the text dump (docs/kernel-ir.md) and of messages: "add",
// "read", "round_nearest_even", ...; "invalid" for a value that is not a
// phal_kir_op_t of this ABI. Any 32-bit value is safe to pass, as the enum
// or as the number EnumValue reads.
const char* KirOpName(phal_kir_op_t op);
const char* KirOpName(uint32_t op);
KirOpClass KirOpClassOf(phal_kir_op_t op);
KirOpClass KirOpClassOf(uint32_t op);

// The ABI version (PHAL_MAKE_VERSION) that appended `op` to phal_kir_op_t:
// 1.1 for the first ops, 1.2 for erf; 0 for a value that is not an op of
// this ABI. A kernel using an op needs a plugin that negotiated at least its
// version. Any 32-bit value is safe to pass.
uint32_t KirOpAbiVersion(phal_kir_op_t op);
uint32_t KirOpAbiVersion(uint32_t op);

// The operands an op of `op_class` takes: 1, 2 or 3 for unary, binary and
// ternary ops; 0 for leaves (of which READ takes one index per dimension of
// its buffer instead) and for unknown ops.
uint32_t KirOperandCount(KirOpClass op_class);

// "loop", "reduce", "dot", ...; "invalid" for a value that is not a
// phal_kernel_kind_t of this ABI. Any 32-bit value is safe to pass.
const char* KernelKindName(phal_kernel_kind_t kind);
const char* KernelKindName(uint32_t kind);
// The kind as a number, read without loading a value outside the enum into
// it (a kernel from a newer ABI may carry one).
uint32_t KernelKindValue(const phal_kernel_desc_t& kernel);

// The ABI version (PHAL_MAKE_VERSION) that appended `kind` to
// phal_kernel_kind_t: 1.1 for the first kinds, 1.6 for fft, 1.14 for
// linalg; 0 for a value
// that is not a kind of this ABI. A kernel of a kind needs a plugin that
// negotiated at least its version. Any 32-bit value is safe to pass.
uint32_t KernelKindAbiVersion(phal_kernel_kind_t kind);
uint32_t KernelKindAbiVersion(uint32_t kind);

// "FFT", "IFFT", "RFFT", "IRFFT" (StableHLO's spelling, as the text dump
// writes them); "invalid" for a value that is not a phal_kir_fft_type_t of
// this ABI. Any 32-bit value is safe to pass.
const char* KirFftTypeName(phal_kir_fft_type_t type);
const char* KirFftTypeName(uint32_t type);

// "cholesky", "triangular-solve", "lu", "qr", "householder-product",
// "eigh", "svd" (the HLO op names), and "NO_TRANSPOSE", "TRANSPOSE",
// "ADJOINT" (XLA's transpose_a); "invalid" for a value outside the enum.
const char* KirLinalgOpName(uint32_t op);
const char* KirTransposeName(uint32_t transpose);

// UNIMPLEMENTED ("kernel kind 9 is not implemented by the LLVM emitter")
// unless the kernel's kind has its PHAL_KERNEL_KIND_BIT in
// `supported_kinds`. `implementer` names who lacks it.
Status CheckKernelKind(const phal_kernel_desc_t& kernel,
                       uint64_t supported_kinds, std::string_view implementer);

// INVALID_ARGUMENT, naming the kernel and the buffer, body, node or member
// at fault, unless the kernel of a known kind is well-formed: its
// description and arrays are present; its buffers have valid element types
// and non-negative dimensions; every buffer index it names exists; every
// body is well-formed (CheckKirBody) and yields the results its kind needs,
// of the types of the buffers they are written to; dimension numbers lie
// inside the ranks they index. UNIMPLEMENTED for a node op of a newer ABI.
// What a kind leaves to the implementation (for instance the iteration
// space an INDEX node names) is not checked here.
Status CheckKernelStructure(const phal_kernel_desc_t& kernel);

// One body of `kernel`, named `body_name` in messages ("epilogue node 4 uses
// node 7, which does not come before it"): valid element types, operand
// ranges inside the operand array, operands before the node that uses them,
// each op's operand count, READ nodes naming an existing buffer of their
// type with one index per dimension, and results naming existing nodes.
Status CheckKirBody(const phal_kernel_desc_t& kernel,
                    const phal_kir_body_t& body, std::string_view body_name);

// Bytes of `buffer` (a buffer of a kernel that passed CheckKernelStructure):
// its elements times its element type's storage size.
uint64_t BufferByteSize(const phal_kir_buffer_t& buffer);

}  // namespace phal

#endif  // POLYHAL_SDK_KIR_FACTS_H_
