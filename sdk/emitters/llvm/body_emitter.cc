#include "sdk/emitters/llvm/body_emitter.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <string>

#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/Module.h>

#include "sdk/base/float16.h"
#include "sdk/emitters/llvm/inline_math.h"

namespace phal::llvm_emitter {

namespace {

bool IsNarrowFloat(phal_element_type_t type) {
  return type == PHAL_ELEMENT_TYPE_F16 || type == PHAL_ELEMENT_TYPE_BF16;
}

bool IsInteger(phal_element_type_t type) {
  return IsSigned(type) || IsUnsigned(type);
}

unsigned IntegerBits(phal_element_type_t type) {
  return type == PHAL_ELEMENT_TYPE_PRED
             ? 1
             : static_cast<unsigned>(StorageBytes(type) * 8);
}

// The real type of a complex type's parts.
phal_element_type_t ComponentType(phal_element_type_t type) {
  return type == PHAL_ELEMENT_TYPE_C128 ? PHAL_ELEMENT_TYPE_F64
                                        : PHAL_ELEMENT_TYPE_F32;
}

Status Unsupported(phal_kir_op_t op, phal_element_type_t type) {
  return Unimplemented(std::string("the LLVM emitter does not implement ") +
                       KirOpName(op) + " on " + ElementTypeName(type));
}

}  // namespace

// One node being emitted, with its operands already emitted.
struct BodyEmitter::NodeContext {
  const phal_kir_node_t& node;
  std::span<const IrValue> operands;
  std::span<const phal_element_type_t> operand_types;
  const IndexSource& index;
  std::span<const IrValue> parameters;
};

llvm::Type* BodyEmitter::ComputeType(phal_element_type_t type) const {
  llvm::LLVMContext& context = builder_.getContext();
  if (type == PHAL_ELEMENT_TYPE_F64 || type == PHAL_ELEMENT_TYPE_C128) {
    return llvm::Type::getDoubleTy(context);
  }
  if (IsFloat(type) || IsComplex(type)) return llvm::Type::getFloatTy(context);
  return llvm::Type::getIntNTy(context, IntegerBits(type));
}

llvm::Value* BodyEmitter::ElementAddress(uint32_t buffer,
                                         llvm::Value* linear_index) {
  const phal_element_type_t type = buffers_[buffer].desc->element_type;
  llvm::Type* storage =
      builder_.getIntNTy(static_cast<unsigned>(StorageBytes(type) * 8));
  if (type == PHAL_ELEMENT_TYPE_F32 || type == PHAL_ELEMENT_TYPE_F64) {
    storage = ComputeType(type);
  }
  if (IsComplex(type)) {
    storage = ComputeType(type);
    linear_index = builder_.CreateShl(linear_index, 1);
  }
  return builder_.CreateInBoundsGEP(storage, buffers_[buffer].base,
                                    linear_index);
}

// True when `address` points into a buffer the kernel only reads. Nothing
// writes that memory while the kernel runs (a buffer a kernel writes is its
// own slot, never a second name of one it reads), which `!invariant.load`
// tells LLVM, so that loads of indices and operands can leave loops that
// store elsewhere.
bool BodyEmitter::IsReadOnly(llvm::Value* address) const {
  llvm::Value* base = address;
  for (int depth = 0; depth < 2; ++depth) {
    auto* gep = llvm::dyn_cast<llvm::GetElementPtrInst>(base);
    if (gep == nullptr) break;
    base = gep->getPointerOperand();
  }
  for (const BoundBuffer& buffer : buffers_) {
    if (buffer.base == base) {
      return buffer.desc->access == PHAL_KIR_ACCESS_READ;
    }
  }
  return false;
}

llvm::LoadInst* BodyEmitter::LoadElement(bool read_only, llvm::Type* type,
                                         llvm::Value* address) {
  llvm::LoadInst* load = builder_.CreateLoad(type, address);
  if (read_only) {
    load->setMetadata(llvm::LLVMContext::MD_invariant_load,
                      llvm::MDNode::get(load->getContext(), {}));
  }
  return load;
}

IrValue BodyEmitter::Load(phal_element_type_t type, llvm::Value* address) {
  llvm::Type* compute = ComputeType(type);
  const bool read_only = IsReadOnly(address);
  switch (type) {
    case PHAL_ELEMENT_TYPE_PRED:
      return {builder_.CreateICmpNE(
          LoadElement(read_only, builder_.getInt8Ty(), address),
          builder_.getInt8(0))};
    case PHAL_ELEMENT_TYPE_F16: {
      return {HalfBitsToFloat(
          LoadElement(read_only, builder_.getInt16Ty(), address))};
    }
    case PHAL_ELEMENT_TYPE_BF16: {
      llvm::Value* bits =
          LoadElement(read_only, builder_.getInt16Ty(), address);
      llvm::Value* wide = builder_.CreateShl(
          builder_.CreateZExt(bits, builder_.getInt32Ty()), 16);
      return {builder_.CreateBitCast(wide, compute)};
    }
    case PHAL_ELEMENT_TYPE_C64:
    case PHAL_ELEMENT_TYPE_C128: {
      llvm::Value* imag_address =
          builder_.CreateConstInBoundsGEP1_64(compute, address, 1);
      return {LoadElement(read_only, compute, address),
              LoadElement(read_only, compute, imag_address)};
    }
    default:
      return {LoadElement(read_only, compute, address)};
  }
}

void BodyEmitter::Store(phal_element_type_t type, IrValue value,
                        llvm::Value* address) {
  llvm::Type* compute = ComputeType(type);
  switch (type) {
    case PHAL_ELEMENT_TYPE_PRED:
      builder_.CreateStore(
          builder_.CreateZExt(value.real, builder_.getInt8Ty()), address);
      return;
    case PHAL_ELEMENT_TYPE_F16:
      builder_.CreateStore(FloatToHalfBits(value.real), address);
      return;
    case PHAL_ELEMENT_TYPE_BF16: {
      // The value is an exact bf16 already: its low 16 bits are zero.
      llvm::Value* bits =
          builder_.CreateBitCast(value.real, builder_.getInt32Ty());
      builder_.CreateStore(builder_.CreateTrunc(builder_.CreateLShr(bits, 16),
                                                builder_.getInt16Ty()),
                           address);
      return;
    }
    case PHAL_ELEMENT_TYPE_C64:
    case PHAL_ELEMENT_TYPE_C128:
      builder_.CreateStore(value.real, address);
      builder_.CreateStore(
          value.imag, builder_.CreateConstInBoundsGEP1_64(compute, address, 1));
      return;
    default:
      builder_.CreateStore(value.real, address);
  }
}

llvm::Value* BodyEmitter::CallRuntime(const char* name, llvm::Type* result,
                                      std::span<llvm::Value* const> arguments) {
  std::vector<llvm::Type*> parameter_types;
  for (llvm::Value* argument : arguments) {
    parameter_types.push_back(argument->getType());
  }
  llvm::Module* module = builder_.GetInsertBlock()->getModule();
  llvm::FunctionCallee callee = module->getOrInsertFunction(
      name, llvm::FunctionType::get(result, parameter_types, false));
  if (auto* function = llvm::dyn_cast<llvm::Function>(callee.getCallee())) {
    function->setDoesNotThrow();
    function->setWillReturn();
    if (!result->isVoidTy()) function->setDoesNotAccessMemory();
  }
  return builder_.CreateCall(
      callee, llvm::ArrayRef(arguments.data(), arguments.size()));
}

llvm::Value* BodyEmitter::CallMath(const char* name, phal_element_type_t type,
                                   std::span<llvm::Value* const> arguments) {
  const bool wide = type == PHAL_ELEMENT_TYPE_F64;
  const std::string symbol =
      std::string("phal_math_") + name + (wide ? "_f64" : "_f32");
  return RoundTo(type,
                 CallRuntime(symbol.c_str(), ComputeType(type), arguments));
}

IrValue BodyEmitter::CallComplexRuntime(const char* name,
                                        phal_element_type_t type,
                                        std::span<const IrValue> arguments) {
  llvm::Type* f64 = builder_.getDoubleTy();
  std::vector<llvm::Value*> widened;
  for (const IrValue& argument : arguments) {
    widened.push_back(builder_.CreateFPExt(argument.real, f64));
    widened.push_back(builder_.CreateFPExt(argument.imag, f64));
  }
  // The result slot lives in the entry block, so loops reuse one slot.
  llvm::Function* function = builder_.GetInsertBlock()->getParent();
  llvm::IRBuilder<> entry(&function->getEntryBlock(),
                          function->getEntryBlock().begin());
  llvm::Value* out = entry.CreateAlloca(f64, builder_.getInt32(2));
  widened.push_back(out);
  std::vector<llvm::Type*> parameter_types;
  for (llvm::Value* argument : widened) {
    parameter_types.push_back(argument->getType());
  }
  llvm::Module* module = builder_.GetInsertBlock()->getModule();
  llvm::FunctionCallee callee = module->getOrInsertFunction(
      std::string("phal_rt_complex_") + name,
      llvm::FunctionType::get(builder_.getVoidTy(), parameter_types, false));
  builder_.CreateCall(callee, widened);
  llvm::Type* component = ComputeType(type);
  llvm::Value* real = builder_.CreateLoad(f64, out);
  llvm::Value* imag = builder_.CreateLoad(
      f64, builder_.CreateConstInBoundsGEP1_64(f64, out, 1));
  return {builder_.CreateFPTrunc(real, component),
          builder_.CreateFPTrunc(imag, component)};
}

llvm::Value* BodyEmitter::RoundTo(phal_element_type_t type,
                                  llvm::Value* value) {
  if (type == PHAL_ELEMENT_TYPE_F16) {
    return HalfBitsToFloat(FloatToHalfBits(value));
  }
  if (type == PHAL_ELEMENT_TYPE_BF16) {
    return builder_.CreateBitCast(
        builder_.CreateShl(builder_.CreateZExt(FloatToBFloat16Bits(value),
                                               builder_.getInt32Ty()),
                           16),
        builder_.getFloatTy());
  }
  return value;
}

llvm::Value* BodyEmitter::HalfBitsToFloat(llvm::Value* bits) {
  llvm::Type* i32 = builder_.getInt32Ty();
  const auto constant = [&](uint32_t value) {
    return llvm::ConstantInt::get(i32, value);
  };
  llvm::Value* h = builder_.CreateZExt(bits, i32);
  llvm::Value* sign = builder_.CreateShl(builder_.CreateAnd(h, 0x8000), 16);
  llvm::Value* magnitude = builder_.CreateAnd(h, 0x7FFF);
  llvm::Value* mantissa = builder_.CreateAnd(h, 0x3FF);
  // Normal: the exponent rebiased from 15 to 127, the mantissa widened.
  llvm::Value* normal = builder_.CreateAdd(builder_.CreateShl(magnitude, 13),
                                           constant(0x38000000));
  // Infinity and NaN: all ones in the exponent, the mantissa kept.
  llvm::Value* special =
      builder_.CreateOr(builder_.CreateShl(mantissa, 13), constant(0x7F800000));
  // Zero and subnormals: mantissa * 2^-24, exact in f32.
  llvm::Value* tiny = builder_.CreateBitCast(
      builder_.CreateFMul(
          builder_.CreateUIToFP(mantissa, builder_.getFloatTy()),
          llvm::ConstantFP::get(builder_.getFloatTy(), std::ldexp(1.0, -24))),
      i32);
  llvm::Value* result = builder_.CreateSelect(
      builder_.CreateICmpUGE(magnitude, constant(0x7C00)), special,
      builder_.CreateSelect(builder_.CreateICmpULT(magnitude, constant(0x400)),
                            tiny, normal));
  return builder_.CreateBitCast(builder_.CreateOr(sign, result),
                                builder_.getFloatTy());
}

llvm::Value* BodyEmitter::FloatToHalfBits(llvm::Value* value) {
  if (half_conversions_) {
    return builder_.CreateBitCast(
        builder_.CreateFPTrunc(value, builder_.getHalfTy()),
        builder_.getInt16Ty());
  }
  llvm::Type* i32 = builder_.getInt32Ty();
  const auto constant = [&](uint32_t c) {
    return llvm::ConstantInt::get(i32, c);
  };
  llvm::Value* x = builder_.CreateBitCast(value, i32);
  llvm::Value* sign = builder_.CreateAnd(builder_.CreateLShr(x, 16), 0x8000);
  llvm::Value* a = builder_.CreateAnd(x, 0x7FFFFFFF);
  // NaN: quiet, with the leading ten payload bits.
  llvm::Value* nan = builder_.CreateOr(
      builder_.CreateAnd(builder_.CreateLShr(a, 13), 0x3FF), constant(0x7E00));
  // Normal in f16 (from 2^-14): rebias the exponent, round the mantissa's
  // 13 dropped bits to nearest even; a carry moves into the exponent.
  llvm::Value* rebiased = builder_.CreateSub(a, constant(0x38000000));
  llvm::Value* odd = builder_.CreateAnd(builder_.CreateLShr(rebiased, 13), 1);
  llvm::Value* normal = builder_.CreateLShr(
      builder_.CreateAdd(builder_.CreateAdd(rebiased, constant(0xFFF)), odd),
      13);
  // Below 2^-14: adding 0.5 rounds |x| to a multiple of 2^-24 (the spacing
  // of floats in [0.5, 1)), to nearest even; the multiple is the f16's bits.
  llvm::Value* magnitude = builder_.CreateBitCast(a, builder_.getFloatTy());
  llvm::Value* tiny = builder_.CreateSub(
      builder_.CreateBitCast(
          builder_.CreateFAdd(
              magnitude, llvm::ConstantFP::get(builder_.getFloatTy(), 0.5)),
          i32),
      constant(0x3F000000));
  // From 65520 (halfway past the largest f16, rounding to even) up:
  // infinity.
  llvm::Value* result = builder_.CreateSelect(
      builder_.CreateICmpUGT(a, constant(0x7F800000)), nan,
      builder_.CreateSelect(
          builder_.CreateICmpUGE(a, constant(0x477FF000)), constant(0x7C00),
          builder_.CreateSelect(builder_.CreateICmpUGE(a, constant(0x38800000)),
                                normal, tiny)));
  return builder_.CreateTrunc(builder_.CreateOr(sign, result),
                              builder_.getInt16Ty());
}

llvm::Value* BodyEmitter::FloatToBFloat16Bits(llvm::Value* value) {
  llvm::Type* i32 = builder_.getInt32Ty();
  llvm::Value* x = builder_.CreateBitCast(value, i32);
  llvm::Value* upper = builder_.CreateLShr(x, 16);
  // NaN: the upper half, made quiet.
  llvm::Value* nan = builder_.CreateOr(upper, 0x40);
  // Otherwise round the lower half away to nearest even: a carry moves into
  // the exponent, up to infinity.
  llvm::Value* rounded = builder_.CreateLShr(
      builder_.CreateAdd(
          builder_.CreateAdd(x, llvm::ConstantInt::get(i32, 0x7FFF)),
          builder_.CreateAnd(upper, 1)),
      16);
  llvm::Value* is_nan =
      builder_.CreateICmpUGT(builder_.CreateAnd(x, 0x7FFFFFFF),
                             llvm::ConstantInt::get(i32, 0x7F800000));
  return builder_.CreateTrunc(builder_.CreateSelect(is_nan, nan, rounded),
                              builder_.getInt16Ty());
}

// IEEE 754-2019 maximum: NaN propagates, -0 < +0.
llvm::Value* BodyEmitter::Maximum(llvm::Value* x, llvm::Value* y) {
  llvm::Value* larger =
      builder_.CreateSelect(builder_.CreateFCmpOGT(x, y), x, y);
  llvm::Value* x_negative = builder_.CreateICmpSLT(
      builder_.CreateBitCast(
          x, builder_.getIntNTy(x->getType()->getPrimitiveSizeInBits())),
      llvm::ConstantInt::get(
          builder_.getIntNTy(x->getType()->getPrimitiveSizeInBits()), 0));
  llvm::Value* equal_pick = builder_.CreateSelect(x_negative, y, x);
  llvm::Value* ordered =
      builder_.CreateSelect(builder_.CreateFCmpOEQ(x, y), equal_pick, larger);
  return builder_.CreateSelect(builder_.CreateFCmpUNO(x, y),
                               llvm::ConstantFP::getNaN(x->getType()), ordered);
}

llvm::Value* BodyEmitter::Minimum(llvm::Value* x, llvm::Value* y) {
  llvm::Value* smaller =
      builder_.CreateSelect(builder_.CreateFCmpOLT(x, y), x, y);
  llvm::Value* x_negative = builder_.CreateICmpSLT(
      builder_.CreateBitCast(
          x, builder_.getIntNTy(x->getType()->getPrimitiveSizeInBits())),
      llvm::ConstantInt::get(
          builder_.getIntNTy(x->getType()->getPrimitiveSizeInBits()), 0));
  llvm::Value* equal_pick = builder_.CreateSelect(x_negative, x, y);
  llvm::Value* ordered =
      builder_.CreateSelect(builder_.CreateFCmpOEQ(x, y), equal_pick, smaller);
  return builder_.CreateSelect(builder_.CreateFCmpUNO(x, y),
                               llvm::ConstantFP::getNaN(x->getType()), ordered);
}

// A signed integer ordered as TOTALORDER orders floats:
// -NaN < -inf < ... < -0 < +0 < ... < inf < NaN.
llvm::Value* BodyEmitter::TotalOrderKey(llvm::Value* x) {
  const unsigned bits = x->getType()->getPrimitiveSizeInBits();
  llvm::Type* integer = builder_.getIntNTy(bits);
  llvm::Value* raw = builder_.CreateBitCast(x, integer);
  llvm::Value* sign_fill = builder_.CreateAShr(raw, bits - 1);
  llvm::Value* magnitude_mask = builder_.CreateLShr(sign_fill, 1);
  return builder_.CreateXor(raw, magnitude_mask);
}

llvm::Value* BodyEmitter::ToBits(IrValue value, phal_element_type_t type) {
  switch (type) {
    case PHAL_ELEMENT_TYPE_PRED:
      return builder_.CreateZExt(value.real, builder_.getInt8Ty());
    case PHAL_ELEMENT_TYPE_F16:
      return FloatToHalfBits(value.real);
    case PHAL_ELEMENT_TYPE_BF16:
      return builder_.CreateTrunc(
          builder_.CreateLShr(
              builder_.CreateBitCast(value.real, builder_.getInt32Ty()), 16),
          builder_.getInt16Ty());
    case PHAL_ELEMENT_TYPE_F32:
    case PHAL_ELEMENT_TYPE_F64:
      return builder_.CreateBitCast(
          value.real,
          builder_.getIntNTy(value.real->getType()->getPrimitiveSizeInBits()));
    case PHAL_ELEMENT_TYPE_C64: {
      llvm::Value* real = builder_.CreateZExt(
          builder_.CreateBitCast(value.real, builder_.getInt32Ty()),
          builder_.getInt64Ty());
      llvm::Value* imag = builder_.CreateZExt(
          builder_.CreateBitCast(value.imag, builder_.getInt32Ty()),
          builder_.getInt64Ty());
      return builder_.CreateOr(real, builder_.CreateShl(imag, 32));
    }
    default:
      return value.real;
  }
}

IrValue BodyEmitter::FromBits(llvm::Value* bits, phal_element_type_t type) {
  switch (type) {
    case PHAL_ELEMENT_TYPE_PRED:
      return {builder_.CreateICmpNE(bits, builder_.getInt8(0))};
    case PHAL_ELEMENT_TYPE_F16:
      return {HalfBitsToFloat(bits)};
    case PHAL_ELEMENT_TYPE_BF16:
      return {builder_.CreateBitCast(
          builder_.CreateShl(builder_.CreateZExt(bits, builder_.getInt32Ty()),
                             16),
          builder_.getFloatTy())};
    case PHAL_ELEMENT_TYPE_F32:
    case PHAL_ELEMENT_TYPE_F64:
      return {builder_.CreateBitCast(bits, ComputeType(type))};
    case PHAL_ELEMENT_TYPE_C64: {
      llvm::Value* real = builder_.CreateTrunc(bits, builder_.getInt32Ty());
      llvm::Value* imag = builder_.CreateTrunc(builder_.CreateLShr(bits, 32),
                                               builder_.getInt32Ty());
      return {builder_.CreateBitCast(real, builder_.getFloatTy()),
              builder_.CreateBitCast(imag, builder_.getFloatTy())};
    }
    default:
      return {bits};
  }
}

StatusOr<IrValue> BodyEmitter::Convert(IrValue value, phal_element_type_t from,
                                       phal_element_type_t to) {
  if (from == to) return value;
  llvm::Type* target = ComputeType(to);
  if (to == PHAL_ELEMENT_TYPE_PRED) {
    if (IsComplex(from)) {
      llvm::Value* zero = llvm::ConstantFP::get(value.real->getType(), 0.0);
      return IrValue{
          builder_.CreateOr(builder_.CreateFCmpUNE(value.real, zero),
                            builder_.CreateFCmpUNE(value.imag, zero))};
    }
    if (IsFloat(from)) {
      return IrValue{builder_.CreateFCmpUNE(
          value.real, llvm::ConstantFP::get(value.real->getType(), 0.0))};
    }
    return IrValue{builder_.CreateICmpNE(
        value.real, llvm::ConstantInt::get(value.real->getType(), 0))};
  }
  if (IsComplex(to)) {
    const phal_element_type_t component = ComponentType(to);
    if (IsComplex(from)) {
      PHAL_ASSIGN_OR_RETURN(
          IrValue real, Convert({value.real}, ComponentType(from), component));
      PHAL_ASSIGN_OR_RETURN(
          IrValue imag, Convert({value.imag}, ComponentType(from), component));
      return IrValue{real.real, imag.real};
    }
    PHAL_ASSIGN_OR_RETURN(IrValue real, Convert(value, from, component));
    return IrValue{real.real, llvm::ConstantFP::get(target, 0.0)};
  }
  if (IsComplex(from)) return Convert({value.real}, ComponentType(from), to);
  const bool from_signed = IsSigned(from);
  if (IsInteger(to)) {
    if (IsFloat(from)) {
      // Saturating, with NaN -> 0, as XLA converts.
      const llvm::Intrinsic::ID id = IsSigned(to) ? llvm::Intrinsic::fptosi_sat
                                                  : llvm::Intrinsic::fptoui_sat;
      return IrValue{builder_.CreateIntrinsic(
          id, {target, value.real->getType()}, {value.real})};
    }
    return IrValue{builder_.CreateIntCast(value.real, target, from_signed)};
  }
  // `to` is a float type.
  if (!IsFloat(from)) {
    if (IsNarrowFloat(to)) {
      // One rounding: every integer up to 53 bits is exact in f64.
      llvm::Value* wide =
          from_signed
              ? builder_.CreateSIToFP(value.real, builder_.getDoubleTy())
              : builder_.CreateUIToFP(value.real, builder_.getDoubleTy());
      return Convert({wide}, PHAL_ELEMENT_TYPE_F64, to);
    }
    return IrValue{from_signed ? builder_.CreateSIToFP(value.real, target)
                               : builder_.CreateUIToFP(value.real, target)};
  }
  if (IsNarrowFloat(to) && value.real->getType()->isFloatTy()) {
    return IrValue{RoundTo(to, value.real)};
  }
  if (IsNarrowFloat(to)) {
    llvm::Value* arguments[] = {value.real};
    const bool from_f64 = from == PHAL_ELEMENT_TYPE_F64;
    const char* name = to == PHAL_ELEMENT_TYPE_F16
                           ? (from_f64 ? "phal_rt_round_f64_to_f16"
                                       : "phal_rt_round_f32_to_f16")
                           : (from_f64 ? "phal_rt_round_f64_to_bf16"
                                       : "phal_rt_round_f32_to_bf16");
    return IrValue{CallRuntime(name, target, arguments)};
  }
  return IrValue{builder_.CreateFPCast(value.real, target)};
}

IrValue BodyEmitter::EmitConstant(const phal_kir_node_t& node) {
  const phal_element_type_t type = node.type;
  llvm::Type* compute = ComputeType(type);
  const uint64_t low = node.constant[0];
  switch (type) {
    case PHAL_ELEMENT_TYPE_F16:
      return {llvm::ConstantFP::get(
          compute, phal::HalfToFloat(static_cast<uint16_t>(low)))};
    case PHAL_ELEMENT_TYPE_BF16:
      return {llvm::ConstantFP::get(
          compute, phal::BFloat16ToFloat(static_cast<uint16_t>(low)))};
    case PHAL_ELEMENT_TYPE_F32:
      return {llvm::ConstantFP::get(
          compute, std::bit_cast<float>(static_cast<uint32_t>(low)))};
    case PHAL_ELEMENT_TYPE_F64:
      return {llvm::ConstantFP::get(compute, std::bit_cast<double>(low))};
    case PHAL_ELEMENT_TYPE_C64:
      return {
          llvm::ConstantFP::get(
              compute, std::bit_cast<float>(static_cast<uint32_t>(low))),
          llvm::ConstantFP::get(
              compute, std::bit_cast<float>(static_cast<uint32_t>(low >> 32)))};
    case PHAL_ELEMENT_TYPE_C128:
      return {llvm::ConstantFP::get(compute, std::bit_cast<double>(low)),
              llvm::ConstantFP::get(compute,
                                    std::bit_cast<double>(node.constant[1]))};
    case PHAL_ELEMENT_TYPE_PRED:
      return {builder_.getInt1((low & 0xFF) != 0)};
    default:
      return {llvm::ConstantInt::get(compute, low)};
  }
}

StatusOr<IrValue> BodyEmitter::EmitRead(const NodeContext& context) {
  const phal_kir_node_t& node = context.node;
  const int64_t buffer = node.attributes[0];
  const phal_kir_buffer_t& desc = *buffers_[static_cast<size_t>(buffer)].desc;
  // Row-major linearisation: Horner's scheme over the dimensions.
  llvm::Value* linear = builder_.getInt64(0);
  for (uint32_t d = 0; d < desc.rank; ++d) {
    linear = builder_.CreateAdd(
        builder_.CreateMul(linear, builder_.getInt64(desc.dims[d])),
        context.operands[d].real);
  }
  return Load(node.type, ElementAddress(static_cast<uint32_t>(buffer), linear));
}

StatusOr<IrValue> BodyEmitter::EmitLeaf(const NodeContext& context) {
  const phal_kir_node_t& node = context.node;
  switch (node.op) {
    case PHAL_KIR_OP_CONSTANT:
      return EmitConstant(node);
    case PHAL_KIR_OP_INDEX: {
      llvm::Value* index =
          context.index ? context.index(node.attributes[0]) : nullptr;
      if (index == nullptr) {
        return InvalidArgument("index " + std::to_string(node.attributes[0]) +
                               " is outside the body's iteration space");
      }
      return IrValue{index};
    }
    case PHAL_KIR_OP_PARAMETER: {
      const int64_t parameter = node.attributes[0];
      if (parameter < 0 ||
          static_cast<size_t>(parameter) >= context.parameters.size()) {
        return InvalidArgument("parameter " + std::to_string(parameter) +
                               " of a body that takes " +
                               std::to_string(context.parameters.size()));
      }
      return context.parameters[static_cast<size_t>(parameter)];
    }
    default:
      return EmitRead(context);
  }
}

StatusOr<IrValue> BodyEmitter::EmitFloatUnary(phal_kir_op_t op,
                                              phal_element_type_t type,
                                              llvm::Value* x) {
  llvm::Type* compute = x->getType();
  llvm::Value* arguments[] = {x};
  auto intrinsic = [&](llvm::Intrinsic::ID id) {
    return IrValue{builder_.CreateUnaryIntrinsic(id, x)};
  };
  switch (op) {
    case PHAL_KIR_OP_ABS:
      return intrinsic(llvm::Intrinsic::fabs);
    case PHAL_KIR_OP_NEGATE:
      return IrValue{builder_.CreateFNeg(x)};
    case PHAL_KIR_OP_SIGN: {
      // NaN -> NaN, +-0 -> +-0, else +-1.
      llvm::Value* zero = llvm::ConstantFP::get(compute, 0.0);
      llvm::Value* unit = builder_.CreateSelect(
          builder_.CreateFCmpOGT(x, zero), llvm::ConstantFP::get(compute, 1.0),
          llvm::ConstantFP::get(compute, -1.0));
      llvm::Value* keep = builder_.CreateFCmpUEQ(x, zero);
      return IrValue{builder_.CreateSelect(keep, x, unit)};
    }
    case PHAL_KIR_OP_FLOOR:
      return intrinsic(llvm::Intrinsic::floor);
    case PHAL_KIR_OP_CEIL:
      return intrinsic(llvm::Intrinsic::ceil);
    case PHAL_KIR_OP_ROUND_NEAREST_AFZ:
      return intrinsic(llvm::Intrinsic::round);
    case PHAL_KIR_OP_ROUND_NEAREST_EVEN:
      return intrinsic(llvm::Intrinsic::roundeven);
    case PHAL_KIR_OP_SQRT:
      return IrValue{RoundTo(
          type, builder_.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, x))};
    case PHAL_KIR_OP_EXP:
      if (compute->isFloatTy()) {
        return IrValue{RoundTo(type, EmitExpF32(builder_, x))};
      }
      return IrValue{CallMath("exp", type, arguments)};
    case PHAL_KIR_OP_EXPM1:
      return IrValue{CallMath("expm1", type, arguments)};
    case PHAL_KIR_OP_LOG:
      return IrValue{CallMath("log", type, arguments)};
    case PHAL_KIR_OP_LOG1P:
      return IrValue{CallMath("log1p", type, arguments)};
    case PHAL_KIR_OP_LOGISTIC:
      if (compute->isFloatTy()) {
        return IrValue{RoundTo(type, EmitLogisticF32(builder_, x))};
      }
      return IrValue{CallMath("logistic", type, arguments)};
    case PHAL_KIR_OP_RSQRT:
      return IrValue{CallMath("rsqrt", type, arguments)};
    case PHAL_KIR_OP_CBRT:
      return IrValue{CallMath("cbrt", type, arguments)};
    case PHAL_KIR_OP_TANH:
      if (compute->isFloatTy()) {
        return IrValue{RoundTo(type, EmitTanhF32(builder_, x))};
      }
      return IrValue{CallMath("tanh", type, arguments)};
    case PHAL_KIR_OP_SIN:
      return IrValue{CallMath("sin", type, arguments)};
    case PHAL_KIR_OP_COS:
      return IrValue{CallMath("cos", type, arguments)};
    case PHAL_KIR_OP_TAN:
      return IrValue{CallMath("tan", type, arguments)};
    case PHAL_KIR_OP_ERF:
      if (compute->isFloatTy()) {
        return IrValue{RoundTo(type, EmitErfF32(builder_, x))};
      }
      return IrValue{CallMath("erf", type, arguments)};
    case PHAL_KIR_OP_IS_FINITE:
      return IrValue{builder_.CreateFCmpOLT(
          builder_.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x),
          llvm::ConstantFP::getInfinity(compute))};
    case PHAL_KIR_OP_REAL:
      return IrValue{x};
    case PHAL_KIR_OP_IMAG:
      return IrValue{llvm::ConstantFP::get(compute, 0.0)};
    default:
      return Unsupported(op, type);
  }
}

