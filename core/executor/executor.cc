#include "core/executor/executor.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "core/abi/c_status.h"
#include "core/abi/stream_wait.h"
#include "core/executor/device_collectives.h"
#include "core/executor/program_offer.h"
#include "core/loader/host_services.h"
#include "core/loader/plugin_library.h"
#include "core/reference/collective_rendezvous.h"
#include "core/reference/interpreter.h"
#include "core/reference/spmd_process.h"

namespace phal {

namespace {

// Threads that emit one program's kernels at once, at most.
constexpr std::size_t kMaxEmitThreads = 8;

StatusOr<phal_plugin_buffer_t*> Allocate(const phal_plugin_api_t* api,
                                         phal_plugin_device_t* device,
                                         int64_t bytes) {
  phal_plugin_buffer_t* buffer = nullptr;
  PHAL_RETURN_IF_ERROR(TakeCStatus(
      api->buffer_allocate(device, 0, static_cast<uint64_t>(bytes), &buffer)));
  return buffer;
}

}  // namespace

// One run of a loaded program: its stream, and the device buffers it
// allocated, which later steps of the run reuse and which are freed only
// after a stream synchronisation has proven that no queued work uses them
// any more.
class Execution {
 public:
  Execution(const LoadedProgram& loaded, reference::ProcessContext* process,
            DeviceCollectives* collectives)
      : loaded_(loaded),
        api_(loaded.api_),
        process_(process),
        collectives_(collectives) {}

  ~Execution() {
    // A stream whose work outlived the deadline is left as it is, with the
    // buffers that work may still use.
    if (stream_ != nullptr && !abandoned_) {
      TakeCStatus(api_->stream_synchronize(stream_)).ok();
      for (auto& [bytes, handles] : reusable_) {
        for (phal_plugin_buffer_t* handle : handles) api_->buffer_free(handle);
      }
      loaded_.ReleaseStream(stream_);
    }
  }

  Status Start() {
    PHAL_ASSIGN_OR_RETURN(stream_, loaded_.AcquireStream());
    return OkStatus();
  }

  // A device buffer shared by the leaves that name it. An owned buffer no
  // leaf names any more is kept for a later buffer of its size: work on
  // one stream runs in order, so whatever the new owner queues runs after
  // everything queued that still uses it.
  struct Buffer {
    Execution* execution = nullptr;
    phal_plugin_buffer_t* handle = nullptr;
    bool owned = false;
    int64_t bytes = 0;
    ~Buffer() {
      if (owned) execution->reusable_[bytes].push_back(handle);
    }
  };
  using BufferRef = std::shared_ptr<Buffer>;

  BufferRef MakeRef(phal_plugin_buffer_t* handle, bool owned, int64_t bytes) {
    auto buffer = std::make_shared<Buffer>();
    buffer->execution = this;
    buffer->handle = handle;
    buffer->owned = owned;
    buffer->bytes = bytes;
    return buffer;
  }

  BufferRef Borrow(phal_plugin_buffer_t* handle) {
    return MakeRef(handle, false, 0);
  }

  // The program's constant `index`, one reference for the whole execution.
  const BufferRef& Constant(int index) {
    if (constants_.empty()) constants_.resize(loaded_.constants_.size());
    BufferRef& constant = constants_[static_cast<std::size_t>(index)];
    if (constant == nullptr) {
      constant = Borrow(loaded_.constants_[static_cast<std::size_t>(index)]);
    }
    return constant;
  }

  // A buffer of `bytes` this execution no longer uses, else a new one.
  StatusOr<BufferRef> NewBuffer(int64_t bytes) {
    auto kept = reusable_.find(bytes);
    if (kept != reusable_.end() && !kept->second.empty()) {
      phal_plugin_buffer_t* handle = kept->second.back();
      kept->second.pop_back();
      return MakeRef(handle, true, bytes);
    }
    PHAL_ASSIGN_OR_RETURN(phal_plugin_buffer_t * handle,
                          Allocate(api_, loaded_.device_, bytes));
    return MakeRef(handle, true, bytes);
  }

