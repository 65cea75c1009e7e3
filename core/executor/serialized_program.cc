#include "core/executor/serialized_program.h"

#include <cstring>
#include <limits>
#include <set>
#include <utility>

#include "core/frontend/hlo_parser.h"
#include "core/hlo/printer.h"
#include "core/hlo/verifier.h"
#include "polyhal/runtime.h"
#include "sdk/base/byte_codec.h"
#include "sdk/base/element_types.h"
#include "sdk/base/hash.h"

namespace phal {
namespace {

constexpr std::string_view kMagic(PHAL_SERIALIZED_EXECUTABLE_MAGIC,
                                  sizeof(PHAL_SERIALIZED_EXECUTABLE_MAGIC) - 1);
static_assert(kMagic.size() == 8, "the magic is 8 bytes");

// Bytes that cannot be a whole, unchanged serialized executable.
Status DataLoss(const std::string& message) {
  return Status(PHAL_DATA_LOSS, message);
}

// ---- writing ----------------------------------------------------------------

// The byte codec (sdk/base/byte_codec.h) with the lists and shapes of a
// plan.
class Writer {
 public:
  void U32(uint32_t value) { out_.AddU32(value); }
  void I32(int32_t value) { out_.AddInteger(value); }
  void U64(uint64_t value) { out_.AddU64(value); }
  void I64(int64_t value) { out_.AddI64(value); }
  void Bytes(std::string_view bytes) { out_.AddString(bytes); }
  void Header() { out_.AddHeader(kMagic, kSerializedProgramFormatVersion); }
  template <typename T, typename Write>
  void List(const std::vector<T>& items, Write write) {
    U64(items.size());
    for (const T& item : items) write(item);
  }
  void Ints(const std::vector<int>& values) {
    List(values, [&](int value) { I32(value); });
  }
  void Shape(const phal::Shape& shape) {
    U32(static_cast<uint32_t>(shape.element_type()));
    List(shape.dims(), [&](int64_t dim) { I64(dim); });
  }
  std::string Take() { return out_.Take(); }
  const std::string& bytes() const { return out_.bytes(); }

 private:
  ByteWriter out_;
};

void WriteStep(Writer& out, const Step& step) {
  out.U32(static_cast<uint32_t>(step.kind));
  out.I32(step.kernel);
  out.Ints(step.buffers);
  out.Ints(step.computations);
  out.I32(step.selector);
  out.U32(static_cast<uint32_t>(step.selector_type));
  out.List(step.operands,
           [&](const std::vector<int>& list) { out.Ints(list); });
  out.Ints(step.outputs);
  out.I64(step.trip_count);
  out.I32(step.process_op);
  out.I32(step.offload);
}

void WritePlan(Writer& out, const ComputationPlan& plan) {
  out.Bytes(plan.name);
  out.I32(plan.parameter_leaf_count);
  out.List(plan.leaf_shapes, [&](const Shape& shape) { out.Shape(shape); });
  out.Ints(plan.leaf_constant);
  out.Ints(plan.leaf_slot);
  out.Ints(plan.leaf_parameter);
  out.List(plan.slot_bytes, [&](int64_t bytes) { out.I64(bytes); });
  out.List(plan.steps, [&](const Step& step) { WriteStep(out, step); });
  out.Ints(plan.result_leaves);
}

// ---- reading ----------------------------------------------------------------

// Reads from a byte range, failing (DATA_LOSS) instead of reading past its
// end; a list's count is checked against the bytes left before anything is
// allocated for it.
class Reader {
 public:
  explicit Reader(std::string_view bytes) : in_(bytes), size_(bytes.size()) {}

