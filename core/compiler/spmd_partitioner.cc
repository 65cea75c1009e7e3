#include "core/compiler/spmd_partitioner.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/compiler/compiler.h"
#include "core/compiler/hlo_rewriter.h"
#include "core/compiler/passes.h"
#include "core/compiler/spmd_sharding.h"
#include "core/hlo/printer.h"
#include "core/hlo/process_groups.h"
#include "core/hlo/sharded_array.h"
#include "sdk/base/element_types.h"

namespace phal {
namespace {

// One sharding per array of a value (a tuple's arrays in order, nested
// tuples flattened).
using Leaves = std::vector<SpmdSharding>;

void LeafShapes(const Shape& shape, std::vector<Shape>* out) {
  if (!shape.IsTuple()) {
    out->push_back(shape);
    return;
  }
  for (const Shape& element : shape.tuple_shapes()) LeafShapes(element, out);
}

std::vector<Shape> LeafShapesOf(const Shape& shape) {
  std::vector<Shape> leaves;
  LeafShapes(shape, &leaves);
  return leaves;
}

int64_t LeafCount(const Shape& shape) {
  if (!shape.IsTuple()) return 1;
  int64_t count = 0;
  for (const Shape& element : shape.tuple_shapes()) {
    count += LeafCount(element);
  }
  return count;
}

Leaves ReplicatedLeaves(const Shape& shape) {
  Leaves leaves;
  for (const Shape& leaf : LeafShapesOf(shape)) {
    leaves.push_back(SpmdSharding::Replicated(leaf.rank()));
  }
  return leaves;
}

SpmdSharding WithoutPartial(SpmdSharding sharding) {
  sharding.partial.clear();
  return sharding;
}

bool Contains(const std::vector<int>& axes, int axis) {
  return std::find(axes.begin(), axes.end(), axis) != axes.end();
}

// The longest prefix of `axes` none of which is in `used`.
std::vector<int> UnusedPrefix(const std::vector<int>& axes,
                              const std::set<int>& used) {
  std::vector<int> prefix;
  for (int axis : axes) {
    if (used.count(axis) != 0) break;
    prefix.push_back(axis);
  }
  return prefix;
}

// The binary op a reducer computation applies, when it is one the
// partitioner combines partial results with: (a, b) -> op(a, b).
std::optional<HloOpcode> ReducerOp(const HloComputation* reducer) {
  if (reducer == nullptr || reducer->num_parameters() != 2) return std::nullopt;
  const HloInstruction* root = reducer->root_instruction();
  if (root->operand_count() != 2 ||
      root->operand(0)->opcode() != HloOpcode::kParameter ||
      root->operand(1)->opcode() != HloOpcode::kParameter ||
      root->operand(0) == root->operand(1) || !root->shape().IsArray() ||
      root->shape().rank() != 0) {
    return std::nullopt;
  }
  switch (root->opcode()) {
    case HloOpcode::kAdd:
    case HloOpcode::kMultiply:
    case HloOpcode::kMaximum:
    case HloOpcode::kMinimum:
    case HloOpcode::kAnd:
    case HloOpcode::kOr:
      return root->opcode();
    default:
      return std::nullopt;
  }
}

// Whether `init` is a constant that `op` leaves every value unchanged with,
// so that reducing each piece and combining the results equals reducing the
// whole.
bool IsIdentityOf(HloOpcode op, const HloInstruction* init) {
  if (init->opcode() != HloOpcode::kConstant || !init->shape().IsArray() ||
      init->shape().rank() != 0) {
    return false;
  }
  const ElementType type = init->shape().element_type();
  const Literal& value = init->literal();
  const bool is_float =
      type == PHAL_ELEMENT_TYPE_F16 || type == PHAL_ELEMENT_TYPE_BF16 ||
      type == PHAL_ELEMENT_TYPE_F32 || type == PHAL_ELEMENT_TYPE_F64;
  const bool is_signed =
      type == PHAL_ELEMENT_TYPE_S8 || type == PHAL_ELEMENT_TYPE_S16 ||
      type == PHAL_ELEMENT_TYPE_S32 || type == PHAL_ELEMENT_TYPE_S64;
  const bool is_unsigned =
      type == PHAL_ELEMENT_TYPE_U8 || type == PHAL_ELEMENT_TYPE_U16 ||
      type == PHAL_ELEMENT_TYPE_U32 || type == PHAL_ELEMENT_TYPE_U64 ||
      type == PHAL_ELEMENT_TYPE_PRED;
  const int bits = ElementTypeBitWidth(type);
  const double number = value.GetAsDouble(0);
  const int64_t integer = value.GetAsInt64(0);
  switch (op) {
    case HloOpcode::kAdd:
    case HloOpcode::kOr:
      return number == 0.0;
    case HloOpcode::kMultiply:
      return number == 1.0;
    case HloOpcode::kAnd:
      return type == PHAL_ELEMENT_TYPE_PRED ? integer == 1 : integer == -1;
    case HloOpcode::kMaximum:
      if (is_float) return std::isinf(number) && number < 0;
      if (is_unsigned) return integer == 0;
      return is_signed && bits < 64 && integer == -(int64_t{1} << (bits - 1));
    case HloOpcode::kMinimum:
      if (is_float) return std::isinf(number) && number > 0;
      return is_signed && bits < 64 &&
             integer == (int64_t{1} << (bits - 1)) - 1;
    default:
      return false;
  }
}

// What an op needs of its operands and gives its result.
struct OpPlan {
  std::vector<Leaves> operands;
  Leaves result;
};

class Partitioner {
 public:
  Partitioner(const HloModule& module, SpmdMesh mesh)
      : module_(module), mesh_(std::move(mesh)) {}

  StatusOr<std::unique_ptr<HloModule>> Run();

 private:
  StatusOr<std::optional<Leaves>> Annotation(const HloInstruction& source);
  OpPlan Plan(const HloInstruction& source);
  OpPlan PlanElementwise(const HloInstruction& source);
  OpPlan PlanDot(const HloInstruction& source);
  OpPlan PlanReduce(const HloInstruction& source);
  OpPlan PlanReshape(const HloInstruction& source);
  OpPlan PlanConvolution(const HloInstruction& source);
  OpPlan PlanGather(const HloInstruction& source);
  // Every operand and result leaf split as the most split operand (of
  // rank `rank`, partial results dropped) with dimension `whole`, if any,
  // joined.
  SpmdSharding MostSplit(const HloInstruction& source, int64_t rank,
                         std::optional<int64_t> whole) const;
  OpPlan PlanAlikeButWhole(const HloInstruction& source, int64_t whole);
  OpPlan PlanKeepWholeDims(const HloInstruction& source,
                           const std::vector<bool>& whole);

  const SpmdSharding& ArrayOf(const HloInstruction* value) const {
    return final_.at(value)[0];
  }