  StatusOr<std::vector<BufferRef>> Run(int index,
                                       std::vector<BufferRef> parameters) {
    const ComputationPlan& plan =
        loaded_.program_->computations[static_cast<std::size_t>(index)];
    std::vector<BufferRef> leaves(plan.leaf_shapes.size());
    for (int p = 0; p < plan.parameter_leaf_count; ++p) {
      leaves[static_cast<std::size_t>(p)] =
          std::move(parameters[static_cast<std::size_t>(p)]);
    }
    std::vector<BufferRef> slots;
    slots.reserve(plan.slot_bytes.size());
    for (std::size_t i = 0; i < plan.slot_bytes.size(); ++i) {
      StatusOr<BufferRef> slot = NewBuffer(plan.slot_bytes[i]);
      if (!slot.ok()) return SlotFailure(plan, i, slot.status());
      slots.push_back(std::move(*slot));
    }
    for (std::size_t leaf = 0; leaf < leaves.size(); ++leaf) {
      if (plan.leaf_constant[leaf] >= 0) {
        leaves[leaf] = Constant(plan.leaf_constant[leaf]);
      } else if (plan.leaf_slot[leaf] >= 0) {
        leaves[leaf] = slots[static_cast<std::size_t>(plan.leaf_slot[leaf])];
      }
    }
    for (const Step& step : plan.steps) {
      PHAL_RETURN_IF_ERROR(RunStep(plan, step, &leaves));
    }
    std::vector<BufferRef> results;
    results.reserve(plan.result_leaves.size());
    for (int leaf : plan.result_leaves) {
      results.push_back(leaves[static_cast<std::size_t>(leaf)]);
    }
    return results;
  }

  // The error of a slot the device could not allocate, naming the slot,
  // its computation and what the slots need together; the plugin's own
  // message (and code, RESOURCE_EXHAUSTED when memory ran out) follows.
  static Status SlotFailure(const ComputationPlan& plan, std::size_t slot,
                            const Status& status) {
    int64_t total = 0;
    for (int64_t bytes : plan.slot_bytes) total += bytes;
    return Status(
        status.code(),
        "intermediate buffer " + std::to_string(slot) + " of " +
            std::to_string(plan.slot_bytes.size()) + " of computation '" +
            plan.name + "' (" + std::to_string(plan.slot_bytes[slot]) +
            " bytes; its buffers need " + std::to_string(total) +
            " bytes together) could not be allocated: " + status.message());
  }

  // Hands the results to the caller: buffers this run allocated are
  // released to it; parameters, constants and repeated results are copied.
  StatusOr<std::vector<phal_plugin_buffer_t*>> TakeResults(
      const std::vector<BufferRef>& results) {
    std::vector<phal_plugin_buffer_t*> handles;
    std::set<Buffer*> given;
    Status status;
    for (std::size_t i = 0; i < results.size() && status.ok(); ++i) {
      Buffer* buffer = results[i].get();
      if (buffer->owned && given.insert(buffer).second) {
        buffer->owned = false;
        handles.push_back(buffer->handle);
        continue;
      }
      const int64_t bytes = loaded_.program_->result_shapes[i].ByteSize();
      StatusOr<phal_plugin_buffer_t*> copy =
          Allocate(api_, loaded_.device_, bytes);
      status = copy.status();
      if (!status.ok()) break;
      handles.push_back(*copy);
      status = TakeCStatus(api_->stream_copy_buffer(
          stream_, buffer->handle, 0, *copy, 0, static_cast<uint64_t>(bytes)));
    }
    if (status.ok()) status = Synchronize();
    if (status.ok()) return handles;
    if (abandoned_) return status;
    TakeCStatus(api_->stream_synchronize(stream_)).ok();
    for (phal_plugin_buffer_t* handle : handles) api_->buffer_free(handle);
    return status;
  }

 private:
  Status Synchronize() {
    StreamWaitResult waited = WaitForStream(api_, loaded_.device_, stream_,
                                            loaded_.execute_timeout_seconds_);
    if (waited.outcome == StreamWaitOutcome::kTimedOut) {
      abandoned_ = true;
      KeepPluginCodeLoaded(*api_);
      return Status(
          PHAL_DEADLINE_EXCEEDED,
          "the device has not finished the work of this execution after " +
              FormatSeconds(loaded_.execute_timeout_seconds_) +
              " (PHAL_EXECUTE_TIMEOUT); the last kernel launched was '" +
              (last_kernel_ != nullptr ? *last_kernel_ : "") +
              "'. Its stream and buffers are abandoned to the plugin");
    }
    return waited.status;
  }

  static std::string FormatSeconds(double seconds) {
    std::string text = std::to_string(seconds);
    text.erase(text.find_last_not_of('0') + 1);
    if (!text.empty() && text.back() == '.') text.pop_back();
    return text + " s";
  }

  // Copies the first `bytes` (at most 8) of `buffer` to the host.
  StatusOr<int64_t> ReadScalar(const BufferRef& buffer, std::size_t bytes) {
    unsigned char host[8] = {};
    PHAL_RETURN_IF_ERROR(TakeCStatus(
        api_->stream_copy_to_host(stream_, buffer->handle, 0, host, bytes)));
    PHAL_RETURN_IF_ERROR(Synchronize());
    if (bytes == 1) return host[0];
    int32_t value = 0;
    std::memcpy(&value, host, sizeof(value));
    return value;
  }

