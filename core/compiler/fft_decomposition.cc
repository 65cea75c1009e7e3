#include <complex>
#include <numbers>
#include <numeric>

#include "core/compiler/decompositions.h"
#include "core/reference/fft.h"

namespace phal {
namespace {

// Index products j*k below 2^31 keep the twiddle arithmetic in s32.
constexpr int64_t kLargestS32Length = 46340;
// Twiddle grids of up to this many elements (4 MiB of f32 cosines and as
// many sines: a 1024-point FFT) are constants computed on the host; larger
// ones are computed in the kernel.
constexpr int64_t kLargestTwiddleTable = int64_t{1} << 20;
// Transforms up to this length sum directly (O(n) work per output); longer
// ones of a composite length are split (DftBuilder::FastTransform).
constexpr int64_t kDirectLength = 64;
// Unsplit transforms up to this length are one real matrix product with a
// host-computed (2n)^2 matrix (DftBuilder::DotTransform); longer ones (of a
// prime length) sum directly.
constexpr int64_t kLargestDotLength = 256;

struct Twiddles {
  HloInstruction* cosine;
  HloInstruction* sine;
};

// The instructions of one fft's decomposition: discrete Fourier transforms
// along one dimension each, as reduces whose values are products with
// twiddle factors.
class DftBuilder {
 public:
  DftBuilder(RewriteContext& context, ElementType complex_type)
      : context_(context),
        complex_(complex_type),
        real_(ComplexComponentType(complex_type)) {}

  // y[.., k, ..] = sum_j x[.., j, ..] exp(-+2 pi i j k / n) along
  // `dimension` of a complex x, for k < outputs; the sign is + for
  // `inverse`. No 1/n scaling.
  HloInstruction* Transform(HloInstruction* x, int64_t dimension, int64_t n,
                            int64_t outputs, bool inverse) {
    const int64_t inputs = x->shape().dim(dimension);
    const Twiddles roots =
        Roots(inputs, outputs, n, inverse ? 1.0 : -1.0, /*weighted=*/false);
    HloInstruction* twiddles =
        context_.AddNew(HloOpcode::kComplex, Shape(complex_, {inputs, outputs}),
                        {roots.cosine, roots.sine});
    HloInstruction* products =
        Binary(HloOpcode::kMultiply, Spread(x, dimension, outputs),
               SpreadGrid(twiddles, x->shape().dims(), dimension, outputs));
    return Sum(products, dimension);
  }

  // The full transform of length n along `dimension` of a complex x
  // (Transform with n outputs) in O(n (n1 + n2)) work instead of O(n^2):
  // for n = n1 n2 with n1 the largest factor up to sqrt(n), the index
  // j = j1 n2 + j2 is split into two dimensions, transforms of length n1
  // over j1 (giving k1) are multiplied by the twiddles exp(-+2 pi i j2 k1
  // / n) and transformed over j2 (giving k2), and the output k = k1 + n1 k2
  // is the transpose of (k1, k2) joined again (Cooley and Tukey's
  // decomposition, applied again to each factor above kDirectLength).
  HloInstruction* FastTransform(HloInstruction* x, int64_t dimension, int64_t n,
                                bool inverse) {
    if (!IsSplit(n)) {
      return n <= kLargestDotLength ? DotTransform(x, dimension, n, inverse)
                                    : Transform(x, dimension, n, n, inverse);
    }
    const int64_t n1 = SmallFactor(n);
    const int64_t n2 = n / n1;
    const std::vector<int64_t> dims = x->shape().dims();
    std::vector<int64_t> split = dims;
    split[static_cast<std::size_t>(dimension)] = n1;
    split.insert(split.begin() + dimension + 1, n2);
    HloInstruction* y =
        context_.AddNew(HloOpcode::kReshape, Shape(complex_, split), {x});
    y = FastTransform(y, dimension, n1, inverse);
    const Twiddles roots =
        Roots(n1, n2, n, inverse ? 1.0 : -1.0, /*weighted=*/false);
    HloInstruction* twiddles =
        context_.AddNew(HloOpcode::kComplex, Shape(complex_, {n1, n2}),
                        {roots.cosine, roots.sine});
    y = Binary(HloOpcode::kMultiply, y,
               context_.AddNew(HloOpcode::kBroadcast, Shape(complex_, split),
                               {twiddles}, [&](HloInstruction& b) {
                                 b.set_dimensions({dimension, dimension + 1});
                               }));
    y = FastTransform(y, dimension + 1, n2, inverse);
    std::vector<int64_t> permutation(split.size());
    std::iota(permutation.begin(), permutation.end(), int64_t{0});
    std::swap(permutation[static_cast<std::size_t>(dimension)],
              permutation[static_cast<std::size_t>(dimension) + 1]);
    y = AddTranspose(context_, y, permutation);
    return context_.AddNew(HloOpcode::kReshape, Shape(complex_, dims), {y});
  }

