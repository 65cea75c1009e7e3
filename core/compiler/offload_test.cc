// The offload pass (offload.h): parts of accepted instructions moved into
// called computations mean what the module meant (the reference
// interpreter computes the same results before and after, bit for bit),
// each part's text reads back as a module of its own, the whole entry is
// one part when everything is accepted, and a program compiled with parts
// runs its parts' own kernels where the device takes none of them.
#include "core/compiler/offload.h"

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/compiler/compiler.h"
#include "core/frontend/hlo_parser.h"
#include "core/hlo/verifier.h"
#include "core/reference/interpreter.h"
#include "core/testing/compiler_test_util.h"
#include "core/testing/source_files.h"

namespace phal::testing {
namespace {

using Accepts = std::function<bool(const HloInstruction&)>;

struct Rule {
  const char* name;
  Accepts accepts;
  bool control_flow;
};

bool IsOneOf(const HloInstruction& instruction,
             std::initializer_list<HloOpcode> opcodes) {
  for (HloOpcode opcode : opcodes) {
    if (instruction.opcode() == opcode) return true;
  }
  return false;
}

std::vector<Rule> Rules() {
  return {
      {"everything", [](const HloInstruction&) { return true; }, false},
      {"everything_with_control_flow",
       [](const HloInstruction&) { return true; }, true},
      {"nothing", [](const HloInstruction&) { return false; }, false},
      {"all_but_dot_conv_reduce",
       [](const HloInstruction& instruction) {
         return !IsOneOf(instruction, {HloOpcode::kDot, HloOpcode::kConvolution,
                                       HloOpcode::kReduce});
       },
       false},
      // Scattered answers: parts with holes between them.
      {"every_other_name",
       [](const HloInstruction& instruction) {
         return std::hash<std::string>()(instruction.name()) % 2 == 0;
       },
       false},
  };
}

// The tree's modules whose parameters are arrays.
const char* const kModules[] = {
    "core/compiler/testdata/conv.hlo",
    "core/compiler/testdata/convert_read_twice.hlo",
    "core/compiler/testdata/fusion_cycle.hlo",
    "core/compiler/testdata/mlp.hlo",
    "core/compiler/testdata/reduce_fused.hlo",
    "core/compiler/testdata/softmax.hlo",
    "core/compiler/testdata/while_loop.hlo",
    "core/frontend/testdata/jax_cnn_grad_compiled.hlo",
    "core/frontend/testdata/jax_control_compiled.hlo",
    "core/frontend/testdata/jax_mlp_compiled.hlo",
    "core/frontend/testdata/jax_transformer_compiled.hlo",
};

std::unique_ptr<HloModule> Parse(const std::string& text) {
  StatusOr<std::unique_ptr<HloModule>> module = ParseHloText(text, "test.hlo");
  EXPECT_TRUE(module.ok()) << module.status().ToString();
  return module.ok() ? std::move(module).value() : nullptr;
}

std::vector<Literal> Arguments(const HloModule& module) {
  std::vector<Literal> arguments;
  int64_t seed = 0;
  for (const HloInstruction* parameter :
       module.entry_computation()->parameter_instructions()) {
    const Shape& shape = parameter->shape();
    if (!shape.IsArray()) return {};
    arguments.push_back(TestData(shape.element_type(), shape.dims(), seed++));
  }
  return arguments;
}

OffloadRules MakeRules(const Rule& rule) {
  OffloadRules rules;
  rules.accepts = [accepts = rule.accepts](
                      const HloInstruction& instruction) -> StatusOr<bool> {
    return accepts(instruction);
  };
  rules.control_flow = rule.control_flow;
  return rules;
}

// The trip counts of the program's while steps, sorted (-1: not counted).
std::vector<int64_t> TripCounts(const Program& program) {
  std::vector<int64_t> counts;
  for (const ComputationPlan& plan : program.computations) {
    for (const Step& step : plan.steps) {
      if (step.kind == StepKind::kWhile) counts.push_back(step.trip_count);
    }
  }
  std::sort(counts.begin(), counts.end());
  return counts;
}

class OffloadTest
    : public ::testing::TestWithParam<std::tuple<const char*, int>> {};

TEST_P(OffloadTest, PartsMeanWhatTheModuleMeant) {
  const std::string text = ReadTextFile(SourceFile(std::get<0>(GetParam())));
  const Rule rule = Rules()[static_cast<std::size_t>(std::get<1>(GetParam()))];
  std::unique_ptr<HloModule> original = Parse(text);
  ASSERT_NE(original, nullptr);
  const std::vector<Literal> arguments = Arguments(*original);
  if (arguments.size() !=
      static_cast<std::size_t>(
          original->entry_computation()->num_parameters())) {
    GTEST_SKIP() << "a parameter is a tuple";
  }
  StatusOr<Literal> expected = Evaluate(*original, arguments);
  ASSERT_TRUE(expected.ok()) << expected.status().ToString();

  StatusOr<OffloadedModule> offloaded =
      OffloadAcceptedParts(Parse(text), MakeRules(rule));
  ASSERT_TRUE(offloaded.ok()) << offloaded.status().ToString();
  ASSERT_TRUE(VerifyModule(*offloaded->module).ok());
  if (std::string(rule.name) == "nothing") {
    EXPECT_TRUE(offloaded->parts.empty());
  } else if (std::string(rule.name).starts_with("everything")) {
    EXPECT_FALSE(offloaded->parts.empty());
  }
  if (std::string(rule.name) == "everything_with_control_flow") {
    EXPECT_EQ(offloaded->parts.size(), 1u)
        << "the whole entry computation is one part";
  }
  StatusOr<Literal> actual = Evaluate(*offloaded->module, arguments);
  ASSERT_TRUE(actual.ok()) << actual.status().ToString();
  EXPECT_TRUE(Matches(*actual, *expected, 0.0)) << rule.name;

  for (const OffloadedPart& part : offloaded->parts) {
    StatusOr<std::unique_ptr<HloModule>> read =
        ParseHloText(part.hlo_text, part.name);
    ASSERT_TRUE(read.ok()) << read.status().ToString() << "\n" << part.hlo_text;
    EXPECT_TRUE(VerifyModule(**read).ok()) << part.hlo_text;
    EXPECT_NE(offloaded->module->GetComputationWithName(part.name), nullptr);
  }
}

// The program the compiler makes with parts runs each part's own kernels
// on a device that takes no part (the evaluator has no whole-program
// slots): what a declined part does.
TEST_P(OffloadTest, CompiledPartsRunAsKernelsWhereDeclined) {
  const std::string text = ReadTextFile(SourceFile(std::get<0>(GetParam())));
  const Rule rule = Rules()[static_cast<std::size_t>(std::get<1>(GetParam()))];
  std::unique_ptr<HloModule> module = Parse(text);
  ASSERT_NE(module, nullptr);
  const std::vector<Literal> arguments = Arguments(*module);
  if (arguments.size() !=
      static_cast<std::size_t>(module->entry_computation()->num_parameters())) {
    GTEST_SKIP() << "a parameter is a tuple";
  }
  const std::vector<Literal> expected = ReferenceLeaves(text, arguments);
  ASSERT_FALSE(expected.empty());
  CompilerOptions options;
  options.offload = MakeRules(rule);
  StatusOr<std::unique_ptr<Program>> program =
      CompileModule(std::move(module), options);
  ASSERT_TRUE(program.ok()) << program.status().ToString();
  for (const OffloadedPart& part : (*program)->offloads) {
    EXPECT_GE(part.computation, 0) << part.name;
  }
  // Counted loops stay counted though their counters moved into parts.
  StatusOr<std::unique_ptr<Program>> plain =
      CompileModule(Parse(text), CompilerOptions());
  ASSERT_TRUE(plain.ok()) << plain.status().ToString();
  EXPECT_EQ(TripCounts(**program), TripCounts(**plain));
  StatusOr<std::unique_ptr<LoadedProgram>> loaded =
      LoadedProgram::Load(std::move(program).value(), EvaluatorPluginApi(),
                          EvaluatorDevice(), nullptr, /*runnable=*/true);
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  StatusOr<std::vector<Literal>> actual = RunOnDevice(**loaded, arguments);
  ASSERT_TRUE(actual.ok()) << actual.status().ToString();
  ExpectLeavesMatch(*actual, expected, 1e-5, text);
}

std::string ParamName(
    const ::testing::TestParamInfo<std::tuple<const char*, int>>& info) {
  std::string file = std::get<0>(info.param);
  file = file.substr(file.rfind('/') + 1);
  file = file.substr(0, file.find('.'));
  return file + "_" +
         Rules()[static_cast<std::size_t>(std::get<1>(info.param))].name;
}

INSTANTIATE_TEST_SUITE_P(TreeModules, OffloadTest,
                         ::testing::Combine(::testing::ValuesIn(kModules),
                                            ::testing::Range(0, 5)),
                         ParamName);

// A part that is the whole entry computation keeps the caller's StableHLO
// bytes; one that is not does not.
TEST(OffloadWholeProgram, KeepsTheSourceOnlyForTheWholeEntry) {
  const std::string text =
      ReadTextFile(SourceFile("core/compiler/testdata/softmax.hlo"));
  OffloadRules rules = MakeRules(Rules()[0]);
  rules.stablehlo_source = "module @source {}";
  StatusOr<OffloadedModule> whole = OffloadAcceptedParts(Parse(text), rules);
  ASSERT_TRUE(whole.ok()) << whole.status().ToString();
  ASSERT_EQ(whole->parts.size(), 1u);
  EXPECT_EQ(whole->parts[0].stablehlo, "module @source {}");
  EXPECT_EQ(whole->parts[0].name, "main.offload.0");

  rules = MakeRules(Rules()[3]);
  rules.stablehlo_source = "module @source {}";
  StatusOr<OffloadedModule> split = OffloadAcceptedParts(Parse(text), rules);
  ASSERT_TRUE(split.ok()) << split.status().ToString();
  ASSERT_GE(split->parts.size(), 2u) << "the reduces split the softmax";
  for (const OffloadedPart& part : split->parts) {
    EXPECT_TRUE(part.stablehlo.empty()) << part.name;
  }
}

// A while body's update of its loop state in place (a scan stacking its
// outputs) stays in the body as a kernel; the rest of the body is a part.
TEST(OffloadWholeProgram, LoopStateUpdatesStayKernelsInTheBody) {
  const std::string text = R"(HloModule scan

cond {
  s = (s32[], f32[4,8]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] constant(4)
  ROOT lt = pred[] compare(i, n), direction=LT
}

body {
  s = (s32[], f32[4,8]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  acc = f32[4,8] get-tuple-element(s), index=1
  one = s32[] constant(1)
  j = s32[] add(i, one)
  f = f32[] convert(i)
  row = f32[1,8] broadcast(f), dimensions={}
  e = f32[1,8] exponential(row)
  zero = s32[] constant(0)
  upd = f32[4,8] dynamic-update-slice(acc, e, i, zero)
  ROOT t = (s32[], f32[4,8]) tuple(j, upd)
}

ENTRY main {
  x = f32[4,8] parameter(0)
  z = s32[] constant(0)
  init = (s32[], f32[4,8]) tuple(z, x)
  w = (s32[], f32[4,8]) while(init), condition=cond, body=body
  ROOT r = f32[4,8] get-tuple-element(w), index=1
}
)";
  StatusOr<OffloadedModule> offloaded =
      OffloadAcceptedParts(Parse(text), MakeRules(Rules()[0]));
  ASSERT_TRUE(offloaded.ok()) << offloaded.status().ToString();
  const HloComputation* body =
      offloaded->module->GetComputationWithName("body");
  ASSERT_NE(body, nullptr);
  bool update_in_body = false;
  bool part_in_body = false;
  for (const HloInstruction* instruction : body->instructions()) {
    update_in_body |= instruction->opcode() == HloOpcode::kDynamicUpdateSlice;
    part_in_body |= instruction->opcode() == HloOpcode::kCall;
  }
  EXPECT_TRUE(update_in_body);
  EXPECT_TRUE(part_in_body) << "the exponential and the counter are a part";
  const std::vector<Literal> arguments = {
      TestData(PHAL_ELEMENT_TYPE_F32, {4, 8})};
  StatusOr<Literal> expected = Evaluate(*Parse(text), arguments);
  StatusOr<Literal> actual = Evaluate(*offloaded->module, arguments);
  ASSERT_TRUE(expected.ok() && actual.ok());
  EXPECT_TRUE(Matches(*actual, *expected, 0.0));
}

// Constant expressions (an iota, a broadcast of a constant, a compare of
// them) join no part: each part that reads one computes its own copy, and
// no part passes them to another; a declined instruction between the two
// parts makes two parts, both reading the mask.
TEST(OffloadWholeProgram, ConstantExpressionsAreCopiedIntoEachPart) {
  const std::string text = R"(HloModule masks

ENTRY main {
  x = f32[8,8] parameter(0)
  i = s32[8,8] iota(), iota_dimension=0
  j = s32[8,8] iota(), iota_dimension=1
  lower = pred[8,8] compare(i, j), direction=GE
  zero = f32[] constant(0)
  zeros = f32[8,8] broadcast(zero), dimensions={}
  a = f32[8,8] select(lower, x, zeros)
  d = f32[8,8] dot(a, a), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  ROOT b = f32[8,8] select(lower, d, zeros)
}
)";
  OffloadRules rules = MakeRules(Rules()[3]);
  StatusOr<OffloadedModule> offloaded =
      OffloadAcceptedParts(Parse(text), rules);
  ASSERT_TRUE(offloaded.ok()) << offloaded.status().ToString();
  ASSERT_EQ(offloaded->parts.size(), 2u);
  for (const OffloadedPart& part : offloaded->parts) {
    const HloComputation* computation =
        offloaded->module->GetComputationWithName(part.name);
    ASSERT_NE(computation, nullptr) << part.name;
    EXPECT_EQ(computation->parameter_instructions().size(), 1u)
        << part.name << " reads only x or the product:\n"
        << part.hlo_text;
    int iotas = 0;
    for (const HloInstruction* instruction : computation->instructions()) {
      iotas += instruction->opcode() == HloOpcode::kIota ? 1 : 0;
    }
    EXPECT_EQ(iotas, 2) << part.name;
  }
  for (const HloInstruction* instruction :
       offloaded->module->entry_computation()->instructions()) {
    EXPECT_NE(instruction->opcode(), HloOpcode::kIota)
        << "the host computes no mask nobody outside the parts reads";
  }
  const std::vector<Literal> arguments = {
      TestData(PHAL_ELEMENT_TYPE_F32, {8, 8})};
  StatusOr<Literal> expected = Evaluate(*Parse(text), arguments);
  StatusOr<Literal> actual = Evaluate(*offloaded->module, arguments);
  ASSERT_TRUE(expected.ok() && actual.ok());
  EXPECT_TRUE(Matches(*actual, *expected, 0.0));