  StatusOr<HloInstruction*> Rewrite(
      const HloInstruction& source,
      const std::vector<HloInstruction*>& operands,
      const std::vector<HloComputation*>& called, RewriteContext& context);
  HloInstruction* Reshard(HloInstruction* value, const Shape& global,
                          const Leaves& from, const Leaves& to,
                          RewriteContext& context);
  HloInstruction* ReshardArray(HloInstruction* value, const Shape& global,
                               const SpmdSharding& from, const SpmdSharding& to,
                               RewriteContext& context);
  HloInstruction* AllReduce(HloInstruction* value, const std::vector<int>& axes,
                            HloOpcode op, RewriteContext& context);
  // `value`'s pieces of dimension `from` joined and its dimension `to` cut
  // over `axes` instead, by one all-to-all among the devices of `axes`.
  HloInstruction* AllToAll(HloInstruction* value, std::size_t from,
                           std::size_t to, const std::vector<int>& axes,
                           RewriteContext& context);
  HloInstruction* PartitionIndex(RewriteContext& context);
  // A while loop whose state keeps its initial value's split.
  StatusOr<HloInstruction*> RewriteWhile(const HloInstruction& source,
                                         HloInstruction* init,
                                         RewriteContext& context);
  // `original` partitioned into a new computation of the module being
  // built: its parameters arrive split as `parameters` say, and its root is
  // resharded to `root_target`.
  StatusOr<HloComputation*> PartitionComputation(
      const HloComputation& original, const std::vector<Leaves>& parameters,
      const Leaves& root_target, RewriteContext& outer);
  HloInstruction* OffsetOf(const std::vector<int>& axes, int64_t piece,
                           RewriteContext& context);
  HloComputation* Reducer(HloOpcode op, ElementType type,
                          RewriteContext& context);

  const HloModule& module_;
  SpmdMesh mesh_;
  std::map<const HloInstruction*, Leaves> final_;
  std::map<std::pair<HloInstruction*, std::string>, HloInstruction*> reshards_;
  std::map<std::pair<HloOpcode, ElementType>, HloComputation*> reducers_;
  // The computation being partitioned: the entry (parameters from their
  // annotations, the root whole) or a loop's condition or body.
  struct Scope {
    const HloComputation* original = nullptr;
    const std::vector<Leaves>* parameters = nullptr;
    const Leaves* root_target = nullptr;
    HloInstruction* partition_index = nullptr;
  };
  Scope* scope_ = nullptr;
  int64_t next_channel_ = 1;
  int64_t next_computation_ = 0;
  int64_t next_id_ = 0;
};

StatusOr<std::optional<Leaves>> Partitioner::Annotation(
    const HloInstruction& source) {
  if (!source.sharding().has_value()) return std::optional<Leaves>();
  PHAL_ASSIGN_OR_RETURN(std::vector<HloSharding> shardings,
                        LeafShardings(*source.sharding(), source.shape()));
  const std::vector<Shape> shapes = LeafShapesOf(source.shape());
  Leaves leaves;
  bool any = false;
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    const HloSharding& sharding = shardings[i];
    if (sharding.kind() == HloSharding::Kind::kManual ||
        (sharding.kind() == HloSharding::Kind::kTiled &&
         std::find(sharding.last_tile_dims().begin(),
                   sharding.last_tile_dims().end(),
                   HloSharding::Subgroup::kManual) !=
             sharding.last_tile_dims().end())) {
      return Unimplemented("%" + source.name() + " has the manual sharding " +
                           sharding.ToString() +
                           " in a program the SPMD partitioner splits; "
                           "partially manual computations are not supported");
    }
    if (sharding.kind() == HloSharding::Kind::kUnknown) {
      leaves.push_back(SpmdSharding::Replicated(shapes[i].rank()));
      continue;
    }
    any = true;
    std::optional<SpmdSharding> leaf =
        SpmdShardingFromHlo(sharding, shapes[i].rank(), mesh_);
    leaves.push_back(
        FitSharding(leaf.value_or(SpmdSharding::Replicated(shapes[i].rank())),
                    shapes[i], mesh_));
  }
  if (!any) return std::optional<Leaves>();
  return std::optional<Leaves>(std::move(leaves));
}

SpmdSharding Partitioner::MostSplit(const HloInstruction& source, int64_t rank,
                                    std::optional<int64_t> whole) const {
  SpmdSharding chosen = SpmdSharding::Replicated(rank);
  int64_t most = 1;
  for (const HloInstruction* operand : source.operands()) {
    if (operand->shape().rank() != rank) continue;
    SpmdSharding sharding = WithoutPartial(ArrayOf(operand));
    if (whole.has_value()) {
      sharding.dims[static_cast<std::size_t>(*whole)].clear();
    }
    if (sharding.TileCount(mesh_) > most) {
      most = sharding.TileCount(mesh_);
      chosen = std::move(sharding);
    }
  }
  return chosen;
}

OpPlan Partitioner::PlanElementwise(const HloInstruction& source) {
  const int64_t rank = source.shape().rank();
  const SpmdSharding chosen = MostSplit(source, rank, std::nullopt);
  OpPlan plan;
  for (const HloInstruction* operand : source.operands()) {
    plan.operands.push_back(
        {operand->shape().rank() == rank
             ? chosen
             : SpmdSharding::Replicated(operand->shape().rank())});
  }
  plan.result = {chosen};
  return plan;
}

OpPlan Partitioner::PlanAlikeButWhole(const HloInstruction& source,
                                      int64_t whole) {
  const SpmdSharding chosen =
      MostSplit(source, source.operand(0)->shape().rank(), whole);
  OpPlan plan;
  plan.operands.assign(source.operands().size(), {chosen});
  plan.result =
      Leaves(static_cast<std::size_t>(LeafCount(source.shape())), chosen);
  return plan;
}

OpPlan Partitioner::PlanDot(const HloInstruction& source) {
  const DotDimensionNumbers& numbers = source.dot_dimension_numbers();
  const HloInstruction* operands[2] = {source.operand(0), source.operand(1)};
  const SpmdSharding given[2] = {WithoutPartial(ArrayOf(operands[0])),
                                 WithoutPartial(ArrayOf(operands[1]))};
  const std::vector<int64_t>* batch[2] = {&numbers.lhs_batch_dimensions,
                                          &numbers.rhs_batch_dimensions};
  const std::vector<int64_t>* contracting[2] = {
      &numbers.lhs_contracting_dimensions, &numbers.rhs_contracting_dimensions};
  std::vector<int64_t> free[2];
  for (int side = 0; side < 2; ++side) {
    for (int64_t d = 0; d < operands[side]->shape().rank(); ++d) {
      if (!Contains(std::vector<int>(batch[side]->begin(), batch[side]->end()),
                    static_cast<int>(d)) &&
          std::find(contracting[side]->begin(), contracting[side]->end(), d) ==
              contracting[side]->end()) {
        free[side].push_back(d);
      }
    }
  }
  SpmdSharding need[2] = {
      SpmdSharding::Replicated(operands[0]->shape().rank()),
      SpmdSharding::Replicated(operands[1]->shape().rank())};
  SpmdSharding result = SpmdSharding::Replicated(source.shape().rank());
  std::set<int> used;
  const auto claim = [&](const std::vector<int>& axes) {
    for (int axis : axes) used.insert(axis);
  };
  // Batch dimensions first: split on both operands alike.
  const std::size_t batch_count = batch[0]->size();
  for (std::size_t k = 0; k < batch_count; ++k) {
    const std::size_t l = static_cast<std::size_t>((*batch[0])[k]);
    const std::size_t r = static_cast<std::size_t>((*batch[1])[k]);
    std::vector<int> axes = UnusedPrefix(given[0].dims[l], used);
    if (axes.empty()) axes = UnusedPrefix(given[1].dims[r], used);
    need[0].dims[l] = need[1].dims[r] = result.dims[k] = axes;
    claim(axes);
  }
  // Then the free dimensions, the larger operand's first, so that when
  // both want an axis the smaller operand is the one joined.
  const int first =
      operands[0]->shape().ByteSize() >= operands[1]->shape().ByteSize() ? 0
                                                                         : 1;
  for (int side : {first, 1 - first}) {
    for (std::size_t i = 0; i < free[side].size(); ++i) {
      const std::size_t d = static_cast<std::size_t>(free[side][i]);
      std::vector<int> axes = UnusedPrefix(given[side].dims[d], used);
      need[side].dims[d] = axes;
      const std::size_t position =
          batch_count + (side == 0 ? i : free[0].size() + i);
      result.dims[position] = axes;
      claim(axes);
    }
  }
  // Contracting dimensions last: split alike on both, a partial sum.
  const int64_t result_bytes = source.shape().ByteSize();
  for (std::size_t k = 0; k < contracting[0]->size(); ++k) {
    const std::size_t l = static_cast<std::size_t>((*contracting[0])[k]);
    const std::size_t r = static_cast<std::size_t>((*contracting[1])[k]);
    std::vector<int> axes[2] = {UnusedPrefix(given[0].dims[l], used),
                                UnusedPrefix(given[1].dims[r], used)};
    std::vector<int> chosen;
    if (!axes[0].empty() && axes[0] == axes[1]) {
      chosen = axes[0];
    } else {
      // One side split: splitting the other alike costs an all-reduce of
      // the result; joining the split side costs an all-gather of it.
      for (int side = 0; side < 2 && chosen.empty(); ++side) {
        if (axes[side].empty()) continue;
        const int64_t pieces = std::max<int64_t>(result.TileCount(mesh_), 1);
        const int64_t reduce_cost = 2 * result_bytes / pieces;
        const int64_t gather_cost =
            operands[side]->shape().ByteSize() /
            std::max<int64_t>(
                given[side].TileCount(mesh_) / mesh_.Size(axes[side]), 1);
        if (reduce_cost <= gather_cost) chosen = axes[side];
      }
    }
    need[0].dims[l] = need[1].dims[r] = chosen;
    claim(chosen);
    result.partial.insert(result.partial.end(), chosen.begin(), chosen.end());
  }
  std::sort(result.partial.begin(), result.partial.end());
  result.partial_op = HloOpcode::kAdd;
  OpPlan plan;
  plan.operands = {{need[0]}, {need[1]}};
  plan.result = {result};
  return plan;
}

OpPlan Partitioner::PlanReduce(const HloInstruction& source) {
  const int64_t inputs = source.operand_count() / 2;
  const HloInstruction* first = source.operand(0);
  const std::vector<int64_t>& reduced = source.dimensions();
  const std::optional<HloOpcode> op = ReducerOp(source.to_apply());
  const bool combine =
      inputs == 1 && op.has_value() && IsIdentityOf(*op, source.operand(1));
  // Partial results reduced by their own combining op stay partial: the
  // combination happens once, on the smaller reduced value.
  const bool keep_partial = combine && ArrayOf(first).partial_op == *op;
  SpmdSharding given =
      keep_partial ? ArrayOf(first) : WithoutPartial(ArrayOf(first));
  SpmdSharding need = given;
  SpmdSharding result = SpmdSharding::Replicated(
      first->shape().rank() - static_cast<int64_t>(reduced.size()));
  result.partial = given.partial;
  std::size_t next = 0;
  for (int64_t d = 0; d < first->shape().rank(); ++d) {
    const std::size_t index = static_cast<std::size_t>(d);
    if (std::find(reduced.begin(), reduced.end(), d) != reduced.end()) {
      if (combine) {
        result.partial.insert(result.partial.end(), given.dims[index].begin(),
                              given.dims[index].end());
      } else {
        need.dims[index].clear();
      }
      continue;
    }
    result.dims[next++] = given.dims[index];
  }
  std::sort(result.partial.begin(), result.partial.end());
  if (op.has_value()) result.partial_op = *op;
  OpPlan plan;
  for (int64_t i = 0; i < inputs; ++i) plan.operands.push_back({need});
  for (int64_t i = 0; i < inputs; ++i) {
    plan.operands.push_back(
        {SpmdSharding::Replicated(source.operand(inputs + i)->shape().rank())});
  }
  plan.result = Leaves(static_cast<std::size_t>(inputs), result);
  return plan;
}

OpPlan Partitioner::PlanReshape(const HloInstruction& source) {
  const std::vector<int64_t>& in = source.operand(0)->shape().dims();
  const std::vector<int64_t>& out = source.shape().dims();
  const SpmdSharding& given = ArrayOf(source.operand(0));
  SpmdSharding need = SpmdSharding::Replicated(static_cast<int64_t>(in.size()));
  SpmdSharding result =
      SpmdSharding::Replicated(static_cast<int64_t>(out.size()));
  need.partial = result.partial = given.partial;
  need.partial_op = result.partial_op = given.partial_op;
  // Walk groups of input and output dimensions of equal element counts; in
  // each, the major input dimension's split carries to the major output
  // dimension when it divides it.
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < in.size() && j < out.size()) {
    const std::size_t group_i = i;
    const std::size_t group_j = j;
    int64_t product_in = in[i++];
    int64_t product_out = out[j++];
    while (product_in != product_out) {
      if (product_in < product_out && i < in.size()) {
        product_in *= in[i++];
      } else if (j < out.size()) {
        product_out *= out[j++];
      } else {
        break;
      }
    }
    if (product_in != product_out) break;
    // The major dimensions of the group, past any of size 1.
    std::size_t major_in = group_i;
    while (major_in + 1 < i && in[major_in] == 1) ++major_in;
    std::size_t major_out = group_j;
    while (major_out + 1 < j && out[major_out] == 1) ++major_out;
    std::vector<int> axes = given.dims[major_in];
    while (!axes.empty() && out[major_out] % mesh_.Size(axes) != 0) {
      axes.pop_back();
    }
    need.dims[major_in] = axes;
    result.dims[major_out] = axes;
  }
  OpPlan plan;
  plan.operands = {{need}};
  plan.result = {result};
  return plan;
}

