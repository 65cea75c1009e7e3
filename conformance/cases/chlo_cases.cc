// CHLO programs the StableHLO front end lowers to HLO ops every plugin
// already runs (docs/stablehlo.md): chlo.ragged_dot in its three modes,
// and the real sinh, cosh, asinh, acosh and atanh expanded as CHLO
// defines them. Each case is that HLO, compared with the reference.
#include <string>
#include <vector>

#include "conformance/cases/case_builder.h"
#include "conformance/cases/corpus.h"
#include "core/frontend/stablehlo_parser.h"
#include "core/hlo/printer.h"

namespace phal::conformance {
namespace {

constexpr ElementType kF32 = PHAL_ELEMENT_TYPE_F32;
constexpr ElementType kBF16 = PHAL_ELEMENT_TYPE_BF16;

// The HLO text of the StableHLO program `text`; a program the front end
// rejects becomes its error message, which then fails the case.
std::string LoweredText(const std::string& id, const std::string& text) {
  StatusOr<StableHloModule> program = ParseStableHlo(text, id + ".mlir");
  if (!program.ok()) return program.status().message();
  return HloModuleToText(*program->module);
}

Case ChloCase(const std::string& op, const std::string& variant,
              ElementType dtype, const std::string& shape_class,
              const std::string& program, std::vector<InputSpec> inputs,
              ToleranceSpec tolerance) {
  Case c = NumericCase(op, variant, dtype, 1, shape_class, "random", "",
                       std::move(inputs), tolerance);
  c.module_text = LoweredText(c.id, program);
  return c;
}

// A function of two parameters returning chlo.ragged_dot of them with the
// constant group sizes `sizes`.
std::string RaggedDotProgram(const std::string& lhs, const std::string& rhs,
                             const std::string& sizes,
                             const std::string& result,
                             const std::string& numbers) {
  return "func.func @main(%lhs: " + lhs + ", %rhs: " + rhs + ") -> " + result +
         " {\n  %sizes = stablehlo.constant " + sizes +
         "\n  %r = \"chlo.ragged_dot\"(%lhs, %rhs, %sizes) {\n"
         "    ragged_dot_dimension_numbers = #chlo.ragged_dot<" +
         numbers + ">\n  } : (" + lhs + ", " + rhs + ", " +
         sizes.substr(sizes.find(": ") + 2) + ") -> " + result +
         "\n  func.return %r : " + result + "\n}";
}

std::vector<Case> RaggedDotCases() {
  std::vector<Case> cases;
  const std::string rows =
      "lhs_batching_dimensions = [], rhs_batching_dimensions = [], "
      "lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1], "
      "lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]";
  // 11 of 12 rows in three groups of experts: the last row is in none.
  for (ElementType type : {kF32, kBF16}) {
    const std::string t = type == kF32 ? "f32" : "bf16";
    cases.push_back(ChloCase(
        "chlo.ragged_dot", "non_contracting", type, "moe",
        RaggedDotProgram("tensor<12x8x" + t + ">", "tensor<3x8x5x" + t + ">",
                         "dense<[5, 4, 2]> : tensor<3xi64>",
                         "tensor<12x5x" + t + ">", rows),
        {RandomValues(), RandomValues()}, Accumulation(8)));
  }
  cases.push_back(ChloCase(
      "chlo.ragged_dot", "non_contracting_batched", kF32, "moe",
      RaggedDotProgram("tensor<2x11x5xf32>", "tensor<3x2x5x7xf32>",
                       "dense<[4, 4, 3]> : tensor<3xi32>", "tensor<2x11x7xf32>",
                       "lhs_batching_dimensions = [0], "
                       "rhs_batching_dimensions = [1], "
                       "lhs_contracting_dimensions = [2], "
                       "rhs_contracting_dimensions = [2], "
                       "lhs_ragged_dimensions = [1], rhs_group_dimensions = "
                       "[0]"),
      {RandomValues(), RandomValues()}, Accumulation(5)));
  // Contracting indices in groups of 3, 0 (an empty group: zeros) and 7.
  cases.push_back(ChloCase(
      "chlo.ragged_dot", "contracting", kF32, "moe",
      RaggedDotProgram("tensor<6x10xf32>", "tensor<10x4xf32>",
                       "dense<[3, 0, 7]> : tensor<3xi64>", "tensor<3x6x4xf32>",
                       "lhs_batching_dimensions = [], "
                       "rhs_batching_dimensions = [], "
                       "lhs_contracting_dimensions = [1], "
                       "rhs_contracting_dimensions = [0], "
                       "lhs_ragged_dimensions = [1], rhs_group_dimensions = "
                       "[]"),
      {RandomValues(), RandomValues()}, Accumulation(10)));
  cases.push_back(ChloCase(
      "chlo.ragged_dot", "batch", kF32, "moe",
      RaggedDotProgram("tensor<3x4x6xf32>", "tensor<3x6x5xf32>",
                       "dense<[1, 2]> : tensor<2xi64>", "tensor<3x4x5xf32>",
                       "lhs_batching_dimensions = [0], "
                       "rhs_batching_dimensions = [0], "
                       "lhs_contracting_dimensions = [2], "
                       "rhs_contracting_dimensions = [1], "
                       "lhs_ragged_dimensions = [0], rhs_group_dimensions = "
                       "[]"),
      {RandomValues(), RandomValues()}, Accumulation(6)));
  return cases;
}

// Each function over its domain, in every floating-point type.
std::vector<Case> HyperbolicCases() {
  struct Function {
    const char* name;
    double low, high;
  };
  const Function functions[] = {{"sinh", -12, 12},
                                {"cosh", -12, 12},
                                {"asinh", -1e3, 1e3},
                                {"acosh", 1, 1e3},
                                {"atanh", -1, 1}};
  std::vector<Case> cases;
  for (const Function& f : functions) {
    for (ElementType type : FloatTypes()) {
      const std::string t = type == PHAL_ELEMENT_TYPE_F16    ? "f16"
                            : type == PHAL_ELEMENT_TYPE_BF16 ? "bf16"
                            : type == PHAL_ELEMENT_TYPE_F64  ? "f64"
                                                             : "f32";
      const std::string tensor = "tensor<7x13x" + t + ">";
      cases.push_back(ChloCase(std::string("chlo.") + f.name, "", type, "odd",
                               "func.func @main(%x: " + tensor + ") -> " +
                                   tensor + " {\n  %r = chlo." + f.name +
                                   " %x : " + tensor + " -> " + tensor +
                                   "\n  func.return %r : " + tensor + "\n}",
                               {RandomValues(f.low, f.high)}, Ulps(4)));
    }
  }
  return cases;
}

}  // namespace

std::vector<Case> ChloCases() {
  std::vector<Case> cases = RaggedDotCases();
  std::vector<Case> hyperbolic = HyperbolicCases();
  cases.insert(cases.end(), std::make_move_iterator(hyperbolic.begin()),
               std::make_move_iterator(hyperbolic.end()));
  return cases;
}

}  // namespace phal::conformance