  std::vector<BufferRef> Select(const std::vector<BufferRef>& leaves,
                                const std::vector<int>& which) {
    std::vector<BufferRef> selected;
    for (int leaf : which) {
      selected.push_back(leaves[static_cast<std::size_t>(leaf)]);
    }
    return selected;
  }

  // Gives the outputs of `step` that a kernel writes into a parameter's
  // buffer that buffer, first replacing it with a copy when anything but
  // the parameter and its earlier in-place versions refers to it (a
  // caller's argument, a constant, a value the caller still holds).
  Status BindParameterOutputs(const ComputationPlan& plan, const Step& step,
                              std::vector<BufferRef>* leaves) {
    if (plan.leaf_parameter.empty()) return OkStatus();
    for (int output : step.outputs) {
      const int parameter =
          plan.leaf_parameter[static_cast<std::size_t>(output)];
      if (parameter < 0) continue;
      const BufferRef buffer = (*leaves)[static_cast<std::size_t>(parameter)];
      std::vector<std::size_t> versions;
      for (std::size_t leaf = 0; leaf < leaves->size(); ++leaf) {
        const bool version = static_cast<int>(leaf) == parameter ||
                             plan.leaf_parameter[leaf] == parameter;
        if (version && (*leaves)[leaf] == buffer) versions.push_back(leaf);
      }
      // `buffer` itself holds one more reference.
      const auto holders = static_cast<long>(versions.size()) + 1;
      if (!buffer->owned || buffer.use_count() != holders) {
        PHAL_ASSIGN_OR_RETURN(BufferRef copy, Copy(buffer, plan, parameter));
        for (std::size_t leaf : versions) (*leaves)[leaf] = copy;
        (*leaves)[static_cast<std::size_t>(output)] = std::move(copy);
        continue;
      }
      (*leaves)[static_cast<std::size_t>(output)] = buffer;
    }
    return OkStatus();
  }

  // A new buffer holding a copy of `source`, the value of `leaf`.
  StatusOr<BufferRef> Copy(const BufferRef& source, const ComputationPlan& plan,
                           int leaf) {
    const int64_t bytes =
        plan.leaf_shapes[static_cast<std::size_t>(leaf)].ByteSize();
    PHAL_ASSIGN_OR_RETURN(BufferRef copy, NewBuffer(bytes));
    PHAL_RETURN_IF_ERROR(TakeCStatus(
        api_->stream_copy_buffer(stream_, source->handle, 0, copy->handle, 0,
                                 static_cast<uint64_t>(bytes))));
    return copy;
  }

  Status RunStep(const ComputationPlan& plan, const Step& step,
                 std::vector<BufferRef>* leaves) {
    switch (step.kind) {
      case StepKind::kKernel: {
        PHAL_RETURN_IF_ERROR(BindParameterOutputs(plan, step, leaves));
        handles_.clear();
        for (int leaf : step.buffers) {
          handles_.push_back((*leaves)[static_cast<std::size_t>(leaf)]->handle);
        }
        const auto kernel = static_cast<std::size_t>(step.kernel);
        last_kernel_ = &loaded_.kernel_names_[kernel];
        return TakeCStatus(api_->stream_launch(
            stream_, loaded_.kernels_[kernel], handles_.data(),
            static_cast<uint32_t>(handles_.size())));
      }
      case StepKind::kWhile: {
        std::vector<BufferRef> state = Select(*leaves, step.operands[0]);
        if (step.trip_count >= 0) {
          // A counted loop: its condition is the counter's bound, known
          // already, so no step waits for the device to read it.
          for (int64_t trip = 0; trip < step.trip_count; ++trip) {
            PHAL_ASSIGN_OR_RETURN(state,
                                  Run(step.computations[1], std::move(state)));
          }
          return Define(step, std::move(state), leaves);
        }
        while (true) {
          PHAL_ASSIGN_OR_RETURN(std::vector<BufferRef> condition,
                                Run(step.computations[0], state));
          PHAL_ASSIGN_OR_RETURN(int64_t go, ReadScalar(condition[0], 1));
          if (go == 0) break;
          // The body alone holds the state, so it may update it in place.
          PHAL_ASSIGN_OR_RETURN(state,
                                Run(step.computations[1], std::move(state)));
        }
        return Define(step, std::move(state), leaves);
      }
      case StepKind::kConditional: {
        const BufferRef& selector =
            (*leaves)[static_cast<std::size_t>(step.selector)];
        const auto branches = static_cast<int64_t>(step.computations.size());
        const bool is_pred = step.selector_type == PHAL_ELEMENT_TYPE_PRED;
        PHAL_ASSIGN_OR_RETURN(int64_t value,
                              ReadScalar(selector, is_pred ? 1 : 4));
        int64_t branch = is_pred ? (value != 0 ? 0 : 1) : value;
        if (branch < 0 || branch >= branches) branch = branches - 1;
        const auto b = static_cast<std::size_t>(branch);
        PHAL_ASSIGN_OR_RETURN(
            std::vector<BufferRef> results,
            Run(step.computations[b], Select(*leaves, step.operands[b])));
        return Define(step, std::move(results), leaves);
      }
      case StepKind::kCall: {
        if (step.offload >= 0 &&
            loaded_.part_kernels_[static_cast<std::size_t>(step.offload)] !=
                nullptr) {
          return RunPart(plan, step, leaves);
        }
        PHAL_ASSIGN_OR_RETURN(
            std::vector<BufferRef> results,
            Run(step.computations[0], Select(*leaves, step.operands[0])));
        return Define(step, std::move(results), leaves);
      }
      case StepKind::kProcessOp:
        return RunProcessOp(plan, step, leaves);
    }
    return Internal("unknown step");
  }

