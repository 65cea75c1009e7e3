// The state of one StableHLO-to-HLO lowering, shared by the structural part
// (functions, regions, checks: stablehlo_lowering.cc) and the per-op part
// (stablehlo_op_lowering.cc). Internal to the front end.
#ifndef POLYHAL_CORE_FRONTEND_STABLEHLO_LOWERING_CONTEXT_H_
#define POLYHAL_CORE_FRONTEND_STABLEHLO_LOWERING_CONTEXT_H_

#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/frontend/mlir_syntax.h"
#include "core/frontend/sdy_sharding.h"
#include "core/frontend/source_text.h"
#include "core/frontend/stablehlo_module.h"
#include "core/hlo/hlo_builder.h"

namespace phal {

using Values = std::vector<HloInstruction*>;

// The SSA values visible while lowering one computation, keyed "name#index".
struct LoweringScope {
  HloBuilder* builder = nullptr;
  std::map<std::string, HloInstruction*> values;
  std::string function_name;
  // Non-null at the top level of a function, where checks may appear.
  std::vector<CheckSpec>* checks = nullptr;
  Values* check_outputs = nullptr;
  int64_t result_count = 0;

  HloInstruction* Find(const std::string& key) const;
};

std::string ValueKey(const std::string& name, int64_t index);

// The rows of a 2-D integer attribute (replica_groups,
// source_target_pairs), dropping the -1 padding of ragged groups
// (stablehlo_collectives.cc).
std::vector<std::vector<int64_t>> IntegerRows(const MlirAttribute* attribute);
// The channel_handle's handle when it is above 0 (a channel), else nullopt.
std::optional<int64_t> ChannelOf(const MlirOperation& op);
// use_global_device_ids, written as a unit or a boolean attribute.
bool UsesGlobalDeviceIds(const MlirOperation& op);

class StableHloLowering {
 public:
  StableHloLowering(const MlirModule& module, const SourceText& source);
  StatusOr<StableHloModule> Run();

 private:
  // --- Structure (stablehlo_lowering.cc) ------------------------------------
  void CollectParallelPrograms();
  StatusOr<const StableHloFunction*> LowerFunction(const std::string& name,
                                                   std::size_t use_offset);
  // Each argument becomes the builder's next parameter, bound to its name.
  Status BindArgumentsAsParameters(
      const std::vector<MlirBlockArgument>& arguments, LoweringScope& scope);
  Status LowerOperations(const MlirRegion& region, LoweringScope& scope,
                         Values* returned);
  Status LowerOperation(const MlirOperation& op, LoweringScope& scope,
                        Values* returned);
  Status LowerCheck(const MlirOperation& op, const std::string& kind,
                    LoweringScope& scope);
  // Wraps or rounds the results whose type is emulated (emulated_types.h).
  Status WrapEmulatedResults(const MlirOperation& op, Values& results,
                             LoweringScope& scope);
  Status BindResults(const MlirOperation& op, const Values& results,
                     LoweringScope& scope);
  // A reducer, comparator or mapped function: block arguments become
  // parameters; outside values must be constants and are copied in.
  StatusOr<HloComputation*> LowerAppliedRegion(const MlirRegion& region,
                                               const LoweringScope& outer,
                                               const std::string& purpose);
  enum class TupleRegionRole { kCondition, kBody, kBranch };
  // A while condition or body, or a conditional branch: one tuple
  // parameter holding the block arguments (`leading` shapes) and then the
  // `captures`.
  StatusOr<HloComputation*> LowerTupleRegion(
      const MlirRegion& region, const LoweringScope& outer,
      const std::string& purpose, const std::vector<Shape>& leading,
      const std::vector<std::string>& captures, TupleRegionRole role);
  std::vector<std::string> FreeValues(const MlirRegion& region) const;
  // The values of the op's operands; an undefined one is reported where
  // it is used.
  StatusOr<Values> LookUpOperands(const MlirOperation& op,
                                  const LoweringScope& scope) const;
  StatusOr<Values> LookUp(const std::vector<std::string>& keys,
                          const LoweringScope& scope, std::size_t offset) const;
  HloComputation* AddComputation(std::unique_ptr<HloComputation> computation);
  // A LAPACK custom call JAX writes for CPU (lapack_custom_calls.h).
  Status LowerLapackCall(const MlirOperation& op, const std::string& target,
                         LoweringScope& scope);
  std::string UniqueName(const std::string& base);

