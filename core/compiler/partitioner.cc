#include "core/compiler/partitioner.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>

#include "core/compiler/counted_loop.h"
#include "core/compiler/fused_emitter.h"
#include "core/compiler/fusion_planner.h"
#include "core/compiler/process_ops.h"

namespace phal {
namespace {

int64_t LeafCount(const Shape& shape) {
  if (shape.IsArray()) return 1;
  int64_t count = 0;
  for (const Shape& element : shape.tuple_shapes()) count += LeafCount(element);
  return count;
}

void FlattenShape(const Shape& shape, std::vector<Shape>* leaves) {
  if (shape.IsArray()) {
    leaves->push_back(shape);
    return;
  }
  for (const Shape& element : shape.tuple_shapes()) {
    FlattenShape(element, leaves);
  }
}

std::vector<Shape> Flatten(const Shape& shape) {
  std::vector<Shape> leaves;
  FlattenShape(shape, &leaves);
  return leaves;
}

// The stride of dimensions `group` of a row-major array of `dims` taken as
// one dimension (row-major over the group's order), if they are laid out so.
std::optional<int64_t> MergedStride(const std::vector<int64_t>& dims,
                                    const std::vector<int64_t>& group) {
  const std::vector<int64_t> strides = RowMajorStrides(dims);
  std::vector<std::size_t> kept;
  for (int64_t d : group) {
    if (dims[static_cast<std::size_t>(d)] != 1) {
      kept.push_back(static_cast<std::size_t>(d));
    }
  }
  if (kept.empty()) return 0;
  for (std::size_t i = 0; i + 1 < kept.size(); ++i) {
    if (strides[kept[i]] != strides[kept[i + 1]] * dims[kept[i + 1]]) {
      return std::nullopt;
    }
  }
  return strides[kept.back()];
}

int64_t SizeOf(const std::vector<int64_t>& dims,
               const std::vector<int64_t>& group) {
  int64_t size = 1;
  for (int64_t d : group) size *= dims[static_cast<std::size_t>(d)];
  return size;
}

std::vector<int64_t> FreeDims(int64_t rank, const std::vector<int64_t>& batch,
                              const std::vector<int64_t>& contracting) {
  std::vector<int64_t> free;
  for (int64_t d = 0; d < rank; ++d) {
    if (std::find(batch.begin(), batch.end(), d) == batch.end() &&
        std::find(contracting.begin(), contracting.end(), d) ==
            contracting.end()) {
      free.push_back(d);
    }
  }
  return free;
}

// A kernel under construction with the leaf bound to each of its buffers.
struct KernelBuild {
  std::unique_ptr<KirKernel> kernel;
  std::vector<int> buffer_leaves;
  std::map<std::pair<int, std::vector<int64_t>>, uint32_t> inputs;
  std::vector<int> output_leaves;

  uint32_t Input(int leaf, ElementType type, const std::vector<int64_t>& dims) {
    auto key = std::make_pair(leaf, dims);
    auto found = inputs.find(key);
    if (found != inputs.end()) return found->second;
    const uint32_t index = kernel->AddBuffer(type, dims, PHAL_KIR_ACCESS_READ);
    buffer_leaves.push_back(leaf);
    inputs.emplace(std::move(key), index);
    return index;
  }
};

class Partitioner {
 public:
  Partitioner(const HloModule& module,
              const std::map<std::string, int64_t>& trip_counts)
      : module_(module), trip_counts_(trip_counts) {}

  StatusOr<Program> Run() {
    const HloComputation& entry = *module_.entry_computation();
    // Tuple-shaped parameters are taken as their leaves, depth-first, the
    // way results are returned.
    for (const HloInstruction* parameter : entry.parameter_instructions()) {
      for (Shape& shape : Flatten(parameter->shape())) {
        program_.parameter_shapes.push_back(std::move(shape));
      }
    }
    program_.result_shapes = Flatten(entry.ResultShape());
    program_.replica_count = module_.replica_count();
    program_.num_partitions = module_.num_partitions();
    PHAL_ASSIGN_OR_RETURN(program_.entry, Build(entry));
    return std::move(program_);
  }

 private:
  // ---- computations --------------------------------------------------------

  StatusOr<int> Build(const HloComputation& computation) {
    auto known = computation_index_.find(&computation);
    if (known != computation_index_.end()) return known->second;
    for (const HloInstruction* instruction : computation.instructions()) {
      const HloOpcode opcode = instruction->opcode();
      if (opcode != HloOpcode::kWhile && opcode != HloOpcode::kConditional &&
          opcode != HloOpcode::kCall) {
        continue;
      }
      for (const HloComputation* callee : instruction->called_computations()) {
        PHAL_RETURN_IF_ERROR(Build(*callee).status());
      }
    }
    PHAL_ASSIGN_OR_RETURN(FusionPlan fusion, PlanFusion(computation));
    plan_ = ComputationPlan();
    plan_.name = computation.name();
    leaves_.clear();
    for (const HloInstruction* parameter :
         computation.parameter_instructions()) {
      std::vector<int> leaves;
      for (const Shape& shape : Flatten(parameter->shape())) {
        leaves.push_back(NewLeaf(shape));
      }
      leaves_[parameter] = leaves;
    }
    plan_.parameter_leaf_count = static_cast<int>(plan_.leaf_shapes.size());
    aliases_ = fusion.aliases;
    for (const ScheduledUnit& unit : fusion.schedule) {
      if (unit.control != nullptr) {
        PHAL_RETURN_IF_ERROR(BuildControl(*unit.control));
      } else {
        PHAL_RETURN_IF_ERROR(BuildGroup(fusion.groups[unit.group]));
      }
    }
    PHAL_ASSIGN_OR_RETURN(plan_.result_leaves,
                          LeavesOf(*computation.root_instruction()));
    const int index = static_cast<int>(program_.computations.size());
    program_.computations.push_back(std::move(plan_));
    computation_index_[&computation] = index;
    return index;
  }