OpPlan Partitioner::PlanConvolution(const HloInstruction& source) {
  const ConvolutionDimensionNumbers& numbers =
      source.convolution_dimension_numbers();
  const SpmdSharding input = WithoutPartial(ArrayOf(source.operand(0)));
  const SpmdSharding kernel = WithoutPartial(ArrayOf(source.operand(1)));
  SpmdSharding need_input =
      SpmdSharding::Replicated(source.operand(0)->shape().rank());
  SpmdSharding need_kernel =
      SpmdSharding::Replicated(source.operand(1)->shape().rank());
  SpmdSharding result = SpmdSharding::Replicated(source.shape().rank());
  if (source.feature_group_count() == 1 && source.batch_group_count() == 1) {
    std::set<int> used;
    const std::vector<int> batch = UnusedPrefix(
        input.dims[static_cast<std::size_t>(numbers.input_batch_dimension)],
        used);
    for (int axis : batch) used.insert(axis);
    const std::vector<int> features =
        UnusedPrefix(kernel.dims[static_cast<std::size_t>(
                         numbers.kernel_output_feature_dimension)],
                     used);
    need_input.dims[static_cast<std::size_t>(numbers.input_batch_dimension)] =
        batch;
    result.dims[static_cast<std::size_t>(numbers.output_batch_dimension)] =
        batch;
    need_kernel.dims[static_cast<std::size_t>(
        numbers.kernel_output_feature_dimension)] = features;
    result.dims[static_cast<std::size_t>(numbers.output_feature_dimension)] =
        features;
  }
  OpPlan plan;
  plan.operands = {{need_input}, {need_kernel}};
  plan.result = {result};
  return plan;
}