  // Launches the plugin's kernel for an offloaded part: its parameters
  // (copies of those it writes), then new buffers for its results.
  Status RunPart(const ComputationPlan& plan, const Step& step,
                 std::vector<BufferRef>* leaves) {
    const auto part = static_cast<std::size_t>(step.offload);
    const std::vector<bool>& writes = loaded_.part_writes_parameter_[part];
    std::vector<BufferRef> bound;
    for (std::size_t i = 0; i < step.operands[0].size(); ++i) {
      const int leaf = step.operands[0][i];
      BufferRef buffer = (*leaves)[static_cast<std::size_t>(leaf)];
      if (i < writes.size() && writes[i]) {
        PHAL_ASSIGN_OR_RETURN(buffer, Copy(buffer, plan, leaf));
      }
      bound.push_back(std::move(buffer));
    }
    std::vector<BufferRef> outputs;
    for (int leaf : step.outputs) {
      PHAL_ASSIGN_OR_RETURN(
          BufferRef output,
          NewBuffer(
              plan.leaf_shapes[static_cast<std::size_t>(leaf)].ByteSize()));
      outputs.push_back(output);
      bound.push_back(std::move(output));
    }
    handles_.clear();
    for (const BufferRef& buffer : bound) handles_.push_back(buffer->handle);
    last_kernel_ = &loaded_.program_->offloads[part].name;
    PHAL_RETURN_IF_ERROR(TakeCStatus(api_->stream_launch(
        stream_, loaded_.part_kernels_[part], handles_.data(),
        static_cast<uint32_t>(handles_.size()))));
    // The copies stay referenced by the stream's order until reused.
    return Define(step, std::move(outputs), leaves);
  }

  // Stages a process op through host memory: its operands are copied to
  // the host, the process evaluates it (meeting its peers at a
  // collective), and its results are copied to new buffers.
  Status RunProcessOp(const ComputationPlan& plan, const Step& step,
                      std::vector<BufferRef>* leaves) {
    if (collectives_ != nullptr && process_ != nullptr) {
      const int64_t process =
          process_->replica_id() * loaded_.program_->num_partitions +
          process_->partition_id();
      if (const DeviceCollective* call =
              collectives_->Find(step.process_op, process)) {
        return RunDeviceCollective(plan, step, *call, leaves);
      }
    }
    const HloModule& op =
        *loaded_.program_
             ->process_ops[static_cast<std::size_t>(step.process_op)];
    const HloComputation& entry = *op.entry_computation();
    std::vector<Literal> operands;
    for (std::size_t i = 0; i < step.operands[0].size(); ++i) {
      const auto index = static_cast<std::size_t>(step.operands[0][i]);
      // The op's own operand shape: the leaf may be the memory of a value
      // the op reads through a reshape or bitcast.
      Literal& operand = operands.emplace_back(
          entry.parameter_instruction(static_cast<int64_t>(i))->shape());
      if (static_cast<int64_t>(operand.byte_size()) !=
          plan.leaf_shapes[index].ByteSize()) {
        return Internal("process op " + op.name() + " reads operand " +
                        std::to_string(i) + " as " +
                        operand.shape().ToString() + " from a leaf of " +
                        plan.leaf_shapes[index].ToString());
      }
      PHAL_RETURN_IF_ERROR(TakeCStatus(
          api_->stream_copy_to_host(stream_, (*leaves)[index]->handle, 0,
                                    operand.data(), operand.byte_size())));
    }
    PHAL_RETURN_IF_ERROR(Synchronize());
    PHAL_ASSIGN_OR_RETURN(Literal result,
                          reference::EvaluateProcess(op, operands, process_));
    std::vector<Literal> values;
    if (result.IsTuple()) {
      values = std::move(result.mutable_tuple_elements());
    } else {
      values.push_back(std::move(result));
    }
    if (values.size() != step.outputs.size()) {
      return Internal("process op " + op.name() + " gave " +
                      std::to_string(values.size()) + " values for " +
                      std::to_string(step.outputs.size()) + " leaves");
    }
    std::vector<BufferRef> outputs;
    for (const Literal& value : values) {
      const auto bytes = static_cast<int64_t>(value.byte_size());
      PHAL_ASSIGN_OR_RETURN(BufferRef output, NewBuffer(bytes));
      PHAL_RETURN_IF_ERROR(TakeCStatus(api_->stream_copy_from_host(
          stream_, value.data(), output->handle, 0, value.byte_size())));
      outputs.push_back(std::move(output));
    }
    // The host values must outlive the copies.
    PHAL_RETURN_IF_ERROR(Synchronize());
    return Define(step, std::move(outputs), leaves);
  }