  int NewLeaf(const Shape& shape, int constant = -1) {
    plan_.leaf_shapes.push_back(shape);
    plan_.leaf_constant.push_back(constant);
    plan_.leaf_slot.push_back(-1);
    return static_cast<int>(plan_.leaf_shapes.size() - 1);
  }

  void ConstantLeaves(const Literal& literal, std::vector<int>* leaves) {
    if (literal.IsTuple()) {
      for (const Literal& element : literal.tuple_elements()) {
        ConstantLeaves(element, leaves);
      }
      return;
    }
    program_.constants.push_back(literal);
    leaves->push_back(NewLeaf(literal.shape(),
                              static_cast<int>(program_.constants.size() - 1)));
  }

  StatusOr<std::vector<int>> LeavesOf(const HloInstruction& instruction) {
    auto found = leaves_.find(&instruction);
    if (found != leaves_.end()) return found->second;
    std::vector<int> leaves;
    switch (instruction.opcode()) {
      case HloOpcode::kConstant:
        ConstantLeaves(instruction.literal(), &leaves);
        break;
      case HloOpcode::kTuple:
        for (const HloInstruction* operand : instruction.operands()) {
          PHAL_ASSIGN_OR_RETURN(std::vector<int> part, LeavesOf(*operand));
          leaves.insert(leaves.end(), part.begin(), part.end());
        }
        break;
      case HloOpcode::kGetTupleElement: {
        const HloInstruction& tuple = *instruction.operand(0);
        PHAL_ASSIGN_OR_RETURN(std::vector<int> all, LeavesOf(tuple));
        int64_t begin = 0;
        for (int64_t i = 0; i < instruction.tuple_index(); ++i) {
          begin += LeafCount(
              tuple.shape().tuple_shapes()[static_cast<std::size_t>(i)]);
        }
        leaves.assign(all.begin() + begin,
                      all.begin() + begin + LeafCount(instruction.shape()));
        break;
      }
      case HloOpcode::kOptimizationBarrier:
        return LeavesOf(*instruction.operand(0));
      default:
        if (!aliases_.count(&instruction)) {
          return Internal("no value for %" + instruction.name() +
                          " when it is used");
        }
        return LeavesOf(*instruction.operand(0));
    }
    leaves_[&instruction] = leaves;
    return leaves;
  }

  StatusOr<int> SingleLeaf(const HloInstruction& instruction) {
    PHAL_ASSIGN_OR_RETURN(std::vector<int> leaves, LeavesOf(instruction));
    if (leaves.size() != 1) {
      return Internal("%" + instruction.name() + " is not an array");
    }
    return leaves[0];
  }

  Status BuildControl(const HloInstruction& instruction) {
    if (IsProcessOp(instruction.opcode())) return BuildProcessOp(instruction);
    Step step;
    for (const HloComputation* callee : instruction.called_computations()) {
      step.computations.push_back(computation_index_.at(callee));
    }
    switch (instruction.opcode()) {
      case HloOpcode::kWhile: {
        step.kind = StepKind::kWhile;
        PHAL_ASSIGN_OR_RETURN(std::vector<int> init,
                              LeavesOf(*instruction.operand(0)));
        step.operands.push_back(init);
        if (const std::optional<CountedLoop> counted =
                FindCountedLoop(instruction)) {
          step.trip_count = counted->trips();
        } else if (const auto known = trip_counts_.find(
                       instruction.parent()->name() + "/" + instruction.name());
                   known != trip_counts_.end()) {
          step.trip_count = known->second;
        }
        break;
      }
      case HloOpcode::kConditional: {
        step.kind = StepKind::kConditional;
        PHAL_ASSIGN_OR_RETURN(step.selector,
                              SingleLeaf(*instruction.operand(0)));
        step.selector_type = instruction.operand(0)->shape().element_type();
        for (int64_t i = 1; i < instruction.operand_count(); ++i) {
          PHAL_ASSIGN_OR_RETURN(std::vector<int> operand,
                                LeavesOf(*instruction.operand(i)));
          step.operands.push_back(operand);
        }
        break;
      }
      default: {
        step.kind = StepKind::kCall;
        std::vector<int> operands;
        for (const HloInstruction* operand : instruction.operands()) {
          PHAL_ASSIGN_OR_RETURN(std::vector<int> part, LeavesOf(*operand));
          operands.insert(operands.end(), part.begin(), part.end());
        }
        step.operands.push_back(operands);
        break;
      }
    }
    for (const Shape& shape : Flatten(instruction.shape())) {
      step.outputs.push_back(NewLeaf(shape));
    }
    leaves_[&instruction] = step.outputs;
    plan_.steps.push_back(std::move(step));
    return OkStatus();
  }

  // A step the executor runs with its process, on the op's module.
  Status BuildProcessOp(const HloInstruction& instruction) {
    Step step;
    step.kind = StepKind::kProcessOp;
    PHAL_ASSIGN_OR_RETURN(std::unique_ptr<HloModule> op,
                          ExtractProcessOp(module_, instruction));
    step.process_op = static_cast<int>(program_.process_ops.size());
    program_.process_ops.push_back(std::move(op));
    std::vector<int> operands;
    for (const HloInstruction* operand : instruction.operands()) {
      PHAL_ASSIGN_OR_RETURN(int leaf, SingleLeaf(*operand));
      operands.push_back(leaf);
    }
    step.operands.push_back(std::move(operands));
    for (const Shape& shape : Flatten(instruction.shape())) {
      step.outputs.push_back(NewLeaf(shape));
    }
    leaves_[&instruction] = step.outputs;
    plan_.steps.push_back(std::move(step));
    return OkStatus();
  }