OpPlan Partitioner::PlanGather(const HloInstruction& source) {
  const GatherDimensionNumbers& numbers = source.gather_dimension_numbers();
  const Shape& operand_shape = source.operand(0)->shape();
  const Shape& indices_shape = source.operand(1)->shape();
  const SpmdSharding operand = WithoutPartial(ArrayOf(source.operand(0)));
  const SpmdSharding indices = WithoutPartial(ArrayOf(source.operand(1)));
  SpmdSharding need_operand = SpmdSharding::Replicated(operand_shape.rank());
  SpmdSharding need_indices = SpmdSharding::Replicated(indices_shape.rank());
  SpmdSharding result = SpmdSharding::Replicated(source.shape().rank());
  std::set<int> used;
  const auto contains = [](const std::vector<int64_t>& list, int64_t value) {
    return std::find(list.begin(), list.end(), value) != list.end();
  };
  // Operand dimensions taken whole and never indexed pass through to
  // their offset dimension of the result.
  std::size_t window = 0;
  for (int64_t d = 0; d < operand_shape.rank(); ++d) {
    if (contains(numbers.collapsed_slice_dims, d)) continue;
    const std::size_t position =
        static_cast<std::size_t>(numbers.offset_dims[window++]);
    const std::size_t index = static_cast<std::size_t>(d);
    if (contains(numbers.start_index_map, d) ||
        source.gather_slice_sizes()[index] != operand_shape.dim(d)) {
      continue;
    }
    std::vector<int> axes = UnusedPrefix(operand.dims[index], used);
    for (int axis : axes) used.insert(axis);
    need_operand.dims[index] = axes;
    result.dims[position] = axes;
  }
  // The indices' batch dimensions are the result's other dimensions.
  std::size_t batch = 0;
  for (int64_t d = 0; d < indices_shape.rank(); ++d) {
    if (d == numbers.index_vector_dim) continue;
    while (contains(numbers.offset_dims, static_cast<int64_t>(batch))) ++batch;
    const std::size_t index = static_cast<std::size_t>(d);
    std::vector<int> axes = UnusedPrefix(indices.dims[index], used);
    for (int axis : axes) used.insert(axis);
    need_indices.dims[index] = axes;
    result.dims[batch++] = axes;
  }
  OpPlan plan;
  plan.operands = {{need_operand}, {need_indices}};
  plan.result = {result};
  return plan;
}

OpPlan Partitioner::PlanKeepWholeDims(const HloInstruction& source,
                                      const std::vector<bool>& whole) {
  SpmdSharding sharding = WithoutPartial(ArrayOf(source.operand(0)));
  for (std::size_t d = 0; d < whole.size(); ++d) {
    if (!whole[d]) sharding.dims[d].clear();
  }
  OpPlan plan;
  plan.operands.push_back({sharding});
  for (int64_t i = 1; i < source.operand_count(); ++i) {
    plan.operands.push_back(
        {SpmdSharding::Replicated(source.operand(i)->shape().rank())});
  }
  plan.result = {sharding};
  return plan;
}

OpPlan Partitioner::Plan(const HloInstruction& source) {
  const HloOpcode opcode = source.opcode();
  const Shape& shape = source.shape();
  switch (opcode) {
    case HloOpcode::kTuple: {
      OpPlan plan;
      for (const HloInstruction* operand : source.operands()) {
        plan.operands.push_back(final_.at(operand));
        const Leaves& leaves = final_.at(operand);
        plan.result.insert(plan.result.end(), leaves.begin(), leaves.end());
      }
      return plan;
    }
    case HloOpcode::kGetTupleElement: {
      const Leaves& leaves = final_.at(source.operand(0));
      int64_t first = 0;
      for (int64_t i = 0; i < source.tuple_index(); ++i) {
        first += LeafCount(source.operand(0)
                               ->shape()
                               .tuple_shapes()[static_cast<std::size_t>(i)]);
      }
      OpPlan plan;
      plan.operands = {leaves};
      plan.result.assign(leaves.begin() + first,
                         leaves.begin() + first + LeafCount(shape));
      return plan;
    }
    case HloOpcode::kCopy: {
      OpPlan plan;
      plan.operands = {final_.at(source.operand(0))};
      plan.result = final_.at(source.operand(0));
      return plan;
    }
    case HloOpcode::kBroadcast: {
      const SpmdSharding& given = ArrayOf(source.operand(0));
      SpmdSharding result = SpmdSharding::Replicated(shape.rank());
      result.partial = given.partial;
      result.partial_op = given.partial_op;
      for (std::size_t i = 0; i < source.dimensions().size(); ++i) {
        result.dims[static_cast<std::size_t>(source.dimensions()[i])] =
            given.dims[i];
      }
      OpPlan plan;
      plan.operands = {{given}};
      plan.result = {result};
      return plan;
    }
    case HloOpcode::kTranspose: {
      const SpmdSharding& given = ArrayOf(source.operand(0));
      SpmdSharding result = given;
      for (std::size_t i = 0; i < source.dimensions().size(); ++i) {
        result.dims[i] =
            given.dims[static_cast<std::size_t>(source.dimensions()[i])];
      }
      OpPlan plan;
      plan.operands = {{given}};
      plan.result = {result};
      return plan;
    }
    case HloOpcode::kReshape:
      return PlanReshape(source);
    case HloOpcode::kDot:
      return PlanDot(source);
    case HloOpcode::kReduce:
      return PlanReduce(source);
    case HloOpcode::kConvolution:
      return PlanConvolution(source);
    case HloOpcode::kSlice: {
      const Shape& operand = source.operand(0)->shape();
      std::vector<bool> whole;
      for (int64_t d = 0; d < operand.rank(); ++d) {
        const std::size_t i = static_cast<std::size_t>(d);
        whole.push_back(source.slice_starts()[i] == 0 &&
                        source.slice_limits()[i] == operand.dim(d) &&
                        source.slice_strides()[i] == 1);
      }
      return PlanKeepWholeDims(source, whole);
    }
    case HloOpcode::kPad: {
      std::vector<bool> whole;
      for (const PaddingDimension& d : source.padding_config().dimensions) {
        whole.push_back(d.low == 0 && d.high == 0 && d.interior == 0);
      }
      return PlanKeepWholeDims(source, whole);
    }
    case HloOpcode::kReverse: {
      std::vector<bool> whole(static_cast<std::size_t>(shape.rank()), true);
      for (int64_t d : source.dimensions()) {
        whole[static_cast<std::size_t>(d)] = false;
      }
      return PlanKeepWholeDims(source, whole);
    }
    case HloOpcode::kDynamicSlice: {
      const Shape& operand = source.operand(0)->shape();
      std::vector<bool> whole;
      for (int64_t d = 0; d < operand.rank(); ++d) {
        whole.push_back(shape.dim(d) == operand.dim(d));
      }
      return PlanKeepWholeDims(source, whole);
    }
    case HloOpcode::kDynamicUpdateSlice: {
      const Shape& operand = source.operand(0)->shape();
      const Shape& update = source.operand(1)->shape();
      std::vector<bool> whole;
      for (int64_t d = 0; d < operand.rank(); ++d) {
        whole.push_back(update.dim(d) == operand.dim(d));
      }
      OpPlan plan = PlanKeepWholeDims(source, whole);
      plan.operands[1] = plan.operands[0];
      return plan;
    }
    case HloOpcode::kReduceWindow: {
      // Dimensions the window leaves alone keep their split, alike on
      // every input; the initial values are whole.
      const int64_t inputs = source.operand_count() / 2;
      std::vector<bool> whole;
      for (const WindowDimension& d : source.window().dimensions) {
        whole.push_back(d.size == 1 && d.stride == 1 && d.padding_low == 0 &&
                        d.padding_high == 0 && d.base_dilation == 1 &&
                        d.window_dilation == 1);
      }
      SpmdSharding sharding = WithoutPartial(ArrayOf(source.operand(0)));
      for (std::size_t d = 0; d < whole.size(); ++d) {
        if (!whole[d]) sharding.dims[d].clear();
      }
      OpPlan plan;
      for (int64_t i = 0; i < inputs; ++i) plan.operands.push_back({sharding});
      for (int64_t i = 0; i < inputs; ++i) {
        plan.operands.push_back({SpmdSharding::Replicated(0)});
      }
      plan.result = Leaves(static_cast<std::size_t>(inputs), sharding);
      return plan;
    }
    case HloOpcode::kGather:
      if (source.gather_dimension_numbers().operand_batching_dims.empty()) {
        return PlanGather(source);
      }
      break;
    case HloOpcode::kSort:
    case HloOpcode::kConcatenate:
      // Every dimension but the sorted or concatenated one keeps the most
      // split operand's split, alike on all operands.
      return PlanAlikeButWhole(source, source.dimensions(0));
    default:
      break;
  }
  const bool elementwise = IsElementwise(opcode) && shape.IsArray() &&
                           (opcode != HloOpcode::kBitcastConvert ||
                            source.operand(0)->shape().rank() == shape.rank());
  if (elementwise) return PlanElementwise(source);
  OpPlan plan;
  for (const HloInstruction* operand : source.operands()) {
    plan.operands.push_back(ReplicatedLeaves(operand->shape()));
  }
  plan.result = ReplicatedLeaves(shape);
  return plan;
}

