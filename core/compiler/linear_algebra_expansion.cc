// The linear-algebra ops as HLO every plugin runs: each op becomes a call
// of a computation built here (inlined by the call-inlining pass after
// it), whose work is a counted while loop over the columns (rows for
// triangular-solve) with O(size of the matrix) elementwise and
// matrix-vector work per step, so an n x n matrix costs O(n^3) as the
// algorithms do. The steps are the ones core/reference/linear_algebra.h
// states, so the expansion and the reference agree to rounding.
#include <cmath>
#include <functional>
#include <limits>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "core/compiler/hlo_rewriter.h"
#include "core/compiler/passes.h"
#include "core/hlo/hlo_builder.h"

namespace phal {
namespace {

using Dims = std::vector<int64_t>;

// An HloBuilder whose methods keep the first error and return null from
// then on, so that an algorithm reads as a sequence of ops.
class Emitter {
 public:
  Emitter(HloModule* module, std::string name)
      : module_(module), builder_(std::move(name)) {}

  Status status() const { return status_; }
  HloBuilder& builder() { return builder_; }

  HloInstruction* Check(StatusOr<HloInstruction*> result) {
    if (!result.ok()) {
      if (status_.ok()) status_ = result.status();
      return nullptr;
    }
    return *result;
  }
  bool Failed(std::initializer_list<const HloInstruction*> operands) const {
    if (!status_.ok()) return true;
    for (const HloInstruction* operand : operands) {
      if (operand == nullptr) return true;
    }
    return false;
  }

  HloInstruction* Parameter(const Shape& shape) {
    return builder_.AddParameter(shape);
  }
  HloInstruction* Scalar(ElementType type, double value) {
    if (!status_.ok()) return nullptr;
    return Check(builder_.ScalarConstant(type, value));
  }
  HloInstruction* Index(int64_t value) {
    return Scalar(PHAL_ELEMENT_TYPE_S32, static_cast<double>(value));
  }
  // `value` of `type` broadcast to `dims`.
  HloInstruction* Splat(ElementType type, const Dims& dims, double value) {
    HloInstruction* scalar = Scalar(type, value);
    if (Failed({scalar})) return nullptr;
    return Check(builder_.Broadcast(scalar, dims, {}));
  }
  HloInstruction* Unary(HloOpcode opcode, HloInstruction* x) {
    if (Failed({x})) return nullptr;
    return Check(builder_.Unary(opcode, x));
  }
  HloInstruction* Binary(HloOpcode opcode, HloInstruction* x,
                         HloInstruction* y) {
    if (Failed({x, y})) return nullptr;
    return Check(builder_.Binary(opcode, x, y));
  }
  HloInstruction* Compare(ComparisonDirection direction, HloInstruction* x,
                          HloInstruction* y) {
    if (Failed({x, y})) return nullptr;
    return Check(builder_.Compare(direction, x, y));
  }
  HloInstruction* Select(HloInstruction* p, HloInstruction* x,
                         HloInstruction* y) {
    if (Failed({p, x, y})) return nullptr;
    return Check(builder_.Select(p, x, y));
  }
  HloInstruction* Convert(HloInstruction* x, ElementType type) {
    if (Failed({x})) return nullptr;
    return Check(builder_.Convert(x, type));
  }
  HloInstruction* Conjugate(HloInstruction* x) {
    if (Failed({x})) return nullptr;
    return Check(builder_.Conjugate(x));
  }
  HloInstruction* Broadcast(HloInstruction* x, const Dims& dims,
                            const Dims& mapping) {
    if (Failed({x})) return nullptr;
    return Check(builder_.Broadcast(x, dims, mapping));
  }
  HloInstruction* Reshape(HloInstruction* x, const Dims& dims) {
    if (Failed({x})) return nullptr;
    return Check(builder_.Reshape(x, dims));
  }
  HloInstruction* Iota(ElementType type, const Dims& dims, int64_t dimension) {
    if (!status_.ok()) return nullptr;
    return Check(builder_.Iota(Shape(type, dims), dimension));
  }
  HloInstruction* Tuple(const std::vector<HloInstruction*>& elements) {
    for (const HloInstruction* element : elements) {
      if (Failed({element})) return nullptr;
    }
    return Check(builder_.Tuple(elements));
  }
  HloInstruction* Element(HloInstruction* tuple, int64_t index) {
    if (Failed({tuple})) return nullptr;
    return Check(builder_.GetTupleElement(tuple, index));
  }
  HloInstruction* Transpose(HloInstruction* x, const Dims& permutation) {
    if (Failed({x})) return nullptr;
    auto transpose = builder_.Create(HloOpcode::kTranspose, Shape(), {x});
    transpose->set_dimensions(permutation);
    return Check(builder_.Add(std::move(transpose)));
  }
  HloInstruction* Reverse(HloInstruction* x, const Dims& dimensions) {
    if (Failed({x})) return nullptr;
    auto reverse = builder_.Create(HloOpcode::kReverse, Shape(), {x});
    reverse->set_dimensions(dimensions);
    return Check(builder_.Add(std::move(reverse)));
  }
  // x[starts...] of `sizes`, starts s32 scalars.
  HloInstruction* DynamicSlice(HloInstruction* x,
                               const std::vector<HloInstruction*>& starts,
                               const Dims& sizes) {
    if (Failed({x})) return nullptr;
    std::vector<HloInstruction*> operands = {x};
    for (HloInstruction* start : starts) {
      if (Failed({start})) return nullptr;
      operands.push_back(start);
    }
    auto slice = builder_.Create(HloOpcode::kDynamicSlice, Shape(), operands);
    slice->set_dynamic_slice_sizes(sizes);
    return Check(builder_.Add(std::move(slice)));
  }
  HloInstruction* DynamicUpdateSlice(
      HloInstruction* x, HloInstruction* update,
      const std::vector<HloInstruction*>& starts) {
    if (Failed({x, update})) return nullptr;
    std::vector<HloInstruction*> operands = {x, update};
    for (HloInstruction* start : starts) {
      if (Failed({start})) return nullptr;
      operands.push_back(start);
    }
    return Check(builder_.Add(
        builder_.Create(HloOpcode::kDynamicUpdateSlice, Shape(), operands)));
  }
  HloInstruction* Dot(HloInstruction* x, HloInstruction* y,
                      DotDimensionNumbers numbers) {
    if (Failed({x, y})) return nullptr;
    auto dot = builder_.Create(HloOpcode::kDot,
                               Shape(x->shape().element_type(), {}), {x, y});
    dot->set_dot_dimension_numbers(std::move(numbers));
    return Check(builder_.Add(std::move(dot)));
  }
  // reduce(x, init) over `dimensions` with the scalar `opcode`.
  HloInstruction* Reduce(HloInstruction* x, double init, HloOpcode opcode,
                         const Dims& dimensions) {
    if (Failed({x})) return nullptr;
    const ElementType type = x->shape().element_type();
    HloInstruction* initial = Scalar(type, init);
    if (Failed({initial})) return nullptr;
    HloComputation* reducer = ScalarReducer(opcode, type);
    auto reduce = builder_.Create(HloOpcode::kReduce, Shape(), {x, initial});
    reduce->set_dimensions(dimensions);
    reduce->AppendCalledComputation(reducer);
    return Check(builder_.Add(std::move(reduce)));
  }
  // x gathered along `dimension` at `indices` (s32 [count], one index per
  // output position, the same for every other coordinate).
  HloInstruction* GatherAlong(HloInstruction* x, int64_t dimension,
                              HloInstruction* indices) {
    if (Failed({x, indices})) return nullptr;
    const int64_t count = indices->shape().dim(0);
    HloInstruction* starts = Reshape(indices, {count, 1});
    if (Failed({starts})) return nullptr;
    GatherDimensionNumbers numbers;
    for (int64_t d = 0; d < x->shape().rank(); ++d) {
      if (d != dimension) numbers.offset_dims.push_back(d);
    }
    numbers.collapsed_slice_dims = {dimension};
    numbers.start_index_map = {dimension};
    numbers.index_vector_dim = 1;
    Dims sizes = x->shape().dims();
    sizes[static_cast<std::size_t>(dimension)] = 1;
    auto gather = builder_.Create(HloOpcode::kGather, Shape(), {x, starts});
    gather->set_gather_dimension_numbers(std::move(numbers));
    gather->set_gather_slice_sizes(std::move(sizes));
    return Check(builder_.Add(std::move(gather)));
  }
  HloInstruction* Slice(HloInstruction* x, Dims starts, Dims limits) {
    if (Failed({x})) return nullptr;
    return Check(builder_.Slice(x, std::move(starts), std::move(limits)));
  }
  HloInstruction* Concatenate(const std::vector<HloInstruction*>& parts,
                              int64_t dimension) {
    for (const HloInstruction* part : parts) {
      if (Failed({part})) return nullptr;
    }
    auto concatenate = builder_.Create(HloOpcode::kConcatenate, Shape(), parts);
    concatenate->set_dimensions({dimension});
    return Check(builder_.Add(std::move(concatenate)));
  }
  // A stable sort of (keys, iota) along `dimension`, ascending or
  // descending by keys: (sorted keys, the permutation).
  HloInstruction* SortWithIndices(HloInstruction* keys, int64_t dimension,
                                  bool descending) {
    if (Failed({keys})) return nullptr;
    HloInstruction* indices =
        Iota(PHAL_ELEMENT_TYPE_S32, keys->shape().dims(), dimension);
    if (Failed({indices})) return nullptr;
    HloBuilder comparator(FreshName("linalg_sort_order"));
    const Shape key(keys->shape().element_type(), {});
    const Shape index(PHAL_ELEMENT_TYPE_S32, {});
    HloInstruction* a = comparator.AddParameter(key);
    HloInstruction* b = comparator.AddParameter(key);
    comparator.AddParameter(index);
    comparator.AddParameter(index);
    HloInstruction* root = Check(comparator.Compare(
        descending ? ComparisonDirection::kGt : ComparisonDirection::kLt, a,
        b));
    if (root == nullptr) return nullptr;
    HloComputation* order = module_->AddComputation(comparator.Build(root));
    auto sort = builder_.Create(HloOpcode::kSort, Shape(), {keys, indices});
    sort->set_dimensions({dimension});
    sort->set_is_stable(true);
    sort->AppendCalledComputation(order);
    return Check(builder_.Add(std::move(sort)));
  }
  HloInstruction* While(HloInstruction* initial, HloComputation* condition,
                        HloComputation* body) {
    if (Failed({initial}) || condition == nullptr || body == nullptr) {
      return nullptr;
    }
    auto loop = builder_.Create(HloOpcode::kWhile, Shape(), {initial});
    loop->AppendCalledComputation(condition);
    loop->AppendCalledComputation(body);
    return Check(builder_.Add(std::move(loop)));
  }