  // The full transform of length n along `dimension` of a complex x as
  // one real matrix product, which a GEMM computes: the lines along
  // `dimension` as rows [Re x, Im x] of 2n, times the host-computed
  // [[C, S], [-S, C]] with C + iS the twiddles exp(-+2 pi i j k / n), give
  // rows [Re y, Im y].
  HloInstruction* DotTransform(HloInstruction* x, int64_t dimension, int64_t n,
                               bool inverse) {
    const std::vector<int64_t> dims = x->shape().dims();
    const auto rank = static_cast<int64_t>(dims.size());
    std::vector<int64_t> to_last;
    for (int64_t d = 0; d < rank; ++d) {
      if (d != dimension) to_last.push_back(d);
    }
    to_last.push_back(dimension);
    std::vector<int64_t> moved;
    for (int64_t d : to_last)
      moved.push_back(dims[static_cast<std::size_t>(d)]);
    HloInstruction* lines = AddTranspose(context_, x, to_last);
    const int64_t rows = x->shape().ElementCount() / n;
    lines = context_.AddNew(HloOpcode::kReshape, Shape(complex_, {rows, n}),
                            {lines});
    HloInstruction* parts = context_.AddNew(
        HloOpcode::kConcatenate, Shape(real_, {rows, 2 * n}),
        {context_.AddNew(HloOpcode::kReal, Shape(real_, {rows, n}), {lines}),
         context_.AddNew(HloOpcode::kImag, Shape(real_, {rows, n}), {lines})},
        [](HloInstruction& c) { c.set_dimensions({1}); });
    Literal matrix(Shape(real_, {2 * n, 2 * n}));
    const double sign = inverse ? 1.0 : -1.0;
    for (int64_t j = 0; j < n; ++j) {
      for (int64_t k = 0; k < n; ++k) {
        const std::complex<double> root =
            reference::UnitRoot((j * k) % n, n, sign);
        matrix.SetFromDouble(j * 2 * n + k, root.real());
        matrix.SetFromDouble(j * 2 * n + n + k, root.imag());
        matrix.SetFromDouble((n + j) * 2 * n + k, -root.imag());
        matrix.SetFromDouble((n + j) * 2 * n + n + k, root.real());
      }
    }
    HloInstruction* twiddles = context_.AddNew(
        HloOpcode::kConstant, Shape(real_, {2 * n, 2 * n}), {},
        [&](HloInstruction& c) { c.set_literal(std::move(matrix)); });
    HloInstruction* products =
        context_.AddNew(HloOpcode::kDot, Shape(real_, {rows, 2 * n}),
                        {parts, twiddles}, [](HloInstruction& dot) {
                          DotDimensionNumbers numbers;
                          numbers.lhs_contracting_dimensions = {1};
                          numbers.rhs_contracting_dimensions = {0};
                          dot.set_dot_dimension_numbers(numbers);
                        });
    const auto half = [&](int64_t first) {
      return context_.AddNew(
          HloOpcode::kSlice, Shape(real_, {rows, n}), {products},
          [&](HloInstruction& slice) {
            slice.set_slice({0, first}, {rows, first + n}, {1, 1});
          });
    };
    HloInstruction* y = context_.AddNew(
        HloOpcode::kComplex, Shape(complex_, {rows, n}), {half(0), half(n)});
    y = context_.AddNew(HloOpcode::kReshape, Shape(complex_, moved), {y});
    std::vector<int64_t> back(static_cast<std::size_t>(rank));
    for (int64_t i = 0; i < rank; ++i) {
      back[static_cast<std::size_t>(to_last[static_cast<std::size_t>(i)])] = i;
    }
    return AddTranspose(context_, y, back);
  }

  // Whether FastTransform splits a transform of length n.
  static bool IsSplit(int64_t n) {
    return n > kDirectLength && SmallFactor(n) > 1;
  }

