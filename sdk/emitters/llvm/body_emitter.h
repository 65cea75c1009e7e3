// Emits the scalar computation of a KIR body (kernel.h) as LLVM IR at the
// builder's insertion point, with the semantics of the StableHLO ops the
// nodes are named after.
#ifndef POLYHAL_SDK_EMITTERS_LLVM_BODY_EMITTER_H_
#define POLYHAL_SDK_EMITTERS_LLVM_BODY_EMITTER_H_

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include <llvm/IR/IRBuilder.h>

#include "polyhal/kernel.h"
#include "sdk/base/element_types.h"
#include "sdk/base/status.h"
#include "sdk/kir/facts.h"

namespace phal::llvm_emitter {

// A value of a KIR element type as IR computes it: pred is i1, integers are
// iN, f16/bf16/f32 are `float` (16-bit types hold values exactly
// representable in them: every node rounds its result), f64 is `double`.
// Complex values carry their imaginary part in `imag`; it is null otherwise.
struct IrValue {
  llvm::Value* real = nullptr;
  llvm::Value* imag = nullptr;
};

// A kernel buffer as emitted code sees it: its description and the IR value
// of its base address.
struct BoundBuffer {
  const phal_kir_buffer_t* desc;
  llvm::Value* base;
};

class BodyEmitter {
 public:
  // The index along one dimension of the body's iteration space, as i64.
  using IndexSource = std::function<llvm::Value*(int64_t dimension)>;

  // `half_conversions`: f32 rounds to f16 through LLVM's `half` type
  // (ModuleTarget::HasHalfConversions).
  BodyEmitter(llvm::IRBuilder<>& builder, std::span<const BoundBuffer> buffers,
              bool half_conversions = false)
      : builder_(builder),
        buffers_(buffers),
        half_conversions_(half_conversions) {}

  // Emits `body`, which belongs to a kernel that passed
  // CheckKernelStructure (sdk/kir/facts.h), and returns its results in
  // order. INDEX nodes ask `index`; PARAMETER i is parameters[i]. Fails with
  // UNIMPLEMENTED naming the op and element type the emitter does not
  // support, or INVALID_ARGUMENT for an INDEX or PARAMETER the caller does
  // not provide.
  StatusOr<std::vector<IrValue>> Emit(const phal_kir_body_t& body,
                                      const IndexSource& index,
                                      std::span<const IrValue> parameters);

  // The IR type of one scalar (or complex component) of `type`.
  llvm::Type* ComputeType(phal_element_type_t type) const;
  // Address of element `linear_index` of buffer `buffer`.
  llvm::Value* ElementAddress(uint32_t buffer, llvm::Value* linear_index);
  IrValue Load(phal_element_type_t type, llvm::Value* address);
  void Store(phal_element_type_t type, IrValue value, llvm::Value* address);
  // `value` of type `from` as type `to` (StableHLO convert).
  StatusOr<IrValue> Convert(IrValue value, phal_element_type_t from,
                            phal_element_type_t to);

 private:
  struct NodeContext;

  bool IsReadOnly(llvm::Value* address) const;
  llvm::LoadInst* LoadElement(bool read_only, llvm::Type* type,
                              llvm::Value* address);

  StatusOr<IrValue> EmitNode(const NodeContext& node);
  StatusOr<IrValue> EmitLeaf(const NodeContext& node);
  StatusOr<IrValue> EmitUnary(const NodeContext& node);
  StatusOr<IrValue> EmitBinary(const NodeContext& node);
  StatusOr<IrValue> EmitFloatUnary(phal_kir_op_t op, phal_element_type_t type,
                                   llvm::Value* x);
  StatusOr<IrValue> EmitIntegerUnary(phal_kir_op_t op, phal_element_type_t type,
                                     llvm::Value* x);
  StatusOr<IrValue> EmitComplexUnary(phal_kir_op_t op, phal_element_type_t type,
                                     IrValue x);
  StatusOr<IrValue> EmitFloatBinary(phal_kir_op_t op, phal_element_type_t type,
                                    llvm::Value* x, llvm::Value* y);
  StatusOr<IrValue> EmitIntegerBinary(phal_kir_op_t op,
                                      phal_element_type_t type, llvm::Value* x,
                                      llvm::Value* y);
  StatusOr<IrValue> EmitPredBinary(phal_kir_op_t op, llvm::Value* x,
                                   llvm::Value* y);
  StatusOr<IrValue> EmitComplexBinary(phal_kir_op_t op,
                                      phal_element_type_t type, IrValue x,
                                      IrValue y);
  StatusOr<IrValue> EmitCompare(const NodeContext& node, IrValue x, IrValue y);
  StatusOr<IrValue> EmitBitcastConvert(IrValue value, phal_element_type_t from,
                                       phal_element_type_t to);
  StatusOr<IrValue> EmitReducePrecision(const NodeContext& node, IrValue x);
  IrValue EmitConstant(const phal_kir_node_t& node);
  StatusOr<IrValue> EmitRead(const NodeContext& node);

  // Rounds a float result to its 16-bit type; other types pass through.
  llvm::Value* RoundTo(phal_element_type_t type, llvm::Value* value);
  // f16 and bf16 conversions in integer and float arithmetic the loop
  // vectorizer can widen (no calls): an f16's i16 bits to its f32 value;
  // an f32 to the i16 bits of the nearest f16 or bf16 (to nearest even;
  // NaNs keep their sign and leading payload bits, made quiet).
  llvm::Value* HalfBitsToFloat(llvm::Value* bits);
  llvm::Value* FloatToHalfBits(llvm::Value* value);
  llvm::Value* FloatToBFloat16Bits(llvm::Value* value);
  llvm::Value* Maximum(llvm::Value* x, llvm::Value* y);
  llvm::Value* Minimum(llvm::Value* x, llvm::Value* y);
  llvm::Value* TotalOrderKey(llvm::Value* x);
  llvm::Value* CallMath(const char* name, phal_element_type_t type,
                        std::span<llvm::Value* const> arguments);
  llvm::Value* CallRuntime(const char* name, llvm::Type* result,
                           std::span<llvm::Value* const> arguments);
  llvm::Value* LexicographicLess(IrValue x, IrValue y);
  IrValue SelectComplex(llvm::Value* predicate, IrValue on_true,
                        IrValue on_false);
  IrValue CallComplexRuntime(const char* name, phal_element_type_t type,
                             std::span<const IrValue> arguments);
  llvm::Value* ToBits(IrValue value, phal_element_type_t type);
  IrValue FromBits(llvm::Value* bits, phal_element_type_t type);

  llvm::IRBuilder<>& builder_;
  std::span<const BoundBuffer> buffers_;
  bool half_conversions_;
  std::vector<IrValue> values_;
};

}  // namespace phal::llvm_emitter

#endif  // POLYHAL_SDK_EMITTERS_LLVM_BODY_EMITTER_H_