  // ---- kernels -------------------------------------------------------------

  KernelBuild NewKernel(const HloInstruction& root, phal_kernel_kind_t kind) {
    std::string name = root.name();
    for (int n = 1; !kernel_names_.insert(name).second; ++n) {
      name = root.name() + "." + std::to_string(n);
    }
    KernelBuild build;
    build.kernel = std::make_unique<KirKernel>(name, kind);
    return build;
  }

  InputBufferFn Inputs(KernelBuild* build) {
    return
        [this, build](const HloInstruction& instruction) -> StatusOr<uint32_t> {
          PHAL_ASSIGN_OR_RETURN(int leaf, SingleLeaf(instruction));
          return build->Input(leaf, instruction.shape().element_type(),
                              instruction.shape().dims());
        };
  }

  // Adds an output buffer of `shape` written with `dims` and its new leaf.
  uint32_t Output(KernelBuild* build, const Shape& shape,
                  const std::vector<int64_t>& dims) {
    const uint32_t index = build->kernel->AddBuffer(shape.element_type(), dims,
                                                    PHAL_KIR_ACCESS_WRITE);
    const int leaf = NewLeaf(shape);
    build->buffer_leaves.push_back(leaf);
    build->output_leaves.push_back(leaf);
    return index;
  }

  void Finish(KernelBuild build,
              const std::vector<const HloInstruction*>& defined) {
    std::size_t next = 0;
    for (const HloInstruction* instruction : defined) {
      const auto count =
          static_cast<std::size_t>(LeafCount(instruction->shape()));
      leaves_[instruction] = std::vector<int>(
          build.output_leaves.begin() + static_cast<std::ptrdiff_t>(next),
          build.output_leaves.begin() +
              static_cast<std::ptrdiff_t>(next + count));
      next += count;
    }
    Step step;
    step.kernel = static_cast<int>(program_.kernels.size());
    step.buffers = std::move(build.buffer_leaves);
    step.outputs = std::move(build.output_leaves);
    program_.kernels.push_back(std::move(build.kernel));
    plan_.steps.push_back(std::move(step));
  }

  Status BuildGroup(const FusionGroup& group) {
    const HloInstruction* hero = group.hero;
    if (hero == nullptr) return BuildLoop(group);
    switch (hero->opcode()) {
      case HloOpcode::kReduce:
        return BuildReduce(group);
      case HloOpcode::kReduceWindow:
        return BuildReduceWindow(group);
      case HloOpcode::kDot:
        return BuildDot(group);
      case HloOpcode::kConvolution:
        return BuildConvolution(group);
      case HloOpcode::kGather:
        return BuildGather(group);
      case HloOpcode::kScatter:
        return BuildScatter(group);
      case HloOpcode::kFft:
        return BuildFft(group);
      case HloOpcode::kSort:
        return BuildSort(group);
      default:
        return BuildLinalg(group);
    }
  }

  Status BuildLoop(const FusionGroup& group) {
    const HloInstruction& root = *group.root;
    if (root.opcode() == HloOpcode::kCopy && group.outputs.size() == 1 &&
        !group.members.count(root.operand(0))) {
      KernelBuild build = NewKernel(root, PHAL_KERNEL_KIND_COPY);
      PHAL_ASSIGN_OR_RETURN(uint32_t source, Inputs(&build)(*root.operand(0)));
      build.kernel->copy.source = source;
      build.kernel->copy.destination =
          Output(&build, root.shape(), root.shape().dims());
      Finish(std::move(build), {&root});
      return OkStatus();
    }
    KernelBuild build = NewKernel(root, PHAL_KERNEL_KIND_LOOP);
    KirKernel& kernel = *build.kernel;
    kernel.dims = root.shape().dims();
    FusedEmitter emitter(&kernel.body, &group.members, Inputs(&build));
    const std::vector<uint32_t> index =
        emitter.IterationIndex(kernel.dims.size());
    for (const HloInstruction* output : group.outputs) {
      PHAL_ASSIGN_OR_RETURN(uint32_t node, emitter.Emit(*output, index));
      kernel.body.AddResult(node);
    }
    std::vector<const HloInstruction*> defined;
    for (const HloInstruction* output : group.outputs) {
      kernel.outputs.push_back(
          Output(&build, output->shape(), output->shape().dims()));
      defined.push_back(output);
    }
    Finish(std::move(build), defined);
    return OkStatus();
  }

  // The reducer of reduce and reduce-window: accumulators 0..N-1, values
  // N..2N-1.
  Status EmitReducer(const HloInstruction& hero, KirBody* reducer,
                     int64_t count) {
    std::vector<uint32_t> parameters;
    for (int64_t i = 0; i < 2 * count; ++i) {
      const ElementType type =
          hero.operand(count + i % count)->shape().element_type();
      parameters.push_back(reducer->Parameter(type, i));
    }
    reducer->set_parameter_count(static_cast<uint32_t>(2 * count));
    PHAL_ASSIGN_OR_RETURN(
        std::vector<uint32_t> results,
        EmitScalarComputation(reducer, *hero.to_apply(), parameters));
    for (uint32_t result : results) reducer->AddResult(result);
    return OkStatus();
  }