  // A plugin that declines iota gets no copy of it: the mask is then a
  // value one part computes and passes on.
  rules.accepts = [](const HloInstruction& instruction) -> StatusOr<bool> {
    return !IsOneOf(instruction, {HloOpcode::kDot, HloOpcode::kIota});
  };
  offloaded = OffloadAcceptedParts(Parse(text), rules);
  ASSERT_TRUE(offloaded.ok()) << offloaded.status().ToString();
  for (const OffloadedPart& part : offloaded->parts) {
    EXPECT_EQ(part.hlo_text.find("iota("), std::string::npos) << part.hlo_text;
  }
  actual = Evaluate(*offloaded->module, arguments);
  ASSERT_TRUE(actual.ok()) << actual.status().ToString();
  EXPECT_TRUE(Matches(*actual, *expected, 0.0));
}

// An error of the plugin's answer fails the pass with it.
TEST(OffloadWholeProgram, AnErrorOfTheAnswerFailsThePass) {
  OffloadRules rules;
  rules.accepts = [](const HloInstruction& instruction) -> StatusOr<bool> {
    return Internal("no answer for " + instruction.name());
  };
  StatusOr<OffloadedModule> offloaded = OffloadAcceptedParts(
      Parse(ReadTextFile(SourceFile("core/compiler/testdata/softmax.hlo"))),
      rules);
  ASSERT_FALSE(offloaded.ok());
  EXPECT_NE(offloaded.status().message().find("no answer for"),
            std::string::npos);
}

}  // namespace
}  // namespace phal::testing