HloInstruction* Partitioner::PartitionIndex(RewriteContext& context) {
  if (scope_->partition_index != nullptr) return scope_->partition_index;
  HloInstruction* id = context.AddNew(HloOpcode::kPartitionId,
                                      Shape(PHAL_ELEMENT_TYPE_U32, {}), {});
  scope_->partition_index = context.AddNew(
      HloOpcode::kConvert, Shape(PHAL_ELEMENT_TYPE_S32, {}), {id});
  return scope_->partition_index;
}

HloInstruction* Partitioner::OffsetOf(const std::vector<int>& axes,
                                      int64_t piece, RewriteContext& context) {
  std::vector<int64_t> offsets;
  for (int64_t device = 0; device < mesh_.device_count(); ++device) {
    offsets.push_back(mesh_.TileIndex(device, axes) * piece);
  }
  const Shape table_shape(PHAL_ELEMENT_TYPE_S32, {mesh_.device_count()});
  HloInstruction* table = context.AddNew(
      HloOpcode::kConstant, table_shape, {}, [&](HloInstruction& constant) {
        constant.set_literal(Literal::FromValues(
            PHAL_ELEMENT_TYPE_S32, {mesh_.device_count()}, offsets));
      });
  HloInstruction* entry = context.AddNew(
      HloOpcode::kDynamicSlice, Shape(PHAL_ELEMENT_TYPE_S32, {1}),
      {table, PartitionIndex(context)},
      [](HloInstruction& slice) { slice.set_dynamic_slice_sizes({1}); });
  return context.AddNew(HloOpcode::kReshape, Shape(PHAL_ELEMENT_TYPE_S32, {}),
                        {entry});
}

HloComputation* Partitioner::Reducer(HloOpcode op, ElementType type,
                                     RewriteContext& context) {
  auto [found, added] = reducers_.emplace(std::make_pair(op, type), nullptr);
  if (added) {
    found->second = context.AddBinaryComputation(
        op, type, "spmd_" + std::string(HloOpcodeName(op)));
  }
  return found->second;
}

HloInstruction* Partitioner::AllReduce(HloInstruction* value,
                                       const std::vector<int>& axes,
                                       HloOpcode op, RewriteContext& context) {
  HloComputation* reducer = Reducer(op, value->shape().element_type(), context);
  HloInstruction* reduced =
      context.AddNew(HloOpcode::kAllReduce, value->shape(), {value},
                     [&](HloInstruction& all_reduce) {
                       all_reduce.set_replica_groups(
                           ReplicaGroups::FromList(mesh_.Groups(axes)));
                       all_reduce.set_channel_id(next_channel_++);
                       all_reduce.set_use_global_device_ids(true);
                     });
  reduced->AppendCalledComputation(reducer);
  return reduced;
}

HloInstruction* Partitioner::AllToAll(HloInstruction* value, std::size_t from,
                                      std::size_t to,
                                      const std::vector<int>& axes,
                                      RewriteContext& context) {
  const int64_t g = mesh_.Size(axes);
  const ElementType type = value->shape().element_type();
  const std::vector<int64_t> dims = value->shape().dims();
  const std::size_t rank = dims.size();
  // Cut dimension `to` into [g, rest] and bring the g pieces to the front.
  std::vector<int64_t> split;
  for (std::size_t d = 0; d < rank; ++d) {
    if (d == to) {
      split.push_back(g);
      split.push_back(dims[d] / g);
    } else {
      split.push_back(dims[d]);
    }
  }
  HloInstruction* cut =
      context.AddNew(HloOpcode::kReshape, Shape(type, split), {value});
  std::vector<int64_t> front = {static_cast<int64_t>(to)};
  for (std::size_t d = 0; d <= rank; ++d) {
    if (d != to) front.push_back(static_cast<int64_t>(d));
  }
  HloInstruction* gathered = AddTranspose(context, cut, front);
  HloInstruction* exchanged =
      context.AddNew(HloOpcode::kAllToAll, gathered->shape(), {gathered},
                     [&](HloInstruction& all_to_all) {
                       all_to_all.set_dimensions({0});
                       all_to_all.set_replica_groups(
                           ReplicaGroups::FromList(mesh_.Groups(axes)));
                       all_to_all.set_channel_id(next_channel_++);
                     });
  // The received pieces, in group order, are the tiles of `from`: move
  // them before it and merge.
  std::vector<int64_t> back;
  for (std::size_t d = 1; d <= rank; ++d) {
    if (d == from + 1) back.push_back(0);
    back.push_back(static_cast<int64_t>(d));
  }
  HloInstruction* placed = AddTranspose(context, exchanged, back);
  std::vector<int64_t> merged = dims;
  merged[from] *= g;
  merged[to] /= g;
  return context.AddNew(HloOpcode::kReshape, Shape(type, merged), {placed});
}