  Status EmitInit(const FusionGroup& group, KernelBuild* build, int64_t count) {
    FusedEmitter emitter(&build->kernel->init, &group.members, Inputs(build));
    for (int64_t i = 0; i < count; ++i) {
      PHAL_ASSIGN_OR_RETURN(uint32_t node,
                            emitter.Emit(*group.hero->operand(count + i), {}));
      build->kernel->init.AddResult(node);
    }
    return OkStatus();
  }

  // Epilogue of a reduce kernel: the reduced values themselves, or the
  // group's root computed from them. Defines the group's outputs.
  Status FinishReduction(const FusionGroup& group, KernelBuild build,
                         int64_t count,
                         const std::vector<int64_t>& output_dims) {
    const HloInstruction& hero = *group.hero;
    KirKernel& kernel = *build.kernel;
    kernel.epilogue.set_parameter_count(static_cast<uint32_t>(count));
    std::vector<Shape> hero_shapes = Flatten(hero.shape());
    if (group.root == &hero) {
      for (int64_t i = 0; i < count; ++i) {
        const Shape& shape = hero_shapes[static_cast<std::size_t>(i)];
        kernel.epilogue.AddResult(
            kernel.epilogue.Parameter(shape.element_type(), i));
        kernel.outputs.push_back(Output(&build, shape, output_dims));
      }
      Finish(std::move(build), {&hero});
      return OkStatus();
    }
    FusedEmitter emitter(&kernel.epilogue, &group.members, Inputs(&build));
    emitter.Bind(&hero,
                 kernel.epilogue.Parameter(hero.shape().element_type(), 0));
    PHAL_ASSIGN_OR_RETURN(
        uint32_t node,
        emitter.Emit(*group.root, emitter.IterationIndex(output_dims.size())));
    kernel.epilogue.AddResult(node);
    kernel.outputs.push_back(Output(&build, group.root->shape(), output_dims));
    Finish(std::move(build), {group.root});
    return OkStatus();
  }

  Status BuildReduce(const FusionGroup& group) {
    const HloInstruction& hero = *group.hero;
    const int64_t count = hero.operand_count() / 2;
    KernelBuild build = NewKernel(*group.root, PHAL_KERNEL_KIND_REDUCE);
    KirKernel& kernel = *build.kernel;
    kernel.dims = hero.operand(0)->shape().dims();
    kernel.reduced_dims = hero.dimensions();
    std::sort(kernel.reduced_dims.begin(), kernel.reduced_dims.end());
    kernel.accumulator_count = static_cast<uint32_t>(count);
    FusedEmitter values(&kernel.body, &group.members, Inputs(&build));
    const std::vector<uint32_t> index =
        values.IterationIndex(kernel.dims.size());
    for (int64_t i = 0; i < count; ++i) {
      PHAL_ASSIGN_OR_RETURN(uint32_t node,
                            values.Emit(*hero.operand(i), index));
      kernel.body.AddResult(node);
    }
    PHAL_RETURN_IF_ERROR(EmitInit(group, &build, count));
    PHAL_RETURN_IF_ERROR(EmitReducer(hero, &kernel.reducer, count));
    std::vector<int64_t> output_dims;
    for (std::size_t d = 0; d < kernel.dims.size(); ++d) {
      if (!std::binary_search(kernel.reduced_dims.begin(),
                              kernel.reduced_dims.end(),
                              static_cast<int64_t>(d))) {
        output_dims.push_back(kernel.dims[d]);
      }
    }
    return FinishReduction(group, std::move(build), count, output_dims);
  }

  // reduce-window is a reduce over [output dims..., window dims...] whose
  // values read the input at the window position, or the init value in
  // padding and in the holes of base dilation.
  Status BuildReduceWindow(const FusionGroup& group) {
    const HloInstruction& hero = *group.hero;
    const int64_t count = hero.operand_count() / 2;
    const std::vector<int64_t> output_dims = Flatten(hero.shape())[0].dims();
    const std::size_t rank = output_dims.size();
    KernelBuild build = NewKernel(*group.root, PHAL_KERNEL_KIND_REDUCE);
    KirKernel& kernel = *build.kernel;
    KirBody& body = kernel.body;
    kernel.dims = output_dims;
    for (std::size_t d = 0; d < rank; ++d) {
      kernel.dims.push_back(hero.window().dimensions[d].size);
      kernel.reduced_dims.push_back(static_cast<int64_t>(rank + d));
    }
    kernel.accumulator_count = static_cast<uint32_t>(count);
    FusedEmitter values(&body, &group.members, Inputs(&build));
    const std::vector<int64_t>& input_dims = hero.operand(0)->shape().dims();
    std::vector<uint32_t> input_index;
    std::optional<uint32_t> inside;
    for (std::size_t d = 0; d < rank; ++d) {
      const WindowDimension& w = hero.window().dimensions[d];
      const uint32_t position = body.SubtractIndex(
          body.AddIndex(
              body.MultiplyIndex(body.Index(static_cast<int64_t>(d)), w.stride),
              body.MultiplyIndex(body.Index(static_cast<int64_t>(rank + d)),
                                 w.window_dilation)),
          body.Index64(w.padding_low));
      const uint32_t element = body.DivideIndex(position, w.base_dilation);
      input_index.push_back(body.ClampIndex(0, element, input_dims[d] - 1));
      if (w.padding_low == 0 && w.padding_high == 0 && w.base_dilation == 1) {
        continue;
      }
      uint32_t condition = body.And(
          body.CompareIndex(PHAL_KIR_COMPARE_GE, position, body.Index64(0)),
          body.CompareIndex(PHAL_KIR_COMPARE_LT, element,
                            body.Index64(input_dims[d])));
      if (w.base_dilation > 1) {
        condition = body.And(
            condition,
            body.CompareIndex(PHAL_KIR_COMPARE_EQ,
                              body.RemainderIndex(position, w.base_dilation),
                              body.Index64(0)));
      }
      inside = inside ? body.And(*inside, condition) : condition;
    }
    for (int64_t i = 0; i < count; ++i) {
      PHAL_ASSIGN_OR_RETURN(uint32_t value,
                            values.Emit(*hero.operand(i), input_index));
      if (inside) {
        PHAL_ASSIGN_OR_RETURN(uint32_t init,
                              values.Emit(*hero.operand(count + i), {}));
        const uint32_t operands[] = {*inside, value, init};
        value = body.Add(PHAL_KIR_OP_SELECT,
                         hero.operand(i)->shape().element_type(), operands);
      }
      body.AddResult(value);
    }
    PHAL_RETURN_IF_ERROR(EmitInit(group, &build, count));
    PHAL_RETURN_IF_ERROR(EmitReducer(hero, &kernel.reducer, count));
    return FinishReduction(group, std::move(build), count, output_dims);
  }