  // Queues a process op on the plugin's communicator: operand i of the
  // process is rank's send range, result i a new buffer.
  Status RunDeviceCollective(const ComputationPlan& plan, const Step& step,
                             const DeviceCollective& call,
                             std::vector<BufferRef>* leaves) {
    std::vector<BufferRef> outputs;
    for (std::size_t i = 0; i < call.operands.size(); ++i) {
      const CollectiveDesc& desc = call.operands[i];
      PHAL_ASSIGN_OR_RETURN(CollectiveBytes bytes,
                            CheckCollectiveDesc(desc, call.ranks));
      const BufferRef& operand =
          (*leaves)[static_cast<std::size_t>(step.operands[0][i])];
      const Shape& operand_shape =
          plan.leaf_shapes[static_cast<std::size_t>(step.operands[0][i])];
      const Shape& result_shape =
          plan.leaf_shapes[static_cast<std::size_t>(step.outputs[i])];
      if (static_cast<uint64_t>(operand_shape.ByteSize()) != bytes.send ||
          static_cast<uint64_t>(result_shape.ByteSize()) != bytes.recv) {
        return Internal(call.label + ": " + desc.ToString() + " on " +
                        std::to_string(call.ranks) + " ranks reads " +
                        operand_shape.ToString() + " and writes " +
                        result_shape.ToString());
      }
      PHAL_ASSIGN_OR_RETURN(BufferRef output,
                            NewBuffer(static_cast<int64_t>(bytes.recv)));
      const Status entered = collectives_->Enter(call);
      if (!entered.ok()) {
        return Status(entered.code(), call.label + ": " + entered.message());
      }
      const phal_collective_desc_t c = desc.ToC();
      PHAL_RETURN_IF_ERROR(TakeCStatus(
          call.api->stream_collective(stream_, call.communicator, &c,
                                      operand->handle, 0, output->handle, 0)));
      outputs.push_back(std::move(output));
    }
    // Waiting here names the collective in its errors (a peer that never
    // arrives) instead of leaving them to a later step.
    const Status synced = Synchronize();
    collectives_->Leave(call);
    if (!synced.ok()) {
      const Status reason = synced.code() == PHAL_ABORTED
                                ? collectives_->AbortReason(call.group)
                                : OkStatus();
      const Status& cause = reason.ok() ? synced : reason;
      return Status(cause.code(), call.label + ": " + cause.message());
    }
    return Define(step, std::move(outputs), leaves);
  }

  Status Define(const Step& step, std::vector<BufferRef> values,
                std::vector<BufferRef>* leaves) {
    for (std::size_t i = 0; i < step.outputs.size(); ++i) {
      (*leaves)[static_cast<std::size_t>(step.outputs[i])] =
          std::move(values[i]);
    }
    return OkStatus();
  }

