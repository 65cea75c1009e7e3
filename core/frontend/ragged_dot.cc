#include "core/frontend/ragged_dot.h"

#include <algorithm>
#include <utility>

namespace phal {
namespace {

bool Contains(const std::vector<int64_t>& dims, int64_t d) {
  return std::find(dims.begin(), dims.end(), d) != dims.end();
}

// The dimensions of an operand of `rank` that are neither batch nor
// contracting, in order.
std::vector<int64_t> FreeDimensions(int64_t rank,
                                    const std::vector<int64_t>& batch,
                                    const std::vector<int64_t>& contracting) {
  std::vector<int64_t> free;
  for (int64_t d = 0; d < rank; ++d) {
    if (!Contains(batch, d) && !Contains(contracting, d)) free.push_back(d);
  }
  return free;
}

int64_t IndexOf(const std::vector<int64_t>& dims, int64_t d) {
  return std::find(dims.begin(), dims.end(), d) - dims.begin();
}

class RaggedDotLowering {
 public:
  RaggedDotLowering(const RaggedDot& dot, HloBuilder& b,
                    const ComputationSink& add_computation)
      : dot_(dot), b_(b), add_computation_(add_computation) {}

  StatusOr<HloInstruction*> Lower() {
    PHAL_RETURN_IF_ERROR(Validate());
    const RaggedDotDimensionNumbers& n = dot_.numbers;
    const int64_t ragged = n.lhs_ragged_dimensions[0];
    if (Contains(n.dot.lhs_batch_dimensions, ragged)) {
      PHAL_RETURN_IF_ERROR(ExpectNoGroupDimension("batch"));
      return Dot(dot_.lhs, dot_.rhs, n.dot);
    }
    PHAL_ASSIGN_OR_RETURN(bounds_, GroupBounds());
    if (Contains(n.dot.lhs_contracting_dimensions, ragged)) {
      PHAL_RETURN_IF_ERROR(ExpectNoGroupDimension("contracting"));
      return RaggedContracting(ragged);
    }
    return RaggedNonContracting(ragged);
  }

 private:
  const Shape& lhs() const { return dot_.lhs->shape(); }
  const Shape& rhs() const { return dot_.rhs->shape(); }

  Status Validate() const {
    const RaggedDotDimensionNumbers& n = dot_.numbers;
    const Shape& sizes = dot_.group_sizes->shape();
    if (sizes.rank() != 1 || IsFloat(sizes.element_type()) ||
        IsComplex(sizes.element_type()) ||
        sizes.element_type() == PHAL_ELEMENT_TYPE_PRED) {
      return InvalidArgument(
          "ragged_dot group_sizes must be a rank-1 integer tensor "
          "(one size per group), got " +
          sizes.ToString());
    }
    if (n.lhs_ragged_dimensions.size() != 1 || n.lhs_ragged_dimensions[0] < 0 ||
        n.lhs_ragged_dimensions[0] >= lhs().rank()) {
      std::string listed;
      for (int64_t d : n.lhs_ragged_dimensions)
        listed += (listed.empty() ? "" : ", ") + std::to_string(d);
      return InvalidArgument(
          "ragged_dot needs exactly one lhs ragged dimension, a dimension "
          "of " +
          lhs().ToString() + "; got [" + listed + "]");
    }
    if (n.dot.lhs_batch_dimensions.size() !=
            n.dot.rhs_batch_dimensions.size() ||
        n.dot.lhs_contracting_dimensions.size() !=
            n.dot.rhs_contracting_dimensions.size()) {
      return InvalidArgument(
          "ragged_dot needs as many batch and contracting dimensions on the "
          "lhs as on the rhs");
    }
    if (n.rhs_group_dimensions.size() > 1) {
      return InvalidArgument(
          "ragged_dot takes at most one rhs group dimension");
    }
    return OkStatus();
  }

  Status ExpectNoGroupDimension(const std::string& mode) const {
    if (dot_.numbers.rhs_group_dimensions.empty()) return OkStatus();
    return InvalidArgument("ragged_dot with a ragged " + mode +
                           " dimension takes no rhs group dimension");
  }

  StatusOr<HloInstruction*> Dot(HloInstruction* lhs, HloInstruction* rhs,
                                DotDimensionNumbers numbers) {
    auto dot =
        b_.Create(HloOpcode::kDot, Shape(dot_.result_type, {}), {lhs, rhs});
    dot->set_dot_dimension_numbers(std::move(numbers));
    return b_.Add(std::move(dot));
  }