  // What a dot or convolution reads for `operand`: the operand itself or,
  // when the group computes a convert of it, the convert's input.
  const HloInstruction& Source(const FusionGroup& group,
                               const HloInstruction& operand) {
    if (operand.opcode() == HloOpcode::kConvert &&
        group.members.count(&operand)) {
      return *operand.operand(0);
    }
    return operand;
  }

  // A loop kernel writing `operand` (computed with the group's fused
  // convert, if any) transposed so that result dimension i is operand
  // dimension permutation[i]; returns its leaf.
  StatusOr<int> MaterializeTransposed(const FusionGroup& group,
                                      const HloInstruction& operand,
                                      const std::vector<int64_t>& permutation) {
    KernelBuild build = NewKernel(operand, PHAL_KERNEL_KIND_LOOP);
    KirKernel& kernel = *build.kernel;
    for (int64_t d : permutation) kernel.dims.push_back(operand.shape().dim(d));
    std::set<const HloInstruction*> members;
    if (&Source(group, operand) != &operand) members.insert(&operand);
    FusedEmitter emitter(&kernel.body, &members, Inputs(&build));
    const std::vector<uint32_t> index =
        emitter.IterationIndex(kernel.dims.size());
    std::vector<uint32_t> operand_index(index.size());
    for (std::size_t i = 0; i < permutation.size(); ++i) {
      operand_index[static_cast<std::size_t>(permutation[i])] = index[i];
    }
    PHAL_ASSIGN_OR_RETURN(uint32_t node, emitter.Emit(operand, operand_index));
    kernel.body.AddResult(node);
    const Shape shape(operand.shape().element_type(), kernel.dims);
    kernel.outputs.push_back(Output(&build, shape, kernel.dims));
    const int leaf = build.output_leaves[0];
    Finish(std::move(build), {});
    return leaf;
  }

  struct DotOperand {
    uint32_t buffer = 0;
    int64_t strides[3] = {0, 0, 0};
  };

  // Binds a dot operand whose dimensions `outer`, `middle` and `inner` are
  // the [batch, rows, columns] of kernel.h, transposing it first when they
  // are not each one stride apart.
  StatusOr<DotOperand> BindDotOperand(const FusionGroup& group,
                                      KernelBuild* build,
                                      const HloInstruction& operand,
                                      const std::vector<int64_t>& outer,
                                      const std::vector<int64_t>& middle,
                                      const std::vector<int64_t>& inner) {
    const HloInstruction& source = Source(group, operand);
    const std::vector<int64_t>& dims = source.shape().dims();
    std::optional<int64_t> s0 = MergedStride(dims, outer);
    std::optional<int64_t> s1 = MergedStride(dims, middle);
    std::optional<int64_t> s2 = MergedStride(dims, inner);
    DotOperand bound;
    if (s0 && s1 && s2) {
      PHAL_ASSIGN_OR_RETURN(bound.buffer, Inputs(build)(source));
      bound.strides[0] = *s0;
      bound.strides[1] = *s1;
      bound.strides[2] = *s2;
      return bound;
    }
    std::vector<int64_t> permutation = outer;
    permutation.insert(permutation.end(), middle.begin(), middle.end());
    permutation.insert(permutation.end(), inner.begin(), inner.end());
    PHAL_ASSIGN_OR_RETURN(int leaf,
                          MaterializeTransposed(group, operand, permutation));
    std::vector<int64_t> transposed_dims;
    for (int64_t d : permutation) {
      transposed_dims.push_back(operand.shape().dim(d));
    }
    bound.buffer =
        build->Input(leaf, operand.shape().element_type(), transposed_dims);
    const int64_t rows = SizeOf(dims, middle);
    const int64_t columns = SizeOf(dims, inner);
    bound.strides[0] = SizeOf(dims, outer) == 1 ? 0 : rows * columns;
    bound.strides[1] = rows == 1 ? 0 : columns;
    bound.strides[2] = columns == 1 ? 0 : 1;
    return bound;
  }

  // The epilogue of a dot or convolution: parameter 0 (the sum, in the
  // accumulation type) converted to the hero's type, then the group's
  // root computed from it at `index` (the hero's index).
  Status EmitProductEpilogue(const FusionGroup& group, KernelBuild* build,
                             ElementType accumulation,
                             const std::vector<uint32_t>& index) {
    const HloInstruction& hero = *group.hero;
    KirBody& body = build->kernel->body;
    body.set_parameter_count(1);
    uint32_t value = body.Parameter(accumulation, 0);
    if (hero.shape().element_type() != accumulation) {
      const uint32_t operands[] = {value};
      value =
          body.Add(PHAL_KIR_OP_CONVERT, hero.shape().element_type(), operands);
    }
    FusedEmitter emitter(&body, &group.members, Inputs(build));
    emitter.Bind(&hero, value);
    PHAL_ASSIGN_OR_RETURN(uint32_t result, emitter.Emit(*group.root, index));
    body.AddResult(result);
    return OkStatus();
  }

