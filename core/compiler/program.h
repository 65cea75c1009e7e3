// The executable plan the compiler produces and the executor runs: KIR
// kernels, constants, and for every computation that runs on the host
// (the entry and the computations of while, conditional and call) a list
// of steps over "leaves". A leaf is one dense array value of a computation:
// a parameter (tuples flattened depth-first), a constant, an output of a
// kernel (living in a slot chosen by buffer assignment) or an output of a
// nested computation. Tuples exist only at compile time, as lists of leaves.
// A program for several processes (replicas x partitions) is one plan that
// every process runs; the steps that depend on the process (collectives,
// replica-id, partition-id) run on the host with the execution's process.
#ifndef POLYHAL_CORE_COMPILER_PROGRAM_H_
#define POLYHAL_CORE_COMPILER_PROGRAM_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/hlo/literal.h"
#include "core/hlo/module.h"
#include "core/hlo/shape.h"
#include "sdk/kir/kernel.h"

namespace phal {

enum class StepKind { kKernel, kWhile, kConditional, kCall, kProcessOp };

struct Step {
  StepKind kind = StepKind::kKernel;
  // kKernel: the kernel and the leaf bound to each of its buffers.
  int kernel = -1;
  std::vector<int> buffers;
  // kProcessOp: the process op (Program::process_ops) it runs on operands[0].
  int process_op = -1;
  // kWhile: computations {condition, body}; kConditional: the branches;
  // kCall: {callee}.
  std::vector<int> computations;
  // kConditional: the leaf holding the pred or s32 branch selector.
  int selector = -1;
  phal_element_type_t selector_type = PHAL_ELEMENT_TYPE_PRED;
  // Leaves passed to the computation: one list for while and call, one per
  // branch for conditional; kProcessOp: the op's operands, one list.
  std::vector<std::vector<int>> operands;
  // Leaves this step defines: kernel outputs, the computation's results, or
  // the process op's result leaves.
  std::vector<int> outputs;
  // kCall: the part of Program::offloads this call stands for, or -1. The
  // executor launches the plugin's kernel for the part when the plugin
  // compiled it, and runs the callee's plan otherwise.
  int offload = -1;
  // kWhile: the steps a counted loop runs (FindCountedLoop: a counter from
  // a constant, up by one per step, below a constant), so the executor
  // runs the body that often without evaluating the condition; -1 for any
  // other loop.
  int64_t trip_count = -1;
};

struct ComputationPlan {
  std::string name;
  // Leaves 0 .. parameter_leaf_count-1 are the parameters, flattened.
  int parameter_leaf_count = 0;
  std::vector<Shape> leaf_shapes;
  // Per leaf: the program constant it reads, or -1.
  std::vector<int> leaf_constant;
  // Per leaf: the slot holding it, or -1 (parameters, constants, outputs of
  // nested computations). Slots are allocated when the computation starts
  // and freed when it ends; two leaves share a slot when their lifetimes do
  // not overlap, or when a kernel updates its input in place.
  std::vector<int> leaf_slot;
  // Per leaf: the parameter leaf whose buffer a kernel updated in place to
  // make it, or -1 (empty: none). The executor gives every parameter named
  // here a buffer that nothing else refers to, copying it when it must.
  std::vector<int> leaf_parameter;
  std::vector<int64_t> slot_bytes;
  std::vector<Step> steps;
  std::vector<int> result_leaves;
};

// A part of a computation the device's plugin takes whole (plugin.h,
// program_compile), made by the offload pass: a called computation whose
// plan is the core's own kernels for it, run where the plugin declines it.
struct OffloadedPart {
  std::string name;
  // The part as a module of its own, in XLA HLO text.
  std::string hlo_text;
  // The caller's StableHLO bytes when the part is the whole program
  // compiled from StableHLO; empty otherwise.
  std::string stablehlo;
  // The computation (Program::computations) whose plan runs the part.
  int computation = -1;
};

struct Program {
  // The process grid every process of the program belongs to.
  int64_t replica_count = 1;
  int64_t num_partitions = 1;
  std::vector<std::unique_ptr<KirKernel>> kernels;
  // An op whose result depends on the process running it (a collective,
  // replica-id or partition-id), as a module of its own on the program's
  // grid: the entry takes the op's operands as parameters and its root is
  // the op (with its reduction computation, if any). The executor
  // evaluates it for its process.
  std::vector<std::shared_ptr<const HloModule>> process_ops;
  // The parts the offload pass gave the plugin, named by Step::offload.
  std::vector<OffloadedPart> offloads;
  std::vector<Literal> constants;
  std::vector<ComputationPlan> computations;
  int entry = -1;
  std::vector<Shape> parameter_shapes;
  std::vector<Shape> result_shapes;  // the entry root's leaves
};

}  // namespace phal

#endif  // POLYHAL_CORE_COMPILER_PROGRAM_H_
