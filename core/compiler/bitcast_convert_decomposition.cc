#include "core/compiler/decompositions.h"

#include <optional>

namespace phal {
namespace {

std::optional<ElementType> UnsignedOfWidth(int64_t bits) {
  switch (bits) {
    case 8:
      return PHAL_ELEMENT_TYPE_U8;
    case 16:
      return PHAL_ELEMENT_TYPE_U16;
    case 32:
      return PHAL_ELEMENT_TYPE_U32;
    case 64:
      return PHAL_ELEMENT_TYPE_U64;
    default:
      return std::nullopt;
  }
}

class BitcastBuilder {
 public:
  explicit BitcastBuilder(RewriteContext& context) : context_(context) {}

  HloInstruction* Reinterpret(HloInstruction* value, ElementType type) {
    if (value->shape().element_type() == type) return value;
    return context_.AddNew(HloOpcode::kBitcastConvert,
                           Shape(type, value->shape().dims()), {value});
  }

  HloInstruction* Convert(HloInstruction* value, ElementType type) {
    return context_.AddNew(HloOpcode::kConvert,
                           Shape(type, value->shape().dims()), {value});
  }

  // piece * bits along the last dimension of `dims`: the shift of each
  // piece of a wider element, the first piece being the least significant
  // (the byte order of little-endian memory).
  HloInstruction* PieceShifts(ElementType type,
                              const std::vector<int64_t>& dims, int64_t bits) {
    const int64_t last = static_cast<int64_t>(dims.size()) - 1;
    HloInstruction* piece =
        context_.AddNew(HloOpcode::kIota, Shape(type, dims), {},
                        [&](HloInstruction& i) { i.set_iota_dimension(last); });
    HloInstruction* width = context_.AddNew(
        HloOpcode::kConstant, Shape(type, {}), {}, [&](HloInstruction& c) {
          c.set_literal(Literal::Scalar(type, static_cast<double>(bits)));
        });
    HloInstruction* widths =
        context_.AddNew(HloOpcode::kBroadcast, Shape(type, dims), {width},
                        [](HloInstruction& b) { b.set_dimensions({}); });
    return context_.AddNew(HloOpcode::kMultiply, Shape(type, dims),
                           {piece, widths});
  }

  // The unsigned sum of `value` over its last dimension.
  HloInstruction* SumLastDimension(HloInstruction* value) {
    const ElementType type = value->shape().element_type();
    std::vector<int64_t> dims = value->shape().dims();
    const int64_t last = static_cast<int64_t>(dims.size()) - 1;
    dims.pop_back();
    HloInstruction* zero = context_.AddNew(
        HloOpcode::kConstant, Shape(type, {}), {},
        [&](HloInstruction& c) { c.set_literal(Literal::Scalar(type, 0.0)); });
    HloComputation* add =
        context_.AddBinaryComputation(HloOpcode::kAdd, type, "bitcast_join");
    return context_.AddNew(HloOpcode::kReduce, Shape(type, dims), {value, zero},
                           [&](HloInstruction& r) {
                             r.set_dimensions({last});
                             r.AppendCalledComputation(add);
                           });
  }