  Status BuildDot(const FusionGroup& group) {
    const HloInstruction& hero = *group.hero;
    const DotDimensionNumbers& numbers = hero.dot_dimension_numbers();
    const HloInstruction& lhs = *hero.operand(0);
    const HloInstruction& rhs = *hero.operand(1);
    const std::vector<int64_t> lhs_free =
        FreeDims(lhs.shape().rank(), numbers.lhs_batch_dimensions,
                 numbers.lhs_contracting_dimensions);
    const std::vector<int64_t> rhs_free =
        FreeDims(rhs.shape().rank(), numbers.rhs_batch_dimensions,
                 numbers.rhs_contracting_dimensions);
    KernelBuild build = NewKernel(*group.root, PHAL_KERNEL_KIND_DOT);
    PHAL_ASSIGN_OR_RETURN(
        DotOperand a,
        BindDotOperand(group, &build, lhs, numbers.lhs_batch_dimensions,
                       lhs_free, numbers.lhs_contracting_dimensions));
    PHAL_ASSIGN_OR_RETURN(
        DotOperand b,
        BindDotOperand(group, &build, rhs, numbers.rhs_batch_dimensions,
                       numbers.rhs_contracting_dimensions, rhs_free));
    phal_kir_dot_t& dot = build.kernel->dot;
    dot.lhs = a.buffer;
    dot.rhs = b.buffer;
    std::copy_n(a.strides, 3, dot.lhs_strides);
    std::copy_n(b.strides, 3, dot.rhs_strides);
    dot.accumulation_type =
        ProductAccumulationType(hero.shape().element_type());
    dot.batch = SizeOf(lhs.shape().dims(), numbers.lhs_batch_dimensions);
    dot.m = SizeOf(lhs.shape().dims(), lhs_free);
    dot.n = SizeOf(rhs.shape().dims(), rhs_free);
    dot.k = SizeOf(lhs.shape().dims(), numbers.lhs_contracting_dimensions);
    const std::vector<int64_t> space = {dot.batch, dot.m, dot.n};
    std::vector<uint32_t> index = {build.kernel->body.Index(0),
                                   build.kernel->body.Index(1),
                                   build.kernel->body.Index(2)};
    index = Reindex(&build.kernel->body, index, space, hero.shape().dims());
    PHAL_RETURN_IF_ERROR(
        EmitProductEpilogue(group, &build, dot.accumulation_type, index));
    dot.output = Output(&build, group.root->shape(), space);
    Finish(std::move(build), {group.root});
    return OkStatus();
  }

  Status BuildConvolution(const FusionGroup& group) {
    const HloInstruction& hero = *group.hero;
    const ConvolutionDimensionNumbers& numbers =
        hero.convolution_dimension_numbers();
    KernelBuild build = NewKernel(*group.root, PHAL_KERNEL_KIND_CONV);
    KirKernel& kernel = *build.kernel;
    phal_kir_conv_t& conv = kernel.conv;
    PHAL_ASSIGN_OR_RETURN(conv.input,
                          Inputs(&build)(Source(group, *hero.operand(0))));
    PHAL_ASSIGN_OR_RETURN(conv.kernel,
                          Inputs(&build)(Source(group, *hero.operand(1))));
    conv.accumulation_type =
        ProductAccumulationType(hero.shape().element_type());
    conv.spatial_count =
        static_cast<uint32_t>(numbers.input_spatial_dimensions.size());
    conv.input_batch_dimension = numbers.input_batch_dimension;
    conv.input_feature_dimension = numbers.input_feature_dimension;
    conv.kernel_input_feature_dimension =
        numbers.kernel_input_feature_dimension;
    conv.kernel_output_feature_dimension =
        numbers.kernel_output_feature_dimension;
    conv.output_batch_dimension = numbers.output_batch_dimension;
    conv.output_feature_dimension = numbers.output_feature_dimension;
    conv.feature_group_count = hero.feature_group_count();
    conv.batch_group_count = hero.batch_group_count();
    std::vector<int64_t> strides, padding, lhs_dilation, rhs_dilation;
    for (const WindowDimension& w : hero.window().dimensions) {
      strides.push_back(w.stride);
      padding.push_back(w.padding_low);
      padding.push_back(w.padding_high);
      lhs_dilation.push_back(w.base_dilation);
      rhs_dilation.push_back(w.window_dilation);
      kernel.window_reversal.push_back(w.window_reversal ? 1 : 0);
    }
    kernel.arrays = {numbers.input_spatial_dimensions,
                     numbers.kernel_spatial_dimensions,
                     numbers.output_spatial_dimensions,
                     strides,
                     padding,
                     lhs_dilation,
                     rhs_dilation};
    std::vector<uint32_t> index;
    for (int64_t d = 0; d < hero.shape().rank(); ++d) {
      index.push_back(kernel.body.Index(d));
    }
    PHAL_RETURN_IF_ERROR(
        EmitProductEpilogue(group, &build, conv.accumulation_type, index));
    conv.output = Output(&build, group.root->shape(), hero.shape().dims());
    Finish(std::move(build), {group.root});
    return OkStatus();
  }