  Status U32(uint32_t* out) { return Check(in_.ReadU32(out), "an integer"); }
  Status I32(int32_t* out) { return Check(in_.ReadInteger(out), "an integer"); }
  Status U64(uint64_t* out) { return Check(in_.ReadU64(out), "an integer"); }
  Status I64(int64_t* out) { return Check(in_.ReadI64(out), "an integer"); }
  Status Int(int* out) {
    int32_t value = 0;
    PHAL_RETURN_IF_ERROR(I32(&value));
    *out = value;
    return OkStatus();
  }
  Status Bytes(std::string* out, const char* what) {
    std::string_view bytes;
    PHAL_RETURN_IF_ERROR(Check(in_.ReadString(&bytes), what));
    out->assign(bytes);
    return OkStatus();
  }
  // Reads a count of elements of at least `element_bytes` bytes each.
  Status Count(size_t element_bytes, size_t* out, const char* what) {
    uint64_t count = 0;
    PHAL_RETURN_IF_ERROR(U64(&count));
    if (count > Left() / element_bytes) return Check(false, what);
    *out = static_cast<size_t>(count);
    return OkStatus();
  }
  template <typename T, typename Read>
  Status List(std::vector<T>* out, size_t element_bytes, const char* what,
              Read read) {
    size_t count = 0;
    PHAL_RETURN_IF_ERROR(Count(element_bytes, &count, what));
    out->resize(count);
    for (T& item : *out) PHAL_RETURN_IF_ERROR(read(&item));
    return OkStatus();
  }
  Status Ints(std::vector<int>* out, const char* what) {
    return List(out, 4, what, [&](int* value) { return Int(value); });
  }
  Status ReadShape(Shape* out) {
    uint32_t type = 0;
    PHAL_RETURN_IF_ERROR(U32(&type));
    if (ElementTypeByteSize(type) == 0) {
      return DataLoss("element type " + std::to_string(type) +
                      " is not one of the ABI's");
    }
    std::vector<int64_t> dims;
    PHAL_RETURN_IF_ERROR(
        List(&dims, 8, "dims", [&](int64_t* dim) { return I64(dim); }));
    // The element count must fit in memory the writer could have had.
    const uint64_t limit =
        std::numeric_limits<int64_t>::max() / ElementTypeByteSize(type);
    uint64_t elements = 1;
    for (int64_t dim : dims) {
      if (dim < 0) return DataLoss("a shape has a negative dimension");
      if (dim != 0 && elements > limit / static_cast<uint64_t>(dim)) {
        return DataLoss("a shape's size overflows");
      }
      elements *= static_cast<uint64_t>(dim);
    }
    *out = Shape(static_cast<ElementType>(type), std::move(dims));
    return OkStatus();
  }
  size_t Left() const { return in_.remaining(); }

 private:
  Status Check(bool read, const char* what) const {
    if (read) return OkStatus();
    return DataLoss(std::string("truncated: the bytes end inside ") + what +
                    " at offset " + std::to_string(size_ - Left()));
  }

