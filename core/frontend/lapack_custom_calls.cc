#include "core/frontend/lapack_custom_calls.h"

#include <numeric>

namespace phal {
namespace {

using Dims = std::vector<int64_t>;

// The library and routine of a target: "lapack_<t><routine>_ffi" (t one
// of s, d, c, z), "cusolver_<routine>_ffi", "hipsolver_<routine>_ffi",
// and the pivot conversions "cu_lu_pivots_to_permutation" and
// "hip_lu_pivots_to_permutation"; empty for any other target.
struct Solver {
  std::string library;  // "LAPACK", "cuSOLVER", "hipSOLVER"
  std::string routine;  // "potrf", "getrf", ...
};

bool HasAffixes(const std::string& target, const std::string& prefix,
                const std::string& suffix) {
  return target.size() > prefix.size() + suffix.size() &&
         target.compare(0, prefix.size(), prefix) == 0 &&
         target.compare(target.size() - suffix.size(), suffix.size(), suffix) ==
             0;
}

Solver Routine(const std::string& target) {
  const std::string suffix = "_ffi";
  if (target == "cu_lu_pivots_to_permutation") {
    return {"cuSOLVER", "lu_pivots_to_permutation"};
  }
  if (target == "hip_lu_pivots_to_permutation") {
    return {"hipSOLVER", "lu_pivots_to_permutation"};
  }
  for (const auto& [prefix, library] :
       {std::pair<std::string, std::string>{"cusolver_", "cuSOLVER"},
        {"hipsolver_", "hipSOLVER"}}) {
    if (HasAffixes(target, prefix, suffix)) {
      return {library,
              target.substr(prefix.size(),
                            target.size() - prefix.size() - suffix.size())};
    }
  }
  const std::string prefix = "lapack_";
  if (!HasAffixes(target, prefix, suffix) ||
      target.size() <= prefix.size() + suffix.size() + 1) {
    return {};
  }
  const char type = target[prefix.size()];
  if (type != 's' && type != 'd' && type != 'c' && type != 'z') return {};
  return {"LAPACK",
          target.substr(prefix.size() + 1,
                        target.size() - prefix.size() - 1 - suffix.size())};
}

// reduce(x, init) over `dimensions` with the scalar `opcode`, its reducer
// a computation named after `name`.
StatusOr<HloInstruction*> ReduceWith(HloBuilder& b,
                                     const LapackComputations& computations,
                                     HloInstruction* x, double init,
                                     HloOpcode opcode, Dims dimensions,
                                     const std::string& name) {
  const Shape scalar(x->shape().element_type(), {});
  PHAL_ASSIGN_OR_RETURN(HloInstruction * initial,
                        b.ScalarConstant(scalar.element_type(), init));
  HloBuilder reducer(computations.unique_name(name));
  HloInstruction* lhs = reducer.AddParameter(scalar);
  HloInstruction* rhs = reducer.AddParameter(scalar);
  PHAL_ASSIGN_OR_RETURN(HloInstruction * root,
                        reducer.Binary(opcode, lhs, rhs));
  auto reduce = b.Create(HloOpcode::kReduce, Shape(), {x, initial});
  reduce->set_dimensions(std::move(dimensions));
  reduce->AppendCalledComputation(computations.add(reducer.Build(root)));
  return b.Add(std::move(reduce));
}

StatusOr<HloInstruction*> Iota(HloBuilder& b, const Dims& dims,
                               int64_t dimension) {
  return b.Iota(Shape(PHAL_ELEMENT_TYPE_S32, dims), dimension);
}

// The diagonal of each matrix of `x` [batch..., rows, cols] as
// [batch..., min(rows, cols)]: the matrices flattened and sliced with a
// stride of cols + 1, so that whatever reads it reads the diagonal only.
StatusOr<HloInstruction*> Diagonal(HloBuilder& b, HloInstruction* x) {
  const Shape& shape = x->shape();
  const int64_t rank = shape.rank();
  const int64_t rows = shape.dim(rank - 2);
  const int64_t cols = shape.dim(rank - 1);
  const int64_t n = std::min(rows, cols);
  std::vector<int64_t> flat(shape.dims().begin(), shape.dims().end() - 2);
  flat.push_back(rows * cols);
  PHAL_ASSIGN_OR_RETURN(HloInstruction * flattened, b.Reshape(x, flat));
  std::vector<int64_t> starts(flat.size(), 0);
  std::vector<int64_t> limits = flat;
  std::vector<int64_t> strides(flat.size(), 1);
  limits.back() = n == 0 ? 0 : (n - 1) * (cols + 1) + 1;
  strides.back() = cols + 1;
  return b.Slice(flattened, std::move(starts), std::move(limits),
                 std::move(strides));
}

// LAPACK's info from the diagonal of `factor`: 1 + the first diagonal
// position whose entry `bad` flags, 0 when none, for each matrix.
template <typename Flag>
StatusOr<HloInstruction*> FirstFlaggedDiagonal(
    HloBuilder& b, const LapackComputations& computations,
    HloInstruction* factor, Flag bad) {
  PHAL_ASSIGN_OR_RETURN(HloInstruction * diagonal, Diagonal(b, factor));
  const Shape& shape = diagonal->shape();
  const int64_t rank = shape.rank();
  const int64_t n = shape.dim(rank - 1);
  PHAL_ASSIGN_OR_RETURN(HloInstruction * cols, Iota(b, shape.dims(), rank - 1));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * hit, bad(diagonal));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * none,
                        b.FullLike(cols, static_cast<double>(n + 1)));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * one, b.FullLike(cols, 1));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * position,
                        b.Binary(HloOpcode::kAdd, cols, one));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * candidates,
                        b.Select(hit, position, none));
  PHAL_ASSIGN_OR_RETURN(
      HloInstruction * first,
      ReduceWith(b, computations, candidates, static_cast<double>(n + 1),
                 HloOpcode::kMinimum, {rank - 1}, "lapack_info_min"));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * limit,
                        b.FullLike(first, static_cast<double>(n + 1)));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * zero, b.FullLike(first, 0));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * found,
                        b.Compare(ComparisonDirection::kNe, first, limit));
  return b.Select(found, first, zero);
}