  Status BuildGather(const FusionGroup& group) {
    const HloInstruction& hero = *group.hero;
    const GatherDimensionNumbers& numbers = hero.gather_dimension_numbers();
    KernelBuild build = NewKernel(hero, PHAL_KERNEL_KIND_GATHER);
    KirKernel& kernel = *build.kernel;
    phal_kir_gather_t& gather = kernel.gather;
    PHAL_ASSIGN_OR_RETURN(gather.operand, Inputs(&build)(*hero.operand(0)));
    PHAL_ASSIGN_OR_RETURN(gather.start_indices,
                          Inputs(&build)(*hero.operand(1)));
    gather.offset_dims_count =
        static_cast<uint32_t>(numbers.offset_dims.size());
    gather.collapsed_slice_dims_count =
        static_cast<uint32_t>(numbers.collapsed_slice_dims.size());
    gather.start_index_map_count =
        static_cast<uint32_t>(numbers.start_index_map.size());
    gather.operand_batching_dims_count =
        static_cast<uint32_t>(numbers.operand_batching_dims.size());
    gather.start_indices_batching_dims_count =
        static_cast<uint32_t>(numbers.start_indices_batching_dims.size());
    gather.index_vector_dim = numbers.index_vector_dim;
    kernel.arrays = {numbers.offset_dims,
                     numbers.collapsed_slice_dims,
                     numbers.start_index_map,
                     numbers.operand_batching_dims,
                     numbers.start_indices_batching_dims,
                     hero.gather_slice_sizes()};
    gather.output = Output(&build, hero.shape(), hero.shape().dims());
    Finish(std::move(build), {&hero});
    return OkStatus();
  }

  Status BuildScatter(const FusionGroup& group) {
    const HloInstruction& hero = *group.hero;
    if (hero.operand_count() != 3) {
      return Unimplemented("scatter of several operands (instruction %" +
                           hero.name() + ")");
    }
    const ScatterDimensionNumbers& numbers = hero.scatter_dimension_numbers();
    KernelBuild build = NewKernel(hero, PHAL_KERNEL_KIND_SCATTER);
    KirKernel& kernel = *build.kernel;
    phal_kir_scatter_t& scatter = kernel.scatter;
    PHAL_ASSIGN_OR_RETURN(scatter.operand, Inputs(&build)(*hero.operand(0)));
    PHAL_ASSIGN_OR_RETURN(scatter.scatter_indices,
                          Inputs(&build)(*hero.operand(1)));
    PHAL_ASSIGN_OR_RETURN(scatter.updates, Inputs(&build)(*hero.operand(2)));
    scatter.update_window_dims_count =
        static_cast<uint32_t>(numbers.update_window_dims.size());
    scatter.inserted_window_dims_count =
        static_cast<uint32_t>(numbers.inserted_window_dims.size());
    scatter.scatter_dims_to_operand_dims_count =
        static_cast<uint32_t>(numbers.scatter_dims_to_operand_dims.size());
    scatter.input_batching_dims_count =
        static_cast<uint32_t>(numbers.input_batching_dims.size());
    scatter.scatter_indices_batching_dims_count =
        static_cast<uint32_t>(numbers.scatter_indices_batching_dims.size());
    scatter.unique_indices = hero.unique_indices() ? 1 : 0;
    scatter.index_vector_dim = numbers.index_vector_dim;
    kernel.arrays = {numbers.update_window_dims, numbers.inserted_window_dims,
                     numbers.scatter_dims_to_operand_dims,
                     numbers.input_batching_dims,
                     numbers.scatter_indices_batching_dims};
    const ElementType type = hero.shape().element_type();
    KirBody& combiner = kernel.reducer;
    combiner.set_parameter_count(2);
    PHAL_ASSIGN_OR_RETURN(std::vector<uint32_t> results,
                          EmitScalarComputation(&combiner, *hero.to_apply(),
                                                {combiner.Parameter(type, 0),
                                                 combiner.Parameter(type, 1)}));
    combiner.AddResult(results[0]);
    scatter.output = Output(&build, hero.shape(), hero.shape().dims());
    Finish(std::move(build), {&hero});
    return OkStatus();
  }

  Status BuildSort(const FusionGroup& group) {
    const HloInstruction& hero = *group.hero;
    KernelBuild build = NewKernel(hero, PHAL_KERNEL_KIND_SORT);
    KirKernel& kernel = *build.kernel;
    kernel.sort.dimension = hero.dimensions()[0];
    kernel.sort.is_stable = hero.is_stable() ? 1 : 0;
    std::vector<uint32_t> parameters;
    for (int64_t i = 0; i < hero.operand_count(); ++i) {
      const HloInstruction& operand = *hero.operand(i);
      PHAL_ASSIGN_OR_RETURN(uint32_t buffer, Inputs(&build)(operand));
      kernel.operands.push_back(buffer);
      for (int64_t side = 0; side < 2; ++side) {
        parameters.push_back(kernel.reducer.Parameter(
            operand.shape().element_type(), 2 * i + side));
      }
    }
    kernel.reducer.set_parameter_count(
        static_cast<uint32_t>(parameters.size()));
    PHAL_ASSIGN_OR_RETURN(
        std::vector<uint32_t> results,
        EmitScalarComputation(&kernel.reducer, *hero.to_apply(), parameters));
    kernel.reducer.AddResult(results[0]);
    for (int64_t i = 0; i < hero.operand_count(); ++i) {
      const Shape& shape = hero.operand(i)->shape();
      kernel.outputs.push_back(Output(&build, shape, shape.dims()));
    }
    Finish(std::move(build), {&hero});
    return OkStatus();
  }