  // The first `count` entries of x along `dimension`.
  HloInstruction* LeadingPart(HloInstruction* x, int64_t dimension,
                              int64_t count) {
    const std::vector<int64_t>& dims = x->shape().dims();
    std::vector<int64_t> limits = dims;
    limits[static_cast<std::size_t>(dimension)] = count;
    return context_.AddNew(
        HloOpcode::kSlice, Shape(x->shape().element_type(), limits), {x},
        [&](HloInstruction& slice) {
          slice.set_slice(std::vector<int64_t>(dims.size(), 0), limits,
                          std::vector<int64_t>(dims.size(), 1));
        });
  }

  // The n real values of each line along the last `dimension` from its
  // n/2+1 non-negative frequencies, through the full spectrum (the
  // frequencies above n/2 are the conjugates of those below, reversed) and
  // FastTransform's inverse, whose real parts they are. As RealInverse,
  // the imaginary parts of X_0 and X_{n/2} do not count.
  HloInstruction* FastRealInverse(HloInstruction* x, int64_t dimension,
                                  int64_t n) {
    const std::vector<int64_t>& dims = x->shape().dims();
    const auto d = static_cast<std::size_t>(dimension);
    const int64_t tail = n - n / 2 - 1;
    std::vector<int64_t> starts(dims.size(), 0);
    std::vector<int64_t> limits = dims;
    std::vector<int64_t> part = dims;
    starts[d] = 1;
    limits[d] = 1 + tail;
    part[d] = tail;
    HloInstruction* mirrored = context_.AddNew(
        HloOpcode::kSlice, Shape(complex_, part), {x},
        [&](HloInstruction& slice) {
          slice.set_slice(starts, limits, std::vector<int64_t>(dims.size(), 1));
        });
    mirrored = context_.AddNew(
        HloOpcode::kReverse, mirrored->shape(), {mirrored},
        [&](HloInstruction& r) { r.set_dimensions({dimension}); });
    mirrored = context_.AddNew(
        HloOpcode::kComplex, mirrored->shape(),
        {context_.AddNew(HloOpcode::kReal, Shape(real_, part), {mirrored}),
         Unary(HloOpcode::kNegate,
               context_.AddNew(HloOpcode::kImag, Shape(real_, part),
                               {mirrored}))});
    std::vector<int64_t> head = dims;
    head[d] = n / 2 + 1;
    HloInstruction* low = x;
    if (dims[d] != head[d]) {
      std::vector<int64_t> head_limits = dims;
      head_limits[d] = head[d];
      low = context_.AddNew(
          HloOpcode::kSlice, Shape(complex_, head), {x},
          [&](HloInstruction& slice) {
            slice.set_slice(std::vector<int64_t>(dims.size(), 0), head_limits,
                            std::vector<int64_t>(dims.size(), 1));
          });
    }
    std::vector<int64_t> full = dims;
    full[d] = n;
    HloInstruction* spectrum = context_.AddNew(
        HloOpcode::kConcatenate, Shape(complex_, full), {low, mirrored},
        [&](HloInstruction& c) { c.set_dimensions({dimension}); });
    return context_.AddNew(HloOpcode::kReal, Shape(real_, full),
                           {FastTransform(spectrum, dimension, n, true)});
  }

  // The n real values of each line along the last `dimension` from the
  // n/2+1 non-negative frequencies X_k of their transform, unscaled:
  // sum_k c_k Re(X_k exp(2 pi i k t / n)), with c_k = 2 for the
  // frequencies standing for a conjugate pair (X_{n-k} = conj(X_k)) and 1
  // for k = 0 and k = n/2, whose imaginary parts therefore do not count.
  HloInstruction* RealInverse(HloInstruction* x, int64_t dimension, int64_t n) {
    const int64_t inputs = x->shape().dim(dimension);
    const Twiddles roots = Roots(inputs, n, n, 1.0, /*weighted=*/true);
    const std::vector<int64_t>& dims = x->shape().dims();
    const auto spread_part = [&](HloOpcode part) {
      return Spread(context_.AddNew(part, Shape(real_, dims), {x}), dimension,
                    n);
    };
    const auto spread_root = [&](HloInstruction* root) {
      return SpreadGrid(root, dims, dimension, n);
    };
    HloInstruction* values =
        Binary(HloOpcode::kSubtract,
               Binary(HloOpcode::kMultiply, spread_part(HloOpcode::kReal),
                      spread_root(roots.cosine)),
               Binary(HloOpcode::kMultiply, spread_part(HloOpcode::kImag),
                      spread_root(roots.sine)));
    return Sum(values, dimension);
  }

