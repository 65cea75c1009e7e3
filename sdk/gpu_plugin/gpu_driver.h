// What a GPU plugin implements once: its vendor runtime behind GpuDriver
// (the operations a CUDA-driver- or HIP-shaped runtime has: devices and
// their contexts, device memory, asynchronous copies on streams, events,
// modules of one kernel and their launch) and the rest of the vendor behind
// GpuVendor (names, targets, the compiler from KIR to the runtime's image,
// the dump of device code). The layer (gpu_device.h, gpu_memory.h,
// gpu_stream.h, gpu_event.h, gpu_kernel.h) writes every slot of plugin.h
// on top of them: the device catalogue with the emulated device, the
// compile-only devices of the targets, buffers, stream error bookkeeping,
// copies between devices and runtimes, events across runtimes, kernel
// serialization and the memory and disk caches of compiled kernels.
//
// A plugin's runtime and its grid emulator are two GpuDrivers over the
// same vendor table (the emulator's built on gpu_emulator.h), so the
// emulated device runs the code path a GPU runs.
#ifndef POLYHAL_SDK_GPU_PLUGIN_GPU_DRIVER_H_
#define POLYHAL_SDK_GPU_PLUGIN_GPU_DRIVER_H_

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "polyhal/kernel.h"
#include "sdk/base/status.h"
#include "sdk/emitters/llvm/spmd_target.h"
#include "sdk/plugin_support/collective_desc.h"

namespace phal::gpu_plugin {

class GpuDriver;

// A device address: a CUdeviceptr, or a HIP pointer as an integer. The
// layer never dereferences one.
using GpuAddress = uint64_t;
// The runtime's handles, opaque to the layer. A null stream is the
// runtime's default stream.
using GpuStream = void*;
using GpuEvent = void*;
using GpuModule = void*;
using GpuFunction = void*;

// A device as the runtime's calls name it: its ordinal and the context the
// driver's OpenDevice made for it (NULL where the runtime has none).
struct GpuPlace {
  int device = 0;
  void* context = nullptr;
};

// What the plugin reads of a device once, when it lists them, or makes up
// for a compile-only device of a target.
struct GpuDeviceInfo {
  // The driver the device belongs to; NULL on a compile-only device.
  const GpuDriver* driver = nullptr;
  int device = 0;  // the ordinal in that driver
  bool emulated = false;
  std::string name;
  // What kernels compile for ("gfx90a", "sm_90").
  std::string arch;
  int compute_units = 0;
  uint64_t memory_bytes = 0;
  // The device's architecture and limits as the properties' features
  // name them ("gfx90a:sramecc+:xnack- compute_units=104 ...").
  std::string limits;
  // The properties' UUID: the layer's for emulated devices (distinct per
  // PHAL_VIRTUAL_DEVICES device); all zero where the runtime gives none.
  std::array<uint8_t, 16> uuid{};
};

// A collective library of a runtime's devices (NCCL for CUDA, RCCL for
// HIP), which moves and reduces data on the devices themselves. The
// layer's collective slots (gpu_collectives.cc) meet every rank of a
// communicator on the host first (the description agreed, the timeout
// kept, abort honoured) and then hand the library each rank's part of a
// collective it runs; the others are staged through host memory.
// Implementations are immutable once made: every method may be called
// from any thread.
class GpuCollectiveLibrary {
 public:
  // One rank's handle, opaque to the layer.
  using Communicator = void*;

  virtual ~GpuCollectiveLibrary() = default;

  // "nccl-2.28.9": one word, which the devices' features report as
  // collectives=<it>.
  virtual std::string Description() const = 0;
  // Whether the library runs `desc` on a communicator of `ranks` ranks
  // with the bits plugin.h's layouts give (a reduction in another order
  // than the ranks' changes floating-point bits). Every rank asks with
  // the same description, so all take the same way.
  virtual bool Runs(const CollectiveDesc& desc, uint32_t ranks) const = 0;
  // One communicator over `places` (distinct devices of the driver): rank
  // i's handle in (*out)[i].
  virtual Status Create(std::span<const GpuPlace> places,
                        std::vector<Communicator>* out) const = 0;
  virtual void Destroy(Communicator communicator) const = 0;
  // Ends the rank's collectives that wait on the device for a peer; the
  // handle then only accepts Destroy.
  virtual void Abort(Communicator communicator) const = 0;
  // Queues rank `rank`'s part of `desc` (one Runs accepted) on `stream`,
  // the calling thread's current device being the rank's; `send` and
  // `recv` hold the layout's ranges.
  virtual Status Queue(Communicator communicator, uint32_t rank, uint32_t ranks,
                       const CollectiveDesc& desc, GpuAddress send,
                       GpuAddress recv, GpuStream stream) const = 0;