StatusOr<IrValue> BodyEmitter::EmitIntegerUnary(phal_kir_op_t op,
                                                phal_element_type_t type,
                                                llvm::Value* x) {
  llvm::Type* compute = x->getType();
  llvm::Value* zero = llvm::ConstantInt::get(compute, 0);
  const bool is_signed = IsSigned(type);
  switch (op) {
    case PHAL_KIR_OP_NOT:
      return IrValue{builder_.CreateNot(x)};
    case PHAL_KIR_OP_POPCNT:
      if (type == PHAL_ELEMENT_TYPE_PRED) break;
      return IrValue{builder_.CreateUnaryIntrinsic(llvm::Intrinsic::ctpop, x)};
    case PHAL_KIR_OP_CLZ:
      if (type == PHAL_ELEMENT_TYPE_PRED) break;
      return IrValue{builder_.CreateBinaryIntrinsic(llvm::Intrinsic::ctlz, x,
                                                    builder_.getFalse())};
    case PHAL_KIR_OP_ABS:
      if (type == PHAL_ELEMENT_TYPE_PRED) break;
      if (!is_signed) return IrValue{x};
      return IrValue{builder_.CreateSelect(builder_.CreateICmpSLT(x, zero),
                                           builder_.CreateNeg(x), x)};
    case PHAL_KIR_OP_NEGATE:
      if (type == PHAL_ELEMENT_TYPE_PRED) break;
      return IrValue{builder_.CreateNeg(x)};
    case PHAL_KIR_OP_SIGN: {
      if (type == PHAL_ELEMENT_TYPE_PRED) break;
      if (!is_signed) {
        return IrValue{
            builder_.CreateZExt(builder_.CreateICmpNE(x, zero), compute)};
      }
      llvm::Value* positive =
          builder_.CreateZExt(builder_.CreateICmpSGT(x, zero), compute);
      llvm::Value* negative =
          builder_.CreateZExt(builder_.CreateICmpSLT(x, zero), compute);
      return IrValue{builder_.CreateSub(positive, negative)};
    }
    default:
      break;
  }
  return Unsupported(op, type);
}

