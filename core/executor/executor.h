// The executor: a Program loaded on one device of a plugin (kernels emitted,
// constants uploaded) and run on plugin streams. Control flow runs on the
// host: while conditions and conditional selectors are copied back with
// stream copies; everything else is a launch. Every device operation goes
// through the plugin table, so nothing here assumes device memory is host
// memory.
#ifndef POLYHAL_CORE_EXECUTOR_EXECUTOR_H_
#define POLYHAL_CORE_EXECUTOR_EXECUTOR_H_

#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "core/compiler/program.h"
#include "core/executor/serialized_program.h"
#include "core/reference/process_context.h"
#include "polyhal/plugin.h"
#include "sdk/base/status.h"

namespace phal {

class DeviceCollectives;

class LoadedProgram {
 public:
  // Emits every kernel of `program` with api->kernel_emit and, when
  // `runnable`, copies its constants to device buffers. A compile-only
  // device (plugin.h, target_device_open) is not runnable: its program is
  // emitted for serialization only and Execute refuses it. `api` and
  // `device` must outlive the result.
  static StatusOr<std::unique_ptr<LoadedProgram>> Load(
      std::shared_ptr<const Program> program, const phal_plugin_api_t* api,
      phal_plugin_device_t* device, const phal_kernel_options_t* options,
      bool runnable);
  // The same for a program read back from its serialized form: kernels[i]
  // is rebuilt with api->kernel_deserialize as the plan's kernel i.
  static StatusOr<std::unique_ptr<LoadedProgram>> Deserialize(
      std::unique_ptr<Program> program,
      const std::vector<SerializedKernel>& kernels,
      const phal_plugin_api_t* api, phal_plugin_device_t* device,
      bool runnable);
  // Destroys the kernels and frees the constants. No execution may be in
  // flight.
  ~LoadedProgram();
  LoadedProgram(const LoadedProgram&) = delete;
  LoadedProgram& operator=(const LoadedProgram&) = delete;

  // Every kernel as api->kernel_serialize writes it, in plan order.
  // Thread-safe.
  StatusOr<std::vector<SerializedKernel>> SerializeKernels() const;

  const Program& program() const { return *program_; }
  const phal_plugin_api_t* api() const { return api_; }
  phal_plugin_device_t* device() const { return device_; }

  // Runs the entry computation once (FAILED_PRECONDITION on a program that
  // is not runnable) as `process` (null: the only process of a program for
  // one process; FAILED_PRECONDITION for a program for several, which runs
  // with ExecuteSpmd, spmd_executor.h) on a stream of its own (taken from the
  // program's idle streams, so a plugin whose streams own threads does not
  // start one per execute) and returns
  // when the results are ready: one new plugin buffer per result leaf,
  // owned by the caller (free with api->buffer_free). `arguments` are
  // plugin buffers, one per entry parameter, whose sizes the caller has
  // checked; they are only read. The program's process ops (collectives,
  // replica-id, partition-id) are staged through host memory: their
  // operands are copied to the host, evaluated by `process` with the
  // reference's semantics, and the results copied back; those that
  // `collectives` (may be null) runs on the plugin's collective slots are
  // queued on the stream instead. Thread-safe.
  StatusOr<std::vector<phal_plugin_buffer_t*>> Execute(
      std::span<phal_plugin_buffer_t* const> arguments,
      reference::ProcessContext* process = nullptr,
      DeviceCollectives* collectives = nullptr) const;

  // Frees result buffers Execute returned.
  void FreeBuffers(std::span<phal_plugin_buffer_t* const> buffers) const;

 private:
  friend class Execution;
  LoadedProgram(std::shared_ptr<const Program> program,
                const phal_plugin_api_t* api, phal_plugin_device_t* device,
                bool runnable);

  // Builds kernel i of `names` with make(i, &kernel) for every wanted i, on up
  // to `max_threads` threads (and one per processor), and keeps each one built,
  // in order; the first failure, named by its kernel, is returned after all
  // have run. A kernel not `wanted` is left null.
  Status AddKernels(
      const std::vector<std::string>& names, const std::vector<bool>& wanted,
      std::size_t max_threads,
      const std::function<phal_status_t*(std::size_t, phal_plugin_kernel_t**)>&
          make);
  // Offers each offloaded part to the plugin's program_compile and keeps
  // the kernels it answers (null for a part it declined or was not
  // offered).
  Status CompileParts(const phal_kernel_options_t* options);
  // Per kernel of the plan: whether a step the executor may reach launches
  // it, which is not so of the kernels only accepted parts run.
  std::vector<bool> KernelsToEmit() const;
  // Copies the constants to device buffers, when runnable.
  Status UploadConstants();

  // An idle stream of this program, or a new one.
  StatusOr<phal_plugin_stream_t*> AcquireStream() const;
  // Keeps a synchronised stream for the next execution.
  void ReleaseStream(phal_plugin_stream_t* stream) const;

  // Shared with the process's program cache and other executables.
  std::shared_ptr<const Program> program_;
  const phal_plugin_api_t* api_;
  phal_plugin_device_t* device_;
  bool runnable_;
  // PHAL_EXECUTE_TIMEOUT when the program was loaded: how long an
  // execution waits for the device before it fails with DEADLINE_EXCEEDED
  // (0: as long as the work takes).
  double execute_timeout_seconds_;
  // Null where the kernel is not needed (KernelsToEmit).
  std::vector<phal_plugin_kernel_t*> kernels_;
  std::vector<std::string> kernel_names_;
  // Per offloaded part: the plugin's kernel for it, or null; whether the
  // part writes each of its parameters.
  std::vector<phal_plugin_kernel_t*> part_kernels_;
  std::vector<std::vector<bool>> part_writes_parameter_;
  std::vector<phal_plugin_buffer_t*> constants_;
  mutable std::mutex idle_streams_mutex_;
  mutable std::vector<phal_plugin_stream_t*> idle_streams_;
};

}  // namespace phal

#endif  // POLYHAL_CORE_EXECUTOR_EXECUTOR_H_