HloInstruction* Partitioner::ReshardArray(HloInstruction* value,
                                          const Shape& global,
                                          const SpmdSharding& from,
                                          const SpmdSharding& to,
                                          RewriteContext& context) {
  if (from == to) return value;
  const auto key = std::make_pair(value, to.ToString());
  const auto cached = reshards_.find(key);
  if (cached != reshards_.end()) return cached->second;
  SpmdSharding current = from;
  const ElementType type = value->shape().element_type();
  if (!current.partial.empty()) {
    // A reduce-scatter when `to` splits one dimension further over exactly
    // the partial axes; an all-reduce otherwise.
    std::optional<std::size_t> scatter;
    for (std::size_t d = 0; d < to.dims.size(); ++d) {
      const std::vector<int>& have = current.dims[d];
      const std::vector<int>& want = to.dims[d];
      if (want.size() <= have.size() ||
          !std::equal(have.begin(), have.end(), want.begin())) {
        continue;
      }
      std::vector<int> extra(
          want.begin() + static_cast<std::ptrdiff_t>(have.size()), want.end());
      std::sort(extra.begin(), extra.end());
      if (extra == current.partial && !scatter.has_value()) scatter = d;
    }
    const bool add = current.partial_op == HloOpcode::kAdd;
    if (scatter.has_value() && add) {
      const std::size_t d = *scatter;
      const std::vector<int> axes(
          to.dims[d].begin() +
              static_cast<std::ptrdiff_t>(current.dims[d].size()),
          to.dims[d].end());
      Shape shape = value->shape();
      shape.mutable_dims()[d] /= mesh_.Size(axes);
      HloInstruction* scattered = context.AddNew(
          HloOpcode::kReduceScatter, shape, {value},
          [&](HloInstruction& reduce_scatter) {
            reduce_scatter.set_dimensions({static_cast<int64_t>(d)});
            reduce_scatter.set_replica_groups(
                ReplicaGroups::FromList(mesh_.Groups(axes)));
            reduce_scatter.set_channel_id(next_channel_++);
            reduce_scatter.set_use_global_device_ids(true);
          });
      scattered->AppendCalledComputation(
          Reducer(HloOpcode::kAdd, type, context));
      value = scattered;
      current.dims[d] = to.dims[d];
    } else {
      value = AllReduce(value, current.partial, current.partial_op, context);
    }
    current.partial.clear();
  }
  // An axis group that leaves one dimension for another moves by
  // all-to-all: (g - 1) / g of a piece instead of (g - 1) pieces.
  for (std::size_t i = 0; i < current.dims.size(); ++i) {
    std::vector<int>& have = current.dims[i];
    std::size_t common = 0;
    while (common < have.size() && common < to.dims[i].size() &&
           have[common] == to.dims[i][common]) {
      ++common;
    }
    if (common == have.size()) continue;
    const std::vector<int> axes(
        have.begin() + static_cast<std::ptrdiff_t>(common), have.end());
    for (std::size_t j = 0; j < current.dims.size(); ++j) {
      std::vector<int> moved = current.dims[j];
      moved.insert(moved.end(), axes.begin(), axes.end());
      if (j == i || moved != to.dims[j]) continue;
      value = AllToAll(value, i, j, axes, context);
      have.resize(common);
      current.dims[j] = moved;
      break;
    }
  }
  // Join the pieces of every dimension `to` splits less.
  for (std::size_t d = 0; d < current.dims.size(); ++d) {
    std::vector<int>& have = current.dims[d];
    const std::vector<int>& want = to.dims[d];
    std::size_t common = 0;
    while (common < have.size() && common < want.size() &&
           have[common] == want[common]) {
      ++common;
    }
    if (common == have.size()) continue;
    const std::vector<int> axes(
        have.begin() + static_cast<std::ptrdiff_t>(common), have.end());
    Shape shape = value->shape();
    shape.mutable_dims()[d] *= mesh_.Size(axes);
    value = context.AddNew(
        HloOpcode::kAllGather, shape, {value}, [&](HloInstruction& all_gather) {
          all_gather.set_dimensions({static_cast<int64_t>(d)});
          all_gather.set_replica_groups(
              ReplicaGroups::FromList(mesh_.Groups(axes)));
          all_gather.set_channel_id(next_channel_++);
          all_gather.set_use_global_device_ids(true);
        });
    have.resize(common);
  }
  // Take this device's piece of every dimension `to` splits more.
  bool slice = false;
  for (std::size_t d = 0; d < current.dims.size(); ++d) {
    slice |= to.dims[d].size() > current.dims[d].size();
  }
  if (slice) {
    const Shape local = LocalShape(global, to, mesh_);
    std::vector<HloInstruction*> operands = {value};
    HloInstruction* zero = nullptr;
    for (std::size_t d = 0; d < current.dims.size(); ++d) {
      const std::vector<int>& have = current.dims[d];
      const std::vector<int>& want = to.dims[d];
      if (want.size() == have.size()) {
        if (zero == nullptr) {
          zero = context.AddNew(HloOpcode::kConstant,
                                Shape(PHAL_ELEMENT_TYPE_S32, {}), {},
                                [](HloInstruction& constant) {
                                  constant.set_literal(Literal::Scalar<int32_t>(
                                      PHAL_ELEMENT_TYPE_S32, 0));
                                });
        }
        operands.push_back(zero);
        continue;
      }
      const std::vector<int> axes(
          want.begin() + static_cast<std::ptrdiff_t>(have.size()), want.end());
      operands.push_back(
          OffsetOf(axes, local.dim(static_cast<int64_t>(d)), context));
    }
    Shape shape = value->shape();
    shape.mutable_dims() = local.dims();
    value =
        context.AddNew(HloOpcode::kDynamicSlice, shape, operands,
                       [&](HloInstruction& dynamic_slice) {
                         dynamic_slice.set_dynamic_slice_sizes(local.dims());
                       });
  }
  reshards_[key] = value;
  return value;
}

HloInstruction* Partitioner::Reshard(HloInstruction* value, const Shape& global,
                                     const Leaves& from, const Leaves& to,
                                     RewriteContext& context) {
  if (from == to) return value;
  if (!global.IsTuple()) {
    return ReshardArray(value, global, from[0], to[0], context);
  }
  std::vector<HloInstruction*> elements;
  std::size_t first = 0;
  for (std::size_t i = 0; i < global.tuple_shapes().size(); ++i) {
    const Shape& element = global.tuple_shapes()[i];
    const std::size_t count = static_cast<std::size_t>(LeafCount(element));
    const Leaves element_from(
        from.begin() + static_cast<std::ptrdiff_t>(first),
        from.begin() + static_cast<std::ptrdiff_t>(first + count));
    const Leaves element_to(
        to.begin() + static_cast<std::ptrdiff_t>(first),
        to.begin() + static_cast<std::ptrdiff_t>(first + count));
    first += count;
    HloInstruction* part = context.AddNew(
        HloOpcode::kGetTupleElement, value->shape().tuple_shapes()[i], {value},
        [&](HloInstruction& get) {
          get.set_tuple_index(static_cast<int64_t>(i));
        });
    elements.push_back(
        Reshard(part, element, element_from, element_to, context));
  }
  std::vector<Shape> shapes;
  for (const HloInstruction* element : elements) {
    shapes.push_back(element->shape());
  }
  return context.AddNew(HloOpcode::kTuple, Shape::Tuple(std::move(shapes)),
                        elements);
}

Shape LocalShapeOf(const Shape& global, const Leaves& leaves,
                   const SpmdMesh& mesh, std::size_t* next) {
  if (!global.IsTuple()) return LocalShape(global, leaves[(*next)++], mesh);
  std::vector<Shape> elements;
  for (const Shape& element : global.tuple_shapes()) {
    elements.push_back(LocalShapeOf(element, leaves, mesh, next));
  }
  Shape tuple = Shape::Tuple(std::move(elements));
  return tuple;
}