  // An fft left whole by the decomposition (CompilerOptions::fft_kernels):
  // one FFT kernel from the operand's buffer into the result's.
  Status BuildFft(const FusionGroup& group) {
    const HloInstruction& hero = *group.hero;
    KernelBuild build = NewKernel(hero, PHAL_KERNEL_KIND_FFT);
    KirKernel& kernel = *build.kernel;
    PHAL_ASSIGN_OR_RETURN(kernel.fft.input, Inputs(&build)(*hero.operand(0)));
    kernel.fft.fft_type = KirFftType(hero.fft_type());
    kernel.arrays[KirKernel::kFftLength] = hero.fft_length();
    kernel.fft.output = Output(&build, hero.shape(), hero.shape().dims());
    Finish(std::move(build), {&hero});
    return OkStatus();
  }

  // A linear-algebra op left whole by the expansion
  // (CompilerOptions::linalg_kernels): one LINALG kernel from its operands'
  // buffers into one buffer per result.
  Status BuildLinalg(const FusionGroup& group) {
    const HloInstruction& hero = *group.hero;
    KernelBuild build = NewKernel(hero, PHAL_KERNEL_KIND_LINALG);
    phal_kir_linalg_t& linalg = build.kernel->linalg;
    PHAL_ASSIGN_OR_RETURN(linalg.op, KirLinalgOp(hero));
    const LinearAlgebraOptions& options = hero.linear_algebra();
    const bool triangular = hero.opcode() == HloOpcode::kTriangularSolve;
    const bool lower_read = hero.opcode() == HloOpcode::kCholesky ||
                            triangular || hero.opcode() == HloOpcode::kEigh;
    linalg.flags =
        (lower_read && options.lower ? PHAL_KIR_LINALG_LOWER : 0u) |
        (triangular && options.left_side ? PHAL_KIR_LINALG_LEFT_SIDE : 0u) |
        (triangular && options.unit_diagonal ? PHAL_KIR_LINALG_UNIT_DIAGONAL
                                             : 0u) |
        (hero.opcode() == HloOpcode::kSvd && options.full_matrices
             ? PHAL_KIR_LINALG_FULL_MATRICES
             : 0u);
    linalg.transpose_a = triangular ? KirTranspose(options.transpose_a)
                                    : PHAL_KIR_TRANSPOSE_NONE;
    linalg.operand_count = static_cast<uint32_t>(hero.operand_count());
    for (int64_t i = 0; i < hero.operand_count(); ++i) {
      PHAL_ASSIGN_OR_RETURN(linalg.operands[i],
                            Inputs(&build)(*hero.operand(i)));
    }
    const std::vector<Shape> results = hero.shape().IsTuple()
                                           ? hero.shape().tuple_shapes()
                                           : std::vector<Shape>{hero.shape()};
    linalg.result_count = static_cast<uint32_t>(results.size());
    for (std::size_t i = 0; i < results.size(); ++i) {
      linalg.results[i] = Output(&build, results[i], results[i].dims());
    }
    Finish(std::move(build), {&hero});
    return OkStatus();
  }

  static StatusOr<phal_kir_linalg_op_t> KirLinalgOp(
      const HloInstruction& hero) {
    switch (hero.opcode()) {
      case HloOpcode::kCholesky:
        return PHAL_KIR_LINALG_CHOLESKY;
      case HloOpcode::kTriangularSolve:
        return PHAL_KIR_LINALG_TRIANGULAR_SOLVE;
      case HloOpcode::kLu:
        return PHAL_KIR_LINALG_LU;
      case HloOpcode::kQr:
        return PHAL_KIR_LINALG_QR;
      case HloOpcode::kHouseholderProduct:
        return PHAL_KIR_LINALG_HOUSEHOLDER_PRODUCT;
      case HloOpcode::kEigh:
        return PHAL_KIR_LINALG_EIGH;
      case HloOpcode::kSvd:
        return PHAL_KIR_LINALG_SVD;
      default:
        return Internal(std::string(HloOpcodeName(hero.opcode())) +
                        " (instruction %" + hero.name() +
                        ") has no kernel kind");
    }
  }

  static phal_kir_transpose_t KirTranspose(TriangularSolveTranspose value) {
    switch (value) {
      case TriangularSolveTranspose::kNone:
        return PHAL_KIR_TRANSPOSE_NONE;
      case TriangularSolveTranspose::kTranspose:
        return PHAL_KIR_TRANSPOSE_TRANSPOSE;
      case TriangularSolveTranspose::kAdjoint:
        return PHAL_KIR_TRANSPOSE_ADJOINT;
    }
    return PHAL_KIR_TRANSPOSE_NONE;
  }

  static phal_kir_fft_type_t KirFftType(FftType type) {
    switch (type) {
      case FftType::kFft:
        return PHAL_KIR_FFT_TYPE_FFT;
      case FftType::kIfft:
        return PHAL_KIR_FFT_TYPE_IFFT;
      case FftType::kRfft:
        return PHAL_KIR_FFT_TYPE_RFFT;
      case FftType::kIrfft:
        return PHAL_KIR_FFT_TYPE_IRFFT;
    }
    return PHAL_KIR_FFT_TYPE_FFT;
  }

  const HloModule& module_;
  const std::map<std::string, int64_t>& trip_counts_;
  Program program_;
  std::unordered_map<const HloComputation*, int> computation_index_;
  std::set<std::string> kernel_names_;
  // State of the computation being built.
  ComputationPlan plan_;
  std::unordered_map<const HloInstruction*, std::vector<int>> leaves_;
  std::set<const HloInstruction*> aliases_;
};

}  // namespace

StatusOr<Program> Partition(const HloModule& module,
                            const std::map<std::string, int64_t>& trip_counts) {
  return Partitioner(module, trip_counts).Run();
}

}  // namespace phal