StatusOr<IrValue> BodyEmitter::EmitComplexUnary(phal_kir_op_t op,
                                                phal_element_type_t type,
                                                IrValue x) {
  const phal_element_type_t component = ComponentType(type);
  const IrValue arguments[] = {x};
  auto magnitude = [&] {
    llvm::Type* f64 = builder_.getDoubleTy();
    llvm::Value* wide[] = {builder_.CreateFPExt(x.real, f64),
                           builder_.CreateFPExt(x.imag, f64)};
    if (component != PHAL_ELEMENT_TYPE_F32) {
      return builder_.CreateFPTrunc(CallRuntime("phal_rt_hypot", f64, wide),
                                    ComputeType(component));
    }
    // f32 parts, inline: in double their squares are exact and can neither
    // overflow nor underflow, so sqrt(x^2 + y^2) rounds twice (the sum, the
    // root) where hypot rounds once, both far below the f32 result's ulp.
    // As hypot, an infinite part makes it +inf even beside a NaN.
    llvm::Value* sum =
        builder_.CreateFAdd(builder_.CreateFMul(wide[0], wide[0]),
                            builder_.CreateFMul(wide[1], wide[1]));
    llvm::Value* root =
        builder_.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, sum);
    llvm::Value* infinity =
        llvm::ConstantFP::getInfinity(f64, /*Negative=*/false);
    llvm::Value* infinite = builder_.CreateOr(
        builder_.CreateFCmpOEQ(
            builder_.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, wide[0]),
            infinity),
        builder_.CreateFCmpOEQ(
            builder_.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, wide[1]),
            infinity));
    return builder_.CreateFPTrunc(
        builder_.CreateSelect(infinite, infinity, root),
        ComputeType(component));
  };
  switch (op) {
    case PHAL_KIR_OP_REAL:
      return IrValue{x.real};
    case PHAL_KIR_OP_IMAG:
      return IrValue{x.imag};
    case PHAL_KIR_OP_NEGATE:
      return IrValue{builder_.CreateFNeg(x.real), builder_.CreateFNeg(x.imag)};
    case PHAL_KIR_OP_ABS:
      return IrValue{magnitude()};
    case PHAL_KIR_OP_SIGN: {
      // z / |z|, and 0 for 0; NaN parts give NaN.
      llvm::Value* norm = magnitude();
      llvm::Value* zero = llvm::ConstantFP::get(norm->getType(), 0.0);
      llvm::Value* is_zero = builder_.CreateFCmpOEQ(norm, zero);
      return IrValue{builder_.CreateSelect(is_zero, zero,
                                           builder_.CreateFDiv(x.real, norm)),
                     builder_.CreateSelect(is_zero, zero,
                                           builder_.CreateFDiv(x.imag, norm))};
    }
    case PHAL_KIR_OP_EXP:
      return CallComplexRuntime("exp", component, arguments);
    case PHAL_KIR_OP_EXPM1:
      return CallComplexRuntime("expm1", component, arguments);
    case PHAL_KIR_OP_LOG:
      return CallComplexRuntime("log", component, arguments);
    case PHAL_KIR_OP_LOG1P:
      return CallComplexRuntime("log1p", component, arguments);
    case PHAL_KIR_OP_LOGISTIC:
      return CallComplexRuntime("logistic", component, arguments);
    case PHAL_KIR_OP_SQRT:
      return CallComplexRuntime("sqrt", component, arguments);
    case PHAL_KIR_OP_RSQRT:
      return CallComplexRuntime("rsqrt", component, arguments);
    case PHAL_KIR_OP_TANH:
      return CallComplexRuntime("tanh", component, arguments);
    case PHAL_KIR_OP_SIN:
      return CallComplexRuntime("sin", component, arguments);
    case PHAL_KIR_OP_COS:
      return CallComplexRuntime("cos", component, arguments);
    case PHAL_KIR_OP_TAN:
      return CallComplexRuntime("tan", component, arguments);
    case PHAL_KIR_OP_CBRT:
      return CallComplexRuntime("cbrt", component, arguments);
    default:
      return Unsupported(op, type);
  }
}

