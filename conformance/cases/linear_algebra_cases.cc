// The linear-algebra ops: cholesky (both triangles), triangular-solve
// (every side and transpose), lu, qr and householder-product, eigh and
// svd, in f32, f64, c64 and c128, batched. The matrices are built in the
// module from random inputs so that they are what each op needs: x x^H + n
// I for the positive-definite ones, whose condition number is small, and
// Hilbert's matrix (condition number 1.5e7 at order 6) for an
// ill-conditioned factorisation in f64 and c128. Each bound is the
// accumulation over n terms times a factor for the condition number.
#include <string>
#include <vector>

#include "conformance/cases/case_builder.h"
#include "conformance/cases/corpus.h"
#include "conformance/cases/hlo_text.h"

namespace phal::conformance {
namespace {

constexpr int64_t kBatch = 2;
constexpr int64_t kOrder = 8;

std::string Type(ElementType type, std::vector<int64_t> dims) {
  return ShapeText(type, dims);
}

// Lines making `name` = x x^H + n I from the parameter `x` [batch, n, n].
std::vector<std::string> PositiveDefinite(ElementType type,
                                          const std::string& name) {
  const std::string t = Type(type, {kBatch, kOrder, kOrder});
  const std::string real =
      Type(ComplexComponentType(type), {kBatch, kOrder, kOrder});
  const std::string s32 = Type(PHAL_ELEMENT_TYPE_S32, {kBatch, kOrder, kOrder});
  const std::string scalar = Type(type, {});
  std::vector<std::string> lines;
  if (IsComplex(type)) {
    lines = {"xr = " + real + " real(p0)", "xi = " + real + " imag(p0)",
             "xn = " + real + " negate(xi)", "xh = " + t + " complex(xr, xn)"};
  } else {
    lines = {"xh = " + t + " copy(p0)"};
  }
  const std::string n = IsComplex(type) ? "(8, 0)" : "8";
  const std::string zero = IsComplex(type) ? "(0, 0)" : "0";
  for (const std::string& line :
       {"gram = " + t +
            " dot(p0, xh), lhs_batch_dims={0}, lhs_contracting_dims={2}, "
            "rhs_batch_dims={0}, rhs_contracting_dims={2}",
        "rows = " + s32 + " iota(), iota_dimension=1",
        "cols = " + s32 + " iota(), iota_dimension=2",
        "on_diagonal = " +
            Type(PHAL_ELEMENT_TYPE_PRED, {kBatch, kOrder, kOrder}) +
            " compare(rows, cols), direction=EQ",
        "order = " + scalar + " constant(" + n + ")",
        "zero = " + scalar + " constant(" + zero + ")",
        "orders = " + t + " broadcast(order), dimensions={}",
        "zeros = " + t + " broadcast(zero), dimensions={}",
        "shift = " + t + " select(on_diagonal, orders, zeros)",
        name + " = " + t + " add(gram, shift)"}) {
    lines.push_back(line);
  }
  return lines;
}

void Add(std::vector<Case>* cases, const std::string& op,
         const std::string& variant, ElementType type,
         std::vector<std::string> lines, std::vector<InputSpec> inputs,
         int64_t bound) {
  Case c = NumericCase(op, variant, type, 3, "batched", "random", "",
                       std::move(inputs), Accumulation(bound));
  c.module_text = ModuleText(c.id, {}, lines);
  cases->push_back(std::move(c));
}

void AddCases(ElementType type, std::vector<Case>* cases) {
  const std::string square = Type(type, {kBatch, kOrder, kOrder});
  const std::string p0 = ParameterLine(0, type, {kBatch, kOrder, kOrder});
  // Condition numbers of x x^H + n I stay below ~10: 64 n terms.
  const int64_t well = 64 * kOrder;
  for (bool lower : {true, false}) {
    std::vector<std::string> lines = {p0};
    for (const std::string& line : PositiveDefinite(type, "spd")) {
      lines.push_back(line);
    }
    lines.push_back("ROOT r = " + square +
                    " cholesky(spd), lower=" + (lower ? "true" : "false"));
    Add(cases, "cholesky", lower ? "lower" : "upper", type, lines,
        {RandomValues(-1, 1)}, well);
  }
  const struct {
    const char* variant;
    bool left;
    const char* transpose;
    bool unit;
  } solves[] = {{"left", true, "NO_TRANSPOSE", false},
                {"left_transpose", true, "TRANSPOSE", false},
                {"right_adjoint", false, "ADJOINT", false},
                {"right_unit", false, "NO_TRANSPOSE", true}};
  for (const auto& solve : solves) {
    const std::vector<int64_t> rhs =
        solve.left ? std::vector<int64_t>{kBatch, kOrder, 3}
                   : std::vector<int64_t>{kBatch, 3, kOrder};
    std::vector<std::string> lines = {p0, ParameterLine(1, type, rhs)};
    for (const std::string& line : PositiveDefinite(type, "spd")) {
      lines.push_back(line);
    }
    lines.push_back("l = " + square + " cholesky(spd), lower=true");
    lines.push_back(
        "ROOT r = " + Type(type, rhs) + " triangular-solve(l, p1), left_side=" +
        (solve.left ? "true" : "false") + ", lower=true, unit_diagonal=" +
        (solve.unit ? "true" : "false") + ", transpose_a=" + solve.transpose);
    Add(cases, "triangular-solve", solve.variant, type, lines,
        {RandomValues(-1, 1), RandomValues()}, well);
  }
  // A random matrix plus n I: pivoting still happens, the condition
  // number stays small.
  const std::vector<std::string> general = [&] {
    std::vector<std::string> lines = {p0};
    for (const std::string& line : PositiveDefinite(type, "unused")) {
      lines.push_back(line);
    }
    lines.push_back("general = " + square + " add(p0, shift)");
    return lines;
  }();
  {
    std::vector<std::string> lines = general;
    lines.push_back("ROOT r = (" + square + ", " +
                    Type(PHAL_ELEMENT_TYPE_S32, {kBatch, kOrder}) +
                    ") lu(general)");
    Add(cases, "lu", "", type, lines, {RandomValues()}, well);
  }
  const std::vector<int64_t> tall = {kBatch, 12, 6};
  const std::string tall_text = Type(type, tall);
  const std::string taus = Type(type, {kBatch, 6});
  Add(cases, "qr", "householder_product", type,
      {ParameterLine(0, type, tall),
       "qr = (" + tall_text + ", " + taus + ") qr(p0)",
       "v = " + tall_text + " get-tuple-element(qr), index=0",
       "t = " + taus + " get-tuple-element(qr), index=1",
       "q = " + tall_text + " householder-product(v, t)",
       "ROOT r = (" + tall_text + ", " + taus + ", " + tall_text +
           ") tuple(v, t, q)"},
      {RandomValues()}, well);
  const std::string real_type =
      Type(ComplexComponentType(type), {kBatch, kOrder});
  {
    std::vector<std::string> lines = general;
    lines.push_back("ROOT r = (" + square + ", " + real_type +
                    ") eigh(general), lower=true");
    // Eigenvectors move by the rounding over the eigenvalue gaps.
    Add(cases, "eigh", "", type, lines, {RandomValues()}, 64 * well);
  }
  const std::string u = Type(type, {kBatch, 12, 12});
  const std::string s = Type(ComplexComponentType(type), {kBatch, 6});
  const std::string vt = Type(type, {kBatch, 6, 6});
  Add(cases, "svd", "full", type,
      {ParameterLine(0, type, tall), "ROOT r = (" + u + ", " + s + ", " + vt +
                                         ") svd(p0), full_matrices=true"},
      {RandomValues()}, 64 * well);
  if (ComplexComponentType(type) != PHAL_ELEMENT_TYPE_F64) return;
  // Hilbert's matrix 1 / (i + j + 1) of order 6 (condition number 1.5e7),
  // plus zero times the input.
  const std::string h = Type(type, {6, 6});
  const std::string s32 = Type(PHAL_ELEMENT_TYPE_S32, {6, 6});
  const std::string one = IsComplex(type) ? "(1, 0)" : "1";
  const std::string zero = IsComplex(type) ? "(0, 0)" : "0";
  Add(cases, "cholesky", "hilbert", type,
      {ParameterLine(0, type, {6, 6}),
       "i = " + s32 + " iota(), iota_dimension=0",
       "j = " + s32 + " iota(), iota_dimension=1", "ij = " + s32 + " add(i, j)",
       "onei = s32[] constant(1)",
       "ones = " + s32 + " broadcast(onei), dimensions={}",
       "sum = " + s32 + " add(ij, ones)", "d = " + h + " convert(sum)",
       "one = " + Type(type, {}) + " constant(" + one + ")",
       "numerator = " + h + " broadcast(one), dimensions={}",
       "hilbert = " + h + " divide(numerator, d)",
       "z = " + Type(type, {}) + " constant(" + zero + ")",
       "zs = " + h + " broadcast(z), dimensions={}",
       "nothing = " + h + " multiply(p0, zs)",
       "a = " + h + " add(hilbert, nothing)",
       "ROOT r = " + h + " cholesky(a), lower=true"},
      {RandomValues()}, 6 * 15000000);
}

}  // namespace

std::vector<Case> LinearAlgebraCases() {
  std::vector<Case> cases;
  for (ElementType type : {PHAL_ELEMENT_TYPE_F32, PHAL_ELEMENT_TYPE_F64,
                           PHAL_ELEMENT_TYPE_C64, PHAL_ELEMENT_TYPE_C128}) {
    AddCases(type, &cases);
  }
  return cases;
}

}  // namespace phal::conformance