  ByteReader in_;
  size_t size_;
};

Status ReadStep(Reader& in, Step* step) {
  uint32_t kind = 0;
  PHAL_RETURN_IF_ERROR(in.U32(&kind));
  if (kind > static_cast<uint32_t>(StepKind::kProcessOp)) {
    return DataLoss("step kind " + std::to_string(kind) + " is unknown");
  }
  step->kind = static_cast<StepKind>(kind);
  PHAL_RETURN_IF_ERROR(in.Int(&step->kernel));
  PHAL_RETURN_IF_ERROR(in.Ints(&step->buffers, "a step's buffers"));
  PHAL_RETURN_IF_ERROR(in.Ints(&step->computations, "a step's computations"));
  PHAL_RETURN_IF_ERROR(in.Int(&step->selector));
  uint32_t selector_type = 0;
  PHAL_RETURN_IF_ERROR(in.U32(&selector_type));
  step->selector_type = static_cast<phal_element_type_t>(selector_type);
  PHAL_RETURN_IF_ERROR(in.List(
      &step->operands, 8, "a step's operands",
      [&](std::vector<int>* list) { return in.Ints(list, "operands"); }));
  PHAL_RETURN_IF_ERROR(in.Ints(&step->outputs, "a step's outputs"));
  PHAL_RETURN_IF_ERROR(in.I64(&step->trip_count));
  if (step->trip_count < -1) {
    return DataLoss("a loop's trip count " + std::to_string(step->trip_count) +
                    " is negative");
  }
  PHAL_RETURN_IF_ERROR(in.Int(&step->process_op));
  return in.Int(&step->offload);
}

Status ReadPlan(Reader& in, ComputationPlan* plan) {
  PHAL_RETURN_IF_ERROR(in.Bytes(&plan->name, "a computation's name"));
  PHAL_RETURN_IF_ERROR(in.Int(&plan->parameter_leaf_count));
  PHAL_RETURN_IF_ERROR(
      in.List(&plan->leaf_shapes, 12, "leaf shapes",
              [&](Shape* shape) { return in.ReadShape(shape); }));
  PHAL_RETURN_IF_ERROR(in.Ints(&plan->leaf_constant, "leaf constants"));
  PHAL_RETURN_IF_ERROR(in.Ints(&plan->leaf_slot, "leaf slots"));
  PHAL_RETURN_IF_ERROR(in.Ints(&plan->leaf_parameter, "leaf parameters"));
  PHAL_RETURN_IF_ERROR(in.List(&plan->slot_bytes, 8, "slot sizes",
                               [&](int64_t* bytes) { return in.I64(bytes); }));
  PHAL_RETURN_IF_ERROR(in.List(&plan->steps, 48, "steps",
                               [&](Step* step) { return ReadStep(in, step); }));
  return in.Ints(&plan->result_leaves, "result leaves");
}

Status ReadConstant(Reader& in, Literal* out) {
  Shape shape;
  PHAL_RETURN_IF_ERROR(in.ReadShape(&shape));
  std::string data;
  PHAL_RETURN_IF_ERROR(in.Bytes(&data, "a constant"));
  if (static_cast<int64_t>(data.size()) != shape.ByteSize()) {
    return DataLoss("a constant of " + shape.ToString() + " holds " +
                    std::to_string(data.size()) + " bytes");
  }
  *out = Literal(shape);
  std::memcpy(out->data(), data.data(), data.size());
  return OkStatus();
}

// The arrays of `shape`, tuples flattened.
size_t LeafCount(const Shape& shape) {
  if (!shape.IsTuple()) return 1;
  size_t count = 0;
  for (const Shape& element : shape.tuple_shapes()) count += LeafCount(element);
  return count;
}

// A process op's module from its HLO text, on the program's grid.
Status ReadProcessOp(Reader& in, const Program& program,
                     std::shared_ptr<const HloModule>* out) {
  std::string text;
  PHAL_RETURN_IF_ERROR(in.Bytes(&text, "a process op"));
  StatusOr<std::unique_ptr<HloModule>> op =
      ParseHloText(text, "<serialized process op>");
  if (op.ok()) {
    const Status verified = VerifyModule(**op);
    if (!verified.ok()) op = verified;
  }
  if (!op.ok()) {
    return DataLoss("corrupt plan: a process op does not read back: " +
                    op.status().message());
  }
  if ((*op)->replica_count() != program.replica_count ||
      (*op)->num_partitions() != program.num_partitions) {
    return DataLoss("corrupt plan: process op '" + (*op)->name() +
                    "' is for another process grid");
  }
  *out = std::move(*op);
  return OkStatus();
}

// ---- checking the plan ------------------------------------------------------

// Checks every index the executor follows in `program`, with `kernels`
// kernels, so a plan that passed the checksum but does not hold together
// is refused before it runs.
class PlanChecker {
 public:
  PlanChecker(const Program& program, size_t kernels)
      : program_(program), kernels_(kernels) {}

  Status Check() const {
    const auto computations = program_.computations.size();
    if (program_.entry < 0 ||
        static_cast<size_t>(program_.entry) >= computations) {
      return Bad("the entry computation " + std::to_string(program_.entry) +
                 " does not exist");
    }
    for (size_t i = 0; i < computations; ++i) {
      PHAL_RETURN_IF_ERROR(CheckPlan(program_.computations[i]));
    }
    const ComputationPlan& entry =
        program_.computations[static_cast<size_t>(program_.entry)];
    if (static_cast<size_t>(entry.parameter_leaf_count) !=
            program_.parameter_shapes.size() ||
        entry.result_leaves.size() != program_.result_shapes.size()) {
      return Bad(
          "the entry computation's parameters or results do not match "
          "the executable's");
    }
    return OkStatus();
  }

 private:
  static Status Bad(const std::string& what) {
    return DataLoss("corrupt plan: " + what);
  }