  // Adds the computation to the module (after those it calls).
  StatusOr<HloComputation*> Finish(HloInstruction* root) {
    PHAL_RETURN_IF_ERROR(status_);
    if (root == nullptr) return Internal("the expansion has no result");
    return module_->AddComputation(builder_.Build(root));
  }

  HloModule* module() { return module_; }

  // A unique computation name starting with `prefix`.
  std::string FreshName(const std::string& prefix) {
    return prefix + "." + std::to_string(module_->computations().size());
  }

 private:
  HloComputation* ScalarReducer(HloOpcode opcode, ElementType type) {
    HloBuilder reducer(
        FreshName("linalg_" + std::string(HloOpcodeName(opcode))));
    const Shape scalar(type, {});
    HloInstruction* x = reducer.AddParameter(scalar);
    HloInstruction* y = reducer.AddParameter(scalar);
    HloInstruction* root = Check(reducer.Binary(opcode, x, y));
    if (root == nullptr) return nullptr;
    return module_->AddComputation(reducer.Build(root));
  }

  HloModule* module_;
  HloBuilder builder_;
  Status status_ = OkStatus();
};

// The batch of matrices [batch..., rows, cols] one op works on.
struct MatrixShape {
  Dims batch;
  int64_t rows = 0;
  int64_t cols = 0;
  ElementType type = PHAL_ELEMENT_TYPE_INVALID;

  explicit MatrixShape(const Shape& shape)
      : batch(shape.dims().begin(), shape.dims().end() - 2),
        rows(shape.dim(shape.rank() - 2)),
        cols(shape.dim(shape.rank() - 1)),
        type(shape.element_type()) {}
  int64_t rank() const { return static_cast<int64_t>(batch.size()) + 2; }
  Dims With(int64_t r, int64_t c) const {
    Dims dims = batch;
    dims.push_back(r);
    dims.push_back(c);
    return dims;
  }
  Dims Batch(int64_t last) const {
    Dims dims = batch;
    dims.push_back(last);
    return dims;
  }
  Dims BatchDimensions() const {
    Dims dims(batch.size());
    std::iota(dims.begin(), dims.end(), 0);
    return dims;
  }
  ElementType real_type() const { return ComplexComponentType(type); }
  bool complex() const { return IsComplex(type); }
};

// The loop body's view of matrix operations on one MatrixShape.
class MatrixOps {
 public:
  MatrixOps(Emitter& e, const MatrixShape& shape) : e_(e), s_(shape) {}

  // Starts for a dynamic slice at (row, col) of every matrix.
  std::vector<HloInstruction*> At(HloInstruction* row, HloInstruction* col,
                                  std::size_t trailing = 2) {
    std::vector<HloInstruction*> starts(s_.batch.size(), e_.Index(0));
    if (trailing >= 2) starts.push_back(row);
    starts.push_back(col);
    return starts;
  }
  // Column j of x [.., r, c] as [.., r, 1].
  HloInstruction* Column(HloInstruction* x, HloInstruction* j) {
    const int64_t r = x->shape().dim(x->shape().rank() - 2);
    return e_.DynamicSlice(x, At(e_.Index(0), j), s_.With(r, 1));
  }
  // Row i of x [.., r, c] as [.., 1, c].
  HloInstruction* Row(HloInstruction* x, HloInstruction* i) {
    const int64_t c = x->shape().dim(x->shape().rank() - 1);
    return e_.DynamicSlice(x, At(i, e_.Index(0)), s_.With(1, c));
  }
  // x[.., i, j] as [.., 1, 1].
  HloInstruction* Entry(HloInstruction* x, HloInstruction* i,
                        HloInstruction* j) {
    return e_.DynamicSlice(x, At(i, j), s_.With(1, 1));
  }
  // An s32 iota along the rows (dimension rank-2) or columns of [.., r, c].
  HloInstruction* Rows(int64_t r, int64_t c) {
    return e_.Iota(PHAL_ELEMENT_TYPE_S32, s_.With(r, c), s_.rank() - 2);
  }
  HloInstruction* Cols(int64_t r, int64_t c) {
    return e_.Iota(PHAL_ELEMENT_TYPE_S32, s_.With(r, c), s_.rank() - 1);
  }
  // The scalar s32 `index` broadcast to [.., r, c].
  HloInstruction* Splat(HloInstruction* index, int64_t r, int64_t c) {
    return e_.Broadcast(index, s_.With(r, c), {});
  }
  HloInstruction* Compare(ComparisonDirection direction, HloInstruction* iota,
                          HloInstruction* index) {
    const Shape& shape = iota->shape();
    return e_.Compare(direction, iota, e_.Broadcast(index, shape.dims(), {}));
  }
  // x [.., a, b] broadcast to [.., r, c] along the dimension of size 1.
  HloInstruction* Expand(HloInstruction* x, int64_t r, int64_t c) {
    if (e_.Failed({x})) return nullptr;
    const int64_t rank = s_.rank();
    Dims reshaped = s_.batch;
    Dims mapping = s_.BatchDimensions();
    if (x->shape().dim(rank - 2) != 1) {
      reshaped.push_back(x->shape().dim(rank - 2));
      mapping.push_back(rank - 2);
    }
    if (x->shape().dim(rank - 1) != 1) {
      reshaped.push_back(x->shape().dim(rank - 1));
      mapping.push_back(rank - 1);
    }
    return e_.Broadcast(e_.Reshape(x, reshaped), s_.With(r, c), mapping);
  }
  HloInstruction* Zeros(int64_t r, int64_t c) {
    return e_.Splat(s_.type, s_.With(r, c), 0);
  }
  // x [.., p, q] times y [.., q, r] (contracting x's columns with y's rows),
  // or with `conjugate_lhs_rows`: x^H y for x [.., q, p].
  HloInstruction* MatMul(HloInstruction* x, HloInstruction* y,
                         bool contract_lhs_rows = false) {
    DotDimensionNumbers numbers;
    numbers.lhs_batch_dimensions = s_.BatchDimensions();
    numbers.rhs_batch_dimensions = s_.BatchDimensions();
    numbers.lhs_contracting_dimensions = {contract_lhs_rows ? s_.rank() - 2
                                                            : s_.rank() - 1};
    numbers.rhs_contracting_dimensions = {s_.rank() - 2};
    return e_.Dot(x, y, std::move(numbers));
  }
  // |x|^2 elementwise, of the real type.
  HloInstruction* SquaredMagnitude(HloInstruction* x) {
    if (!s_.complex()) return e_.Binary(HloOpcode::kMultiply, x, x);
    HloInstruction* re = e_.Unary(HloOpcode::kReal, x);
    HloInstruction* im = e_.Unary(HloOpcode::kImag, x);
    return e_.Binary(HloOpcode::kAdd, e_.Binary(HloOpcode::kMultiply, re, re),
                     e_.Binary(HloOpcode::kMultiply, im, im));
  }
  HloInstruction* ToType(HloInstruction* real) {
    return s_.complex() ? e_.Convert(real, s_.type) : real;
  }