StatusOr<IrValue> BodyEmitter::EmitReducePrecision(const NodeContext& context,
                                                   IrValue x) {
  const phal_kir_node_t& node = context.node;
  const char* name = nullptr;
  switch (node.type) {
    case PHAL_ELEMENT_TYPE_F16:
      name = "phal_rt_reduce_precision_f16";
      break;
    case PHAL_ELEMENT_TYPE_BF16:
      name = "phal_rt_reduce_precision_bf16";
      break;
    case PHAL_ELEMENT_TYPE_F32:
      name = "phal_rt_reduce_precision_f32";
      break;
    case PHAL_ELEMENT_TYPE_F64:
      name = "phal_rt_reduce_precision_f64";
      break;
    default:
      return Unsupported(node.op, node.type);
  }
  if (node.attributes[0] < 1 || node.attributes[1] < 0) {
    return InvalidArgument(
        "reduce_precision needs exponent bits >= 1 and mantissa bits >= 0");
  }
  if (node.type == PHAL_ELEMENT_TYPE_F32 && node.attributes[0] >= 8 &&
      node.attributes[1] >= 1 && node.attributes[1] < 23) {
    // The exponent range stays f32's, so only the mantissa rounds: to
    // nearest even at the last kept bit, as the runtime function does, in
    // straight-line integer IR that vectorises. A NaN keeps its bits.
    llvm::Type* i32 = builder_.getInt32Ty();
    const int dropped = 23 - static_cast<int>(node.attributes[1]);
    const uint32_t last_kept = uint32_t{1} << dropped;
    llvm::Value* bits = builder_.CreateBitCast(x.real, i32);
    llvm::Value* bias = builder_.CreateAdd(
        builder_.CreateLShr(builder_.CreateAnd(bits, last_kept), dropped),
        builder_.getInt32(last_kept / 2 - 1));
    llvm::Value* rounded = builder_.CreateAnd(
        builder_.CreateAdd(bits, bias), builder_.getInt32(~(last_kept - 1)));
    llvm::Value* nan = builder_.CreateFCmpUNO(x.real, x.real);
    return IrValue{builder_.CreateSelect(
        nan, x.real, builder_.CreateBitCast(rounded, x.real->getType()))};
  }
  llvm::Value* arguments[] = {
      x.real, builder_.getInt32(static_cast<uint32_t>(node.attributes[0])),
      builder_.getInt32(static_cast<uint32_t>(node.attributes[1]))};
  return IrValue{CallRuntime(name, x.real->getType(), arguments)};
}