  // x / n, part by part for a complex x.
  HloInstruction* DivideBy(HloInstruction* x, int64_t n) {
    const std::vector<int64_t>& dims = x->shape().dims();
    HloInstruction* divisor = Constant(real_, static_cast<double>(n), dims);
    if (!IsComplex(x->shape().element_type())) {
      return Binary(HloOpcode::kDivide, x, divisor);
    }
    const auto part = [&](HloOpcode opcode) {
      return Binary(HloOpcode::kDivide,
                    context_.AddNew(opcode, Shape(real_, dims), {x}), divisor);
    };
    return context_.AddNew(HloOpcode::kComplex, x->shape(),
                           {part(HloOpcode::kReal), part(HloOpcode::kImag)});
  }

  // A real x as complex values with zero imaginary parts.
  HloInstruction* ToComplex(HloInstruction* x) {
    const std::vector<int64_t>& dims = x->shape().dims();
    return context_.AddNew(HloOpcode::kComplex, Shape(complex_, dims),
                           {x, Constant(real_, 0, dims)});
  }

 private:
  // cos and sign * sin of 2 pi (j k mod n) / n over the grid [inputs,
  // outputs] of (j, k); `weighted` multiplies row j by IRFFT's c_j (2, or 1
  // for j = 0 and 2j = n). A host-computed constant, rounded once from
  // double, while the grid is small; computed in the kernel otherwise.
  Twiddles Roots(int64_t inputs, int64_t outputs, int64_t n, double sign,
                 bool weighted) {
    if (inputs * outputs <= kLargestTwiddleTable) {
      return RootTables(inputs, outputs, n, sign, weighted);
    }
    Twiddles roots = UnitRoots(inputs, outputs, n);
    if (sign < 0) roots.sine = Unary(HloOpcode::kNegate, roots.sine);
    if (!weighted) return roots;
    const std::vector<int64_t> grid = {inputs, outputs};
    const ElementType index = IndexType(n);
    HloInstruction* j = Iota(index, grid, 0);
    HloInstruction* unpaired = context_.AddNew(
        HloOpcode::kOr, Shape(PHAL_ELEMENT_TYPE_PRED, grid),
        {Compare(j, Constant(index, 0, grid), ComparisonDirection::kEq),
         Compare(Binary(HloOpcode::kMultiply, j, Constant(index, 2, grid)),
                 Constant(index, n, grid), ComparisonDirection::kEq)});
    HloInstruction* weight =
        Select(unpaired, Constant(real_, 1, grid), Constant(real_, 2, grid));
    return {Binary(HloOpcode::kMultiply, weight, roots.cosine),
            Binary(HloOpcode::kMultiply, weight, roots.sine)};
  }

  Twiddles RootTables(int64_t inputs, int64_t outputs, int64_t n, double sign,
                      bool weighted) {
    const Shape grid(real_, {inputs, outputs});
    Literal cosines(grid);
    Literal sines(grid);
    for (int64_t j = 0; j < inputs; ++j) {
      const double weight = weighted && j != 0 && 2 * j != n ? 2.0 : 1.0;
      for (int64_t k = 0; k < outputs; ++k) {
        const std::complex<double> root =
            reference::UnitRoot((j * k) % n, n, sign);
        cosines.SetFromDouble(j * outputs + k, weight * root.real());
        sines.SetFromDouble(j * outputs + k, weight * root.imag());
      }
    }
    const auto constant = [&](Literal& table) {
      return context_.AddNew(
          HloOpcode::kConstant, grid, {},
          [&](HloInstruction& c) { c.set_literal(std::move(table)); });
    };
    return {constant(cosines), constant(sines)};
  }

  // The largest factor of n up to sqrt(n) (1 for a prime).
  static int64_t SmallFactor(int64_t n) {
    int64_t factor = 1;
    for (int64_t f = 2; f * f <= n; ++f) {
      if (n % f == 0) factor = f;
    }
    return factor;
  }

  static ElementType IndexType(int64_t n) {
    return n <= kLargestS32Length ? PHAL_ELEMENT_TYPE_S32
                                  : PHAL_ELEMENT_TYPE_S64;
  }