  bool IsComputation(int index) const {
    return index >= 0 &&
           static_cast<size_t>(index) < program_.computations.size();
  }
  const ComputationPlan& Computation(int index) const {
    return program_.computations[static_cast<size_t>(index)];
  }

  Status CheckLeaves(const ComputationPlan& plan) const {
    const size_t leaves = plan.leaf_shapes.size();
    if (plan.parameter_leaf_count < 0 ||
        static_cast<size_t>(plan.parameter_leaf_count) > leaves ||
        plan.leaf_constant.size() != leaves ||
        plan.leaf_slot.size() != leaves ||
        (!plan.leaf_parameter.empty() &&
         plan.leaf_parameter.size() != leaves)) {
      return Bad("computation '" + plan.name + "' has inconsistent leaves");
    }
    for (int parameter : plan.leaf_parameter) {
      if (parameter < -1 || parameter >= plan.parameter_leaf_count) {
        return Bad("a leaf of '" + plan.name + "' names a missing parameter");
      }
    }
    for (size_t leaf = 0; leaf < leaves; ++leaf) {
      const int constant = plan.leaf_constant[leaf];
      const int slot = plan.leaf_slot[leaf];
      const int64_t bytes = plan.leaf_shapes[leaf].ByteSize();
      if (constant >= 0 &&
          (static_cast<size_t>(constant) >= program_.constants.size() ||
           static_cast<int64_t>(
               program_.constants[static_cast<size_t>(constant)].byte_size()) <
               bytes)) {
        return Bad("a leaf of '" + plan.name + "' names a missing constant");
      }
      if (slot >= 0 && (static_cast<size_t>(slot) >= plan.slot_bytes.size() ||
                        plan.slot_bytes[static_cast<size_t>(slot)] < bytes)) {
        return Bad("a leaf of '" + plan.name + "' names a missing slot");
      }
    }
    return OkStatus();
  }

  // Leaves are defined before they are used: parameters, constants and
  // slots from the start, the outputs of nested computations by their step.
  Status CheckSteps(const ComputationPlan& plan) const {
    const size_t leaves = plan.leaf_shapes.size();
    std::vector<bool> defined(leaves, false);
    for (size_t leaf = 0; leaf < leaves; ++leaf) {
      defined[leaf] =
          static_cast<int>(leaf) < plan.parameter_leaf_count ||
          plan.leaf_constant[leaf] >= 0 || plan.leaf_slot[leaf] >= 0 ||
          (!plan.leaf_parameter.empty() && plan.leaf_parameter[leaf] >= 0);
    }
    auto uses = [&](const std::vector<int>& list) {
      for (int leaf : list) {
        if (leaf < 0 || static_cast<size_t>(leaf) >= leaves ||
            !defined[static_cast<size_t>(leaf)]) {
          return false;
        }
      }
      return true;
    };
    for (const Step& step : plan.steps) {
      PHAL_RETURN_IF_ERROR(CheckStep(plan, step, uses));
      for (int leaf : step.outputs) {
        if (leaf < 0 || static_cast<size_t>(leaf) >= leaves) {
          return Bad("a step of '" + plan.name + "' defines a missing leaf");
        }
        defined[static_cast<size_t>(leaf)] = true;
      }
    }
    if (!uses(plan.result_leaves)) {
      return Bad("a result of '" + plan.name + "' is never defined");
    }
    return OkStatus();
  }

  // A nested computation takes `operands` and yields `outputs` leaves.
  bool Fits(int computation, size_t operands, size_t outputs) const {
    if (!IsComputation(computation)) return false;
    const ComputationPlan& callee = Computation(computation);
    return static_cast<size_t>(callee.parameter_leaf_count) == operands &&
           callee.result_leaves.size() >= outputs;
  }