StatusOr<IrValue> BodyEmitter::EmitBitcastConvert(IrValue value,
                                                  phal_element_type_t from,
                                                  phal_element_type_t to) {
  if (StorageBytes(from) != StorageBytes(to) ||
      from == PHAL_ELEMENT_TYPE_C128 || to == PHAL_ELEMENT_TYPE_C128 ||
      from == PHAL_ELEMENT_TYPE_PRED || to == PHAL_ELEMENT_TYPE_PRED) {
    return Unimplemented(std::string("the LLVM emitter does not implement "
                                     "bitcast_convert from ") +
                         ElementTypeName(from) + " to " + ElementTypeName(to));
  }
  return FromBits(ToBits(value, from), to);
}

StatusOr<IrValue> BodyEmitter::EmitUnary(const NodeContext& context) {
  const phal_kir_node_t& node = context.node;
  const IrValue x = context.operands[0];
  const phal_element_type_t operand_type = context.operand_types[0];
  switch (node.op) {
    case PHAL_KIR_OP_CONVERT:
      return Convert(x, operand_type, node.type);
    case PHAL_KIR_OP_BITCAST_CONVERT:
      return EmitBitcastConvert(x, operand_type, node.type);
    case PHAL_KIR_OP_REDUCE_PRECISION:
      return EmitReducePrecision(context, x);
    default:
      break;
  }
  if (IsComplex(operand_type))
    return EmitComplexUnary(node.op, operand_type, x);
  if (IsFloat(operand_type))
    return EmitFloatUnary(node.op, operand_type, x.real);
  return EmitIntegerUnary(node.op, operand_type, x.real);
}

