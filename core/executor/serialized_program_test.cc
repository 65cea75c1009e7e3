// The serialized program format: a plan written and read back is the same
// plan, and bytes that are not one, cut short, changed or of another
// format version are refused with a status, never a crash.
#include "core/executor/serialized_program.h"

#include <algorithm>

#include <gtest/gtest.h>

#include "core/hlo/printer.h"
#include "core/testing/compiler_test_util.h"

namespace phal {
namespace {

constexpr char kWhileModule[] = R"(
HloModule counter

condition {
  state = (s32[], f32[4]) parameter(0)
  i = s32[] get-tuple-element(state), index=0
  limit = s32[] constant(5)
  ROOT less = pred[] compare(i, limit), direction=LT
}

body {
  state = (s32[], f32[4]) parameter(0)
  i = s32[] get-tuple-element(state), index=0
  one = s32[] constant(1)
  next = s32[] add(i, one)
  x = f32[4] get-tuple-element(state), index=1
  step = f32[4] constant({1, 2, 3, 4})
  sum = f32[4] add(x, step)
  ROOT result = (s32[], f32[4]) tuple(next, sum)
}

ENTRY main {
  x = f32[4] parameter(0)
  zero = s32[] constant(0)
  init = (s32[], f32[4]) tuple(zero, x)
  ROOT loop = (s32[], f32[4]) while(init), condition=condition, body=body
}
)";

struct Written {
  std::unique_ptr<Program> program;
  std::string bytes;
};

Written WriteWhileModule() {
  Written written;
  written.program = testing::CompileText(kWhileModule);
  EXPECT_NE(written.program, nullptr);
  std::vector<SerializedKernel> kernels;
  for (const std::unique_ptr<KirKernel>& kernel : written.program->kernels) {
    kernels.push_back({kernel->name(), "bytes of " + kernel->name()});
  }
  written.bytes = WriteSerializedProgram({"cpu", "1.0", "host", "a cpu"},
                                         *written.program, kernels);
  return written;
}

TEST(SerializedProgram, ReadsBackTheHeaderPlanConstantsAndKernels) {
  Written written = WriteWhileModule();
  StatusOr<SerializedProgram> read = ReadSerializedProgram(written.bytes);
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_EQ(read->header.plugin, "cpu");
  EXPECT_EQ(read->header.plugin_version, "1.0");
  EXPECT_EQ(read->header.target, "host");
  EXPECT_EQ(read->header.device, "a cpu");
  const Program& original = *written.program;
  const Program& copy = *read->program;
  EXPECT_EQ(copy.entry, original.entry);
  EXPECT_EQ(copy.parameter_shapes, original.parameter_shapes);
  EXPECT_EQ(copy.result_shapes, original.result_shapes);
  ASSERT_EQ(copy.constants.size(), original.constants.size());
  for (size_t i = 0; i < copy.constants.size(); ++i) {
    EXPECT_EQ(copy.constants[i].shape(), original.constants[i].shape());
    EXPECT_EQ(
        0, std::memcmp(copy.constants[i].data(), original.constants[i].data(),
                       copy.constants[i].byte_size()));
  }
  ASSERT_EQ(copy.computations.size(), original.computations.size());
  for (size_t c = 0; c < copy.computations.size(); ++c) {
    const ComputationPlan& a = copy.computations[c];
    const ComputationPlan& b = original.computations[c];
    EXPECT_EQ(a.name, b.name);
    EXPECT_EQ(a.leaf_shapes, b.leaf_shapes);
    EXPECT_EQ(a.leaf_constant, b.leaf_constant);
    EXPECT_EQ(a.leaf_slot, b.leaf_slot);
    EXPECT_EQ(a.slot_bytes, b.slot_bytes);
    EXPECT_EQ(a.result_leaves, b.result_leaves);
    ASSERT_EQ(a.steps.size(), b.steps.size());
    for (size_t s = 0; s < a.steps.size(); ++s) {
      EXPECT_EQ(a.steps[s].kind, b.steps[s].kind);
      EXPECT_EQ(a.steps[s].kernel, b.steps[s].kernel);
      EXPECT_EQ(a.steps[s].buffers, b.steps[s].buffers);
      EXPECT_EQ(a.steps[s].computations, b.steps[s].computations);
      EXPECT_EQ(a.steps[s].operands, b.steps[s].operands);
      EXPECT_EQ(a.steps[s].outputs, b.steps[s].outputs);
      EXPECT_EQ(a.steps[s].trip_count, b.steps[s].trip_count);
    }
  }
  // The loop counts from 0 below 5.
  const ComputationPlan& entry =
      copy.computations[static_cast<size_t>(copy.entry)];
  const auto loop =
      std::find_if(entry.steps.begin(), entry.steps.end(),
                   [](const Step& s) { return s.kind == StepKind::kWhile; });
  ASSERT_NE(loop, entry.steps.end());
  EXPECT_EQ(loop->trip_count, 5);
  ASSERT_EQ(read->kernels.size(), original.kernels.size());
  for (size_t k = 0; k < read->kernels.size(); ++k) {
    EXPECT_EQ(read->kernels[k].name, original.kernels[k]->name());
    EXPECT_EQ(read->kernels[k].bytes,
              "bytes of " + original.kernels[k]->name());
  }
}

TEST(SerializedProgram, ProcessOpsAndTheGridReadBack) {
  std::unique_ptr<Program> program = testing::CompileText(R"(
HloModule grid, replica_count=2, num_partitions=2
max {
  a = s32[] parameter(0)
  b = s32[] parameter(1)
  ROOT m = s32[] maximum(a, b)
}
ENTRY main {
  x = s32[4] parameter(0)
  m = s32[4] all-reduce(x), channel_id=1, replica_groups=[2,2]<=[2,2]T(1,0), use_global_device_ids=true, to_apply=max
  p = s32[4] collective-permute(m), channel_id=2, source_target_pairs={{0,1},{1,0}}
  id = u32[] partition-id()
  ROOT out = (s32[4], u32[]) tuple(p, id)
}
)");
  ASSERT_NE(program, nullptr);
  const std::string bytes =
      WriteSerializedProgram({"cpu", "1.0", "", "a cpu"}, *program, {});
  StatusOr<SerializedProgram> read = ReadSerializedProgram(bytes);
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_EQ(read->program->replica_count, 2);
  EXPECT_EQ(read->program->num_partitions, 2);
  ASSERT_EQ(read->program->process_ops.size(), program->process_ops.size());
  for (size_t i = 0; i < program->process_ops.size(); ++i) {
    EXPECT_TRUE(
        read->program->process_ops[i]->Identical(*program->process_ops[i]))
        << HloModuleToText(*read->program->process_ops[i]);
  }
  const ComputationPlan& entry =
      read->program->computations[static_cast<size_t>(read->program->entry)];
  const ComputationPlan& original =
      program->computations[static_cast<size_t>(program->entry)];
  ASSERT_EQ(entry.steps.size(), original.steps.size());
  for (size_t s = 0; s < entry.steps.size(); ++s) {
    EXPECT_EQ(entry.steps[s].process_op, original.steps[s].process_op);
  }
}

TEST(SerializedProgram, EveryTruncationIsRefused) {
  const std::string bytes = WriteWhileModule().bytes;
  for (size_t length = 0; length < bytes.size(); ++length) {
    StatusOr<SerializedProgram> read =
        ReadSerializedProgram(std::string_view(bytes).substr(0, length));
    ASSERT_FALSE(read.ok()) << "length " << length;
    EXPECT_TRUE(read.status().code() == PHAL_INVALID_ARGUMENT ||
                read.status().code() == PHAL_DATA_LOSS)
        << "length " << length << ": " << read.status().ToString();
  }
}

TEST(SerializedProgram, EveryChangedByteIsRefused) {
  const std::string bytes = WriteWhileModule().bytes;
  for (size_t i = 0; i < bytes.size(); ++i) {
    std::string changed = bytes;
    changed[i] = static_cast<char>(changed[i] ^ 0x01);
    EXPECT_FALSE(ReadSerializedProgram(changed).ok()) << "byte " << i;
  }
}

TEST(SerializedProgram, AnotherFormatVersionIsAFailedPrecondition) {
  std::string bytes = WriteWhileModule().bytes;
  bytes[8] = static_cast<char>(kSerializedProgramFormatVersion + 1);
  StatusOr<SerializedProgram> read = ReadSerializedProgram(bytes);
  EXPECT_EQ(read.status().code(), PHAL_FAILED_PRECONDITION);
}

TEST(SerializedProgram, APlanNamingAMissingKernelIsRefused) {
  Written written = WriteWhileModule();
  // Fewer kernels than the plan launches: the checksum holds, the plan
  // does not.
  const std::string bytes = WriteSerializedProgram(
      {"cpu", "1.0", "host", "a cpu"}, *written.program, {});
  StatusOr<SerializedProgram> read = ReadSerializedProgram(bytes);
  EXPECT_EQ(read.status().code(), PHAL_DATA_LOSS);
  EXPECT_NE(read.status().message().find("corrupt plan"), std::string::npos)
      << read.status().message();
}

}  // namespace
}  // namespace phal