  // The sum of `x` over `dimension`, in x's element type.
  StatusOr<HloInstruction*> Sum(HloInstruction* x, int64_t dimension) {
    const ElementType type = x->shape().element_type();
    HloBuilder adder(dot_.helper_computation_name + "." +
                     std::to_string(helpers_++));
    const Shape scalar(type, {});
    HloInstruction* a = adder.AddParameter(scalar);
    HloInstruction* c = adder.AddParameter(scalar);
    PHAL_ASSIGN_OR_RETURN(HloInstruction * sum,
                          adder.Binary(HloOpcode::kAdd, a, c));
    HloComputation* add = add_computation_(adder.Build(sum));
    std::vector<int64_t> dims = x->shape().dims();
    dims.erase(dims.begin() + dimension);
    PHAL_ASSIGN_OR_RETURN(HloInstruction * zero, b_.ScalarConstant(type, 0));
    auto reduce = b_.Create(HloOpcode::kReduce, Shape(type, dims), {x, zero});
    reduce->set_dimensions({dimension});
    reduce->AppendCalledComputation(add);
    return b_.Add(std::move(reduce));
  }

  // Group j covers [starts[j], ends[j]) of the ragged dimension, ends being
  // the running sum of the sizes (s64, [groups]).
  StatusOr<std::pair<HloInstruction*, HloInstruction*>> GroupBounds() {
    PHAL_ASSIGN_OR_RETURN(HloInstruction * sizes,
                          b_.Convert(dot_.group_sizes, PHAL_ELEMENT_TYPE_S64));
    const int64_t groups = sizes->shape().dim(0);
    const Shape square(PHAL_ELEMENT_TYPE_S64, {groups, groups});
    PHAL_ASSIGN_OR_RETURN(HloInstruction * spread,
                          b_.Broadcast(sizes, square.dims(), {0}));
    PHAL_ASSIGN_OR_RETURN(HloInstruction * i, b_.Iota(square, 0));
    PHAL_ASSIGN_OR_RETURN(HloInstruction * j, b_.Iota(square, 1));
    PHAL_ASSIGN_OR_RETURN(HloInstruction * up_to_j,
                          b_.Compare(ComparisonDirection::kLe, i, j));
    PHAL_ASSIGN_OR_RETURN(HloInstruction * zero, b_.FullLike(spread, 0));
    PHAL_ASSIGN_OR_RETURN(HloInstruction * kept,
                          b_.Select(up_to_j, spread, zero));
    PHAL_ASSIGN_OR_RETURN(HloInstruction * ends, Sum(kept, 0));
    PHAL_ASSIGN_OR_RETURN(HloInstruction * starts,
                          b_.Binary(HloOpcode::kSubtract, ends, sizes));
    return std::make_pair(starts, ends);
  }

  // Whether index `position` along dimension `along` of an array of `dims`
  // lies in the group indexed along dimension `group`.
  StatusOr<HloInstruction*> InGroup(const std::vector<int64_t>& dims,
                                    int64_t along, int64_t group) {
    PHAL_ASSIGN_OR_RETURN(HloInstruction * position,
                          b_.Iota(Shape(PHAL_ELEMENT_TYPE_S64, dims), along));
    PHAL_ASSIGN_OR_RETURN(HloInstruction * starts,
                          b_.Broadcast(bounds_.first, dims, {group}));
    PHAL_ASSIGN_OR_RETURN(HloInstruction * ends,
                          b_.Broadcast(bounds_.second, dims, {group}));
    PHAL_ASSIGN_OR_RETURN(
        HloInstruction * from_start,
        b_.Compare(ComparisonDirection::kGe, position, starts));
    PHAL_ASSIGN_OR_RETURN(HloInstruction * before_end,
                          b_.Compare(ComparisonDirection::kLt, position, ends));
    return b_.Binary(HloOpcode::kAnd, from_start, before_end);
  }

  StatusOr<HloInstruction*> KeepInGroup(HloInstruction* x, int64_t along,
                                        int64_t group) {
    PHAL_ASSIGN_OR_RETURN(HloInstruction * in_group,
                          InGroup(x->shape().dims(), along, group));
    PHAL_ASSIGN_OR_RETURN(HloInstruction * zero, b_.FullLike(x, 0));
    return b_.Select(in_group, x, zero);
  }