  // Communicators over devices of several processes (ABI 1.12), for a
  // library that spans processes itself (NCCL over its own network); the
  // defaults say it does not.
  virtual bool Joins() const { return false; }
  // The identifier of a new communicator, made on `place`'s behalf.
  virtual Status MakeId(const GpuPlace& /*place*/,
                        phal_communicator_id_t* /*out*/) const {
    return Unimplemented(Description() + " does not span processes");
  }
  // Joins `places` (distinct devices of the driver) as `ranks` of the
  // communicator `id` of `rank_count` ranks: each place's handle in
  // (*out)[i]. Returns once every rank of every process has joined.
  virtual Status Join(const phal_communicator_id_t& /*id*/,
                      uint32_t /*rank_count*/,
                      std::span<const GpuPlace> /*places*/,
                      std::span<const uint32_t> /*ranks*/,
                      std::vector<Communicator>* /*out*/) const {
    return Unimplemented(Description() + " does not span processes");
  }
};

// The vendor runtime. Every operation but the listing acts on the calling
// thread's current device, which the layer sets with Enter around it
// (ScopedDevice). An error names the runtime's call and result and has the
// code the vendor's mapping gives it. Implementations are immutable once
// made: every method may be called from any thread.
class GpuDriver {
 public:
  virtual ~GpuDriver() = default;

  // "the HIP runtime 6.0.32830": the subject of "... found no GPU".
  virtual std::string Description() const = 0;
  // The device properties' driver_version, and the first words of their
  // features ("hip 6.0.32830").
  virtual std::string PropertiesVersion() const = 0;
  virtual std::string FeaturesVersion() const = 0;

  virtual Status CountDevices(int* out_count) const = 0;
  // Fills everything but `driver`, `device` and `emulated`, which the
  // layer sets. An error refuses the device.
  virtual Status ReadDevice(int ordinal, GpuDeviceInfo* out) const = 0;

  // Makes what the runtime needs before the device's first call (CUDA's
  // primary context); CloseDevice undoes it when the device closes.
  virtual Status OpenDevice(int device, void** out_context) const = 0;
  virtual void CloseDevice(int device) const = 0;
  // Makes `place` the calling thread's current device, saving what Leave
  // needs to restore the caller's.
  virtual Status Enter(const GpuPlace& place, intptr_t* out_saved) const = 0;
  virtual void Leave(const GpuPlace& place, intptr_t saved) const = 0;

  // `bytes` (at least 1) of device memory; Free never fails the caller.
  virtual Status Allocate(uint64_t bytes, GpuAddress* out) const = 0;
  virtual void Free(GpuAddress address) const = 0;

  virtual Status CopyHostToDevice(GpuAddress destination, const void* source,
                                  uint64_t bytes, GpuStream stream) const = 0;
  virtual Status CopyDeviceToHost(void* destination, GpuAddress source,
                                  uint64_t bytes, GpuStream stream) const = 0;
  virtual Status CopyDeviceToDevice(GpuAddress destination, GpuAddress source,
                                    uint64_t bytes, GpuStream stream) const = 0;
  // Whether CopyPeer exists: a copy between two devices of this driver.
  virtual bool HasPeerCopy() const = 0;
  virtual Status CopyPeer(GpuAddress destination, const GpuPlace& to,
                          GpuAddress source, const GpuPlace& from,
                          uint64_t bytes, GpuStream stream) const = 0;

  // A stream that never waits for the default stream.
  virtual Status CreateStream(GpuStream* out) const = 0;
  virtual void DestroyStream(GpuStream stream) const = 0;
  virtual Status SynchronizeStream(GpuStream stream) const = 0;
  virtual Status StreamWaitEvent(GpuStream stream, GpuEvent event) const = 0;