HloSharding HloShardingOf(const Leaves& leaves, const Shape& shape,
                          const SpmdMesh& mesh) {
  if (!shape.IsTuple()) return SpmdShardingToHlo(leaves[0], mesh);
  std::vector<HloSharding> elements;
  for (const SpmdSharding& leaf : leaves) {
    elements.push_back(SpmdShardingToHlo(leaf, mesh));
  }
  return HloSharding::Tuple(std::move(elements));
}

StatusOr<HloInstruction*> Partitioner::Rewrite(
    const HloInstruction& source, const std::vector<HloInstruction*>& operands,
    const std::vector<HloComputation*>& called, RewriteContext& context) {
  if (source.parent() != scope_->original) return nullptr;
  if (IsCollective(source.opcode())) {
    return Unimplemented("%" + source.name() + " is a " +
                         std::string(HloOpcodeName(source.opcode())) +
                         " in a program the SPMD partitioner splits; a "
                         "global program has no collectives of its own");
  }
  PHAL_ASSIGN_OR_RETURN(std::optional<Leaves> annotation, Annotation(source));
  if (source.opcode() == HloOpcode::kParameter) {
    Leaves leaves;
    if (scope_->parameters != nullptr) {
      leaves = (*scope_->parameters)[static_cast<std::size_t>(
          source.parameter_number())];
    } else {
      leaves = annotation.value_or(ReplicatedLeaves(source.shape()));
      if (source.shape().IsTuple()) leaves = ReplicatedLeaves(source.shape());
    }
    for (SpmdSharding& leaf : leaves) leaf.partial.clear();
    std::size_t next = 0;
    auto parameter = std::make_unique<HloInstruction>(
        HloOpcode::kParameter, source.name(),
        LocalShapeOf(source.shape(), leaves, mesh_, &next));
    parameter->set_parameter_number(source.parameter_number());
    if (scope_->parameters == nullptr && !source.shape().IsTuple() &&
        !leaves[0].IsReplicated()) {
      parameter->set_sharding(SpmdShardingToHlo(leaves[0], mesh_));
    }
    final_[&source] = leaves;
    return context.computation()->AddInstruction(std::move(parameter));
  }
  HloInstruction* value = nullptr;
  Leaves natural;
  if (source.opcode() == HloOpcode::kWhile) {
    PHAL_ASSIGN_OR_RETURN(value, RewriteWhile(source, operands[0], context));
    natural = final_.at(source.operand(0));
    for (SpmdSharding& leaf : natural) leaf.partial.clear();
  } else {
    const OpPlan plan = Plan(source);
    natural = plan.result;
    std::vector<HloInstruction*> local_operands;
    for (std::size_t i = 0; i < operands.size(); ++i) {
      const HloInstruction* operand = source.operand(static_cast<int64_t>(i));
      local_operands.push_back(Reshard(operands[i], operand->shape(),
                                       final_.at(operand), plan.operands[i],
                                       context));
    }
    std::size_t next = 0;
    auto clone =
        CloneInstruction(source, local_operands, called, source.name());
    clone->mutable_shape() =
        LocalShapeOf(source.shape(), plan.result, mesh_, &next);
    clone->set_sharding(std::nullopt);
    if (source.opcode() == HloOpcode::kSlice) {
      std::vector<int64_t> limits = source.slice_limits();
      const Shape& local = local_operands[0]->shape();
      for (std::size_t d = 0; d < limits.size(); ++d) {
        if (!plan.result[0].dims[d].empty()) {
          limits[d] = local.dim(static_cast<int64_t>(d));
        }
      }
      clone->set_slice(source.slice_starts(), limits, source.slice_strides());
    }
    if (source.opcode() == HloOpcode::kDynamicSlice) {
      clone->set_dynamic_slice_sizes(clone->shape().dims());
    }
    if (source.opcode() == HloOpcode::kGather) {
      std::vector<int64_t> sizes = source.gather_slice_sizes();
      const Shape& local = local_operands[0]->shape();
      for (std::size_t d = 0; d < sizes.size(); ++d) {
        sizes[d] = std::min(sizes[d], local.dim(static_cast<int64_t>(d)));
      }
      clone->set_gather_slice_sizes(std::move(sizes));
    }
    value = context.computation()->AddInstruction(std::move(clone));
  }
  Leaves result = annotation.value_or(natural);
  value = Reshard(value, source.shape(), natural, result, context);
  if (&source == scope_->original->root_instruction()) {
    Leaves target = result;
    if (scope_->root_target != nullptr) {
      target = *scope_->root_target;
    } else {
      for (SpmdSharding& leaf : target) leaf.partial.clear();
    }
    value = Reshard(value, source.shape(), result, target, context);
    result = target;
    if (scope_->root_target == nullptr &&
        !(source.shape().IsArray() && result[0].IsReplicated())) {
      value->set_sharding(HloShardingOf(result, source.shape(), mesh_));
    }
  }
  final_[&source] = result;
  return value;
}

StatusOr<HloInstruction*> Partitioner::RewriteWhile(
    const HloInstruction& source, HloInstruction* init,
    RewriteContext& context) {
  // The loop state keeps the split its initial value has: the body starts
  // from it and reshards its result back to it, so every iteration sees the
  // same pieces.
  const HloInstruction* operand = source.operand(0);
  Leaves state = final_.at(operand);
  for (SpmdSharding& leaf : state) leaf.partial.clear();
  HloInstruction* local_init =
      Reshard(init, operand->shape(), final_.at(operand), state, context);
  const std::vector<Leaves> parameters = {state};
  const Leaves whole_predicate = {SpmdSharding::Replicated(0)};
  PHAL_ASSIGN_OR_RETURN(
      HloComputation * condition,
      PartitionComputation(*source.while_condition(), parameters,
                           whole_predicate, context));
  PHAL_ASSIGN_OR_RETURN(
      HloComputation * body,
      PartitionComputation(*source.while_body(), parameters, state, context));
  std::size_t next = 0;
  auto loop = std::make_unique<HloInstruction>(
      HloOpcode::kWhile, source.name(),
      LocalShapeOf(source.shape(), state, mesh_, &next));
  loop->AppendOperand(local_init);
  loop->AppendCalledComputation(condition);
  loop->AppendCalledComputation(body);
  loop->CopyAttributesFrom(source);
  loop->set_sharding(std::nullopt);
  return context.computation()->AddInstruction(std::move(loop));
}

StatusOr<HloComputation*> Partitioner::PartitionComputation(
    const HloComputation& original, const std::vector<Leaves>& parameters,
    const Leaves& root_target, RewriteContext& outer) {
  HloModule* module = outer.module();
  auto computation = std::make_unique<HloComputation>(
      original.name() + ".spmd" + std::to_string(next_computation_++));
  RewriteContext context(module, computation.get(), &next_id_);
  Scope scope;
  scope.original = &original;
  scope.parameters = &parameters;
  scope.root_target = &root_target;
  Scope* saved = scope_;
  scope_ = &scope;
  std::map<const HloInstruction*, HloInstruction*> mapped;
  Status status = OkStatus();
  for (const HloInstruction* instruction : original.instructions()) {
    std::vector<HloInstruction*> operands;
    for (const HloInstruction* operand : instruction->operands()) {
      operands.push_back(mapped.at(operand));
    }
    std::vector<HloComputation*> called;
    for (const HloComputation* callee : instruction->called_computations()) {
      called.push_back(module->GetComputationWithName(callee->name()));
    }
    StatusOr<HloInstruction*> value =
        Rewrite(*instruction, operands, called, context);
    if (!value.ok()) {
      status = value.status();
      break;
    }
    mapped[instruction] = *value;
  }
  scope_ = saved;
  PHAL_RETURN_IF_ERROR(status);
  computation->set_root_instruction(mapped.at(original.root_instruction()));
  return module->AddComputation(std::move(computation));
}