  // One dot with the rhs group dimension as a free dimension computes every
  // row against every group; each row keeps its own group's product.
  StatusOr<HloInstruction*> RaggedNonContracting(int64_t ragged) {
    const DotDimensionNumbers& n = dot_.numbers.dot;
    if (dot_.numbers.rhs_group_dimensions.size() != 1) {
      return InvalidArgument(
          "ragged_dot with a ragged non-contracting dimension needs one rhs "
          "group dimension");
    }
    const int64_t group = dot_.numbers.rhs_group_dimensions[0];
    if (group < 0 || group >= rhs().rank() ||
        Contains(n.rhs_batch_dimensions, group) ||
        Contains(n.rhs_contracting_dimensions, group)) {
      return InvalidArgument(
          "the ragged_dot rhs group dimension must be a dimension of " +
          rhs().ToString() + " that is neither batch nor contracting");
    }
    const int64_t groups = dot_.group_sizes->shape().dim(0);
    if (rhs().dim(group) != groups) {
      return InvalidArgument("ragged_dot has " + std::to_string(groups) +
                             " group sizes for " +
                             std::to_string(rhs().dim(group)) + " rhs groups");
    }
    const std::vector<int64_t> lhs_free = FreeDimensions(
        lhs().rank(), n.lhs_batch_dimensions, n.lhs_contracting_dimensions);
    const std::vector<int64_t> rhs_free = FreeDimensions(
        rhs().rank(), n.rhs_batch_dimensions, n.rhs_contracting_dimensions);
    const int64_t batch = static_cast<int64_t>(n.lhs_batch_dimensions.size());
    const int64_t row_dimension = batch + IndexOf(lhs_free, ragged);
    const int64_t group_dimension = batch +
                                    static_cast<int64_t>(lhs_free.size()) +
                                    IndexOf(rhs_free, group);
    PHAL_ASSIGN_OR_RETURN(HloInstruction * every_group,
                          Dot(dot_.lhs, dot_.rhs, n));
    PHAL_ASSIGN_OR_RETURN(
        HloInstruction * own_group,
        KeepInGroup(every_group, row_dimension, group_dimension));
    return Sum(own_group, group_dimension);
  }

  // A leading group dimension on both operands, each keeping the
  // contracting indices of its group, and a dot batched over it.
  StatusOr<HloInstruction*> RaggedContracting(int64_t ragged) {
    const DotDimensionNumbers& n = dot_.numbers.dot;
    const int64_t rhs_ragged =
        n.rhs_contracting_dimensions[static_cast<std::size_t>(
            IndexOf(n.lhs_contracting_dimensions, ragged))];
    const int64_t groups = dot_.group_sizes->shape().dim(0);
    PHAL_ASSIGN_OR_RETURN(HloInstruction * lhs,
                          GroupCopies(dot_.lhs, groups, ragged));
    PHAL_ASSIGN_OR_RETURN(HloInstruction * rhs,
                          GroupCopies(dot_.rhs, groups, rhs_ragged));
    const auto shifted = [](std::vector<int64_t> dims, bool group) {
      for (int64_t& d : dims) ++d;
      if (group) dims.insert(dims.begin(), 0);
      return dims;
    };
    DotDimensionNumbers grouped;
    grouped.lhs_batch_dimensions = shifted(n.lhs_batch_dimensions, true);
    grouped.rhs_batch_dimensions = shifted(n.rhs_batch_dimensions, true);
    grouped.lhs_contracting_dimensions =
        shifted(n.lhs_contracting_dimensions, false);
    grouped.rhs_contracting_dimensions =
        shifted(n.rhs_contracting_dimensions, false);
    return Dot(lhs, rhs, std::move(grouped));
  }

  // `x` copied once per group along a new leading dimension, copy j zero
  // outside group j along `ragged`.
  StatusOr<HloInstruction*> GroupCopies(HloInstruction* x, int64_t groups,
                                        int64_t ragged) {
    std::vector<int64_t> dims = x->shape().dims();
    if (ragged < 0 || ragged >= x->shape().rank()) {
      return InvalidArgument("ragged_dot contracting dimension " +
                             std::to_string(ragged) + " is out of range for " +
                             x->shape().ToString());
    }
    std::vector<int64_t> mapping;
    for (int64_t d = 0; d < x->shape().rank(); ++d) mapping.push_back(d + 1);
    dims.insert(dims.begin(), groups);
    PHAL_ASSIGN_OR_RETURN(HloInstruction * copies,
                          b_.Broadcast(x, dims, mapping));
    return KeepInGroup(copies, ragged + 1, 0);
  }

  const RaggedDot& dot_;
  HloBuilder& b_;
  const ComputationSink& add_computation_;
  std::pair<HloInstruction*, HloInstruction*> bounds_{nullptr, nullptr};
  int helpers_ = 0;
};

}  // namespace

StatusOr<HloInstruction*> LowerRaggedDot(
    const RaggedDot& dot, HloBuilder& builder,
    const ComputationSink& add_computation) {
  return RaggedDotLowering(dot, builder, add_computation).Lower();
}

StatusOr<std::unique_ptr<HloComputation>> RaggedDotComputation(
    const std::string& name, const Shape& lhs, const Shape& rhs,
    const Shape& group_sizes, const RaggedDotDimensionNumbers& numbers,
    ElementType result_type, const ComputationSink& add_computation) {
  HloBuilder builder(name);
  const RaggedDot dot{.lhs = builder.AddParameter(lhs),
                      .rhs = builder.AddParameter(rhs),
                      .group_sizes = builder.AddParameter(group_sizes),
                      .numbers = numbers,
                      .result_type = result_type,
                      .helper_computation_name = name};
  PHAL_ASSIGN_OR_RETURN(HloInstruction * result,
                        LowerRaggedDot(dot, builder, add_computation));
  return builder.Build(result);
}

}  // namespace phal