  // An event without timing.
  virtual Status CreateEvent(GpuEvent* out) const = 0;
  virtual void DestroyEvent(GpuEvent event) const = 0;
  virtual Status RecordEvent(GpuEvent event, GpuStream stream) const = 0;
  virtual Status SynchronizeEvent(GpuEvent event) const = 0;
  // Whether the event has fired; never blocks.
  virtual StatusOr<bool> QueryEvent(GpuEvent event) const = 0;

  // `image` (the vendor compiler's output) loaded; `kernel` names it in
  // errors.
  virtual Status LoadModule(const std::string& image, const std::string& kernel,
                            GpuModule* out) const = 0;
  virtual void UnloadModule(GpuModule module) const = 0;
  virtual Status GetFunction(GpuModule module, const char* symbol,
                             const std::string& kernel,
                             GpuFunction* out) const = 0;
  // Queues `function` on `stream`; `parameters` point at each argument.
  virtual Status Launch(GpuFunction function, const uint32_t grid[3],
                        const uint32_t block[3], uint32_t shared_bytes,
                        GpuStream stream, void** parameters) const = 0;

  // The collective library of the runtime's devices; NULL where there is
  // none (the layer then stages every collective through host memory).
  virtual const GpuCollectiveLibrary* CollectiveLibrary() const {
    return nullptr;
  }
};

// Declares every GpuDriver method as an override, in the class body of a
// plugin's driver; the plugin defines each in the concept file it belongs
// to (a method left out or misspelt does not compile).
#define PHAL_GPU_DRIVER_OVERRIDES()                                            \
  std::string Description() const override;                                    \
  std::string PropertiesVersion() const override;                              \
  std::string FeaturesVersion() const override;                                \
  Status CountDevices(int* out_count) const override;                          \
  Status ReadDevice(int ordinal, ::phal::gpu_plugin::GpuDeviceInfo* out)       \
      const override;                                                          \
  Status OpenDevice(int device, void** out_context) const override;            \
  void CloseDevice(int device) const override;                                 \
  Status Enter(const ::phal::gpu_plugin::GpuPlace& place, intptr_t* out_saved) \
      const override;                                                          \
  void Leave(const ::phal::gpu_plugin::GpuPlace& place, intptr_t saved)        \
      const override;                                                          \
  Status Allocate(uint64_t bytes, ::phal::gpu_plugin::GpuAddress* out)         \
      const override;                                                          \
  void Free(::phal::gpu_plugin::GpuAddress address) const override;            \
  Status CopyHostToDevice(                                                     \
      ::phal::gpu_plugin::GpuAddress destination, const void* source,          \
      uint64_t bytes, ::phal::gpu_plugin::GpuStream stream) const override;    \
  Status CopyDeviceToHost(                                                     \
      void* destination, ::phal::gpu_plugin::GpuAddress source,                \
      uint64_t bytes, ::phal::gpu_plugin::GpuStream stream) const override;    \
  Status CopyDeviceToDevice(                                                   \
      ::phal::gpu_plugin::GpuAddress destination,                              \
      ::phal::gpu_plugin::GpuAddress source, uint64_t bytes,                   \
      ::phal::gpu_plugin::GpuStream stream) const override;                    \
  bool HasPeerCopy() const override;                                           \
  Status CopyPeer(::phal::gpu_plugin::GpuAddress destination,                  \
                  const ::phal::gpu_plugin::GpuPlace& to,                      \
                  ::phal::gpu_plugin::GpuAddress source,                       \
                  const ::phal::gpu_plugin::GpuPlace& from, uint64_t bytes,    \
                  ::phal::gpu_plugin::GpuStream stream) const override;        \
  Status CreateStream(::phal::gpu_plugin::GpuStream* out) const override;      \
  void DestroyStream(::phal::gpu_plugin::GpuStream stream) const override;     \
  Status SynchronizeStream(::phal::gpu_plugin::GpuStream stream)               \
      const override;                                                          \
  Status StreamWaitEvent(::phal::gpu_plugin::GpuStream stream,                 \
                         ::phal::gpu_plugin::GpuEvent event) const override;   \
  Status CreateEvent(::phal::gpu_plugin::GpuEvent* out) const override;        \
  void DestroyEvent(::phal::gpu_plugin::GpuEvent event) const override;        \
  Status RecordEvent(::phal::gpu_plugin::GpuEvent event,                       \
                     ::phal::gpu_plugin::GpuStream stream) const override;     \
  Status SynchronizeEvent(::phal::gpu_plugin::GpuEvent event) const override;  \
  StatusOr<bool> QueryEvent(::phal::gpu_plugin::GpuEvent event)                \
      const override;                                                          \
  Status LoadModule(const std::string& image, const std::string& kernel,       \
                    ::phal::gpu_plugin::GpuModule* out) const override;        \
  void UnloadModule(::phal::gpu_plugin::GpuModule module) const override;      \
  Status GetFunction(::phal::gpu_plugin::GpuModule module, const char* symbol, \
                     const std::string& kernel,                                \
                     ::phal::gpu_plugin::GpuFunction* out) const override;     \
  Status Launch(::phal::gpu_plugin::GpuFunction function,                      \
                const uint32_t grid[3], const uint32_t block[3],               \
                uint32_t shared_bytes, ::phal::gpu_plugin::GpuStream stream,   \
                void** parameters) const override;

// A kernel compiled for a device: the image its driver's LoadModule takes,
// and the launch the emitter chose.
struct GpuImage {
  std::string image;
  llvm_emitter::SpmdLaunch launch;
};

// The names of a vendor, which GpuVendor carries.
struct GpuVendorNames {
  const char* name;
  const char* vendor_name;
  const char* api_name;
  std::string_view serialization_magic;
};

// GpuVendor's runtime and emulator for a vendor whose driver class `Driver`
// wraps one table of its API, made as Driver(table, emulated):
// `runtime_table` answers the runtime's table (the same one for the
// process's life) or why there is none, `emulated_table` the grid
// emulator's. Each driver is made once and lives as long as the process.
template <typename Driver, auto runtime_table, auto emulated_table>
struct TableDrivers {
  static StatusOr<const GpuDriver*> Runtime() {
    PHAL_ASSIGN_OR_RETURN(const auto* table, runtime_table());
    static const Driver* driver = new Driver(*table, false);
    return driver;
  }
  static const GpuDriver& Emulator() {
    static const Driver* driver = new Driver(emulated_table(), true);
    return *driver;
  }
};

// The vendor: its names, targets, drivers and compiler, a constant the
// plugin fills once (every member; PHAL_GPU_PLUGIN_DEFINE_VENDOR,
// gpu_plugin.h).
struct GpuVendor {
  // "amd": messages say "amd plugin: ...", the disk cache is its folder.
  const char* name;
  // The properties' vendor ("AMD").
  const char* vendor_name;
  // "HIP": "no HIP device is usable".
  const char* api_name;
  // The plugin's version (PHAL_PLUGIN_VERSION): serialized kernels and
  // cache keys carry it.
  const char* version;
  // Eight bytes that open every serialized kernel ("PHALAMK1").
  std::string_view serialization_magic;
  // The targets a compile-only device is opened for (plugin.h,
  // target_get_names), in static storage.
  std::span<const char* const> targets;