StatusOr<std::unique_ptr<HloModule>> Partitioner::Run() {
  for (const HloComputation* computation : module_.computations()) {
    for (const HloInstruction* instruction : computation->instructions()) {
      if (instruction->channel_id().has_value()) {
        next_channel_ = std::max(next_channel_, *instruction->channel_id() + 1);
      }
    }
  }
  Scope entry;
  entry.original = module_.entry_computation();
  scope_ = &entry;
  next_id_ = int64_t{1} << 20;
  PHAL_ASSIGN_OR_RETURN(
      std::unique_ptr<HloModule> rewritten,
      RewriteModule(module_,
                    [this](const HloInstruction& source,
                           const std::vector<HloInstruction*>& operands,
                           const std::vector<HloComputation*>& called,
                           RewriteContext& context) {
                      return Rewrite(source, operands, called, context);
                    }));
  scope_ = nullptr;
  // Loops partitioned with their state split leave their whole-array
  // bodies uncalled.
  const RewriteFn copy =
      [](const HloInstruction&, const std::vector<HloInstruction*>&,
         const std::vector<HloComputation*>&,
         RewriteContext&) -> StatusOr<HloInstruction*> { return nullptr; };
  PHAL_ASSIGN_OR_RETURN(std::unique_ptr<HloModule> partitioned,
                        RewriteModule(*rewritten, copy, /*drop_dead=*/true));
  partitioned->set_num_partitions(mesh_.device_count());
  partitioned->set_replica_count(1);
  partitioned->set_spmd_global(false);
  return partitioned;
}

// Every sharding the entry computation's instructions carry, tuples
// flattened.
void CollectShardings(const HloSharding& sharding,
                      std::vector<const HloSharding*>* out) {
  if (sharding.IsTuple()) {
    for (const HloSharding& element : sharding.tuple_elements()) {
      CollectShardings(element, out);
    }
    return;
  }
  out->push_back(&sharding);
}

// The mesh order under which most of the program's shardings can be
// expressed (all of them, for any power-of-two device count).
SpmdMesh ChooseMesh(const HloModule& module) {
  std::vector<const HloSharding*> shardings;
  std::vector<int64_t> ranks;
  for (const HloInstruction* instruction :
       module.entry_computation()->instructions()) {
    if (!instruction->sharding().has_value()) continue;
    std::vector<const HloSharding*> leaves;
    CollectShardings(*instruction->sharding(), &leaves);
    const std::vector<Shape> shapes = LeafShapesOf(instruction->shape());
    for (std::size_t i = 0; i < leaves.size(); ++i) {
      if (leaves[i]->kind() != HloSharding::Kind::kTiled) continue;
      shardings.push_back(leaves[i]);
      ranks.push_back(shapes[std::min(i, shapes.size() - 1)].rank());
    }
  }
  std::vector<SpmdMesh> candidates =
      SpmdMesh::Candidates(module.num_partitions());
  std::size_t best = 0;
  std::size_t best_count = 0;
  for (std::size_t c = 0; c < candidates.size(); ++c) {
    std::size_t count = 0;
    for (std::size_t i = 0; i < shardings.size(); ++i) {
      count += SpmdShardingFromHlo(*shardings[i], ranks[i], candidates[c])
                   .has_value();
    }
    if (count > best_count) {
      best = c;
      best_count = count;
    }
    if (count == shardings.size()) break;
  }
  return candidates[best];
}

}  // namespace

StatusOr<std::unique_ptr<HloModule>> PartitionSpmd(const HloModule& module) {
  if (!module.spmd_global()) {
    return InvalidArgument(
        "module " + module.name() +
        " is not a global SPMD program: nothing to partition");
  }
  if (module.replica_count() != 1) {
    return Unimplemented("module " + module.name() + " has " +
                         std::to_string(module.replica_count()) +
                         " replicas; the SPMD partitioner splits programs "
                         "over partitions only");
  }
  PHAL_ASSIGN_OR_RETURN(std::unique_ptr<HloModule> inlined,
                        MakeCallInliningPass()->Run(module));
  inlined->set_spmd_global(true);
  inlined->set_num_partitions(module.num_partitions());
  Partitioner partitioner(*inlined, ChooseMesh(*inlined));
  return partitioner.Run();
}

StatusOr<std::unique_ptr<HloModule>> PartitionIfGlobal(
    std::unique_ptr<HloModule> module) {
  if (module == nullptr || !module->spmd_global()) return module;
  PHAL_ASSIGN_OR_RETURN(std::unique_ptr<HloModule> partitioned,
                        PartitionSpmd(*module));
  const std::string dump = CompilerOptionsFromEnvironment().dump_directory;
  if (!dump.empty()) {
    std::error_code error;
    std::filesystem::create_directories(dump, error);
    const std::string path = dump + "/00-spmd-partitioning.hlo";
    std::ofstream file(path);
    file << HloModuleToText(*partitioned);
    if (!file) return Unavailable("PHAL_DUMP: cannot write " + path);
  }
  return partitioned;
}

StatusOr<CommunicationCost> CommunicationCostOf(const HloModule& module) {
  ProcessGrid grid;
  grid.replicas = module.replica_count();
  grid.partitions = module.num_partitions();
  std::vector<int64_t> sent(static_cast<std::size_t>(grid.process_count()), 0);
  CommunicationCost cost;
  for (const HloComputation* computation : module.computations()) {
    for (const HloInstruction* instruction : computation->instructions()) {
      const HloOpcode opcode = instruction->opcode();
      if (!IsCollective(opcode)) continue;
      ++cost.collective_count;
      PHAL_ASSIGN_OR_RETURN(std::vector<std::vector<int64_t>> groups,
                            ProcessGroupsOf(*instruction, grid));
      int64_t operand_bytes = 0;
      for (const HloInstruction* operand : instruction->operands()) {
        operand_bytes +=
            operand->shape().IsTuple() ? 0 : operand->shape().ByteSize();
      }
      for (const std::vector<int64_t>& group : groups) {
        const int64_t g = static_cast<int64_t>(group.size());
        if (g < 1) continue;
        int64_t bytes = 0;
        switch (opcode) {
          case HloOpcode::kAllReduce:
            bytes = 2 * (g - 1) * operand_bytes / g;
            break;
          case HloOpcode::kAllGather:
            bytes = (g - 1) * operand_bytes;
            break;
          case HloOpcode::kReduceScatter:
          case HloOpcode::kAllToAll:
            bytes = (g - 1) * operand_bytes / g;
            break;
          case HloOpcode::kCollectivePermute:
            // Groups are {source, target}: only the source sends.
            sent[static_cast<std::size_t>(group[0])] += operand_bytes;
            continue;
          default:
            bytes = g > 1 ? operand_bytes : 0;
            break;
        }
        for (int64_t process : group) {
          sent[static_cast<std::size_t>(process)] += bytes;
        }
      }
    }
  }
  for (int64_t bytes : sent) cost.bytes_sent = std::max(cost.bytes_sent, bytes);
  return cost;
}

}  // namespace phal