  template <typename Uses>
  Status CheckStep(const ComputationPlan& plan, const Step& step,
                   const Uses& uses) const {
    const std::string where = "a step of '" + plan.name + "'";
    for (const std::vector<int>& list : step.operands) {
      if (!uses(list)) return Bad(where + " uses an undefined leaf");
    }
    switch (step.kind) {
      case StepKind::kKernel:
        if (step.kernel < 0 || static_cast<size_t>(step.kernel) >= kernels_ ||
            !uses(step.buffers)) {
          return Bad(where + " launches a missing kernel or leaf");
        }
        return OkStatus();
      case StepKind::kWhile: {
        if (step.computations.size() != 2 || step.operands.size() != 1) break;
        const size_t state = step.operands[0].size();
        if (Fits(step.computations[0], state, 1) &&
            Fits(step.computations[1], state, state) &&
            step.outputs.size() <= state) {
          return OkStatus();
        }
        break;
      }
      case StepKind::kConditional: {
        if (step.computations.empty() ||
            step.computations.size() != step.operands.size() ||
            !uses({step.selector})) {
          break;
        }
        bool fits = true;
        for (size_t b = 0; b < step.computations.size(); ++b) {
          fits &= Fits(step.computations[b], step.operands[b].size(),
                       step.outputs.size());
        }
        if (fits) return OkStatus();
        break;
      }
      case StepKind::kProcessOp: {
        if (step.process_op < 0 ||
            static_cast<size_t>(step.process_op) >=
                program_.process_ops.size() ||
            step.operands.size() != 1) {
          return Bad(where + " runs a missing process op");
        }
        const HloComputation& op =
            *program_.process_ops[static_cast<size_t>(step.process_op)]
                 ->entry_computation();
        if (static_cast<size_t>(op.num_parameters()) !=
                step.operands[0].size() ||
            LeafCount(op.ResultShape()) != step.outputs.size()) {
          return Bad(where + " does not fit its process op");
        }
        return OkStatus();
      }
      case StepKind::kCall:
        if (step.offload != -1 &&
            (step.offload < 0 ||
             static_cast<size_t>(step.offload) >= program_.offloads.size() ||
             step.computations.size() != 1 ||
             program_.offloads[static_cast<size_t>(step.offload)].computation !=
                 step.computations[0])) {
          return Bad(where + " names a missing offloaded part");
        }
        if (step.computations.size() == 1 && step.operands.size() == 1 &&
            Fits(step.computations[0], step.operands[0].size(),
                 step.outputs.size())) {
          return OkStatus();
        }
        break;
    }
    return Bad(where + " calls computations that do not fit it");
  }

  Status CheckPlan(const ComputationPlan& plan) const {
    PHAL_RETURN_IF_ERROR(CheckLeaves(plan));
    return CheckSteps(plan);
  }