StatusOr<IrValue> BodyEmitter::EmitFloatBinary(phal_kir_op_t op,
                                               phal_element_type_t type,
                                               llvm::Value* x, llvm::Value* y) {
  llvm::Value* arguments[] = {x, y};
  switch (op) {
    case PHAL_KIR_OP_ADD:
      return IrValue{RoundTo(type, builder_.CreateFAdd(x, y))};
    case PHAL_KIR_OP_SUBTRACT:
      return IrValue{RoundTo(type, builder_.CreateFSub(x, y))};
    case PHAL_KIR_OP_MULTIPLY:
      return IrValue{RoundTo(type, builder_.CreateFMul(x, y))};
    case PHAL_KIR_OP_DIVIDE:
      return IrValue{RoundTo(type, builder_.CreateFDiv(x, y))};
    case PHAL_KIR_OP_REMAINDER:
      return IrValue{RoundTo(type, builder_.CreateFRem(x, y))};
    case PHAL_KIR_OP_MAXIMUM:
      return IrValue{Maximum(x, y)};
    case PHAL_KIR_OP_MINIMUM:
      return IrValue{Minimum(x, y)};
    case PHAL_KIR_OP_POWER:
      return IrValue{CallMath("pow", type, arguments)};
    case PHAL_KIR_OP_ATAN2:
      return IrValue{CallMath("atan2", type, arguments)};
    default:
      return Unsupported(op, type);
  }
}