StatusOr<HloInstruction*> RealPart(HloBuilder& b, HloInstruction* x) {
  if (!IsComplex(x->shape().element_type())) return x;
  return b.Unary(HloOpcode::kReal, x);
}

StatusOr<std::vector<HloInstruction*>> Potrf(
    HloBuilder& b, const LapackComputations& computations,
    const LapackOptions& options, HloInstruction* a) {
  const bool lower = options.uplo != 'U';
  PHAL_ASSIGN_OR_RETURN(HloInstruction * factor, b.Cholesky(a, lower));
  // LAPACK leaves the other triangle as it was.
  const int64_t rank = a->shape().rank();
  PHAL_ASSIGN_OR_RETURN(HloInstruction * rows,
                        Iota(b, a->shape().dims(), rank - 2));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * cols,
                        Iota(b, a->shape().dims(), rank - 1));
  PHAL_ASSIGN_OR_RETURN(
      HloInstruction * in_triangle,
      b.Compare(lower ? ComparisonDirection::kGe : ComparisonDirection::kLe,
                rows, cols));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * result,
                        b.Select(in_triangle, factor, a));
  PHAL_ASSIGN_OR_RETURN(
      HloInstruction * info,
      FirstFlaggedDiagonal(
          b, computations, factor,
          [&b](HloInstruction* x) -> StatusOr<HloInstruction*> {
            PHAL_ASSIGN_OR_RETURN(HloInstruction * re, RealPart(b, x));
            return b.Compare(ComparisonDirection::kNe, re, re);
          }));
  return std::vector<HloInstruction*>{result, info};
}

StatusOr<std::vector<HloInstruction*>> Getrf(
    HloBuilder& b, const LapackComputations& computations, HloInstruction* a) {
  auto lu = b.Create(HloOpcode::kLu, Shape(), {a});
  PHAL_ASSIGN_OR_RETURN(HloInstruction * both, b.Add(std::move(lu)));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * factors, b.GetTupleElement(both, 0));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * pivots, b.GetTupleElement(both, 1));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * one, b.FullLike(pivots, 1));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * ipiv,
                        b.Binary(HloOpcode::kAdd, pivots, one));
  PHAL_ASSIGN_OR_RETURN(
      HloInstruction * info,
      FirstFlaggedDiagonal(
          b, computations, factors,
          [&b](HloInstruction* x) -> StatusOr<HloInstruction*> {
            PHAL_ASSIGN_OR_RETURN(HloInstruction * zero, b.FullLike(x, 0));
            return b.Compare(ComparisonDirection::kEq, x, zero);
          }));
  return std::vector<HloInstruction*>{factors, ipiv, info};
}