  // The runtime's driver, or why there is none; the grid emulator's. Both
  // live as long as the process.
  StatusOr<const GpuDriver*> (*runtime)();
  const GpuDriver& (*emulator)();

  // What a compile-only device of `target` (one of `targets`) reports.
  GpuDeviceInfo (*compile_only_info)(std::string_view target);
  // What kernels of a device are compiled for ("hsaco gfx90a"): bytes
  // serialized for one target load only on devices of the same.
  std::string (*target_name)(const GpuDeviceInfo& device);
  // `kernel` compiled for `device` (its driver's image; the emulator's for
  // an emulated device).
  StatusOr<GpuImage> (*compile)(const phal_kernel_desc_t& kernel,
                                const GpuDeviceInfo& device);
  // Writes the device code of `kernel` (whose image for `device` is
  // `image`) as `name`.<extension> files into `directory`
  // (WriteKernelDump).
  Status (*dump)(const phal_kernel_desc_t& kernel, const GpuDeviceInfo& device,
                 const std::string& image, std::string_view directory,
                 const std::string& name);
};

// The plugin's vendor, defined once by the plugin (its <name>_plugin.cc);
// the layer's slot functions ask it.
const GpuVendor& Vendor();

// "amd plugin", which begins the layer's messages.
std::string PluginName();
// "amd plugin: " + `message`.
std::string PluginMessage(const std::string& message);

}  // namespace phal::gpu_plugin

#endif  // POLYHAL_SDK_GPU_PLUGIN_GPU_DRIVER_H_