StatusOr<IrValue> BodyEmitter::EmitIntegerBinary(phal_kir_op_t op,
                                                 phal_element_type_t type,
                                                 llvm::Value* x,
                                                 llvm::Value* y) {
  llvm::Type* compute = x->getType();
  const unsigned bits = IntegerBits(type);
  const bool is_signed = IsSigned(type);
  llvm::Value* zero = llvm::ConstantInt::get(compute, 0);
  llvm::Value* all_ones = llvm::ConstantInt::getAllOnesValue(compute);
  llvm::Value* y_is_zero = builder_.CreateICmpEQ(y, zero);
  // x / 0 and INT_MIN / -1 trap in hardware; XLA defines them instead:
  // x / 0 = -1 (all ones), x % 0 = x, INT_MIN / -1 = INT_MIN, INT_MIN % -1 = 0.
  llvm::Value* overflow = builder_.getFalse();
  if (is_signed) {
    overflow = builder_.CreateAnd(
        builder_.CreateICmpEQ(
            x, llvm::ConstantInt::get(compute,
                                      llvm::APInt::getSignedMinValue(bits))),
        builder_.CreateICmpEQ(y, all_ones));
  }
  llvm::Value* safe_divisor =
      builder_.CreateSelect(builder_.CreateOr(y_is_zero, overflow),
                            llvm::ConstantInt::get(compute, 1), y);
  llvm::Value* shift_out_of_range =
      builder_.CreateICmpUGE(y, llvm::ConstantInt::get(compute, bits));
  switch (op) {
    case PHAL_KIR_OP_ADD:
      return IrValue{builder_.CreateAdd(x, y)};
    case PHAL_KIR_OP_SUBTRACT:
      return IrValue{builder_.CreateSub(x, y)};
    case PHAL_KIR_OP_MULTIPLY:
      return IrValue{builder_.CreateMul(x, y)};
    case PHAL_KIR_OP_DIVIDE: {
      llvm::Value* quotient = is_signed ? builder_.CreateSDiv(x, safe_divisor)
                                        : builder_.CreateUDiv(x, safe_divisor);
      quotient = builder_.CreateSelect(overflow, x, quotient);
      return IrValue{builder_.CreateSelect(y_is_zero, all_ones, quotient)};
    }
    case PHAL_KIR_OP_REMAINDER: {
      llvm::Value* remainder = is_signed ? builder_.CreateSRem(x, safe_divisor)
                                         : builder_.CreateURem(x, safe_divisor);
      remainder = builder_.CreateSelect(overflow, zero, remainder);
      return IrValue{builder_.CreateSelect(y_is_zero, x, remainder)};
    }
    case PHAL_KIR_OP_MAXIMUM:
      return IrValue{builder_.CreateBinaryIntrinsic(
          is_signed ? llvm::Intrinsic::smax : llvm::Intrinsic::umax, x, y)};
    case PHAL_KIR_OP_MINIMUM:
      return IrValue{builder_.CreateBinaryIntrinsic(
          is_signed ? llvm::Intrinsic::smin : llvm::Intrinsic::umin, x, y)};
    case PHAL_KIR_OP_POWER: {
      llvm::Type* i64 = builder_.getInt64Ty();
      llvm::Value* arguments[] = {builder_.CreateIntCast(x, i64, is_signed),
                                  builder_.CreateIntCast(y, i64, is_signed)};
      llvm::Value* power =
          CallRuntime(is_signed ? "phal_rt_power_s64" : "phal_rt_power_u64",
                      i64, arguments);
      return IrValue{builder_.CreateTrunc(power, compute)};
    }
    case PHAL_KIR_OP_AND:
      return IrValue{builder_.CreateAnd(x, y)};
    case PHAL_KIR_OP_OR:
      return IrValue{builder_.CreateOr(x, y)};
    case PHAL_KIR_OP_XOR:
      return IrValue{builder_.CreateXor(x, y)};
    case PHAL_KIR_OP_SHIFT_LEFT:
      return IrValue{builder_.CreateSelect(
          shift_out_of_range, zero,
          builder_.CreateShl(
              x, builder_.CreateSelect(shift_out_of_range, zero, y)))};
    case PHAL_KIR_OP_SHIFT_RIGHT_LOGICAL:
      return IrValue{builder_.CreateSelect(
          shift_out_of_range, zero,
          builder_.CreateLShr(
              x, builder_.CreateSelect(shift_out_of_range, zero, y)))};
    case PHAL_KIR_OP_SHIFT_RIGHT_ARITHMETIC: {
      // Shifting by the width or more fills with the sign.
      llvm::Value* amount = builder_.CreateSelect(
          shift_out_of_range, llvm::ConstantInt::get(compute, bits - 1), y);
      return IrValue{builder_.CreateAShr(x, amount)};
    }
    default:
      return Unsupported(op, type);
  }
}

StatusOr<IrValue> BodyEmitter::EmitPredBinary(phal_kir_op_t op, llvm::Value* x,
                                              llvm::Value* y) {
  switch (op) {
    case PHAL_KIR_OP_AND:
    case PHAL_KIR_OP_MULTIPLY:
    case PHAL_KIR_OP_MINIMUM:
      return IrValue{builder_.CreateAnd(x, y)};
    case PHAL_KIR_OP_OR:
    case PHAL_KIR_OP_ADD:
    case PHAL_KIR_OP_MAXIMUM:
      return IrValue{builder_.CreateOr(x, y)};
    case PHAL_KIR_OP_XOR:
    case PHAL_KIR_OP_SUBTRACT:
      return IrValue{builder_.CreateXor(x, y)};
    default:
      return Unsupported(op, PHAL_ELEMENT_TYPE_PRED);
  }
}

// The specification's order of complex values for maximum and minimum: by
// real part, then by imaginary part (x.real != y.real ? x.real < y.real :
// x.imag < y.imag, NaN comparing unequal and not less).
llvm::Value* BodyEmitter::LexicographicLess(IrValue x, IrValue y) {
  return builder_.CreateSelect(builder_.CreateFCmpUNE(x.real, y.real),
                               builder_.CreateFCmpOLT(x.real, y.real),
                               builder_.CreateFCmpOLT(x.imag, y.imag));
}

IrValue BodyEmitter::SelectComplex(llvm::Value* predicate, IrValue on_true,
                                   IrValue on_false) {
  return IrValue{builder_.CreateSelect(predicate, on_true.real, on_false.real),
                 builder_.CreateSelect(predicate, on_true.imag, on_false.imag)};
}

StatusOr<IrValue> BodyEmitter::EmitComplexBinary(phal_kir_op_t op,
                                                 phal_element_type_t type,
                                                 IrValue x, IrValue y) {
  const IrValue arguments[] = {x, y};
  switch (op) {
    case PHAL_KIR_OP_ADD:
      return IrValue{builder_.CreateFAdd(x.real, y.real),
                     builder_.CreateFAdd(x.imag, y.imag)};
    case PHAL_KIR_OP_SUBTRACT:
      return IrValue{builder_.CreateFSub(x.real, y.real),
                     builder_.CreateFSub(x.imag, y.imag)};
    case PHAL_KIR_OP_MULTIPLY:
      return IrValue{builder_.CreateFSub(builder_.CreateFMul(x.real, y.real),
                                         builder_.CreateFMul(x.imag, y.imag)),
                     builder_.CreateFAdd(builder_.CreateFMul(x.real, y.imag),
                                         builder_.CreateFMul(x.imag, y.real))};
    case PHAL_KIR_OP_DIVIDE:
      return CallComplexRuntime("divide", ComponentType(type), arguments);
    case PHAL_KIR_OP_POWER:
      return CallComplexRuntime("power", ComponentType(type), arguments);
    case PHAL_KIR_OP_ATAN2:
      return CallComplexRuntime("atan2", ComponentType(type), arguments);
    case PHAL_KIR_OP_MAXIMUM:
      return SelectComplex(LexicographicLess(x, y), y, x);
    case PHAL_KIR_OP_MINIMUM:
      return SelectComplex(LexicographicLess(y, x), y, x);
    default:
      return Unsupported(op, type);
  }
}