StatusOr<std::vector<HloInstruction*>> Geqrf(HloBuilder& b, HloInstruction* a) {
  auto qr = b.Create(HloOpcode::kQr, Shape(), {a});
  PHAL_ASSIGN_OR_RETURN(HloInstruction * both, b.Add(std::move(qr)));
  return b.Untuple(both);
}

StatusOr<std::vector<HloInstruction*>> Orgqr(HloBuilder& b, HloInstruction* a,
                                             HloInstruction* taus) {
  auto product = b.Create(HloOpcode::kHouseholderProduct, Shape(), {a, taus});
  PHAL_ASSIGN_OR_RETURN(HloInstruction * q, b.Add(std::move(product)));
  return std::vector<HloInstruction*>{q};
}

StatusOr<std::vector<HloInstruction*>> Trsm(HloBuilder& b,
                                            const LapackOptions& options,
                                            HloInstruction* a,
                                            HloInstruction* rhs) {
  LinearAlgebraOptions solve;
  solve.left_side = options.side != 'R';
  solve.lower = options.uplo != 'U';
  solve.unit_diagonal = options.diag == 'U';
  solve.transpose_a =
      options.trans_x == 'T'   ? TriangularSolveTranspose::kTranspose
      : options.trans_x == 'C' ? TriangularSolveTranspose::kAdjoint
                               : TriangularSolveTranspose::kNone;
  PHAL_ASSIGN_OR_RETURN(HloInstruction * x, b.TriangularSolve(a, rhs, solve));
  return std::vector<HloInstruction*>{x};
}

// LAPACK's info for the iterative routines: 1 where the result holds a
// NaN (a NaN input; the Jacobi sweeps always converge otherwise), else 0,
// for each matrix of the batch.
StatusOr<HloInstruction*> NanInfo(HloBuilder& b,
                                  const LapackComputations& computations,
                                  HloInstruction* values) {
  const int64_t rank = values->shape().rank();
  PHAL_ASSIGN_OR_RETURN(HloInstruction * nan,
                        b.Compare(ComparisonDirection::kNe, values, values));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * failed,
                        ReduceWith(b, computations, nan, 0, HloOpcode::kOr,
                                   {rank - 1}, "lapack_info_or"));
  return b.Convert(failed, PHAL_ELEMENT_TYPE_S32);
}

StatusOr<std::vector<HloInstruction*>> Syevd(
    HloBuilder& b, const LapackComputations& computations,
    const LapackOptions& options, HloInstruction* a) {
  auto eigh = b.Create(HloOpcode::kEigh, Shape(), {a});
  LinearAlgebraOptions attributes;
  attributes.lower = options.uplo != 'U';
  eigh->set_linear_algebra(attributes);
  PHAL_ASSIGN_OR_RETURN(HloInstruction * both, b.Add(std::move(eigh)));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * vectors, b.GetTupleElement(both, 0));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * values, b.GetTupleElement(both, 1));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * info,
                        NanInfo(b, computations, values));
  return std::vector<HloInstruction*>{vectors, values, info};
}

// gesdd: mode 'A' (full u and vt), 'S' (k columns of u, k rows of vt) or
// 'N' (values only; u and vt, whose contents are unspecified, of the shapes
// the call states, full or not). a comes back as it was.
StatusOr<std::vector<HloInstruction*>> Gesdd(
    HloBuilder& b, const LapackComputations& computations,
    const LapackOptions& options, HloInstruction* a,
    const std::vector<Shape>& result_types) {
  auto svd = b.Create(HloOpcode::kSvd, Shape(), {a});
  LinearAlgebraOptions attributes;
  attributes.full_matrices = options.mode != 'S';
  const Shape& shape = a->shape();
  if (options.mode == 'N' && result_types.size() == 5 &&
      result_types[2].rank() == shape.rank()) {
    attributes.full_matrices =
        result_types[2].dim(shape.rank() - 1) == shape.dim(shape.rank() - 2);
  }
  svd->set_linear_algebra(attributes);
  PHAL_ASSIGN_OR_RETURN(HloInstruction * parts, b.Add(std::move(svd)));
  PHAL_ASSIGN_OR_RETURN(std::vector<HloInstruction*> usv, b.Untuple(parts));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * info,
                        NanInfo(b, computations, usv[1]));
  return std::vector<HloInstruction*>{a, usv[1], usv[0], usv[2], info};
}

