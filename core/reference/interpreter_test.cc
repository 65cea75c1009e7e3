#include "core/reference/interpreter.h"

#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "core/reference/interpreter_test_util.h"

namespace phal::testing {
namespace {

TEST(InterpreterTest, RejectsArgumentsOfTheWrongCountOrShape) {
  const std::string text =
      "HloModule t\nENTRY e {\n p = f32[2] parameter(0)\n"
      " ROOT n = f32[2] negate(p)\n}\n";
  StatusOr<Literal> none = TryEvaluate(text, {});
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.status().message().find("takes 1 arguments, got 0"),
            std::string::npos)
      << none.status().message();
  StatusOr<Literal> wrong = TryEvaluate(text, {Values(kF32, {3}, {1, 2, 3})});
  ASSERT_FALSE(wrong.ok());
  EXPECT_NE(wrong.status().message().find("f32[3]"), std::string::npos)
      << wrong.status().message();
}

TEST(InterpreterTest, ErrorsNameTheInstruction) {
  const std::string text =
      "HloModule t\nENTRY e {\n p = f32[2] parameter(0)\n"
      " ROOT bad = f32[2] popcnt(p)\n}\n";
  StatusOr<Literal> result = TryEvaluate(text, {Values(kF32, {2}, {1, 2})});
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.status().message().find("bad"), std::string::npos)
      << result.status().message();
}

TEST(InterpreterTest, ConcurrentEvaluationsOfOneModuleAgree) {
  StatusOr<std::unique_ptr<HloModule>> module = ParseHloText(
      "HloModule t\nadd {\n a = f32[] parameter(0)\n b = f32[] parameter(1)\n"
      " ROOT s = f32[] add(a, b)\n}\n"
      "ENTRY e {\n p = f32[64] parameter(0)\n z = f32[] constant(0)\n"
      " ROOT r = f32[] reduce(p, z), dimensions={0}, to_apply=add\n}\n",
      "test.hlo");
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  std::vector<Literal> arguments;
  arguments.push_back(Literal(Shape(kF32, {64})));
  for (int64_t i = 0; i < 64; ++i) arguments[0].SetFromInt64(i, i);
  std::vector<StatusOr<Literal>> results(4, Internal("not run"));
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < results.size(); ++t) {
    threads.emplace_back(
        [&, t] { results[t] = Evaluate(**module, arguments); });
  }
  for (std::thread& thread : threads) thread.join();
  for (const StatusOr<Literal>& result : results) {
    ASSERT_TRUE(result.ok()) << result.status().ToString();
    EXPECT_TRUE(SameLiteral(*result, Values(kF32, {}, {2016})));
  }
}

}  // namespace
}  // namespace phal::testing
