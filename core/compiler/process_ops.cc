#include "core/compiler/process_ops.h"

#include <string>
#include <unordered_map>
#include <vector>

#include "core/compiler/hlo_rewriter.h"
#include "core/hlo/process_groups.h"
#include "core/hlo/verifier.h"

namespace phal {

bool IsProcessOp(HloOpcode opcode) {
  return IsCollective(opcode) || opcode == HloOpcode::kReplicaId ||
         opcode == HloOpcode::kPartitionId;
}

StatusOr<std::unique_ptr<HloModule>> ExtractProcessOp(
    const HloModule& module, const HloInstruction& op) {
  auto extracted = std::make_unique<HloModule>(op.name());
  extracted->set_replica_count(module.replica_count());
  extracted->set_num_partitions(module.num_partitions());
  std::unordered_map<const HloComputation*, HloComputation*> copies;
  std::vector<HloComputation*> called;
  for (const HloComputation* callee : op.called_computations()) {
    called.push_back(CopyComputation(*callee, extracted.get(), &copies));
  }
  auto entry = std::make_unique<HloComputation>(op.name() + ".process_op");
  std::vector<HloInstruction*> parameters;
  for (int64_t i = 0; i < op.operand_count(); ++i) {
    auto parameter = std::make_unique<HloInstruction>(
        HloOpcode::kParameter, op.name() + ".operand." + std::to_string(i),
        op.operand(i)->shape());
    parameter->set_parameter_number(i);
    parameters.push_back(entry->AddInstruction(std::move(parameter)));
  }
  HloInstruction* root = entry->AddInstruction(
      CloneInstruction(op, parameters, called, op.name()));
  entry->set_root_instruction(root);
  extracted->set_entry_computation(extracted->AddComputation(std::move(entry)));
  PHAL_RETURN_IF_ERROR(VerifyModule(*extracted));
  return extracted;
}

}  // namespace phal