// cuSOLVER's gesvdj: as gesdd, but v in place of vt.
StatusOr<std::vector<HloInstruction*>> Gesvdj(
    HloBuilder& b, const LapackComputations& computations,
    const LapackOptions& options, HloInstruction* a,
    const std::vector<Shape>& result_types) {
  PHAL_ASSIGN_OR_RETURN(std::vector<HloInstruction*> results,
                        Gesdd(b, computations, options, a, result_types));
  HloInstruction* vt = results[3];
  const int64_t rank = vt->shape().rank();
  std::vector<int64_t> permutation(static_cast<std::size_t>(rank));
  std::iota(permutation.begin(), permutation.end(), 0);
  std::swap(permutation[permutation.size() - 1],
            permutation[permutation.size() - 2]);
  auto transpose = b.Create(HloOpcode::kTranspose, Shape(), {vt});
  transpose->set_dimensions(permutation);
  PHAL_ASSIGN_OR_RETURN(HloInstruction * v, b.Add(std::move(transpose)));
  PHAL_ASSIGN_OR_RETURN(results[3], b.Conjugate(v));
  return results;
}

// The permutation [batch..., m] that applying the 0-based row swaps
// `pivots` [batch..., k] in order makes of the rows 0..m-1 (perm[i] and
// perm[pivots[i]] swapped for i = 0..k-1): a counted while loop.
StatusOr<std::vector<HloInstruction*>> PivotsToPermutation(
    HloBuilder& b, const LapackComputations& computations,
    HloInstruction* pivots, const std::vector<Shape>& result_types) {
  const Shape& shape = pivots->shape();
  if (result_types.size() != 1 || result_types[0].rank() != shape.rank() ||
      shape.element_type() != PHAL_ELEMENT_TYPE_S32 || shape.rank() < 1) {
    return InvalidArgument(
        "lu_pivots_to_permutation takes s32 pivots "
        "[batch..., k] to a permutation [batch..., m]");
  }
  const int64_t rank = shape.rank();
  const int64_t k = shape.dim(rank - 1);
  const Dims dims = result_types[0].dims();
  const Shape s32(PHAL_ELEMENT_TYPE_S32, {});
  const Shape state =
      Shape::Tuple({s32, Shape(PHAL_ELEMENT_TYPE_S32, dims), shape});
  // Condition: i < k.
  HloBuilder condition(computations.unique_name("lu_pivots_condition"));
  HloInstruction* cp = condition.AddParameter(state);
  PHAL_ASSIGN_OR_RETURN(HloInstruction * ci, condition.GetTupleElement(cp, 0));
  PHAL_ASSIGN_OR_RETURN(
      HloInstruction * limit,
      condition.ScalarConstant(PHAL_ELEMENT_TYPE_S32, static_cast<double>(k)));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * going,
                        condition.Compare(ComparisonDirection::kLt, ci, limit));
  HloComputation* condition_computation =
      computations.add(condition.Build(going));
  // Body: swap perm[i] and perm[pivots[i]] in every batch element.
  HloBuilder body(computations.unique_name("lu_pivots_body"));
  HloInstruction* bp = body.AddParameter(state);
  PHAL_ASSIGN_OR_RETURN(HloInstruction * i, body.GetTupleElement(bp, 0));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * perm, body.GetTupleElement(bp, 1));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * piv, body.GetTupleElement(bp, 2));
  std::vector<HloInstruction*> starts;
  PHAL_ASSIGN_OR_RETURN(HloInstruction * zero,
                        body.ScalarConstant(PHAL_ELEMENT_TYPE_S32, 0));
  for (int64_t d = 0; d + 1 < rank; ++d) starts.push_back(zero);
  starts.push_back(i);
  Dims one = dims;
  one.back() = 1;
  auto pick = [&](HloInstruction* x) -> StatusOr<HloInstruction*> {
    std::vector<HloInstruction*> operands = {x};
    operands.insert(operands.end(), starts.begin(), starts.end());
    auto slice = body.Create(HloOpcode::kDynamicSlice, Shape(), operands);
    slice->set_dynamic_slice_sizes(one);
    PHAL_ASSIGN_OR_RETURN(HloInstruction * picked, body.Add(std::move(slice)));
    std::vector<int64_t> mapping(static_cast<std::size_t>(rank));
    std::iota(mapping.begin(), mapping.end(), 0);
    Dims batch(dims.begin(), dims.end() - 1);
    PHAL_ASSIGN_OR_RETURN(HloInstruction * flat, body.Reshape(picked, batch));
    mapping.pop_back();
    return body.Broadcast(flat, dims, mapping);
  };
  PHAL_ASSIGN_OR_RETURN(HloInstruction * target, pick(piv));  // p
  PHAL_ASSIGN_OR_RETURN(HloInstruction * at_i, pick(perm));   // perm[i]
  PHAL_ASSIGN_OR_RETURN(
      HloInstruction * index,
      body.Iota(Shape(PHAL_ELEMENT_TYPE_S32, dims), rank - 1));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * is_p,
                        body.Compare(ComparisonDirection::kEq, index, target));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * zeros, body.FullLike(perm, 0));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * only_p,
                        body.Select(is_p, perm, zeros));
  PHAL_ASSIGN_OR_RETURN(
      HloInstruction * at_p_flat,
      ReduceWith(body, computations, only_p, 0, HloOpcode::kAdd, {rank - 1},
                 "lu_pivots_add"));
  std::vector<int64_t> mapping(static_cast<std::size_t>(rank - 1));
  std::iota(mapping.begin(), mapping.end(), 0);
  PHAL_ASSIGN_OR_RETURN(HloInstruction * at_p,
                        body.Broadcast(at_p_flat, dims, mapping));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * ii, body.Broadcast(i, dims, {}));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * is_i,
                        body.Compare(ComparisonDirection::kEq, index, ii));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * swapped_p,
                        body.Select(is_p, at_i, perm));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * swapped,
                        body.Select(is_i, at_p, swapped_p));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * step,
                        body.ScalarConstant(PHAL_ELEMENT_TYPE_S32, 1));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * next,
                        body.Binary(HloOpcode::kAdd, i, step));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * body_root,
                        body.Tuple({next, swapped, piv}));
  HloComputation* body_computation = computations.add(body.Build(body_root));
  // The loop from the identity permutation.
  PHAL_ASSIGN_OR_RETURN(HloInstruction * start,
                        b.ScalarConstant(PHAL_ELEMENT_TYPE_S32, 0));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * identity,
                        b.Iota(Shape(PHAL_ELEMENT_TYPE_S32, dims), rank - 1));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * initial,
                        b.Tuple({start, identity, pivots}));
  auto loop = b.Create(HloOpcode::kWhile, Shape(), {initial});
  loop->AppendCalledComputation(condition_computation);
  loop->AppendCalledComputation(body_computation);
  PHAL_ASSIGN_OR_RETURN(HloInstruction * done, b.Add(std::move(loop)));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * permutation,
                        b.GetTupleElement(done, 1));
  return std::vector<HloInstruction*>{permutation};
}

