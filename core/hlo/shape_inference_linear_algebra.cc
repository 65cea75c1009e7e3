// Shape inference of the linear-algebra ops.
#include <string>

#include "core/hlo/shape_inference_internal.h"

namespace phal {

namespace shape_inference_internal {
namespace {

// A batch of matrices [batch..., rows, columns] of a floating-point or
// complex type.
Status ExpectMatrices(const Shape& shape, const std::string& what) {
  PHAL_RETURN_IF_ERROR(ExpectArray(shape, what));
  if (shape.rank() < 2) {
    return Fail(what + " " + shape.ToString() +
                " must be a batch of matrices (rank 2 or more)");
  }
  const ElementType type = shape.element_type();
  if (type != PHAL_ELEMENT_TYPE_F32 && type != PHAL_ELEMENT_TYPE_F64 &&
      !IsComplex(type)) {
    return Fail(what + " " + shape.ToString() +
                " must be of f32, f64, c64 or c128");
  }
  return OkStatus();
}

Status ExpectSquare(const Shape& shape, const std::string& what) {
  PHAL_RETURN_IF_ERROR(ExpectMatrices(shape, what));
  if (shape.dim(shape.rank() - 1) != shape.dim(shape.rank() - 2)) {
    return Fail(what + " " + shape.ToString() + " must hold square matrices");
  }
  return OkStatus();
}

std::vector<int64_t> BatchDims(const Shape& shape, int64_t keep) {
  std::vector<int64_t> dims = shape.dims();
  dims.resize(static_cast<std::size_t>(shape.rank() - 2));
  if (keep >= 0) dims.push_back(keep);
  return dims;
}

}  // namespace

// cholesky(a): a's shape. triangular-solve(a, b): b's shape, a square and
// of b's batch, its order b's rows (left side) or columns (right side).
// lu(a): (a's shape, s32[batch..., min(m, n)] pivots). qr(a): (a's shape,
// taus[batch..., min(m, n)]). householder-product(a, taus): a's shape,
// m >= n >= k for a [.., m, n] and taus [.., k]. eigh(a): (eigenvectors
// [.., n, n], eigenvalues [.., n]). svd(a): (u, s [.., min(m, n)], vt),
// full_matrices choosing u's and vt's shapes; eigenvalues and singular
// values are real.
StatusOr<Shape> InferLinearAlgebraShape(const HloInstruction& instruction) {
  const Shape& a = instruction.operand(0)->shape();
  switch (instruction.opcode()) {
    case HloOpcode::kCholesky:
      PHAL_RETURN_IF_ERROR(ExpectSquare(a, "the operand"));
      return a;
    case HloOpcode::kTriangularSolve: {
      const Shape& b = instruction.operand(1)->shape();
      PHAL_RETURN_IF_ERROR(ExpectSquare(a, "a"));
      PHAL_RETURN_IF_ERROR(ExpectMatrices(b, "b"));
      PHAL_RETURN_IF_ERROR(ExpectSameElementType(a, b, "a and b"));
      const int64_t rank = a.rank();
      const bool left = instruction.linear_algebra().left_side;
      if (b.rank() != rank || BatchDims(a, -1) != BatchDims(b, -1) ||
          b.dim(left ? rank - 2 : rank - 1) != a.dim(rank - 1)) {
        return Fail("b " + b.ToString() + " does not fit a " + a.ToString() +
                    (left ? " on the left" : " on the right"));
      }
      return b;
    }
    case HloOpcode::kLu:
    case HloOpcode::kQr: {
      PHAL_RETURN_IF_ERROR(ExpectMatrices(a, "the operand"));
      const int64_t k = std::min(a.dim(a.rank() - 2), a.dim(a.rank() - 1));
      const ElementType second = instruction.opcode() == HloOpcode::kLu
                                     ? PHAL_ELEMENT_TYPE_S32
                                     : a.element_type();
      return Shape::Tuple({a, Shape(second, BatchDims(a, k))});
    }
    case HloOpcode::kHouseholderProduct: {
      const Shape& taus = instruction.operand(1)->shape();
      PHAL_RETURN_IF_ERROR(ExpectMatrices(a, "a"));
      PHAL_RETURN_IF_ERROR(ExpectArray(taus, "taus"));
      PHAL_RETURN_IF_ERROR(ExpectSameElementType(a, taus, "a and taus"));
      const int64_t m = a.dim(a.rank() - 2);
      const int64_t n = a.dim(a.rank() - 1);
      if (taus.rank() != a.rank() - 1 ||
          BatchDims(a, taus.dim(taus.rank() - 1)) != taus.dims() ||
          taus.dim(taus.rank() - 1) > n || n > m) {
        return Fail("taus " + taus.ToString() + " and a " + a.ToString() +
                    " must be [batch..., k] and [batch..., m, n] with "
                    "m >= n >= k");
      }
      return a;
    }
    case HloOpcode::kEigh: {
      PHAL_RETURN_IF_ERROR(ExpectSquare(a, "the operand"));
      return Shape::Tuple({a, Shape(ComplexComponentType(a.element_type()),
                                    BatchDims(a, a.dim(a.rank() - 1)))});
    }
    case HloOpcode::kSvd: {
      PHAL_RETURN_IF_ERROR(ExpectMatrices(a, "the operand"));
      const int64_t m = a.dim(a.rank() - 2);
      const int64_t n = a.dim(a.rank() - 1);
      const int64_t k = std::min(m, n);
      const bool full = instruction.linear_algebra().full_matrices;
      std::vector<int64_t> u = BatchDims(a, m);
      u.push_back(full ? m : k);
      std::vector<int64_t> vt = BatchDims(a, full ? n : k);
      vt.push_back(n);
      return Shape::Tuple(
          {Shape(a.element_type(), u),
           Shape(ComplexComponentType(a.element_type()), BatchDims(a, k)),
           Shape(a.element_type(), vt)});
    }
    default:
      return Fail("is not a linear-algebra op");
  }
}

}  // namespace shape_inference_internal

}  // namespace phal