  const LoadedProgram& loaded_;
  const phal_plugin_api_t* api_;
  // The process the program runs as.
  reference::ProcessContext* process_;
  // The process ops the plugin runs on its collective slots, if any.
  DeviceCollectives* collectives_;
  phal_plugin_stream_t* stream_ = nullptr;
  // The program's constants, as Constant made them.
  std::vector<BufferRef> constants_;
  // The buffers of the kernel being launched.
  std::vector<phal_plugin_buffer_t*> handles_;
  // Buffers of this execution that no leaf names, by size in bytes.
  std::unordered_map<int64_t, std::vector<phal_plugin_buffer_t*>> reusable_;
  // Set when a wait outlived PHAL_EXECUTE_TIMEOUT.
  bool abandoned_ = false;
  const std::string* last_kernel_ = nullptr;
};

LoadedProgram::LoadedProgram(std::shared_ptr<const Program> program,
                             const phal_plugin_api_t* api,
                             phal_plugin_device_t* device, bool runnable)
    : program_(std::move(program)),
      api_(api),
      device_(device),
      runnable_(runnable),
      execute_timeout_seconds_(ExecuteTimeoutFromEnv()) {}

LoadedProgram::~LoadedProgram() {
  for (phal_plugin_stream_t* stream : idle_streams_) {
    api_->stream_destroy(stream);
  }
  for (phal_plugin_kernel_t* kernel : kernels_) {
    if (kernel != nullptr) api_->kernel_destroy(kernel);
  }
  for (phal_plugin_kernel_t* kernel : part_kernels_) {
    if (kernel != nullptr) api_->kernel_destroy(kernel);
  }
  for (phal_plugin_buffer_t* buffer : constants_) api_->buffer_free(buffer);
}

Status LoadedProgram::AddKernels(
    const std::vector<std::string>& names, const std::vector<bool>& wanted,
    std::size_t max_threads,
    const std::function<phal_status_t*(std::size_t, phal_plugin_kernel_t**)>&
        make) {
  // Kernels build independently, and plugins' slots are thread-safe: up to
  // max_threads threads build them, each taking the next kernel.
  const std::size_t count = names.size();
  std::vector<phal_plugin_kernel_t*> built(count, nullptr);
  std::vector<Status> statuses(count);
  std::atomic<std::size_t> next{0};
  auto build = [&] {
    for (std::size_t i = next++; i < count; i = next++) {
      if (wanted[i]) statuses[i] = TakeCStatus(make(i, &built[i]));
    }
  };
  const std::size_t threads = std::min<std::size_t>(
      {count, std::max(1u, std::thread::hardware_concurrency()), max_threads});
  std::vector<std::thread> helpers;
  for (std::size_t t = 1; t < threads; ++t) helpers.emplace_back(build);
  build();
  for (std::thread& helper : helpers) helper.join();
  // Every kernel built joins the program, so that a failure frees them.
  Status failure;
  for (std::size_t i = 0; i < count; ++i) {
    if (!wanted[i] || (built[i] != nullptr && statuses[i].ok())) {
      kernels_.push_back(built[i]);
      kernel_names_.push_back(names[i]);
    } else if (failure.ok()) {
      const Status cause = statuses[i].ok()
                               ? Internal("the plugin returned no kernel")
                               : statuses[i];
      failure =
          Status(cause.code(), "kernel " + names[i] + ": " + cause.message());
    }
  }
  return failure;
}

StatusOr<std::unique_ptr<LoadedProgram>> LoadedProgram::Load(
    std::shared_ptr<const Program> program, const phal_plugin_api_t* api,
    phal_plugin_device_t* device, const phal_kernel_options_t* options,
    bool runnable) {
  std::unique_ptr<LoadedProgram> loaded(
      new LoadedProgram(std::move(program), api, device, runnable));
  const std::vector<std::unique_ptr<KirKernel>>& kernels =
      loaded->program_->kernels;
  std::vector<std::string> names;
  for (const std::unique_ptr<KirKernel>& kernel : kernels) {
    names.push_back(kernel->name());
  }
  // The parts the plugin takes whole first: the kernels only those run are
  // not emitted.
  PHAL_RETURN_IF_ERROR(loaded->CompileParts(options));
  // Compiling is the slow part of a compile: kernels are emitted on up to
  // one thread per processor.
  PHAL_RETURN_IF_ERROR(
      loaded->AddKernels(names, loaded->KernelsToEmit(), kMaxEmitThreads,
                         [&](std::size_t i, phal_plugin_kernel_t** out) {
                           return api->kernel_emit(
                               device, &kernels[i]->built_desc(), options, out);
                         }));
  PHAL_RETURN_IF_ERROR(loaded->UploadConstants());
  return loaded;
}

StatusOr<std::unique_ptr<LoadedProgram>> LoadedProgram::Deserialize(
    std::unique_ptr<Program> program,
    const std::vector<SerializedKernel>& kernels, const phal_plugin_api_t* api,
    phal_plugin_device_t* device, bool runnable) {
  std::unique_ptr<LoadedProgram> loaded(
      new LoadedProgram(std::move(program), api, device, runnable));
  // The plan's kernels, then the offloaded parts; no bytes for a kernel
  // that was not needed or a part the plugin declined.
  const std::size_t parts = loaded->program_->offloads.size();
  const std::size_t plan_kernels = kernels.size() - parts;
  std::vector<std::string> names;
  std::vector<bool> wanted;
  for (std::size_t i = 0; i < plan_kernels; ++i) {
    names.push_back(kernels[i].name);
    wanted.push_back(!kernels[i].bytes.empty());
  }
  // Loading a kernel takes less than starting a thread: one thread loads
  // them all.
  PHAL_RETURN_IF_ERROR(loaded->AddKernels(
      names, wanted, 1, [&](std::size_t i, phal_plugin_kernel_t** out) {
        return api->kernel_deserialize(device, kernels[i].bytes.data(),
                                       kernels[i].bytes.size(), out);
      }));
  loaded->part_kernels_.assign(parts, nullptr);
  loaded->part_writes_parameter_.assign(parts, {});
  for (std::size_t i = 0; i < parts; ++i) {
    const SerializedKernel& part = kernels[plan_kernels + i];
    const OffloadedPart& offloaded = loaded->program_->offloads[i];
    const ComputationPlan& plan =
        loaded->program_
            ->computations[static_cast<std::size_t>(offloaded.computation)];
    // Whether the part writes a parameter is in the plan: a kernel of it
    // binding a parameter's leaf for writing, or an output made in place.
    std::vector<bool>& writes = loaded->part_writes_parameter_[i];
    writes.assign(static_cast<std::size_t>(plan.parameter_leaf_count), false);
    for (int parameter : plan.leaf_parameter) {
      if (parameter >= 0) writes[static_cast<std::size_t>(parameter)] = true;
    }
    if (part.bytes.empty()) continue;
    const Status status = TakeCStatus(
        api->kernel_deserialize(device, part.bytes.data(), part.bytes.size(),
                                &loaded->part_kernels_[i]));
    if (!status.ok()) {
      return Status(status.code(),
                    "part " + part.name + ": " + status.message());
    }
  }
  PHAL_RETURN_IF_ERROR(loaded->UploadConstants());
  return loaded;
}

Status LoadedProgram::CompileParts(const phal_kernel_options_t* options) {
  const std::size_t parts = program_->offloads.size();
  part_kernels_.assign(parts, nullptr);
  part_writes_parameter_.assign(parts, {});
  if (parts == 0 || api_->struct_size < PHAL_PLUGIN_API_STRUCT_SIZE_1_13 ||
      api_->program_get_formats == nullptr ||
      api_->program_compile == nullptr) {
    return OkStatus();
  }
  uint32_t formats = 0;
  PHAL_RETURN_IF_ERROR(
      TakeCStatus(api_->program_get_formats(device_, &formats)));
  for (std::size_t i = 0; i < parts; ++i) {
    const OffloadedPart& part = program_->offloads[i];
    ProgramOffer offer;
    if (!MakeProgramOffer(*program_, part, formats, &offer)) continue;
    part_writes_parameter_[i] = offer.writes_parameter;
    phal_plugin_kernel_t* kernel = nullptr;
    const Status status = TakeCStatus(
        api_->program_compile(device_, &offer.desc, options, &kernel));
    if (status.code() == PHAL_UNIMPLEMENTED) {
      // Declined: the part runs as the core's kernels.
      const std::string message = "the plugin declined part " + part.name +
                                  "; it runs as kernels: " + status.message();
      HostServices()->log(PHAL_LOG_LEVEL_INFO, message.c_str());
      continue;
    }
    if (!status.ok()) {
      return Status(status.code(),
                    "part " + part.name + ": " + status.message());
    }
    if (kernel == nullptr) {
      return Internal("part " + part.name + ": the plugin returned no kernel");
    }
    part_kernels_[i] = kernel;
  }
  return OkStatus();
}

std::vector<bool> LoadedProgram::KernelsToEmit() const {
  std::vector<bool> wanted(program_->kernels.size(), false);
  std::vector<bool> visited(program_->computations.size(), false);
  std::vector<int> work = {program_->entry};
  while (!work.empty()) {
    const auto index = static_cast<std::size_t>(work.back());
    work.pop_back();
    if (visited[index]) continue;
    visited[index] = true;
    for (const Step& step : program_->computations[index].steps) {
      if (step.kind == StepKind::kKernel) {
        wanted[static_cast<std::size_t>(step.kernel)] = true;
      }
      if (step.kind == StepKind::kCall && step.offload >= 0 &&
          part_kernels_[static_cast<std::size_t>(step.offload)] != nullptr) {
        continue;
      }
      for (int callee : step.computations) work.push_back(callee);
    }
  }
  return wanted;
}

Status LoadedProgram::UploadConstants() {
  if (!runnable_) return OkStatus();
  phal_plugin_stream_t* stream = nullptr;
  PHAL_RETURN_IF_ERROR(TakeCStatus(api_->stream_create(device_, &stream)));
  Status status;
  for (const Literal& constant : program_->constants) {
    StatusOr<phal_plugin_buffer_t*> buffer =
        Allocate(api_, device_, static_cast<int64_t>(constant.byte_size()));
    status = buffer.status();
    if (!status.ok()) break;
    constants_.push_back(*buffer);
    status = TakeCStatus(api_->stream_copy_from_host(
        stream, constant.data(), *buffer, 0, constant.byte_size()));
    if (!status.ok()) break;
  }
  Status synced = TakeCStatus(api_->stream_synchronize(stream));
  ReleaseStream(stream);
  PHAL_RETURN_IF_ERROR(status);
  return synced;
}

StatusOr<std::vector<SerializedKernel>> LoadedProgram::SerializeKernels()
    const {
  std::vector<SerializedKernel> serialized;
  // A table the loader did not complete (a test's device) may lack the
  // slot; the loader's stub for it answers UNIMPLEMENTED the same way.
  if (api_->kernel_serialize == nullptr && !kernels_.empty()) {
    return Unimplemented("the plugin does not serialize kernels");
  }
  // The plan's kernels, then the offloaded parts; no bytes for a kernel or
  // part with none.
  std::vector<phal_plugin_kernel_t*> all = kernels_;
  std::vector<std::string> names = kernel_names_;
  for (std::size_t i = 0; i < part_kernels_.size(); ++i) {
    all.push_back(part_kernels_[i]);
    names.push_back(program_->offloads[i].name);
  }
  for (size_t i = 0; i < all.size(); ++i) {
    if (all[i] == nullptr) {
      serialized.push_back({names[i], std::string()});
      continue;
    }
    void* data = nullptr;
    uint64_t size = 0;
    Status status = TakeCStatus(api_->kernel_serialize(all[i], &data, &size));
    if (!status.ok()) {
      return Status(status.code(),
                    "kernel " + names[i] + ": " + status.message());
    }
    // The plugin allocated the bytes with the host services; they are the
    // core's now.
    std::string bytes(static_cast<const char*>(data),
                      static_cast<size_t>(size));
    HostServices()->host_free(data);
    serialized.push_back({names[i], std::move(bytes)});
  }
  return serialized;
}

StatusOr<phal_plugin_stream_t*> LoadedProgram::AcquireStream() const {
  {
    std::lock_guard lock(idle_streams_mutex_);
    if (!idle_streams_.empty()) {
      phal_plugin_stream_t* stream = idle_streams_.back();
      idle_streams_.pop_back();
      return stream;
    }
  }
  phal_plugin_stream_t* stream = nullptr;
  PHAL_RETURN_IF_ERROR(TakeCStatus(api_->stream_create(device_, &stream)));
  return stream;
}

void LoadedProgram::ReleaseStream(phal_plugin_stream_t* stream) const {
  std::lock_guard lock(idle_streams_mutex_);
  idle_streams_.push_back(stream);
}

void LoadedProgram::FreeBuffers(
    std::span<phal_plugin_buffer_t* const> buffers) const {
  for (phal_plugin_buffer_t* buffer : buffers) api_->buffer_free(buffer);
}

StatusOr<std::vector<phal_plugin_buffer_t*>> LoadedProgram::Execute(
    std::span<phal_plugin_buffer_t* const> arguments,
    reference::ProcessContext* process, DeviceCollectives* collectives) const {
  if (!runnable_) {
    return FailedPrecondition(
        "the executable was compiled for a compile-only device: serialize "
        "it and load it on a device of its target to run it");
  }
  const ProcessGrid grid{program_->replica_count, program_->num_partitions};
  // The only process of a program for one meets nobody at its collectives.
  std::optional<reference::CollectiveRendezvous> alone;
  std::optional<reference::SpmdProcess> only;
  if (process == nullptr) {
    if (grid.process_count() != 1) {
      return FailedPrecondition(
          "the program runs on " + std::to_string(grid.replicas) +
          " replicas x " + std::to_string(grid.partitions) +
          " partitions: run it on that many devices at once");
    }
    if (!program_->process_ops.empty()) {
      alone.emplace(1, std::chrono::milliseconds(0));
      only.emplace(0, grid, &*alone);
      process = &*only;
    }
  }
  Execution execution(*this, process, collectives);
  PHAL_RETURN_IF_ERROR(execution.Start());
  std::vector<Execution::BufferRef> parameters;
  for (phal_plugin_buffer_t* argument : arguments) {
    parameters.push_back(execution.Borrow(argument));
  }
  StatusOr<std::vector<Execution::BufferRef>> results =
      execution.Run(program_->entry, std::move(parameters));
  if (!results.ok()) return results.status();
  return execution.TakeResults(*results);
}

}  // namespace phal