  // cos and sin of 2 pi (j k mod n) / n over the grid [inputs, outputs] of
  // (j, k). The angle is pi/2 (q + r/n) with 4 (j k mod n) = q n + r and
  // |r| <= n/2, both from integer arithmetic: sin and cos are evaluated at
  // pi/2 r/n, within pi/4 of zero, and the quadrant q swaps and negates
  // them. Only the rounding of pi/2 r/n and of sin and cos remain.
  Twiddles UnitRoots(int64_t inputs, int64_t outputs, int64_t n) {
    const std::vector<int64_t> grid = {inputs, outputs};
    const ElementType index = IndexType(n);
    const auto integer = [&](int64_t value) {
      return Constant(index, value, grid);
    };
    HloInstruction* product = Binary(HloOpcode::kMultiply, Iota(index, grid, 0),
                                     Iota(index, grid, 1));
    HloInstruction* quarter_turns =
        Binary(HloOpcode::kMultiply,
               Binary(HloOpcode::kRemainder, product, integer(n)), integer(4));
    HloInstruction* quadrant = Binary(
        HloOpcode::kDivide,
        Binary(HloOpcode::kAdd, quarter_turns, integer(n / 2)), integer(n));
    HloInstruction* rest =
        Binary(HloOpcode::kSubtract, quarter_turns,
               Binary(HloOpcode::kMultiply, quadrant, integer(n)));
    HloInstruction* angle = Binary(
        HloOpcode::kMultiply,
        context_.AddNew(HloOpcode::kConvert, Shape(real_, grid), {rest}),
        Constant(real_, std::numbers::pi / 2 / static_cast<double>(n), grid));
    HloInstruction* c = Unary(HloOpcode::kCos, angle);
    HloInstruction* s = Unary(HloOpcode::kSin, angle);
    const auto bit_set = [&](HloInstruction* value, int64_t bit) {
      return Compare(Binary(HloOpcode::kAnd, value, integer(bit)), integer(0),
                     ComparisonDirection::kNe);
    };
    // Quadrants 1 and 3 swap sin and cos; cos is negative in 1 and 2, sin
    // in 2 and 3.
    HloInstruction* swap = bit_set(quadrant, 1);
    HloInstruction* cosine = Select(swap, s, c);
    HloInstruction* sine = Select(swap, c, s);
    HloInstruction* negative_cosine =
        bit_set(Binary(HloOpcode::kAdd, quadrant, integer(1)), 2);
    HloInstruction* negative_sine = bit_set(quadrant, 2);
    return {Select(negative_cosine, Unary(HloOpcode::kNegate, cosine), cosine),
            Select(negative_sine, Unary(HloOpcode::kNegate, sine), sine)};
  }

  // x of dimensions D broadcast to D with `outputs` inserted after
  // `dimension`.
  HloInstruction* Spread(HloInstruction* x, int64_t dimension,
                         int64_t outputs) {
    std::vector<int64_t> mapping;
    for (int64_t i = 0; i < x->shape().rank(); ++i) {
      mapping.push_back(i <= dimension ? i : i + 1);
    }
    return context_.AddNew(
        HloOpcode::kBroadcast,
        Shape(x->shape().element_type(),
              Grown(x->shape().dims(), dimension, outputs)),
        {x}, [&](HloInstruction& b) { b.set_dimensions(mapping); });
  }

  // A [inputs, outputs] grid broadcast to `dims` with `outputs` inserted
  // after `dimension`, the grid's two dimensions on those two.
  HloInstruction* SpreadGrid(HloInstruction* grid,
                             const std::vector<int64_t>& dims,
                             int64_t dimension, int64_t outputs) {
    return context_.AddNew(
        HloOpcode::kBroadcast,
        Shape(grid->shape().element_type(), Grown(dims, dimension, outputs)),
        {grid}, [&](HloInstruction& b) {
          b.set_dimensions({dimension, dimension + 1});
        });
  }

  static std::vector<int64_t> Grown(std::vector<int64_t> dims,
                                    int64_t dimension, int64_t outputs) {
    dims.insert(dims.begin() + dimension + 1, outputs);
    return dims;
  }

  // The sum over `dimension`.
  HloInstruction* Sum(HloInstruction* values, int64_t dimension) {
    const ElementType type = values->shape().element_type();
    std::vector<int64_t> dims = values->shape().dims();
    dims.erase(dims.begin() + dimension);
    HloInstruction* zero = Constant(type, 0, {});
    HloComputation* add =
        context_.AddBinaryComputation(HloOpcode::kAdd, type, "fft_sum");
    return context_.AddNew(HloOpcode::kReduce, Shape(type, dims),
                           {values, zero}, [&](HloInstruction& r) {
                             r.set_dimensions({dimension});
                             r.AppendCalledComputation(add);
                           });
  }

