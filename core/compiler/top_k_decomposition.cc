#include <cstring>

#include "core/compiler/decompositions.h"

namespace phal {
namespace {

HloInstruction* AddCompare(HloComputation& computation, HloInstruction* a,
                           HloInstruction* b, ComparisonDirection direction) {
  auto compare = std::make_unique<HloInstruction>(
      HloOpcode::kCompare,
      "compare" + std::to_string(computation.instructions().size()),
      Shape(PHAL_ELEMENT_TYPE_PRED, {}));
  compare->AppendOperand(a);
  compare->AppendOperand(b);
  compare->set_comparison_direction(direction);
  if (IsFloat(a->shape().element_type())) {
    compare->set_comparison_type(ComparisonType::kTotalOrder);
  }
  return computation.AddInstruction(std::move(compare));
}

// comparator(a, b, index_a, index_b) = a GT b (largest) or a LT b, in the
// total order for floating-point values: a stable sort then keeps equal
// values in index order, as the reference's top-k does.
HloComputation* TopKComparator(RewriteContext& context, ElementType value_type,
                               ElementType index_type, bool largest) {
  auto computation = std::make_unique<HloComputation>(
      "top_k_comparator." +
      std::to_string(context.module()->computations().size()));
  std::vector<HloInstruction*> parameters;
  for (int64_t p = 0; p < 4; ++p) {
    parameters.push_back(AddParameter(
        *computation, p, Shape(p < 2 ? value_type : index_type, {})));
  }
  computation->set_root_instruction(AddCompare(
      *computation, parameters[0], parameters[1],
      largest ? ComparisonDirection::kGt : ComparisonDirection::kLt));
  return context.module()->AddComputation(std::move(computation));
}

HloInstruction* LeadingSlice(RewriteContext& context, HloInstruction* value,
                             int64_t k) {
  std::vector<int64_t> dims = value->shape().dims();
  std::vector<int64_t> starts(dims.size(), 0);
  std::vector<int64_t> strides(dims.size(), 1);
  std::vector<int64_t> limits = dims;
  dims.back() = k;
  limits.back() = k;
  return context.AddNew(
      HloOpcode::kSlice, Shape(value->shape().element_type(), dims), {value},
      [&](HloInstruction& slice) { slice.set_slice(starts, limits, strides); });
}

// The value of `type` below every other in the total order that top-k
// ranks by (above every other for the smallest k): the NaN of the largest
// payload with the sign set (clear), or the integer extreme.
HloInstruction* WorstValue(RewriteContext& context, ElementType type,
                           bool largest) {
  Literal literal(Shape(type, {}));
  const std::size_t width = literal.byte_size();
  if (IsFloat(type)) {
    std::memset(literal.data(), 0xFF, width);
    if (!largest) literal.data()[width - 1] = 0x7F;
  } else if (IsSigned(type)) {
    std::memset(literal.data(), largest ? 0x00 : 0xFF, width);
    literal.data()[width - 1] = largest ? 0x80 : 0x7F;
  } else {
    std::memset(literal.data(), largest ? 0x00 : 0xFF, width);
  }
  return context.AddNew(HloOpcode::kConstant, Shape(type, {}), {},
                        [&](HloInstruction& c) { c.set_literal(literal); });
}

HloInstruction* AddBinary(HloComputation& computation, HloOpcode opcode,
                          HloInstruction* a, HloInstruction* b) {
  auto binary = std::make_unique<HloInstruction>(
      opcode, "binary" + std::to_string(computation.instructions().size()),
      a->shape());
  binary->AppendOperand(a);
  binary->AppendOperand(b);
  return computation.AddInstruction(std::move(binary));
}

// (a, b) -> the one of them top-k ranks first (total order for floats).
HloComputation* BestOfTwo(RewriteContext& context, ElementType type,
                          bool largest) {
  auto computation = std::make_unique<HloComputation>(
      "top_k_best." + std::to_string(context.module()->computations().size()));
  const Shape scalar(type, {});
  HloInstruction* a = AddParameter(*computation, 0, scalar);
  HloInstruction* b = AddParameter(*computation, 1, scalar);
  HloInstruction* better =
      AddCompare(*computation, a, b,
                 largest ? ComparisonDirection::kGt : ComparisonDirection::kLt);
  auto select =
      std::make_unique<HloInstruction>(HloOpcode::kSelect, "best", scalar);
  select->AppendOperand(better);
  select->AppendOperand(a);
  select->AppendOperand(b);
  computation->set_root_instruction(
      computation->AddInstruction(std::move(select)));
  return context.module()->AddComputation(std::move(computation));
}

// (value_a, value_b, index_a, index_b) -> a ranks before b: its value is
// better, or equal with a smaller index.
HloComputation* RankComparator(RewriteContext& context, ElementType value_type,
                               ElementType index_type, bool largest) {
  auto computation = std::make_unique<HloComputation>(
      "top_k_rank." + std::to_string(context.module()->computations().size()));
  HloInstruction* a = AddParameter(*computation, 0, Shape(value_type, {}));
  HloInstruction* b = AddParameter(*computation, 1, Shape(value_type, {}));
  HloInstruction* i = AddParameter(*computation, 2, Shape(index_type, {}));
  HloInstruction* j = AddParameter(*computation, 3, Shape(index_type, {}));
  HloInstruction* better =
      AddCompare(*computation, a, b,
                 largest ? ComparisonDirection::kGt : ComparisonDirection::kLt);
  HloInstruction* tie =
      AddBinary(*computation, HloOpcode::kAnd,
                AddCompare(*computation, a, b, ComparisonDirection::kEq),
                AddCompare(*computation, i, j, ComparisonDirection::kLt));
  computation->set_root_instruction(
      AddBinary(*computation, HloOpcode::kOr, better, tie));
  return context.module()->AddComputation(std::move(computation));
}

// Rows of n that top-k of k reads by blocks (BlockTopK): long rows and few
// chosen.
constexpr int64_t kBlockTopKMinimumLength = 1024;

int64_t TopKBlockSize(int64_t n, int64_t k) {
  int64_t block = 16;
  while (block * block * k < n) block *= 2;
  return block;
}

bool SelectsByBlocks(int64_t n, int64_t k, int64_t rows) {
  if (n < kBlockTopKMinimumLength || k < 1) return false;
  const int64_t block = TopKBlockSize(n, k);
  const int64_t blocks = (n + block - 1) / block;
  return blocks >= 4 * k && rows * blocks * block < (int64_t{1} << 31);
}

// top-k of rows of n in O(n) work beside sorts of n / b and k * b
// elements: the rows cut into blocks of b (the last padded with
// WorstValue), each block's best element (a reduce), the k blocks whose
// best rank first (a stable sort of the block bests, which keeps blocks of
// equal bests in index order), and a sort of those blocks' k * b elements
// by value, then index. Every element of the top k lies in those blocks:
// an element of any other block ranks below that block's best, which
// ranks below k block bests, each an element of its own.
HloInstruction* BlockTopK(RewriteContext& context, HloInstruction* x,
                          ElementType index_type, int64_t k, bool largest,
                          const Shape& result_shape) {
  const ElementType value_type = x->shape().element_type();
  const std::vector<int64_t>& dims = x->shape().dims();
  const int64_t n = dims.back();
  const int64_t rows = x->shape().ElementCount() / n;
  const int64_t block = TopKBlockSize(n, k);
  const int64_t blocks = (n + block - 1) / block;
  const int64_t width = blocks * block;
  const int64_t candidates = k * block;
  const ElementType s32 = PHAL_ELEMENT_TYPE_S32;
  HloInstruction* worst = WorstValue(context, value_type, largest);
  HloInstruction* flat =
      context.AddNew(HloOpcode::kReshape, Shape(value_type, {rows, n}), {x});
  if (width != n) {
    PaddingConfig padding;
    padding.dimensions.resize(2);
    padding.dimensions[1].high = width - n;
    flat = context.AddNew(
        HloOpcode::kPad, Shape(value_type, {rows, width}), {flat, worst},
        [&](HloInstruction& pad) { pad.set_padding_config(padding); });
  }
  HloInstruction* blocked = context.AddNew(
      HloOpcode::kReshape, Shape(value_type, {rows, blocks, block}), {flat});
  HloComputation* best = BestOfTwo(context, value_type, largest);
  HloInstruction* bests =
      context.AddNew(HloOpcode::kReduce, Shape(value_type, {rows, blocks}),
                     {blocked, worst}, [&](HloInstruction& r) {
                       r.set_dimensions({2});
                       r.AppendCalledComputation(best);
                     });
  HloInstruction* block_numbers =
      context.AddNew(HloOpcode::kIota, Shape(s32, {rows, blocks}), {},
                     [](HloInstruction& i) { i.set_iota_dimension(1); });
  HloInstruction* ranked_blocks =
      context.AddNew(HloOpcode::kSort,
                     Shape::Tuple({Shape(value_type, {rows, blocks}),
                                   Shape(s32, {rows, blocks})}),
                     {bests, block_numbers}, [&](HloInstruction& sort) {
                       sort.set_dimensions({1});
                       sort.set_is_stable(true);
                       sort.AppendCalledComputation(
                           TopKComparator(context, value_type, s32, largest));
                     });
  HloInstruction* chosen = LeadingSlice(
      context,
      context.AddNew(HloOpcode::kGetTupleElement, Shape(s32, {rows, blocks}),
                     {ranked_blocks},
                     [](HloInstruction& g) { g.set_tuple_index(1); }),
      k);
  // The chosen blocks' elements: index chosen * block + j in the row, and
  // row * width + that in the padded rows laid end to end.
  const Shape grid(s32, {rows, k, block});
  const auto constant = [&](int64_t value) {
    HloInstruction* scalar = context.AddNew(
        HloOpcode::kConstant, Shape(s32, {}), {},
        [&](HloInstruction& c) { c.set_literal(Literal::Scalar(s32, value)); });
    return context.AddNew(HloOpcode::kBroadcast, grid, {scalar},
                          [](HloInstruction& b) { b.set_dimensions({}); });
  };
  const auto iota = [&](int64_t dimension) {
    return context.AddNew(HloOpcode::kIota, grid, {}, [&](HloInstruction& i) {
      i.set_iota_dimension(dimension);
    });
  };
  HloInstruction* starts =
      context.AddNew(HloOpcode::kMultiply, grid,
                     {context.AddNew(HloOpcode::kBroadcast, grid, {chosen},
                                     [](HloInstruction& b) {
                                       b.set_dimensions({0, 1});
                                     }),
                      constant(block)});
  HloInstruction* positions =
      context.AddNew(HloOpcode::kAdd, grid, {starts, iota(2)});
  HloInstruction* addresses = context.AddNew(
      HloOpcode::kAdd, grid,
      {context.AddNew(HloOpcode::kMultiply, grid, {iota(0), constant(width)}),
       positions});
  HloInstruction* elements = context.AddNew(
      HloOpcode::kReshape, Shape(value_type, {rows * width}), {flat});
  HloInstruction* gathered = context.AddNew(
      HloOpcode::kGather, Shape(value_type, {rows, candidates}),
      {elements,
       context.AddNew(HloOpcode::kReshape, Shape(s32, {rows, candidates, 1}),
                      {addresses})},
      [](HloInstruction& g) {
        GatherDimensionNumbers numbers;
        numbers.collapsed_slice_dims = {0};
        numbers.start_index_map = {0};
        numbers.index_vector_dim = 2;
        g.set_gather_dimension_numbers(numbers);
        g.set_gather_slice_sizes({1});
      });
  HloInstruction* indices = context.AddNew(
      HloOpcode::kReshape, Shape(s32, {rows, candidates}), {positions});
  if (index_type != s32) {
    indices = context.AddNew(HloOpcode::kConvert,
                             Shape(index_type, {rows, candidates}), {indices});
  }
  HloInstruction* ranked =
      context.AddNew(HloOpcode::kSort,
                     Shape::Tuple({Shape(value_type, {rows, candidates}),
                                   Shape(index_type, {rows, candidates})}),
                     {gathered, indices}, [&](HloInstruction& sort) {
                       sort.set_dimensions({1});
                       sort.AppendCalledComputation(RankComparator(
                           context, value_type, index_type, largest));
                     });
  std::vector<HloInstruction*> leaves;
  for (int64_t i = 0; i < 2; ++i) {
    const Shape& part =
        ranked->shape().tuple_shapes()[static_cast<std::size_t>(i)];
    HloInstruction* element =
        context.AddNew(HloOpcode::kGetTupleElement, part, {ranked},
                       [&](HloInstruction& g) { g.set_tuple_index(i); });
    leaves.push_back(
        context.AddNew(HloOpcode::kReshape,
                       result_shape.tuple_shapes()[static_cast<std::size_t>(i)],
                       {LeadingSlice(context, element, k)}));
  }
  return context.AddNew(HloOpcode::kTuple, result_shape, leaves);
}

}  // namespace

StatusOr<HloInstruction*> DecomposeTopK(
    const HloInstruction& source, const std::vector<HloInstruction*>& operands,
    RewriteContext& context) {
  HloInstruction* x = operands[0];
  const ElementType value_type = x->shape().element_type();
  if (IsComplex(value_type)) {
    return Unimplemented("topk of complex values (instruction %" +
                         source.name() + ") has no order");
  }
  const ElementType index_type =
      source.shape().tuple_shapes()[1].element_type();
  const std::vector<int64_t>& dims = x->shape().dims();
  const int64_t last = static_cast<int64_t>(dims.size()) - 1;
  if (last >= 0 && dims.back() > 0 &&
      SelectsByBlocks(dims.back(), source.top_k(),
                      x->shape().ElementCount() / dims.back())) {
    return BlockTopK(context, x, index_type, source.top_k(), source.largest(),
                     source.shape());
  }
  HloInstruction* iota =
      context.AddNew(HloOpcode::kIota, Shape(index_type, dims), {},
                     [&](HloInstruction& i) { i.set_iota_dimension(last); });
  HloComputation* comparator =
      TopKComparator(context, value_type, index_type, source.largest());
  HloInstruction* sorted = context.AddNew(
      HloOpcode::kSort, Shape::Tuple({x->shape(), Shape(index_type, dims)}),
      {x, iota}, [&](HloInstruction& sort) {
        sort.set_dimensions({last});
        sort.set_is_stable(true);
        sort.AppendCalledComputation(comparator);
      });
  std::vector<HloInstruction*> leaves;
  for (int64_t i = 0; i < 2; ++i) {
    HloInstruction* element = context.AddNew(
        HloOpcode::kGetTupleElement, sorted->shape().tuple_shapes()[i],
        {sorted}, [&](HloInstruction& g) { g.set_tuple_index(i); });
    leaves.push_back(LeadingSlice(context, element, source.top_k()));
  }
  return context.AddNew(HloOpcode::kTuple, source.shape(), leaves);
}

}  // namespace phal