 private:
  Emitter& e_;
  const MatrixShape& s_;
};

// A counted loop: state (i s32[], values...), i from 0 while i < trips;
// `step` maps (i, values) to the next values. Returns the final values.
using LoopStep = std::function<std::vector<HloInstruction*>(
    Emitter& body, HloInstruction* i, const std::vector<HloInstruction*>&)>;

StatusOr<std::vector<HloInstruction*>> CountedLoop(
    Emitter& e, const std::string& name, int64_t trips,
    const std::vector<HloInstruction*>& values, const LoopStep& step) {
  std::vector<Shape> shapes = {Shape(PHAL_ELEMENT_TYPE_S32, {})};
  for (const HloInstruction* value : values) {
    if (e.Failed({value})) return e.status();
    shapes.push_back(value->shape());
  }
  const Shape state = Shape::Tuple(shapes);

  Emitter condition(e.module(), e.FreshName(name + "_condition"));
  HloInstruction* cp = condition.Parameter(state);
  HloInstruction* keep_going =
      condition.Compare(ComparisonDirection::kLt, condition.Element(cp, 0),
                        condition.Index(trips));
  PHAL_ASSIGN_OR_RETURN(HloComputation * condition_computation,
                        condition.Finish(keep_going));

  Emitter body(e.module(), e.FreshName(name + "_body"));
  HloInstruction* bp = body.Parameter(state);
  HloInstruction* i = body.Element(bp, 0);
  std::vector<HloInstruction*> current;
  for (std::size_t k = 0; k < values.size(); ++k) {
    current.push_back(body.Element(bp, static_cast<int64_t>(k + 1)));
  }
  std::vector<HloInstruction*> next = step(body, i, current);
  PHAL_RETURN_IF_ERROR(body.status());
  next.insert(next.begin(), body.Binary(HloOpcode::kAdd, i, body.Index(1)));
  PHAL_ASSIGN_OR_RETURN(HloComputation * body_computation,
                        body.Finish(body.Tuple(next)));

  std::vector<HloInstruction*> initial = {e.Index(0)};
  initial.insert(initial.end(), values.begin(), values.end());
  HloInstruction* loop =
      e.While(e.Tuple(initial), condition_computation, body_computation);
  std::vector<HloInstruction*> results;
  for (std::size_t k = 0; k < values.size(); ++k) {
    results.push_back(e.Element(loop, static_cast<int64_t>(k + 1)));
  }
  PHAL_RETURN_IF_ERROR(e.status());
  return results;
}

// conj(x^T) of the two minor dimensions.
HloInstruction* Adjoint(Emitter& e, HloInstruction* x) {
  if (e.Failed({x})) return nullptr;
  return e.Conjugate(e.Transpose(x, SwapMinor(x->shape().rank())));
}

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// x [batch..., r, c] with `count` zero columns (and, for `rows_too`, zero
// rows) appended.
HloInstruction* PadZeros(Emitter& b, HloInstruction* x, int64_t count,
                         bool rows_too) {
  if (count == 0 || b.Failed({x})) return x;
  const MatrixShape s(x->shape());
  MatrixOps ops(b, s);
  HloInstruction* wide =
      b.Concatenate({x, ops.Zeros(s.rows, count)}, s.rank() - 1);
  if (!rows_too) return wide;
  return b.Concatenate({wide, ops.Zeros(count, s.cols + count)}, s.rank() - 2);
}

// The columns of the Cholesky factor held by `panel` [.., N, w], the
// columns offset .. offset + w of a lower-triangular view minus what the
// columns on their left contribute, one column per step: column c of the
// factor is (panel[:, c] - F conj(F[g, :])^T) / d below the diagonal (g =
// offset + c, F the panel's factor so far) and d = sqrt(pivot) on it; a
// pivot that is not positive makes d NaN, which every later column
// inherits.
StatusOr<HloInstruction*> PanelCholesky(Emitter& e, const MatrixShape& s,
                                        HloInstruction* panel,
                                        HloInstruction* offset) {
  const int64_t n = s.rows;
  const int64_t w = panel->shape().dim(s.rank() - 1);
  const MatrixShape ps(Shape(s.type, s.With(n, w)));
  PHAL_ASSIGN_OR_RETURN(
      std::vector<HloInstruction*> out,
      CountedLoop(
          e, "cholesky", w, {panel, offset, MatrixOps(e, ps).Zeros(n, w)},
          [&ps, n](Emitter& b, HloInstruction* c,
                   const std::vector<HloInstruction*>& v) {
            MatrixOps m(b, ps);
            HloInstruction* g = b.Binary(HloOpcode::kAdd, v[1], c);
            HloInstruction* f = v[2];
            HloInstruction* row = b.Conjugate(m.Row(f, g));  // [.., 1, w]
            DotDimensionNumbers numbers;
            numbers.lhs_batch_dimensions = ps.BatchDimensions();
            numbers.rhs_batch_dimensions = ps.BatchDimensions();
            numbers.lhs_contracting_dimensions = {ps.rank() - 1};
            numbers.rhs_contracting_dimensions = {ps.rank() - 1};
            HloInstruction* known = b.Dot(f, row, numbers);  // [.., n, 1]
            HloInstruction* column =
                b.Binary(HloOpcode::kSubtract, m.Column(v[0], c), known);
            HloInstruction* pivot = m.Entry(column, g, b.Index(0));
            if (ps.complex()) pivot = b.Unary(HloOpcode::kReal, pivot);
            HloInstruction* positive =
                b.Compare(ComparisonDirection::kGt, pivot,
                          b.Splat(ps.real_type(), ps.With(1, 1), 0));
            HloInstruction* d = m.ToType(
                b.Select(positive, b.Unary(HloOpcode::kSqrt, pivot),
                         b.Splat(ps.real_type(), ps.With(1, 1), kNaN)));
            HloInstruction* dn = m.Expand(d, n, 1);
            HloInstruction* rows = m.Rows(n, 1);
            HloInstruction* factor =
                b.Select(m.Compare(ComparisonDirection::kEq, rows, g), dn,
                         b.Select(m.Compare(ComparisonDirection::kGt, rows, g),
                                  b.Binary(HloOpcode::kDivide, column, dn),
                                  m.Zeros(n, 1)));
            return std::vector<HloInstruction*>{
                v[0], v[1],
                b.DynamicUpdateSlice(f, factor, m.At(b.Index(0), c))};
          }));
  return out[2];
}

// The block size of the blocked Cholesky factorisation, and the order
// from which it is used.
constexpr int64_t kCholeskyBlock = 32;
constexpr int64_t kBlockedCholeskyFrom = 3 * kCholeskyBlock;

// cholesky: column by column (PanelCholesky over the whole matrix), or
// from kBlockedCholeskyFrom on by blocks of kCholeskyBlock columns
// (left-looking): each block's columns minus L times the conjugate of
// L's rows of the block, one matrix product, then PanelCholesky on the
// block's columns; the matrix is padded to a whole number of blocks with
// the identity.
StatusOr<HloInstruction*> ExpandCholesky(Emitter& e, HloInstruction* a,
                                         bool lower) {
  const MatrixShape s(a->shape());
  const int64_t n = s.rows;
  HloInstruction* lower_view = lower ? a : Adjoint(e, a);
  if (n < kBlockedCholeskyFrom) {
    PHAL_ASSIGN_OR_RETURN(HloInstruction * l,
                          PanelCholesky(e, s, lower_view, e.Index(0)));
    return lower ? l : Adjoint(e, l);
  }
  const int64_t nb = kCholeskyBlock;
  const int64_t blocks = (n + nb - 1) / nb;
  const int64_t order = blocks * nb;
  const MatrixShape ps(Shape(s.type, s.With(order, order)));
  HloInstruction* padded = lower_view;
  if (order > n) {
    MatrixOps pops(e, ps);
    HloInstruction* rows = pops.Rows(order, order);
    HloInstruction* tail = e.Binary(
        HloOpcode::kAnd,
        e.Compare(ComparisonDirection::kEq, rows, pops.Cols(order, order)),
        e.Compare(ComparisonDirection::kGe, rows,
                  e.Splat(PHAL_ELEMENT_TYPE_S32, ps.With(order, order),
                          static_cast<double>(n))));
    padded = e.Select(tail, e.Splat(s.type, ps.With(order, order), 1),
                      PadZeros(e, lower_view, order - n, true));
  }
  PHAL_ASSIGN_OR_RETURN(
      std::vector<HloInstruction*> out,
      CountedLoop(e, "blocked_cholesky", blocks,
                  {padded, MatrixOps(e, ps).Zeros(order, order)},
                  [&ps, order, nb](Emitter& b, HloInstruction* t,
                                   const std::vector<HloInstruction*>& v)
                      -> std::vector<HloInstruction*> {
                    MatrixOps m(b, ps);
                    HloInstruction* offset =
                        b.Binary(HloOpcode::kMultiply, t, b.Index(nb));
                    HloInstruction* block_rows =
                        b.DynamicSlice(v[1], m.At(offset, b.Index(0)),
                                       ps.With(nb, order));  // [.., nb, N]
                    DotDimensionNumbers numbers;
                    numbers.lhs_batch_dimensions = ps.BatchDimensions();
                    numbers.rhs_batch_dimensions = ps.BatchDimensions();
                    numbers.lhs_contracting_dimensions = {ps.rank() - 1};
                    numbers.rhs_contracting_dimensions = {ps.rank() - 1};
                    HloInstruction* known = b.Dot(v[1], b.Conjugate(block_rows),
                                                  numbers);  // [.., N, nb]
                    HloInstruction* panel =
                        b.Binary(HloOpcode::kSubtract,
                                 b.DynamicSlice(v[0], m.At(b.Index(0), offset),
                                                ps.With(order, nb)),
                                 known);
                    StatusOr<HloInstruction*> factor =
                        PanelCholesky(b, ps, panel, offset);
                    if (!factor.ok()) {
                      b.Check(factor);
                      return {};
                    }
                    return std::vector<HloInstruction*>{
                        v[0], b.DynamicUpdateSlice(v[1], *factor,
                                                   m.At(b.Index(0), offset))};
                  }));
  HloInstruction* l = out[1];
  if (order > n) {
    l = e.Slice(l, Dims(static_cast<std::size_t>(s.rank()), 0), s.With(n, n));
  }
  return lower ? l : Adjoint(e, l);
}

// Forward substitution for a lower-triangular a, one row per step:
// x[i] = (b[i] - a[i, :i] x[:i]) / a[i, i].
StatusOr<HloInstruction*> SolveLowerLeft(Emitter& e, HloInstruction* a,
                                         HloInstruction* rhs,
                                         bool unit_diagonal) {
  const MatrixShape s(rhs->shape());
  const int64_t m = s.rows;
  const int64_t n = s.cols;
  PHAL_ASSIGN_OR_RETURN(
      std::vector<HloInstruction*> out,
      CountedLoop(
          e, "triangular_solve", m, {a, rhs, MatrixOps(e, s).Zeros(m, n)},
          [&s, m, n, unit_diagonal](Emitter& b, HloInstruction* i,
                                    const std::vector<HloInstruction*>& v) {
            MatrixOps ops(b, s);
            HloInstruction* coefficients = b.Select(
                ops.Compare(ComparisonDirection::kLt, ops.Cols(1, m), i),
                ops.Row(v[0], i), ops.Zeros(1, m));
            HloInstruction* row =
                b.Binary(HloOpcode::kSubtract, ops.Row(v[1], i),
                         ops.MatMul(coefficients, v[2]));
            if (!unit_diagonal) {
              row = b.Binary(HloOpcode::kDivide, row,
                             ops.Expand(ops.Entry(v[0], i, i), 1, n));
            }
            return std::vector<HloInstruction*>{
                v[0], v[1],
                b.DynamicUpdateSlice(v[2], row, ops.At(i, b.Index(0)))};
          }));
  return out[2];
}

// The block size of the blocked triangular solve, and the order from which
// it is used.
constexpr int64_t kSolveBlock = 32;
constexpr int64_t kBlockedSolveFrom = 3 * kSolveBlock;

// Forward substitution by blocks of kSolveBlock rows: the inverses of all
// diagonal blocks at once (one batched row-by-row solve against the
// identity), then one step per block row, x_t = inv(a_tt) (b_t - a_t,<t
// x_<t), two matrix products. a is padded to a whole number of blocks
// with the identity, b with zero rows.
StatusOr<HloInstruction*> SolveLowerLeftBlocked(Emitter& e, HloInstruction* a,
                                                HloInstruction* rhs,
                                                bool unit_diagonal) {
  const MatrixShape s(rhs->shape());
  const int64_t m = s.rows;
  const int64_t n = s.cols;
  const int64_t nb = kSolveBlock;
  const int64_t blocks = (m + nb - 1) / nb;
  const int64_t order = blocks * nb;
  const int64_t batch = static_cast<int64_t>(s.batch.size());
  const int64_t rank = s.rank();
  HloInstruction* padded = a;
  HloInstruction* system = rhs;
  if (order > m) {
    padded = PadZeros(e, a, order - m, true);
    const MatrixShape ps(Shape(s.type, s.With(order, order)));
    MatrixOps pops(e, ps);
    HloInstruction* rows = pops.Rows(order, order);
    HloInstruction* tail = e.Binary(
        HloOpcode::kAnd,
        e.Compare(ComparisonDirection::kEq, rows, pops.Cols(order, order)),
        e.Compare(ComparisonDirection::kGe, rows,
                  e.Splat(PHAL_ELEMENT_TYPE_S32, ps.With(order, order),
                          static_cast<double>(m))));
    padded = e.Select(tail, e.Splat(s.type, ps.With(order, order), 1), padded);
    system =
        e.Concatenate({rhs, MatrixOps(e, s).Zeros(order - m, n)}, rank - 2);
  }
  // The diagonal blocks [batch..., blocks, nb, nb].
  Dims split = s.batch;
  for (int64_t d : {blocks, nb, blocks, nb}) split.push_back(d);
  Dims permutation = s.BatchDimensions();
  for (int64_t d : {batch, batch + 2, batch + 1, batch + 3}) {
    permutation.push_back(d);
  }
  HloInstruction* grid =
      e.Transpose(e.Reshape(padded, split), permutation);  // [.., T, T, nb, nb]
  Dims grid_dims = s.batch;
  for (int64_t d : {blocks, blocks, nb, nb}) grid_dims.push_back(d);
  HloInstruction* same_block = e.Compare(
      ComparisonDirection::kEq, e.Iota(PHAL_ELEMENT_TYPE_S32, grid_dims, batch),
      e.Iota(PHAL_ELEMENT_TYPE_S32, grid_dims, batch + 1));
  HloInstruction* diagonal_blocks =
      e.Reduce(e.Select(same_block, grid, e.Splat(s.type, grid_dims, 0)), 0,
               HloOpcode::kAdd, {batch + 1});  // [.., T, nb, nb]
  Dims block_dims = s.batch;
  for (int64_t d : {blocks, nb, nb}) block_dims.push_back(d);
  HloInstruction* identity =
      e.Select(e.Compare(ComparisonDirection::kEq,
                         e.Iota(PHAL_ELEMENT_TYPE_S32, block_dims, batch + 1),
                         e.Iota(PHAL_ELEMENT_TYPE_S32, block_dims, batch + 2)),
               e.Splat(s.type, block_dims, 1), e.Splat(s.type, block_dims, 0));
  PHAL_RETURN_IF_ERROR(e.status());
  PHAL_ASSIGN_OR_RETURN(
      HloInstruction * inverses,
      SolveLowerLeft(e, diagonal_blocks, identity, unit_diagonal));
  const MatrixShape ps(Shape(s.type, s.With(order, n)));
  PHAL_ASSIGN_OR_RETURN(
      std::vector<HloInstruction*> out,
      CountedLoop(
          e, "blocked_triangular_solve", blocks,
          {padded, system, inverses, MatrixOps(e, ps).Zeros(order, n)},
          [&](Emitter& b, HloInstruction* t,
              const std::vector<HloInstruction*>& v) {
            MatrixOps ops(b, ps);
            HloInstruction* first_row =
                b.Binary(HloOpcode::kMultiply, t, b.Index(nb));
            std::vector<HloInstruction*> row_starts(s.batch.size(), b.Index(0));
            row_starts.push_back(first_row);
            row_starts.push_back(b.Index(0));
            HloInstruction* rows_of_a =
                b.DynamicSlice(v[0], row_starts, ps.With(nb, order));
            HloInstruction* left_of_block = b.Compare(
                ComparisonDirection::kLt,
                b.Iota(PHAL_ELEMENT_TYPE_S32, ps.With(nb, order), rank - 1),
                b.Broadcast(first_row, ps.With(nb, order), {}));
            rows_of_a = b.Select(left_of_block, rows_of_a,
                                 b.Splat(s.type, ps.With(nb, order), 0));
            HloInstruction* known = ops.MatMul(rows_of_a, v[3]);
            HloInstruction* remaining = b.Binary(
                HloOpcode::kSubtract,
                b.DynamicSlice(v[1], row_starts, ps.With(nb, n)), known);
            std::vector<HloInstruction*> block_starts(s.batch.size(),
                                                      b.Index(0));
            block_starts.push_back(t);
            block_starts.push_back(b.Index(0));
            block_starts.push_back(b.Index(0));
            Dims one_block = s.batch;
            for (int64_t d : {int64_t{1}, nb, nb}) one_block.push_back(d);
            HloInstruction* inverse = b.Reshape(
                b.DynamicSlice(v[2], block_starts, one_block), ps.With(nb, nb));
            HloInstruction* x_block = ops.MatMul(inverse, remaining);
            return std::vector<HloInstruction*>{
                v[0], v[1], v[2],
                b.DynamicUpdateSlice(v[3], x_block, row_starts)};
          }));
  if (order == m) return out[3];
  return e.Slice(out[3], Dims(static_cast<std::size_t>(rank), 0), s.With(m, n));
}

StatusOr<HloInstruction*> ExpandTriangularSolve(
    Emitter& e, HloInstruction* a, HloInstruction* rhs,
    const LinearAlgebraOptions& options) {
  // Every variant as a left-side, lower-triangular, untransposed solve:
  // transposing a swaps its triangles, a right-side solve is the left-side
  // solve of the transposed system, and reversing rows and columns turns
  // an upper triangle into a lower one.
  const int64_t rank = a->shape().rank();
  HloInstruction* matrix = a;
  bool lower = options.lower;
  if (options.transpose_a != TriangularSolveTranspose::kNone) {
    matrix = e.Transpose(matrix, SwapMinor(rank));
    if (options.transpose_a == TriangularSolveTranspose::kAdjoint) {
      matrix = e.Conjugate(matrix);
    }
    lower = !lower;
  }
  HloInstruction* system = rhs;
  if (!options.left_side) {
    matrix = e.Transpose(matrix, SwapMinor(rank));
    system = e.Transpose(system, SwapMinor(rank));
    lower = !lower;
  }
  if (!lower) {
    matrix = e.Reverse(matrix, {rank - 2, rank - 1});
    system = e.Reverse(system, {rank - 2});
  }
  PHAL_RETURN_IF_ERROR(e.status());
  PHAL_ASSIGN_OR_RETURN(
      HloInstruction * x,
      a->shape().dim(rank - 1) >= kBlockedSolveFrom
          ? SolveLowerLeftBlocked(e, matrix, system, options.unit_diagonal)
          : SolveLowerLeft(e, matrix, system, options.unit_diagonal));
  if (!lower) x = e.Reverse(x, {rank - 2});
  if (!options.left_side) x = e.Transpose(x, SwapMinor(rank));
  return x;
}

// lu: partial pivoting column by column (reference/linear_algebra.h).
StatusOr<HloInstruction*> ExpandLu(Emitter& e, HloInstruction* a) {
  const MatrixShape s(a->shape());
  const int64_t m = s.rows;
  const int64_t n = s.cols;
  const int64_t k = std::min(m, n);
  HloInstruction* pivots = e.Splat(PHAL_ELEMENT_TYPE_S32, s.Batch(k), 0);
  PHAL_ASSIGN_OR_RETURN(
      std::vector<HloInstruction*> out,
      CountedLoop(
          e, "lu", k, {a, pivots},
          [&s, m, n](Emitter& b, HloInstruction* j,
                     const std::vector<HloInstruction*>& v) {
            MatrixOps ops(b, s);
            HloInstruction* x = v[0];
            HloInstruction* column = ops.Column(x, j);  // [.., m, 1]
            HloInstruction* magnitude =
                s.complex()
                    ? b.Binary(HloOpcode::kAdd,
                               b.Unary(HloOpcode::kAbs,
                                       b.Unary(HloOpcode::kReal, column)),
                               b.Unary(HloOpcode::kAbs,
                                       b.Unary(HloOpcode::kImag, column)))
                    : b.Unary(HloOpcode::kAbs, column);
            HloInstruction* rows = ops.Rows(m, 1);
            HloInstruction* candidate =
                ops.Compare(ComparisonDirection::kGe, rows, j);
            magnitude = b.Select(candidate, magnitude,
                                 b.Splat(s.real_type(), s.With(m, 1), -1));
            const int64_t row_dimension = s.rank() - 2;
            HloInstruction* largest =
                b.Reduce(magnitude, -1, HloOpcode::kMaximum,
                         {row_dimension, s.rank() - 1});
            HloInstruction* at_largest = b.Compare(
                ComparisonDirection::kEq, magnitude,
                b.Broadcast(largest, s.With(m, 1), s.BatchDimensions()));
            HloInstruction* first =
                b.Reduce(b.Select(at_largest, rows,
                                  b.Splat(PHAL_ELEMENT_TYPE_S32, s.With(m, 1),
                                          static_cast<double>(m))),
                         static_cast<double>(m), HloOpcode::kMinimum,
                         {row_dimension, s.rank() - 1});  // [batch]
            HloInstruction* none =
                b.Compare(ComparisonDirection::kEq, first,
                          b.Splat(PHAL_ELEMENT_TYPE_S32, s.batch,
                                  static_cast<double>(m)));
            HloInstruction* p = b.Select(none, b.Broadcast(j, s.batch, {}),
                                         first);  // [batch]
            HloInstruction* p_rows =
                b.Broadcast(p, s.With(m, n), s.BatchDimensions());
            HloInstruction* rows_mn = ops.Rows(m, n);
            HloInstruction* is_p =
                b.Compare(ComparisonDirection::kEq, rows_mn, p_rows);
            HloInstruction* is_j =
                ops.Compare(ComparisonDirection::kEq, rows_mn, j);
            HloInstruction* row_j = ops.Row(x, j);  // [.., 1, n]
            HloInstruction* row_p =
                b.Reduce(b.Select(is_p, x, ops.Zeros(m, n)), 0, HloOpcode::kAdd,
                         {row_dimension});  // [.., n]
            row_p = b.Reshape(row_p, s.With(1, n));
            HloInstruction* swapped =
                b.Select(is_j, ops.Expand(row_p, m, n),
                         b.Select(is_p, ops.Expand(row_j, m, n), x));
            HloInstruction* pivot = ops.Entry(row_p, b.Index(0), j);
            HloInstruction* nonzero =
                b.Compare(ComparisonDirection::kNe, pivot, ops.Zeros(1, 1));
            HloInstruction* below = ops.Column(swapped, j);
            HloInstruction* scaled = b.Select(
                ops.Expand(nonzero, m, 1),
                b.Binary(HloOpcode::kDivide, below, ops.Expand(pivot, m, 1)),
                below);
            HloInstruction* cols_mn = ops.Cols(m, n);
            HloInstruction* rows_below =
                ops.Compare(ComparisonDirection::kGt, rows_mn, j);
            HloInstruction* cols_right =
                ops.Compare(ComparisonDirection::kGt, cols_mn, j);
            HloInstruction* on_column =
                ops.Compare(ComparisonDirection::kEq, cols_mn, j);
            HloInstruction* update =
                b.Binary(HloOpcode::kMultiply, ops.Expand(scaled, m, n),
                         ops.Expand(row_p, m, n));
            HloInstruction* trailing =
                b.Binary(HloOpcode::kAnd, rows_below, cols_right);
            HloInstruction* next = b.Select(
                trailing, b.Binary(HloOpcode::kSubtract, swapped, update),
                b.Select(b.Binary(HloOpcode::kAnd, rows_below, on_column),
                         ops.Expand(scaled, m, n), swapped));
            Dims batch_and_one = s.batch;
            batch_and_one.push_back(1);
            std::vector<HloInstruction*> starts(s.batch.size(), b.Index(0));
            starts.push_back(j);
            return std::vector<HloInstruction*>{
                next, b.DynamicUpdateSlice(v[1], b.Reshape(p, batch_and_one),
                                           starts)};
          }));
  return e.Tuple(out);
}

// qr: LAPACK geqrf's reflectors (reference/linear_algebra.h).
StatusOr<HloInstruction*> ExpandQr(Emitter& e, HloInstruction* a) {
  const MatrixShape s(a->shape());
  const int64_t m = s.rows;
  const int64_t n = s.cols;
  const int64_t k = std::min(m, n);
  HloInstruction* taus = e.Splat(s.type, s.Batch(k), 0);
  PHAL_ASSIGN_OR_RETURN(
      std::vector<HloInstruction*> out,
      CountedLoop(
          e, "qr", k, {a, taus},
          [&s, m, n](Emitter& b, HloInstruction* j,
                     const std::vector<HloInstruction*>& v) {
            MatrixOps ops(b, s);
            HloInstruction* x = v[0];
            const ElementType real = s.real_type();
            HloInstruction* column = ops.Column(x, j);  // [.., m, 1]
            HloInstruction* rows = ops.Rows(m, 1);
            HloInstruction* is_below =
                ops.Compare(ComparisonDirection::kGt, rows, j);
            HloInstruction* is_diagonal =
                ops.Compare(ComparisonDirection::kEq, rows, j);
            HloInstruction* below = b.Select(is_below, column, ops.Zeros(m, 1));
            HloInstruction* xnorm2 = b.Reshape(
                b.Reduce(ops.SquaredMagnitude(below), 0, HloOpcode::kAdd,
                         {s.rank() - 2, s.rank() - 1}),
                s.With(1, 1));
            HloInstruction* alpha = ops.Entry(x, j, j);
            HloInstruction* alpha_re =
                s.complex() ? b.Unary(HloOpcode::kReal, alpha) : alpha;
            HloInstruction* zero = b.Splat(real, s.With(1, 1), 0);
            HloInstruction* skip =
                b.Compare(ComparisonDirection::kEq, xnorm2, zero);
            if (s.complex()) {
              skip =
                  b.Binary(HloOpcode::kAnd, skip,
                           b.Compare(ComparisonDirection::kEq,
                                     b.Unary(HloOpcode::kImag, alpha), zero));
            }
            HloInstruction* norm = b.Unary(
                HloOpcode::kSqrt,
                b.Binary(HloOpcode::kAdd, ops.SquaredMagnitude(alpha), xnorm2));
            HloInstruction* beta_real =
                b.Select(b.Compare(ComparisonDirection::kLt, alpha_re, zero),
                         norm, b.Unary(HloOpcode::kNegate, norm));
            HloInstruction* beta = ops.ToType(beta_real);
            HloInstruction* tau = b.Select(
                skip, ops.Zeros(1, 1),
                b.Binary(HloOpcode::kDivide,
                         b.Binary(HloOpcode::kSubtract, beta, alpha), beta));
            HloInstruction* scale =
                b.Binary(HloOpcode::kDivide, b.Splat(s.type, s.With(1, 1), 1),
                         b.Binary(HloOpcode::kSubtract, alpha, beta));
            HloInstruction* skip_m = ops.Expand(skip, m, 1);
            HloInstruction* scaled =
                b.Binary(HloOpcode::kMultiply, column, ops.Expand(scale, m, 1));
            HloInstruction* reflector =
                b.Select(is_below, b.Select(skip_m, ops.Zeros(m, 1), scaled),
                         b.Select(is_diagonal, b.Splat(s.type, s.With(m, 1), 1),
                                  ops.Zeros(m, 1)));
            HloInstruction* stored = b.Select(
                skip_m, column,
                b.Select(
                    is_below, scaled,
                    b.Select(is_diagonal, ops.Expand(beta, m, 1), column)));
            // H^H on the columns to the right: x -= v (conj(tau) v^H x).
            HloInstruction* w =
                ops.MatMul(b.Conjugate(reflector), x, true);  // [.., 1, n]
            w = b.Binary(HloOpcode::kMultiply, w,
                         ops.Expand(b.Conjugate(tau), 1, n));
            HloInstruction* update =
                b.Binary(HloOpcode::kMultiply, ops.Expand(reflector, m, n),
                         ops.Expand(w, m, n));
            HloInstruction* cols = ops.Cols(m, n);
            HloInstruction* next = b.Select(
                ops.Compare(ComparisonDirection::kGt, cols, j),
                b.Binary(HloOpcode::kSubtract, x, update),
                b.Select(ops.Compare(ComparisonDirection::kEq, cols, j),
                         ops.Expand(stored, m, n), x));
            Dims batch_and_one = s.batch;
            batch_and_one.push_back(1);
            std::vector<HloInstruction*> starts(s.batch.size(), b.Index(0));
            starts.push_back(j);
            return std::vector<HloInstruction*>{
                next, b.DynamicUpdateSlice(v[1], b.Reshape(tau, batch_and_one),
                                           starts)};
          }));
  return e.Tuple(out);
}

// householder-product: Q = H_0 ... H_{k-1} applied to the identity's
// first n columns, the last reflector first.
StatusOr<HloInstruction*> ExpandHouseholderProduct(Emitter& e,
                                                   HloInstruction* a,
                                                   HloInstruction* taus) {
  const MatrixShape s(a->shape());
  const int64_t m = s.rows;
  const int64_t n = s.cols;
  const int64_t k = taus->shape().dim(taus->shape().rank() - 1);
  MatrixOps ops(e, s);
  HloInstruction* identity = e.Select(
      e.Compare(ComparisonDirection::kEq, ops.Rows(m, n), ops.Cols(m, n)),
      e.Splat(s.type, s.With(m, n), 1), ops.Zeros(m, n));
  PHAL_ASSIGN_OR_RETURN(
      std::vector<HloInstruction*> out,
      CountedLoop(
          e, "householder_product", k, {a, taus, identity},
          [&s, m, n, k](Emitter& b, HloInstruction* t,
                        const std::vector<HloInstruction*>& v) {
            MatrixOps o(b, s);
            HloInstruction* j =
                b.Binary(HloOpcode::kSubtract, b.Index(k - 1), t);
            HloInstruction* rows = o.Rows(m, 1);
            HloInstruction* reflector = b.Select(
                o.Compare(ComparisonDirection::kGt, rows, j), o.Column(v[0], j),
                b.Select(o.Compare(ComparisonDirection::kEq, rows, j),
                         b.Splat(s.type, s.With(m, 1), 1), o.Zeros(m, 1)));
            std::vector<HloInstruction*> starts(s.batch.size(), b.Index(0));
            starts.push_back(j);
            Dims batch_and_one = s.batch;
            batch_and_one.push_back(1);
            HloInstruction* tau = b.Reshape(
                b.DynamicSlice(v[1], starts, batch_and_one), s.With(1, 1));
            HloInstruction* w =
                o.MatMul(b.Conjugate(reflector), v[2], true);  // [.., 1, n]
            w = b.Binary(HloOpcode::kMultiply, w, o.Expand(tau, 1, n));
            HloInstruction* q = b.Binary(
                HloOpcode::kSubtract, v[2],
                b.Binary(HloOpcode::kMultiply, o.Expand(reflector, m, n),
                         o.Expand(w, m, n)));
            return std::vector<HloInstruction*>{v[0], v[1], q};
          }));
  return out[2];
}

// --- eigh and svd: Jacobi rotations in parallel rounds ---------------------
//
// The N (even) indices meet in N - 1 rounds of N / 2 disjoint pairs (the
// circle method: in round t, i < N - 1 meets (2t - i) mod (N - 1), or
// N - 1 when that is i itself), so every round rotates all of its pairs at
// once with gathers of the partners' rows or columns: O(size) work per
// round, O(n^3) per sweep.

// The partner of every index in round t (s32 [count]).
HloInstruction* Partners(Emitter& b, HloInstruction* t, int64_t count) {
  const ElementType s32 = PHAL_ELEMENT_TYPE_S32;
  HloInstruction* i = b.Iota(s32, {count}, 0);
  HloInstruction* last = b.Splat(s32, {count}, static_cast<double>(count - 1));
  HloInstruction* modulus =
      b.Splat(s32, {count}, static_cast<double>(count - 1));
  HloInstruction* tt = b.Broadcast(t, {count}, {});
  HloInstruction* raw =
      b.Binary(HloOpcode::kRemainder,
               b.Binary(HloOpcode::kAdd,
                        b.Binary(HloOpcode::kRemainder,
                                 b.Binary(HloOpcode::kSubtract,
                                          b.Binary(HloOpcode::kAdd, tt, tt), i),
                                 modulus),
                        modulus),
               modulus);
  return b.Select(
      b.Compare(ComparisonDirection::kEq, i, last), tt,
      b.Select(b.Compare(ComparisonDirection::kEq, i, tt), last, raw));
}

// Whether each index is the first (smaller) of its pair in the round of
// `partners`, broadcast to `dims` [batch..., count].
HloInstruction* FirstOfPairs(Emitter& r, HloInstruction* partners,
                             const Dims& dims) {
  if (r.Failed({partners})) return nullptr;
  const int64_t count = partners->shape().dim(0);
  return r.Broadcast(
      r.Compare(ComparisonDirection::kLt,
                r.Iota(PHAL_ELEMENT_TYPE_S32, {count}, 0), partners),
      dims, {static_cast<int64_t>(dims.size()) - 1});
}

// The rotation of each index with its partner (arrays [batch..., N] of the
// pair's app, aqq and apq seen from the index): the index's own
// coefficient c and its partner's (-s for the pair's first index, s for
// the second), so that new_i = c_i x_i + other_i x_partner(i).
struct Rotation {
  HloInstruction* self = nullptr;
  HloInstruction* other = nullptr;
};

Rotation PairRotation(Emitter& b, HloInstruction* first, HloInstruction* app,
                      HloInstruction* aqq, HloInstruction* apq) {
  if (b.Failed({first, app, aqq, apq})) return {};
  const ElementType type = app->shape().element_type();
  const Dims& dims = app->shape().dims();
  HloInstruction* zero = b.Splat(type, dims, 0);
  HloInstruction* one = b.Splat(type, dims, 1);
  HloInstruction* unrotated = b.Compare(ComparisonDirection::kEq, apq, zero);
  HloInstruction* theta =
      b.Binary(HloOpcode::kDivide, b.Binary(HloOpcode::kSubtract, aqq, app),
               b.Binary(HloOpcode::kAdd, apq, apq));
  HloInstruction* sign =
      b.Select(b.Compare(ComparisonDirection::kGe, theta, zero), one,
               b.Unary(HloOpcode::kNegate, one));
  HloInstruction* t = b.Binary(
      HloOpcode::kDivide, sign,
      b.Binary(HloOpcode::kAdd, b.Unary(HloOpcode::kAbs, theta),
               b.Unary(HloOpcode::kSqrt, b.Binary(HloOpcode::kAdd, one,
                                                  b.Binary(HloOpcode::kMultiply,
                                                           theta, theta)))));
  HloInstruction* c = b.Unary(
      HloOpcode::kRsqrt,
      b.Binary(HloOpcode::kAdd, one, b.Binary(HloOpcode::kMultiply, t, t)));
  HloInstruction* s = b.Binary(HloOpcode::kMultiply, t, c);
  c = b.Select(unrotated, one, c);
  s = b.Select(unrotated, zero, s);
  return {c, b.Select(first, b.Unary(HloOpcode::kNegate, s), s)};
}

// The rotation of a Hermitian pair (d and dp the real diagonal entries of
// each index and its partner, apq the entry A[i, partner(i)]): J =
// diag(1, u) R with u = e^{-i phi} for a_pq = |a_pq| e^{i phi}, which makes
// the pair's entry real before the real rotation R. Columns take J's
// coefficients, rows their conjugates.
struct HermitianRotation {
  Rotation columns;
  Rotation rows;
};

HermitianRotation RotateHermitian(Emitter& r, HloInstruction* first,
                                  HloInstruction* d, HloInstruction* dp,
                                  HloInstruction* apq) {
  if (r.Failed({first, d, dp, apq})) return {};
  const ElementType type = apq->shape().element_type();
  HloInstruction* magnitude = r.Unary(HloOpcode::kAbs, apq);
  const Dims& dims = magnitude->shape().dims();
  HloInstruction* zero = r.Splat(ComplexComponentType(type), dims, 0);
  HloInstruction* one = r.Splat(type, dims, 1);
  HloInstruction* unit = r.Select(
      r.Compare(ComparisonDirection::kEq, magnitude, zero), one,
      r.Binary(HloOpcode::kDivide, r.Select(first, r.Conjugate(apq), apq),
               r.Convert(magnitude, type)));
  const Rotation real = PairRotation(r, first, r.Select(first, d, dp),
                                     r.Select(first, dp, d), magnitude);
  HermitianRotation rotation;
  rotation.columns.self =
      r.Binary(HloOpcode::kMultiply, r.Convert(real.self, type),
               r.Select(first, one, unit));
  rotation.columns.other =
      r.Binary(HloOpcode::kMultiply, r.Convert(real.other, type),
               r.Select(first, unit, one));
  rotation.rows = {r.Conjugate(rotation.columns.self),
                   r.Conjugate(rotation.columns.other)};
  return rotation;
}

// x's rows (dimension) rotated by `rotation` with their partners.
HloInstruction* Rotate(Emitter& b, HloInstruction* x, int64_t dimension,
                       HloInstruction* partners, const Rotation& rotation) {
  if (b.Failed({x, rotation.self, rotation.other})) return nullptr;
  const int64_t batch = rotation.self->shape().rank() - 1;
  Dims mapping(static_cast<std::size_t>(batch));
  std::iota(mapping.begin(), mapping.end(), 0);
  mapping.push_back(dimension);
  const Dims& dims = x->shape().dims();
  return b.Binary(
      HloOpcode::kAdd,
      b.Binary(HloOpcode::kMultiply, b.Broadcast(rotation.self, dims, mapping),
               x),
      b.Binary(HloOpcode::kMultiply, b.Broadcast(rotation.other, dims, mapping),
               b.GatherAlong(x, dimension, partners)));
}

// Sweeps until `sweep` reports convergence (a pred scalar) or `limit`
// sweeps have run.
using SweepFn = std::function<StatusOr<std::vector<HloInstruction*>>(
    Emitter& body, const std::vector<HloInstruction*>& values,
    HloInstruction** converged)>;

StatusOr<std::vector<HloInstruction*>> SweepLoop(
    Emitter& e, const std::string& name, int64_t limit,
    const std::vector<HloInstruction*>& values, const SweepFn& sweep) {
  std::vector<Shape> shapes = {Shape(PHAL_ELEMENT_TYPE_S32, {}),
                               Shape(PHAL_ELEMENT_TYPE_PRED, {})};
  for (const HloInstruction* value : values) {
    if (e.Failed({value})) return e.status();
    shapes.push_back(value->shape());
  }
  const Shape state = Shape::Tuple(shapes);
  Emitter condition(e.module(), e.FreshName(name + "_condition"));
  HloInstruction* cp = condition.Parameter(state);
  HloInstruction* going = condition.Binary(
      HloOpcode::kAnd,
      condition.Compare(ComparisonDirection::kLt, condition.Element(cp, 0),
                        condition.Index(limit)),
      condition.Unary(HloOpcode::kNot, condition.Element(cp, 1)));
  PHAL_ASSIGN_OR_RETURN(HloComputation * condition_computation,
                        condition.Finish(going));
  Emitter body(e.module(), e.FreshName(name + "_body"));
  HloInstruction* bp = body.Parameter(state);
  std::vector<HloInstruction*> current;
  for (std::size_t k = 0; k < values.size(); ++k) {
    current.push_back(body.Element(bp, static_cast<int64_t>(k + 2)));
  }
  HloInstruction* converged = nullptr;
  PHAL_ASSIGN_OR_RETURN(std::vector<HloInstruction*> next,
                        sweep(body, current, &converged));
  next.insert(next.begin(), converged);
  next.insert(next.begin(),
              body.Binary(HloOpcode::kAdd, body.Element(bp, 0), body.Index(1)));
  PHAL_ASSIGN_OR_RETURN(HloComputation * body_computation,
                        body.Finish(body.Tuple(next)));
  HloInstruction* no =
      e.Compare(ComparisonDirection::kNe, e.Index(0), e.Index(0));
  std::vector<HloInstruction*> initial = {e.Index(0), no};
  initial.insert(initial.end(), values.begin(), values.end());
  HloInstruction* loop =
      e.While(e.Tuple(initial), condition_computation, body_computation);
  std::vector<HloInstruction*> results;
  for (std::size_t k = 0; k < values.size(); ++k) {
    results.push_back(e.Element(loop, static_cast<int64_t>(k + 2)));
  }
  PHAL_RETURN_IF_ERROR(e.status());
  return results;
}

// Whether every element of the pred array is set, as a scalar.
HloInstruction* All(Emitter& b, HloInstruction* flags) {
  if (b.Failed({flags})) return nullptr;
  if (flags->shape().rank() == 0) return flags;
  Dims every(static_cast<std::size_t>(flags->shape().rank()));
  std::iota(every.begin(), every.end(), 0);
  return b.Reduce(flags, 1, HloOpcode::kAnd, every);
}

double Epsilon(ElementType type) {
  return ComplexComponentType(type) == PHAL_ELEMENT_TYPE_F64
             ? std::numeric_limits<double>::epsilon()
             : std::numeric_limits<float>::epsilon();
}

// The real part of a complex array; a real array itself.
HloInstruction* RealPart(Emitter& b, HloInstruction* x) {
  if (b.Failed({x}) || !IsComplex(x->shape().element_type())) return x;
  return b.Unary(HloOpcode::kReal, x);
}

// The diagonal of [batch..., r, c] as [batch..., min(r, c)]... of a square
// batch: [batch..., n].
HloInstruction* Diagonal(Emitter& b, HloInstruction* x) {
  if (b.Failed({x})) return nullptr;
  const MatrixShape s(x->shape());
  MatrixOps ops(b, s);
  HloInstruction* on =
      b.Compare(ComparisonDirection::kEq, ops.Rows(s.rows, s.cols),
                ops.Cols(s.rows, s.cols));
  return b.Reduce(b.Select(on, x, ops.Zeros(s.rows, s.cols)), 0,
                  HloOpcode::kAdd, {s.rank() - 2});
}

// Columns of x [batch..., r, n] reordered by `order` [batch..., n] (column
// j of the result is column order[j]): a product with the permutation
// matrix, exact.
HloInstruction* PermuteColumns(Emitter& b, HloInstruction* x,
                               HloInstruction* order) {
  if (b.Failed({x, order})) return nullptr;
  const MatrixShape s(x->shape());
  const int64_t n = s.cols;
  const MatrixShape square(Shape(s.type, s.With(n, n)));
  MatrixOps ops(b, square);
  Dims mapping = s.BatchDimensions();
  mapping.push_back(s.rank() - 1);
  HloInstruction* chosen = b.Compare(ComparisonDirection::kEq, ops.Rows(n, n),
                                     b.Broadcast(order, s.With(n, n), mapping));
  HloInstruction* permutation =
      b.Select(chosen, b.Splat(s.type, s.With(n, n), 1), ops.Zeros(n, n));
  return MatrixOps(b, s).MatMul(x, permutation);
}

// -1 for the columns of x [batch..., r, n] whose entry of largest
// magnitude (the first of equals) is negative, else 1: [batch..., n]. For
// complex x, conj(e) / |e| of that entry e (1 when it is zero).
HloInstruction* ColumnSigns(Emitter& b, HloInstruction* x) {
  if (b.Failed({x})) return nullptr;
  const MatrixShape s(x->shape());
  MatrixOps ops(b, s);
  const int64_t row_dimension = s.rank() - 2;
  Dims mapping = s.BatchDimensions();
  mapping.push_back(s.rank() - 1);
  HloInstruction* magnitude = b.Unary(HloOpcode::kAbs, x);
  HloInstruction* largest =
      b.Reduce(magnitude, -1, HloOpcode::kMaximum, {row_dimension});
  HloInstruction* rows = ops.Rows(s.rows, s.cols);
  HloInstruction* first = b.Reduce(
      b.Select(b.Compare(ComparisonDirection::kEq, magnitude,
                         b.Broadcast(largest, s.With(s.rows, s.cols), mapping)),
               rows,
               b.Splat(PHAL_ELEMENT_TYPE_S32, s.With(s.rows, s.cols),
                       static_cast<double>(s.rows))),
      static_cast<double>(s.rows), HloOpcode::kMinimum, {row_dimension});
  HloInstruction* value = b.Reduce(
      b.Select(b.Compare(ComparisonDirection::kEq, rows,
                         b.Broadcast(first, s.With(s.rows, s.cols), mapping)),
               x, ops.Zeros(s.rows, s.cols)),
      0, HloOpcode::kAdd, {row_dimension});
  const Dims dims = value->shape().dims();
  if (s.complex()) {
    // The phase that makes the entry real and positive.
    HloInstruction* size = b.Unary(HloOpcode::kAbs, value);
    return b.Select(b.Compare(ComparisonDirection::kEq, size,
                              b.Splat(s.real_type(), dims, 0)),
                    b.Splat(s.type, dims, 1),
                    b.Binary(HloOpcode::kDivide, b.Conjugate(value),
                             b.Convert(size, s.type)));
  }
  return b.Select(
      b.Compare(ComparisonDirection::kLt, value, b.Splat(s.type, dims, 0)),
      b.Splat(s.type, dims, -1), b.Splat(s.type, dims, 1));
}

// x [batch..., r, n] with column j multiplied by factors[batch..., j].
HloInstruction* ScaleColumns(Emitter& b, HloInstruction* x,
                             HloInstruction* factors) {
  if (b.Failed({x, factors})) return nullptr;
  const MatrixShape s(x->shape());
  Dims mapping = s.BatchDimensions();
  mapping.push_back(s.rank() - 1);
  return b.Binary(HloOpcode::kMultiply, x,
                  b.Broadcast(factors, x->shape().dims(), mapping));
}

constexpr int64_t kMaxSweeps = 40;

// eigh: the symmetric matrix from its triangle, padded to an even order
// with a zero row and column that no rotation touches, swept until the
// off-diagonal part is at rounding level (off^2 <= n (4 eps)^2 total^2);
// then eigenvalues ascending and signs as the reference's.
StatusOr<HloInstruction*> ExpandEigh(Emitter& e, HloInstruction* a,
                                     bool lower) {
  const MatrixShape s(a->shape());
  const int64_t n = s.rows;
  MatrixOps ops(e, s);
  if (n == 0) return e.Tuple({a, e.Splat(s.type, s.Batch(0), 0)});
  // The full symmetric matrix from the named triangle.
  HloInstruction* rows = ops.Rows(n, n);
  HloInstruction* cols = ops.Cols(n, n);
  HloInstruction* kept = e.Compare(
      lower ? ComparisonDirection::kGe : ComparisonDirection::kLe, rows, cols);
  HloInstruction* symmetric = e.Select(kept, a, Adjoint(e, a));
  if (s.complex()) {
    // A Hermitian matrix's diagonal is real: its imaginary parts are not
    // read.
    symmetric = e.Select(
        e.Compare(ComparisonDirection::kEq, rows, cols),
        e.Convert(e.Unary(HloOpcode::kReal, symmetric), s.type), symmetric);
  }
  const int64_t order = n + n % 2;
  const int64_t batch = static_cast<int64_t>(s.batch.size());
  HloInstruction* x = PadZeros(e, symmetric, order - n, true);
  const MatrixShape padded(Shape(s.type, s.With(order, order)));
  MatrixOps pops(e, padded);
  HloInstruction* v = e.Select(
      e.Compare(ComparisonDirection::kEq, pops.Rows(order, order),
                pops.Cols(order, order)),
      e.Splat(s.type, padded.With(order, order), 1), pops.Zeros(order, order));
  const double tolerance =
      static_cast<double>(n) * 16 * Epsilon(s.type) * Epsilon(s.type);
  PHAL_ASSIGN_OR_RETURN(
      std::vector<HloInstruction*> swept,
      SweepLoop(
          e, "eigh_sweep", kMaxSweeps, {x, v},
          [&](Emitter& b, const std::vector<HloInstruction*>& state,
              HloInstruction** converged)
              -> StatusOr<std::vector<HloInstruction*>> {
            PHAL_ASSIGN_OR_RETURN(
                std::vector<HloInstruction*> rounds,
                CountedLoop(
                    b, "eigh_round", order - 1, state,
                    [&](Emitter& r, HloInstruction* t,
                        const std::vector<HloInstruction*>& m) {
                      HloInstruction* partners = Partners(r, t, order);
                      HloInstruction* first =
                          FirstOfPairs(r, partners, padded.Batch(order));
                      HloInstruction* d = RealPart(r, Diagonal(r, m[0]));
                      HloInstruction* dp = r.GatherAlong(d, batch, partners);
                      HloInstruction* apq =
                          Diagonal(r, r.GatherAlong(m[0], batch + 1, partners));
                      if (!s.complex()) {
                        const Rotation rotation =
                            PairRotation(r, first, r.Select(first, d, dp),
                                         r.Select(first, dp, d), apq);
                        HloInstruction* rotated_rows =
                            Rotate(r, m[0], batch, partners, rotation);
                        return std::vector<HloInstruction*>{
                            Rotate(r, rotated_rows, batch + 1, partners,
                                   rotation),
                            Rotate(r, m[1], batch + 1, partners, rotation)};
                      }
                      const HermitianRotation rotation =
                          RotateHermitian(r, first, d, dp, apq);
                      const Rotation& columns = rotation.columns;
                      const Rotation& rows_rotation = rotation.rows;
                      HloInstruction* rotated_columns =
                          Rotate(r, m[0], batch + 1, partners, columns);
                      return std::vector<HloInstruction*>{
                          Rotate(r, rotated_columns, batch, partners,
                                 rows_rotation),
                          Rotate(r, m[1], batch + 1, partners, columns)};
                    }));
            MatrixOps bops(b, padded);
            HloInstruction* squares = bops.SquaredMagnitude(rounds[0]);
            HloInstruction* off_diagonal = b.Select(
                b.Compare(ComparisonDirection::kEq, bops.Rows(order, order),
                          bops.Cols(order, order)),
                b.Splat(s.real_type(), padded.With(order, order), 0), squares);
            HloInstruction* off =
                b.Reduce(off_diagonal, 0, HloOpcode::kAdd, {batch, batch + 1});
            HloInstruction* total =
                b.Reduce(squares, 0, HloOpcode::kAdd, {batch, batch + 1});
            *converged = All(
                b, b.Compare(
                       ComparisonDirection::kLe, off,
                       b.Binary(HloOpcode::kMultiply, total,
                                b.Splat(s.real_type(), s.batch, tolerance))));
            return rounds;
          }));
  Dims starts(static_cast<std::size_t>(s.rank()), 0);
  HloInstruction* diagonal_matrix = e.Slice(swept[0], starts, s.With(n, n));
  HloInstruction* vectors = e.Slice(swept[1], starts, s.With(n, n));
  HloInstruction* sorted = e.SortWithIndices(
      RealPart(e, Diagonal(e, diagonal_matrix)), batch, false);
  HloInstruction* values = e.Element(sorted, 0);
  vectors = PermuteColumns(e, vectors, e.Element(sorted, 1));
  vectors = ScaleColumns(e, vectors, ColumnSigns(e, vectors));
  return e.Tuple({vectors, values});
}

// The svd of a tall [batch..., m, n] (m >= n): one-sided Jacobi on the
// columns (padded to an even count with a zero column no rotation
// touches) until every pair is orthogonal to |w_p . w_q| <= 4 sqrt(m) eps
// |w_p| |w_q|; then as the reference: (u [.., m, u_cols], s, v).
StatusOr<std::vector<HloInstruction*>> TallSvd(Emitter& e, HloInstruction* a,
                                               int64_t u_cols) {
  const MatrixShape s(a->shape());
  const int64_t m = s.rows;
  const int64_t n = s.cols;
  const int64_t order = n + n % 2;
  const int64_t batch = static_cast<int64_t>(s.batch.size());
  HloInstruction* w = PadZeros(e, a, order - n, false);
  const MatrixShape square(Shape(s.type, s.With(order, order)));
  MatrixOps sops(e, square);
  HloInstruction* v = e.Select(
      e.Compare(ComparisonDirection::kEq, sops.Rows(order, order),
                sops.Cols(order, order)),
      e.Splat(s.type, square.With(order, order), 1), sops.Zeros(order, order));
  const double tolerance =
      4 * std::sqrt(static_cast<double>(m)) * Epsilon(s.type);
  PHAL_ASSIGN_OR_RETURN(
      std::vector<HloInstruction*> swept,
      SweepLoop(
          e, "svd_sweep", kMaxSweeps, {w, v},
          [&](Emitter& b, const std::vector<HloInstruction*>& state,
              HloInstruction** converged)
              -> StatusOr<std::vector<HloInstruction*>> {
            std::vector<HloInstruction*> start = state;
            start.push_back(b.Splat(s.real_type(), s.batch, 0));
            PHAL_ASSIGN_OR_RETURN(
                std::vector<HloInstruction*> rounds,
                CountedLoop(
                    b, "svd_round", order - 1, start,
                    [&](Emitter& r, HloInstruction* t,
                        const std::vector<HloInstruction*>& x) {
                      HloInstruction* partners = Partners(r, t, order);
                      HloInstruction* first =
                          FirstOfPairs(r, partners, s.Batch(order));
                      HloInstruction* wp =
                          r.GatherAlong(x[0], batch + 1, partners);
                      MatrixOps rops(r, s);
                      HloInstruction* alpha =
                          r.Reduce(rops.SquaredMagnitude(x[0]), 0,
                                   HloOpcode::kAdd, {batch});
                      HloInstruction* gamma = r.Reduce(
                          r.Binary(HloOpcode::kMultiply, r.Conjugate(x[0]), wp),
                          0, HloOpcode::kAdd, {batch});
                      HloInstruction* alpha_p =
                          r.GatherAlong(alpha, batch, partners);
                      const Rotation rotation =
                          s.complex()
                              ? RotateHermitian(r, first, alpha, alpha_p, gamma)
                                    .columns
                              : PairRotation(
                                    r, first, r.Select(first, alpha, alpha_p),
                                    r.Select(first, alpha_p, alpha), gamma);
                      HloInstruction* scale = r.Unary(
                          HloOpcode::kSqrt,
                          r.Binary(HloOpcode::kMultiply, alpha, alpha_p));
                      const Dims& dims = alpha->shape().dims();
                      HloInstruction* zero = r.Splat(s.real_type(), dims, 0);
                      HloInstruction* ratio = r.Select(
                          r.Compare(ComparisonDirection::kGt, scale, zero),
                          r.Binary(HloOpcode::kDivide,
                                   r.Unary(HloOpcode::kAbs, gamma), scale),
                          zero);
                      HloInstruction* round_worst =
                          r.Reduce(ratio, 0, HloOpcode::kMaximum, {batch});
                      HloInstruction* rotated_w =
                          Rotate(r, x[0], batch + 1, partners, rotation);
                      return std::vector<HloInstruction*>{
                          rotated_w,
                          Rotate(r, x[1], batch + 1, partners, rotation),
                          r.Binary(HloOpcode::kMaximum, x[2], round_worst)};
                    }));
            *converged =
                All(b, b.Compare(ComparisonDirection::kLe, rounds[2],
                                 b.Splat(s.real_type(), s.batch, tolerance)));
            rounds.pop_back();
            return rounds;
          }));
  Dims starts(static_cast<std::size_t>(s.rank()), 0);
  HloInstruction* columns = e.Slice(swept[0], starts, s.With(m, n));
  HloInstruction* vectors = e.Slice(swept[1], starts, s.With(n, n));
  HloInstruction* norms = e.Unary(
      HloOpcode::kSqrt, e.Reduce(MatrixOps(e, s).SquaredMagnitude(columns), 0,
                                 HloOpcode::kAdd, {batch}));
  HloInstruction* sorted = e.SortWithIndices(norms, batch, true);
  HloInstruction* sigma = e.Element(sorted, 0);
  HloInstruction* order_of = e.Element(sorted, 1);
  columns = PermuteColumns(e, columns, order_of);
  vectors = PermuteColumns(e, vectors, order_of);
  HloInstruction* signs = ColumnSigns(e, vectors);
  columns = ScaleColumns(e, columns, signs);
  vectors = ScaleColumns(e, vectors, signs);
  HloInstruction* zero = e.Splat(s.real_type(), s.Batch(n), 0);
  HloInstruction* positive = e.Compare(ComparisonDirection::kGt, sigma, zero);
  HloInstruction* inverse =
      e.Convert(e.Select(positive,
                         e.Binary(HloOpcode::kDivide,
                                  e.Splat(s.real_type(), s.Batch(n), 1), sigma),
                         zero),
                s.type);
  HloInstruction* normalised =
      PadZeros(e, ScaleColumns(e, columns, inverse), u_cols - n, false);
  PHAL_ASSIGN_OR_RETURN(HloInstruction * qr, ExpandQr(e, normalised));
  HloInstruction* reflectors = e.Element(qr, 0);
  PHAL_ASSIGN_OR_RETURN(
      HloInstruction * q,
      ExpandHouseholderProduct(e, reflectors, e.Element(qr, 1)));
  // Q's column j is u_j / r_jj with r_jj = +-1 where sigma_j > 0.
  HloInstruction* r_diagonal = e.Slice(
      RealPart(e, Diagonal(e, e.Slice(reflectors, starts, s.With(n, n)))),
      Dims(static_cast<std::size_t>(batch + 1), 0), s.Batch(n));
  HloInstruction* flip =
      e.Binary(HloOpcode::kAnd, positive,
               e.Compare(ComparisonDirection::kLt, r_diagonal, zero));
  HloInstruction* column_signs = e.Select(flip, e.Splat(s.type, s.Batch(n), -1),
                                          e.Splat(s.type, s.Batch(n), 1));
  if (u_cols > n) {
    column_signs = e.Concatenate(
        {column_signs, e.Splat(s.type, s.Batch(u_cols - n), 1)}, batch);
  }
  HloInstruction* u = ScaleColumns(e, q, column_signs);
  PHAL_RETURN_IF_ERROR(e.status());
  return std::vector<HloInstruction*>{u, sigma, vectors};
}

StatusOr<HloInstruction*> ExpandSvd(Emitter& e, HloInstruction* a, bool full) {
  const MatrixShape s(a->shape());
  const int64_t m = s.rows;
  const int64_t n = s.cols;
  const int64_t k = std::min(m, n);
  if (k == 0) {
    return Unimplemented("svd of an empty matrix " + a->shape().ToString());
  }
  if (m >= n) {
    PHAL_ASSIGN_OR_RETURN(std::vector<HloInstruction*> parts,
                          TallSvd(e, a, full ? m : k));
    return e.Tuple({parts[0], parts[1], Adjoint(e, parts[2])});
  }
  PHAL_ASSIGN_OR_RETURN(std::vector<HloInstruction*> parts,
                        TallSvd(e, Adjoint(e, a), full ? n : k));
  return e.Tuple({parts[2], parts[1], Adjoint(e, parts[0])});
}

StatusOr<HloInstruction*> Expand(const HloInstruction& source,
                                 const std::vector<HloInstruction*>& operands,
                                 RewriteContext& context) {
  Emitter e(context.module(),
            context.module()->computations().empty()
                ? source.name() + ".expansion"
                : source.name() + ".expansion." +
                      std::to_string(context.module()->computations().size()));
  std::vector<HloInstruction*> parameters;
  for (const HloInstruction* operand : operands) {
    parameters.push_back(e.Parameter(operand->shape()));
  }
  StatusOr<HloInstruction*> result = Internal("unreachable");
  switch (source.opcode()) {
    case HloOpcode::kCholesky:
      result = ExpandCholesky(e, parameters[0], source.linear_algebra().lower);
      break;
    case HloOpcode::kTriangularSolve:
      result = ExpandTriangularSolve(e, parameters[0], parameters[1],
                                     source.linear_algebra());
      break;
    case HloOpcode::kLu:
      result = ExpandLu(e, parameters[0]);
      break;
    case HloOpcode::kQr:
      result = ExpandQr(e, parameters[0]);
      break;
    case HloOpcode::kEigh:
      result = ExpandEigh(e, parameters[0], source.linear_algebra().lower);
      break;
    case HloOpcode::kSvd:
      result =
          ExpandSvd(e, parameters[0], source.linear_algebra().full_matrices);
      break;
    default:
      result = ExpandHouseholderProduct(e, parameters[0], parameters[1]);
      break;
  }
  if (!result.ok()) {
    return Internal("expanding " + source.name() + ": " +
                    std::string(result.status().message()));
  }
  StatusOr<HloComputation*> computation = e.Finish(*result);
  if (!computation.ok()) {
    return Internal("expanding " + source.name() + ": " +
                    std::string(computation.status().message()));
  }
  return context.AddNew(HloOpcode::kCall, source.shape(), operands,
                        [&](HloInstruction& call) {
                          call.AppendCalledComputation(*computation);
                        });
}

}  // namespace

std::unique_ptr<HloPass> MakeLinearAlgebraExpansionPass(bool linalg_kernels) {
  return MakeRewritePass(
      "expand-linear-algebra",
      [linalg_kernels](const HloInstruction& source,
                       const std::vector<HloInstruction*>& operands,
                       const std::vector<HloComputation*>&,
                       RewriteContext& context) -> StatusOr<HloInstruction*> {
        if (linalg_kernels || !IsLinearAlgebra(source.opcode())) return nullptr;
        return Expand(source, operands, context);
      });
}

}  // namespace phal