  template <typename T>
  HloInstruction* Constant(ElementType type, T value,
                           const std::vector<int64_t>& dims) {
    HloInstruction* scalar = context_.AddNew(
        HloOpcode::kConstant, Shape(type, {}), {}, [&](HloInstruction& c) {
          c.set_literal(Literal::Scalar(type, value));
        });
    if (dims.empty()) return scalar;
    return context_.AddNew(HloOpcode::kBroadcast, Shape(type, dims), {scalar},
                           [](HloInstruction& b) { b.set_dimensions({}); });
  }
  HloInstruction* Iota(ElementType type, const std::vector<int64_t>& dims,
                       int64_t dimension) {
    return context_.AddNew(
        HloOpcode::kIota, Shape(type, dims), {},
        [&](HloInstruction& i) { i.set_iota_dimension(dimension); });
  }
  HloInstruction* Unary(HloOpcode opcode, HloInstruction* x) {
    return context_.AddNew(opcode, x->shape(), {x});
  }
  HloInstruction* Binary(HloOpcode opcode, HloInstruction* x,
                         HloInstruction* y) {
    return context_.AddNew(opcode, x->shape(), {x, y});
  }
  HloInstruction* Compare(HloInstruction* x, HloInstruction* y,
                          ComparisonDirection direction) {
    return context_.AddNew(
        HloOpcode::kCompare, Shape(PHAL_ELEMENT_TYPE_PRED, x->shape().dims()),
        {x, y},
        [&](HloInstruction& c) { c.set_comparison_direction(direction); });
  }
  HloInstruction* Select(HloInstruction* condition, HloInstruction* on_true,
                         HloInstruction* on_false) {
    return context_.AddNew(HloOpcode::kSelect, on_true->shape(),
                           {condition, on_true, on_false});
  }

  RewriteContext& context_;
  ElementType complex_;
  ElementType real_;
};

}  // namespace

StatusOr<HloInstruction*> DecomposeFft(
    const HloInstruction& source, const std::vector<HloInstruction*>& operands,
    RewriteContext& context) {
  HloInstruction* x = operands[0];
  const Shape& result = source.shape();
  const std::vector<int64_t>& length = source.fft_length();
  const int64_t rank = x->shape().rank();
  const int64_t first = rank - static_cast<int64_t>(length.size());
  const int64_t last = rank - 1;
  const bool real_result = source.fft_type() == FftType::kIrfft;
  DftBuilder dft(
      context, real_result ? x->shape().element_type() : result.element_type());
  if (result.ElementCount() == 0 || x->shape().ElementCount() == 0) {
    HloInstruction* zero = context.AddNew(
        HloOpcode::kConstant, Shape(result.element_type(), {}), {},
        [&](HloInstruction& c) {
          c.set_literal(Literal::Scalar(result.element_type(), 0.0));
        });
    return context.AddNew(HloOpcode::kBroadcast, result, {zero},
                          [](HloInstruction& b) { b.set_dimensions({}); });
  }
  // The reference's order: forward transforms from the innermost dimension
  // out, inverse ones from the outermost in.
  int64_t scale = 1;
  switch (source.fft_type()) {
    case FftType::kFft:
      for (int64_t d = last; d >= first; --d) {
        const int64_t n = x->shape().dim(d);
        x = dft.FastTransform(x, d, n, /*inverse=*/false);
      }
      break;
    case FftType::kIfft:
      for (int64_t d = first; d <= last; ++d) {
        const int64_t n = x->shape().dim(d);
        x = dft.FastTransform(x, d, n, /*inverse=*/true);
        scale *= n;
      }
      break;
    case FftType::kRfft: {
      const int64_t n = length.back();
      x = dft.ToComplex(x);
      if (dft.IsSplit(n)) {
        x = dft.LeadingPart(dft.FastTransform(x, last, n, /*inverse=*/false),
                            last, n / 2 + 1);
      } else {
        x = dft.Transform(x, last, n, n / 2 + 1, /*inverse=*/false);
      }
      for (int64_t d = last - 1; d >= first; --d) {
        const int64_t m = x->shape().dim(d);
        x = dft.FastTransform(x, d, m, /*inverse=*/false);
      }
      break;
    }
    case FftType::kIrfft:
      for (int64_t d = first; d < last; ++d) {
        const int64_t n = x->shape().dim(d);
        x = dft.FastTransform(x, d, n, /*inverse=*/true);
        scale *= n;
      }
      x = dft.IsSplit(length.back())
              ? dft.FastRealInverse(x, last, length.back())
              : dft.RealInverse(x, last, length.back());
      scale *= length.back();
      break;
  }
  return scale == 1 ? x : dft.DivideBy(x, scale);
}

}  // namespace phal