Status ExpectOperands(const std::string& target,
                      const std::vector<HloInstruction*>& operands,
                      std::size_t count) {
  if (operands.size() == count) return OkStatus();
  return InvalidArgument("custom_call @" + target + " takes " +
                         std::to_string(count) + " operands, got " +
                         std::to_string(operands.size()));
}

// The routine's results, before they meet the stated types.
StatusOr<std::vector<HloInstruction*>> LowerRoutine(
    HloBuilder& b, const LapackComputations& computations,
    const std::string& target, const LapackOptions& options,
    const std::vector<HloInstruction*>& operands,
    const std::vector<Shape>& result_types) {
  const Solver solver = Routine(target);
  const std::string& routine = solver.routine;
  if (routine == "potrf") {
    PHAL_RETURN_IF_ERROR(ExpectOperands(target, operands, 1));
    return Potrf(b, computations, options, operands[0]);
  }
  if (routine == "getrf") {
    PHAL_RETURN_IF_ERROR(ExpectOperands(target, operands, 1));
    return Getrf(b, computations, operands[0]);
  }
  if (routine == "geqrf") {
    PHAL_RETURN_IF_ERROR(ExpectOperands(target, operands, 1));
    return Geqrf(b, operands[0]);
  }
  if (routine == "orgqr" || routine == "ungqr") {
    PHAL_RETURN_IF_ERROR(ExpectOperands(target, operands, 2));
    return Orgqr(b, operands[0], operands[1]);
  }
  if (routine == "trsm") {
    PHAL_RETURN_IF_ERROR(ExpectOperands(target, operands, 2));
    return Trsm(b, options, operands[0], operands[1]);
  }
  if (routine == "syevd" || routine == "heevd") {
    PHAL_RETURN_IF_ERROR(ExpectOperands(target, operands, 1));
    return Syevd(b, computations, options, operands[0]);
  }
  if (routine == "gesdd" || routine == "gesvd") {
    PHAL_RETURN_IF_ERROR(ExpectOperands(target, operands, 1));
    return Gesdd(b, computations, options, operands[0], result_types);
  }
  if (routine == "gesvdj") {
    PHAL_RETURN_IF_ERROR(ExpectOperands(target, operands, 1));
    return Gesvdj(b, computations, options, operands[0], result_types);
  }
  if (routine == "lu_pivots_to_permutation") {
    PHAL_RETURN_IF_ERROR(ExpectOperands(target, operands, 1));
    return PivotsToPermutation(b, computations, operands[0], result_types);
  }
  return Unimplemented("custom_call @" + target + ": " + solver.library +
                       "'s " + routine +
                       " is not lowered yet (potrf, getrf, geqrf, orgqr, "
                       "ungqr, trsm, syevd, heevd, gesdd, gesvd, gesvdj and "
                       "the pivots' permutation are)");
}

}  // namespace