  const Program& program_;
  size_t kernels_;
};

}  // namespace

std::string WriteSerializedProgram(
    const SerializedProgramHeader& header, const Program& program,
    const std::vector<SerializedKernel>& kernels) {
  Writer out;
  out.Header();
  out.Bytes(header.plugin);
  out.Bytes(header.plugin_version);
  out.Bytes(header.target);
  out.Bytes(header.device);
  out.I32(program.entry);
  out.I64(program.replica_count);
  out.I64(program.num_partitions);
  out.List(program.parameter_shapes,
           [&](const Shape& shape) { out.Shape(shape); });
  out.List(program.result_shapes,
           [&](const Shape& shape) { out.Shape(shape); });
  out.List(program.constants, [&](const Literal& constant) {
    out.Shape(constant.shape());
    out.Bytes(std::string_view(reinterpret_cast<const char*>(constant.data()),
                               constant.byte_size()));
  });
  out.List(program.process_ops,
           [&](const std::shared_ptr<const HloModule>& op) {
             out.Bytes(HloModuleToText(*op));
           });
  out.List(program.offloads, [&](const OffloadedPart& part) {
    out.Bytes(part.name);
    out.I32(part.computation);
  });
  out.List(program.computations,
           [&](const ComputationPlan& plan) { WritePlan(out, plan); });
  out.List(kernels, [&](const SerializedKernel& kernel) {
    out.Bytes(kernel.name);
    out.Bytes(kernel.bytes);
  });
  out.U64(Fnv1a(out.bytes()));
  return out.Take();
}

StatusOr<SerializedProgram> ReadSerializedProgram(std::string_view bytes) {
  if (bytes.size() < kMagic.size() ||
      bytes.substr(0, kMagic.size()) != kMagic) {
    return InvalidArgument("not a serialized executable (no " +
                           std::string(kMagic) + " magic at its start)");
  }
  Reader in(bytes.substr(kMagic.size()));
  uint32_t version = 0;
  PHAL_RETURN_IF_ERROR(in.U32(&version));
  if (version != kSerializedProgramFormatVersion) {
    return FailedPrecondition("serialized executable of format version " +
                              std::to_string(version) +
                              "; this libpolyhal reads version " +
                              std::to_string(kSerializedProgramFormatVersion));
  }
  if (bytes.size() < kMagic.size() + 4 + 8) {
    return DataLoss("truncated: the bytes end before the checksum");
  }
  const std::string_view body = bytes.substr(0, bytes.size() - 8);
  Reader checksum_reader(bytes.substr(body.size()));
  uint64_t checksum = 0;
  PHAL_RETURN_IF_ERROR(checksum_reader.U64(&checksum));
  if (checksum != Fnv1a(body)) {
    return DataLoss(
        "corrupt: the checksum does not match the bytes (truncated, or "
        "changed after it was written)");
  }
  in = Reader(body.substr(kMagic.size() + 4));
  SerializedProgram result;
  SerializedProgramHeader& header = result.header;
  PHAL_RETURN_IF_ERROR(in.Bytes(&header.plugin, "the plugin name"));
  PHAL_RETURN_IF_ERROR(in.Bytes(&header.plugin_version, "the plugin release"));
  PHAL_RETURN_IF_ERROR(in.Bytes(&header.target, "the target"));
  PHAL_RETURN_IF_ERROR(in.Bytes(&header.device, "the device name"));
  auto program = std::make_unique<Program>();
  PHAL_RETURN_IF_ERROR(in.Int(&program->entry));
  PHAL_RETURN_IF_ERROR(in.I64(&program->replica_count));
  PHAL_RETURN_IF_ERROR(in.I64(&program->num_partitions));
  if (program->replica_count < 1 || program->num_partitions < 1) {
    return DataLoss("corrupt plan: a process grid of " +
                    std::to_string(program->replica_count) + " x " +
                    std::to_string(program->num_partitions));
  }
  auto read_shape = [&](Shape* shape) { return in.ReadShape(shape); };
  PHAL_RETURN_IF_ERROR(
      in.List(&program->parameter_shapes, 12, "parameter shapes", read_shape));
  PHAL_RETURN_IF_ERROR(
      in.List(&program->result_shapes, 12, "result shapes", read_shape));
  PHAL_RETURN_IF_ERROR(
      in.List(&program->constants, 20, "constants",
              [&](Literal* constant) { return ReadConstant(in, constant); }));
  PHAL_RETURN_IF_ERROR(in.List(&program->process_ops, 8, "process ops",
                               [&](std::shared_ptr<const HloModule>* op) {
                                 return ReadProcessOp(in, *program, op);
                               }));
  PHAL_RETURN_IF_ERROR(in.List(
      &program->offloads, 12, "offloaded parts", [&](OffloadedPart* part) {
        PHAL_RETURN_IF_ERROR(in.Bytes(&part->name, "a part's name"));
        return in.Int(&part->computation);
      }));
  PHAL_RETURN_IF_ERROR(
      in.List(&program->computations, 60, "computations",
              [&](ComputationPlan* plan) { return ReadPlan(in, plan); }));
  PHAL_RETURN_IF_ERROR(
      in.List(&result.kernels, 16, "kernels", [&](SerializedKernel* kernel) {
        PHAL_RETURN_IF_ERROR(in.Bytes(&kernel->name, "a kernel name"));
        return in.Bytes(&kernel->bytes, "a kernel");
      }));
  if (in.Left() != 0) {
    return DataLoss(std::to_string(in.Left()) +
                    " bytes follow the last kernel");
  }
  // The plan's kernels, then one entry per offloaded part (empty where the
  // plugin declined it).
  if (result.kernels.size() < program->offloads.size()) {
    return DataLoss("corrupt plan: " + std::to_string(result.kernels.size()) +
                    " kernels for " + std::to_string(program->offloads.size()) +
                    " offloaded parts");
  }
  PHAL_RETURN_IF_ERROR(
      PlanChecker(*program, result.kernels.size() - program->offloads.size())
          .Check());
  result.program = std::move(program);
  return result;
}

}  // namespace phal