  // --- Ops (stablehlo_op_lowering.cc) ---------------------------------------
  StatusOr<Values> LowerValueOp(const MlirOperation& op, LoweringScope& scope);
  // The lowering of each StableHLO op of a fixed HLO form, and the table
  // that finds it by the op's name (stablehlo_op_lowering.cc).
  struct OpLowerings;
  StatusOr<Values> LowerStableHloOp(const std::string& name,
                                    const MlirOperation& op,
                                    LoweringScope& scope,
                                    const Values& operands);
  StatusOr<Values> LowerElementwise(HloOpcode opcode, HloBuilder& builder,
                                    Values operands);
  StatusOr<Values> LowerRegionOp(const std::string& name,
                                 const MlirOperation& op, LoweringScope& scope,
                                 const Values& operands);
  StatusOr<Values> LowerDynamicOp(const std::string& name,
                                  const MlirOperation& op, LoweringScope& scope,
                                  const Values& operands);
  StatusOr<Values> LowerScan(const MlirOperation& op, LoweringScope& scope,
                             const Values& operands);
  StatusOr<Values> LowerChlo(const MlirOperation& op, LoweringScope& scope,
                             const Values& operands);
  StatusOr<Values> LowerCall(const MlirOperation& op, LoweringScope& scope,
                             const Values& operands, const std::string& callee);
  StatusOr<Values> LowerWhile(const MlirOperation& op, LoweringScope& scope,
                              const Values& operands);
  StatusOr<Values> LowerConditional(const MlirOperation& op,
                                    LoweringScope& scope,
                                    const Values& operands);
  // bitcast_convert from or to i1, which StableHLO makes one bit wide
  // where HLO's pred is a byte.
  StatusOr<HloInstruction*> LowerBitcastConvertOfI1(HloInstruction* operand,
                                                    const Shape& type,
                                                    LoweringScope& scope);
  StatusOr<HloInstruction*> LowerConvolution(
      const MlirOperation& op, LoweringScope& scope, const Values& operands,
      const std::optional<std::vector<int64_t>>& padding);
  StatusOr<HloInstruction*> LowerGather(
      const MlirOperation& op, LoweringScope& scope, const Values& operands,
      const std::vector<int64_t>& slice_sizes);
  // --- Quantized types (quantized_lowering.cc) -----------------------------
  // Whether the op reads or writes a value of a !quant.uniform type.
  bool InvolvesQuantizedType(const MlirOperation& op,
                             const Values& operands) const;
  // Lowers such an op on storage values: uniform_quantize and
  // uniform_dequantize, data movement on the storage values, dot_general
  // and convolution with integer accumulation, and every other op as
  // dequantize, the op in the expressed type, quantize.
  StatusOr<Values> LowerQuantizedOp(const MlirOperation& op,
                                    LoweringScope& scope,
                                    const Values& operands);
  // dot_general or convolution of quantized operands as an integer op with
  // s32 (or, where s32 could overflow, s64) accumulation; null when the
  // operands' quantization does not allow it.
  StatusOr<HloInstruction*> LowerIntegerDotOrConvolution(
      const std::string& name, const MlirOperation& op, LoweringScope& scope,
      const Values& operands);
  StatusOr<Values> LowerDequantizeOpQuantize(const std::string& name,
                                             const MlirOperation& op,
                                             LoweringScope& scope,
                                             const Values& operands);
  // --- SPMD programs (stablehlo_collectives.cc) ------------------------------
  // The module's mhlo.num_replicas and mhlo.num_partitions, onto the module
  // and grid_.
  Status ReadProcessGrid();
  // A collective op, replica_id or partition_id as the HLO instruction of
  // the per-process program (all_to_all with a concat dimension other than
  // its split dimension as XLA builds it: reshape, transpose, all-to-all,
  // transpose, reshape).
  StatusOr<Values> LowerCollectiveOp(const std::string& name,
                                     const MlirOperation& op,
                                     LoweringScope& scope,
                                     const Values& operands);
  // The sharding of an mhlo.sharding = "{...}" attribute; errors point
  // into the string.
  StatusOr<HloSharding> MhloShardingOf(const MlirAttribute& attribute) const;
  // Keeps the mhlo.sharding = "{...}" among `attributes` on `values` (an
  // op's results or a function's parameter): one sharding for one value,
  // a tuple sharding's elements for several.
  Status ApplyMhloSharding(const std::vector<MlirNamedAttribute>& attributes,
                           const Values& values);
  // One operand of an all_to_all.
  StatusOr<HloInstruction*> LowerAllToAll(const MlirOperation& op,
                                          HloBuilder& b,
                                          HloInstruction* operand,
                                          int64_t split, int64_t concat);