void LapackOptions::SetCode(const std::string& name, char letter) {
  if (name == "uplo") uplo = letter;
  if (name == "side") side = letter;
  if (name == "trans_x") trans_x = letter;
  if (name == "diag") diag = letter;
  if (name == "mode") mode = letter;
}

void LapackOptions::SetFlag(const std::string& name, bool value) {
  if (name == "lower") uplo = value ? 'L' : 'U';
  if (name == "full_matrices" && mode != 'N') mode = value ? 'A' : 'S';
  if (name == "compute_uv" && !value) mode = 'N';
}

bool IsLapackTarget(const std::string& target) {
  return !Routine(target).routine.empty();
}

StatusOr<std::vector<HloInstruction*>> LowerLapackCustomCall(
    HloBuilder& b, const LapackComputations& computations,
    const std::string& target, const LapackOptions& options,
    const std::vector<HloInstruction*>& operands,
    const std::vector<Shape>& result_types) {
  PHAL_ASSIGN_OR_RETURN(
      std::vector<HloInstruction*> results,
      LowerRoutine(b, computations, target, options, operands, result_types));
  if (results.size() != result_types.size()) {
    return InvalidArgument("custom_call @" + target + " states " +
                           std::to_string(result_types.size()) +
                           " results; the routine gives " +
                           std::to_string(results.size()));
  }
  // Scalars the routine gives as one-element arrays (and the reverse)
  // take the stated shape.
  for (std::size_t i = 0; i < results.size(); ++i) {
    HloInstruction*& result = results[i];
    const Shape& stated = result_types[i];
    if (result->shape().dims() != stated.dims() &&
        result->shape().ElementCount() == stated.ElementCount()) {
      PHAL_ASSIGN_OR_RETURN(result, b.Reshape(result, stated.dims()));
    }
    if (!result->shape().Compatible(stated)) {
      return InvalidArgument("custom_call @" + target + " result " +
                             std::to_string(i) + " is " +
                             result->shape().ToString() + ", the call states " +
                             stated.ToString());
    }
  }
  return results;
}

}  // namespace phal