 private:
  RewriteContext& context_;
};

// real and imag of a complex array as a component array with one more
// (minor) dimension of 2, the order of the parts in memory.
HloInstruction* Components(RewriteContext& context, HloInstruction* value) {
  const ElementType part = ComplexComponentType(value->shape().element_type());
  std::vector<int64_t> dims = value->shape().dims();
  std::vector<int64_t> pair_dims = dims;
  pair_dims.push_back(1);
  std::vector<HloInstruction*> parts;
  for (HloOpcode opcode : {HloOpcode::kReal, HloOpcode::kImag}) {
    HloInstruction* component =
        context.AddNew(opcode, Shape(part, dims), {value});
    parts.push_back(context.AddNew(HloOpcode::kReshape, Shape(part, pair_dims),
                                   {component}));
  }
  pair_dims.back() = 2;
  return context.AddNew(HloOpcode::kConcatenate, Shape(part, pair_dims), parts,
                        [&](HloInstruction& c) {
                          c.set_dimensions({static_cast<int64_t>(dims.size())});
                        });
}

// The inverse of Components: complex values of type `type` from the pairs
// along the last dimension of `pairs`.
HloInstruction* Compose(RewriteContext& context, HloInstruction* pairs,
                        ElementType type) {
  const ElementType part = pairs->shape().element_type();
  std::vector<int64_t> pair_dims = pairs->shape().dims();
  std::vector<int64_t> dims(pair_dims.begin(), pair_dims.end() - 1);
  std::vector<HloInstruction*> parts;
  for (int64_t i = 0; i < 2; ++i) {
    std::vector<int64_t> starts(pair_dims.size(), 0);
    std::vector<int64_t> limits = pair_dims;
    std::vector<int64_t> strides(pair_dims.size(), 1);
    starts.back() = i;
    limits.back() = i + 1;
    std::vector<int64_t> slice_dims = pair_dims;
    slice_dims.back() = 1;
    HloInstruction* slice = context.AddNew(
        HloOpcode::kSlice, Shape(part, slice_dims), {pairs},
        [&](HloInstruction& s) { s.set_slice(starts, limits, strides); });
    parts.push_back(
        context.AddNew(HloOpcode::kReshape, Shape(part, dims), {slice}));
  }
  return context.AddNew(HloOpcode::kComplex, Shape(type, dims), parts);
}

// `x`'s bits as an array of `to` of shape `dims`, for real (non-complex)
// types of 8, 16, 32 or 64 bits.
StatusOr<HloInstruction*> Reinterpret(RewriteContext& context,
                                      HloInstruction* x, ElementType to,
                                      const std::vector<int64_t>& dims) {
  const ElementType from = x->shape().element_type();
  const int64_t from_bits = ElementTypeBitWidth(from);
  const int64_t to_bits = ElementTypeBitWidth(to);
  BitcastBuilder builder(context);
  if (from_bits == to_bits) return builder.Reinterpret(x, to);
  const std::optional<ElementType> from_unsigned = UnsignedOfWidth(from_bits);
  const std::optional<ElementType> to_unsigned = UnsignedOfWidth(to_bits);
  if (!from_unsigned || !to_unsigned) {
    return Unimplemented(std::string("bitcast-convert from ") +
                         ElementTypeName(from) + " to " + ElementTypeName(to));
  }
  HloInstruction* bits = builder.Reinterpret(x, *from_unsigned);
  if (from_bits > to_bits) {
    // Split: piece j of each element is bits [j*to_bits, (j+1)*to_bits).
    std::vector<int64_t> kept(x->shape().dims().size());
    for (std::size_t d = 0; d < kept.size(); ++d) {
      kept[d] = static_cast<int64_t>(d);
    }
    HloInstruction* spread = context.AddNew(
        HloOpcode::kBroadcast, Shape(*from_unsigned, dims), {bits},
        [&](HloInstruction& b) { b.set_dimensions(kept); });
    HloInstruction* shifted = context.AddNew(
        HloOpcode::kShiftRightLogical, Shape(*from_unsigned, dims),
        {spread, builder.PieceShifts(*from_unsigned, dims, to_bits)});
    return builder.Reinterpret(builder.Convert(shifted, *to_unsigned), to);
  }
  // Join: the pieces along the last dimension, least significant first,
  // occupy disjoint bits, so their sum is their concatenation.
  const std::vector<int64_t>& piece_dims = x->shape().dims();
  HloInstruction* widened = builder.Convert(bits, *to_unsigned);
  HloInstruction* shifted = context.AddNew(
      HloOpcode::kShiftLeft, Shape(*to_unsigned, piece_dims),
      {widened, builder.PieceShifts(*to_unsigned, piece_dims, from_bits)});
  return builder.Reinterpret(builder.SumLastDimension(shifted), to);
}

}  // namespace

StatusOr<HloInstruction*> DecomposeBitcastConvert(
    const HloInstruction& source, const std::vector<HloInstruction*>& operands,
    RewriteContext& context) {
  HloInstruction* x = operands[0];
  const ElementType from = x->shape().element_type();
  const ElementType to = source.shape().element_type();
  if (from == PHAL_ELEMENT_TYPE_PRED && to != PHAL_ELEMENT_TYPE_PRED &&
      ElementTypeBitWidth(to) == 8) {
    // A pred is the byte 0 or 1, which is what converting it gives.
    return context.AddNew(HloOpcode::kConvert, source.shape(), {x});
  }
  if (ElementTypeBitWidth(from) == ElementTypeBitWidth(to)) return nullptr;
  if (from == PHAL_ELEMENT_TYPE_PRED || to == PHAL_ELEMENT_TYPE_PRED) {
    return Unimplemented(std::string("bitcast-convert from ") +
                         ElementTypeName(from) + " to " + ElementTypeName(to) +
                         " (instruction %" + source.name() +
                         "): pred has no bit layout of its own");
  }
  // Complex values are their (real, imag) pairs in memory.
  if (IsComplex(from)) x = Components(context, x);
  std::vector<int64_t> dims = source.shape().dims();
  ElementType target = to;
  if (IsComplex(to)) {
    target = ComplexComponentType(to);
    dims.push_back(2);
  }
  StatusOr<HloInstruction*> bits = Reinterpret(context, x, target, dims);
  if (!bits.ok()) {
    return Unimplemented(bits.status().message() + " (instruction %" +
                         source.name() + ")");
  }
  return IsComplex(to) ? Compose(context, *bits, to) : *bits;
}

}  // namespace phal