  // --- Global programs around a manual computation
  // (stablehlo_manual_computation.cc) -------------------------------------
  // The module's sdy.mesh definitions, into meshes_.
  Status ReadMeshes();
  // Whether the top level of the function `name` holds an
  // sdy.manual_computation, GSPMD's SPMDFullToShardShape /
  // SPMDShardToFullShape boundary, or a call of such a function.
  bool IsGlobalProgram(const std::string& name);
  // The callee of a call op that calls a global program, or "".
  std::string GlobalCallee(const MlirOperation& op);
  // Lowers such a function into the per-device program: its parameters
  // and results are the pieces of the global arrays, each with the
  // sharding that splits its global array (tuple sharding on a tuple
  // root). Errors UNIMPLEMENTED where the function computes on global
  // arrays or the computation is manual over only some mesh axes.
  StatusOr<const StableHloFunction*> LowerGlobalProgram(
      const MlirFunction& function);
  // Puts the sdy.sharding / mhlo.sharding of each of `function`'s results
  // on the root: a tuple sharding on a tuple root, else on a copy of the
  // returned value, which becomes the root.
  StatusOr<HloInstruction*> ApplyResultShardings(const MlirFunction& function,
                                                 HloBuilder& builder,
                                                 HloInstruction* root,
                                                 bool returns_tuple,
                                                 std::size_t output_count);
  // A copy of `value` carrying `sharding`: a sharding constraint.
  StatusOr<HloInstruction*> ShardingConstraint(HloInstruction* value,
                                               HloSharding sharding,
                                               LoweringScope& scope);
  // The sharding an sdy.sharding or mhlo.sharding among `attributes` gives
  // a value of `type` (an argument, a result), or nullopt when there is
  // none or it splits nothing. Notes a split (NoteSharding).
  StatusOr<std::optional<HloSharding>> ValueSharding(
      const std::vector<MlirNamedAttribute>& attributes, const Shape& type);
  // Records that a value outside a manual computation is split over
  // several devices: the module is a global program the SPMD partitioner
  // splits (HloModule::spmd_global).
  void NoteSharding(const HloSharding& sharding);
  // The piece type and sharding of each argument, and the sharding of
  // each result, of a global program.
  struct GlobalSignature {
    std::vector<std::optional<Shape>> pieces;
    std::vector<HloSharding> piece_shardings;
    std::vector<HloSharding> result_shardings;
  };
  StatusOr<GlobalSignature> ReadGlobalSignature(const MlirFunction& function);
  // The in_shardings and out_shardings of an sdy.manual_computation as
  // HloShardings; UNIMPLEMENTED unless it is manual over every mesh axis.
  struct ManualComputation {
    std::vector<HloSharding> in;
    std::vector<HloSharding> out;
  };
  StatusOr<ManualComputation> ReadManualComputation(const MlirOperation& op);
  // The mhlo.sharding of a GSPMD boundary custom_call.
  StatusOr<HloSharding> BoundarySharding(const MlirOperation& op) const;
  // The mesh called `name`, which must span the module's process grid.
  StatusOr<const DeviceMesh*> MeshOfGrid(const std::string& name,
                                         std::size_t offset) const;
  StatusOr<HloSharding> SdyAttributeToHlo(const SdyTensorSharding& sharding,
                                          int64_t rank) const;
  // OK when pieces `piece` split by `sharding` make an array of `global`.
  Status CheckPieceOf(const Shape& piece, const HloSharding& sharding,
                      const Shape& global, std::size_t offset) const;

  // --- Several processes (stablehlo_run_parallel.cc) -----------------------
  // interpreter.run_parallel: runs one program on a grid of replicas x
  // partitions by lowering a copy of its body per process, in lockstep, so
  // that each collective op sees the operands of every process.
  StatusOr<Values> LowerRunParallel(const MlirOperation& op,
                                    LoweringScope& scope,
                                    const Values& operands);
  // What host transfers (send, recv, infeed, outfeed) of a run_parallel
  // exchange: per channel, the values sent and not yet received, and the
  // functions that produce the next infeed values.
  struct HostQueues {
    std::map<int64_t, std::deque<Values>> channels;
    std::deque<std::string> infeed;
  };
  Status LowerProgramInLockstep(const MlirFunction& program,
                                std::vector<LoweringScope>& processes,
                                int64_t replicas, int64_t partitions,
                                HostQueues* queues,
                                std::vector<Values>* returned);
  Status LowerHostTransfer(const MlirOperation& op, LoweringScope& process,
                           HostQueues* queues);
  Status LowerCollective(const MlirOperation& op,
                         std::vector<LoweringScope>& processes,
                         int64_t replicas, int64_t partitions);

  StatusOr<Shape> ResultType(const MlirOperation& op, std::size_t index) const;
  StatusOr<Literal> AttributeLiteral(const MlirAttribute& attribute,
                                     const Shape& type) const;

  const MlirModule& mlir_;
  const SourceText& source_;
  // The sdy.mesh definitions by name.
  std::map<std::string, DeviceMesh> meshes_;
  // IsGlobalProgram's answers by function name.
  std::map<std::string, bool> global_programs_;
  // Whether a sharding outside a manual computation splits a value.
  bool splits_values_ = false;
  std::unique_ptr<HloModule> module_;
  ProcessGrid grid_;
  std::map<std::string, const MlirFunction*> functions_;
  std::map<std::string, StableHloFunction> lowered_;
  std::set<std::string> in_progress_;
  std::set<std::string> used_names_;
  // Functions named as interpreter.run_parallel programs: they run only
  // inside a run_parallel and get no computation of their own.
  std::set<std::string> parallel_programs_;
  // What every value of an emulated type (i4, f8E4M3FN, ...) emulates.
  std::map<const HloInstruction*, EmulatedType> emulated_;
  // Per function, the functions it calls, in the order of the calls.
  std::map<std::string, std::vector<std::string>> callees_;
};

}  // namespace phal

#endif  // POLYHAL_CORE_FRONTEND_STABLEHLO_LOWERING_CONTEXT_H_