StatusOr<IrValue> BodyEmitter::EmitCompare(const NodeContext& context,
                                           IrValue x, IrValue y) {
  const phal_kir_node_t& node = context.node;
  const auto direction =
      static_cast<phal_kir_comparison_direction_t>(node.attributes[0]);
  const auto comparison =
      static_cast<phal_kir_comparison_type_t>(node.attributes[1]);
  const phal_element_type_t operand_type = context.operand_types[0];
  if (direction < PHAL_KIR_COMPARE_EQ || direction > PHAL_KIR_COMPARE_GE) {
    return InvalidArgument("compare with direction " +
                           std::to_string(node.attributes[0]));
  }
  static constexpr llvm::CmpInst::Predicate kFloat[] = {
      llvm::CmpInst::FCMP_OEQ, llvm::CmpInst::FCMP_UNE,
      llvm::CmpInst::FCMP_OLT, llvm::CmpInst::FCMP_OLE,
      llvm::CmpInst::FCMP_OGT, llvm::CmpInst::FCMP_OGE};
  static constexpr llvm::CmpInst::Predicate kSigned[] = {
      llvm::CmpInst::ICMP_EQ,  llvm::CmpInst::ICMP_NE,
      llvm::CmpInst::ICMP_SLT, llvm::CmpInst::ICMP_SLE,
      llvm::CmpInst::ICMP_SGT, llvm::CmpInst::ICMP_SGE};
  static constexpr llvm::CmpInst::Predicate kUnsigned[] = {
      llvm::CmpInst::ICMP_EQ,  llvm::CmpInst::ICMP_NE,
      llvm::CmpInst::ICMP_ULT, llvm::CmpInst::ICMP_ULE,
      llvm::CmpInst::ICMP_UGT, llvm::CmpInst::ICMP_UGE};
  const auto d = static_cast<size_t>(direction);
  if (IsComplex(operand_type)) {
    if (direction == PHAL_KIR_COMPARE_EQ) {
      return IrValue{
          builder_.CreateAnd(builder_.CreateFCmpOEQ(x.real, y.real),
                             builder_.CreateFCmpOEQ(x.imag, y.imag))};
    }
    if (direction == PHAL_KIR_COMPARE_NE) {
      return IrValue{builder_.CreateOr(builder_.CreateFCmpUNE(x.real, y.real),
                                       builder_.CreateFCmpUNE(x.imag, y.imag))};
    }
    return Unsupported(node.op, operand_type);
  }
  if (IsFloat(operand_type)) {
    if (comparison == PHAL_KIR_COMPARISON_TOTALORDER) {
      return IrValue{builder_.CreateICmp(kSigned[d], TotalOrderKey(x.real),
                                         TotalOrderKey(y.real))};
    }
    return IrValue{builder_.CreateFCmp(kFloat[d], x.real, y.real)};
  }
  const bool is_signed =
      comparison == PHAL_KIR_COMPARISON_SIGNED ||
      (comparison != PHAL_KIR_COMPARISON_UNSIGNED && IsSigned(operand_type));
  return IrValue{builder_.CreateICmp(is_signed ? kSigned[d] : kUnsigned[d],
                                     x.real, y.real)};
}

StatusOr<IrValue> BodyEmitter::EmitBinary(const NodeContext& context) {
  const phal_kir_node_t& node = context.node;
  const IrValue x = context.operands[0];
  const IrValue y = context.operands[1];
  const phal_element_type_t type = context.operand_types[0];
  if (node.op == PHAL_KIR_OP_COMPARE) return EmitCompare(context, x, y);
  if (node.op == PHAL_KIR_OP_COMPLEX) return IrValue{x.real, y.real};
  if (IsComplex(type)) return EmitComplexBinary(node.op, type, x, y);
  if (IsFloat(type)) return EmitFloatBinary(node.op, type, x.real, y.real);
  if (type == PHAL_ELEMENT_TYPE_PRED)
    return EmitPredBinary(node.op, x.real, y.real);
  return EmitIntegerBinary(node.op, type, x.real, y.real);
}

StatusOr<IrValue> BodyEmitter::EmitNode(const NodeContext& context) {
  const phal_kir_node_t& node = context.node;
  switch (KirOpClassOf(node.op)) {
    case KirOpClass::kLeaf:
      return EmitLeaf(context);
    case KirOpClass::kUnary:
      return EmitUnary(context);
    case KirOpClass::kBinary:
      return EmitBinary(context);
    case KirOpClass::kTernary:
    case KirOpClass::kUnknown:
      break;
  }
  if (node.op == PHAL_KIR_OP_SELECT) {
    const IrValue& on_true = context.operands[1];
    const IrValue& on_false = context.operands[2];
    llvm::Value* predicate = context.operands[0].real;
    IrValue result{
        builder_.CreateSelect(predicate, on_true.real, on_false.real)};
    if (on_true.imag != nullptr) {
      result.imag =
          builder_.CreateSelect(predicate, on_true.imag, on_false.imag);
    }
    return result;
  }
  if (node.op == PHAL_KIR_OP_CLAMP) {
    const phal_element_type_t type = context.operand_types[1];
    llvm::Value* low = context.operands[0].real;
    llvm::Value* x = context.operands[1].real;
    llvm::Value* high = context.operands[2].real;
    if (IsFloat(type)) return IrValue{Minimum(Maximum(x, low), high)};
    if (IsComplex(type) || type == PHAL_ELEMENT_TYPE_PRED) {
      return Unsupported(node.op, type);
    }
    const bool is_signed = IsSigned(type);
    llvm::Value* raised = builder_.CreateBinaryIntrinsic(
        is_signed ? llvm::Intrinsic::smax : llvm::Intrinsic::umax, x, low);
    return IrValue{builder_.CreateBinaryIntrinsic(
        is_signed ? llvm::Intrinsic::smin : llvm::Intrinsic::umin, raised,
        high)};
  }
  return Unimplemented(std::string("the LLVM emitter does not implement ") +
                       KirOpName(node.op));
}

StatusOr<std::vector<IrValue>> BodyEmitter::Emit(
    const phal_kir_body_t& body, const IndexSource& index,
    std::span<const IrValue> parameters) {
  values_.assign(body.node_count, IrValue{});
  std::vector<IrValue> operands;
  std::vector<phal_element_type_t> operand_types;
  for (uint32_t i = 0; i < body.node_count; ++i) {
    const phal_kir_node_t& node = body.nodes[i];
    operands.clear();
    operand_types.clear();
    for (uint32_t j = 0; j < node.operand_count; ++j) {
      const uint32_t operand = body.operands[node.operand_begin + j];
      operands.push_back(values_[operand]);
      operand_types.push_back(body.nodes[operand].type);
    }
    const NodeContext context{node, operands, operand_types, index, parameters};
    PHAL_ASSIGN_OR_RETURN(values_[i], EmitNode(context));
  }
  std::vector<IrValue> results;
  for (uint32_t i = 0; i < body.result_count; ++i) {
    results.push_back(values_[body.results[i]]);
  }
  return results;
}

}  // namespace phal::llvm_emitter
