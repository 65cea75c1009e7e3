#include "core/loader/validation_layer.h"

#include <array>
#include <atomic>
#include <mutex>
#include <utility>

namespace phal {
namespace {

// The checks each table index forwards to; NULL while the index is free.
std::array<std::atomic<ValidatedPlugin*>, ValidationLayer::kMaxLayers>
    g_checks{};
std::mutex g_indices_mutex;
std::array<bool, ValidationLayer::kMaxLayers> g_index_used{};

// A plain function for slot `Method` of the layer at table index `Index`.
template <size_t Index, auto Method>
struct Slot;

template <size_t Index, typename Result, typename... Args,
          Result (ValidatedPlugin::*Method)(Args...)>
struct Slot<Index, Method> {
  static Result Call(Args... args) {
    return (g_checks[Index].load(std::memory_order_acquire)->*Method)(args...);
  }
};

template <size_t Index>
phal_plugin_api_t SlotTable() {
  using V = ValidatedPlugin;
  phal_plugin_api_t table{};
  table.device_count = Slot<Index, &V::DeviceCount>::Call;
  table.device_open = Slot<Index, &V::DeviceOpen>::Call;
  table.device_close = Slot<Index, &V::DeviceClose>::Call;
  table.device_get_properties = Slot<Index, &V::DeviceGetProperties>::Call;
  table.device_get_memory_space = Slot<Index, &V::DeviceGetMemorySpace>::Call;
  table.buffer_allocate = Slot<Index, &V::BufferAllocate>::Call;
  table.buffer_free = Slot<Index, &V::BufferFree>::Call;
  table.stream_create = Slot<Index, &V::StreamCreate>::Call;
  table.stream_destroy = Slot<Index, &V::StreamDestroy>::Call;
  table.stream_synchronize = Slot<Index, &V::StreamSynchronize>::Call;
  table.stream_copy_from_host = Slot<Index, &V::StreamCopyFromHost>::Call;
  table.stream_copy_to_host = Slot<Index, &V::StreamCopyToHost>::Call;
  table.stream_copy_buffer = Slot<Index, &V::StreamCopyBuffer>::Call;
  table.event_create = Slot<Index, &V::EventCreate>::Call;
  table.event_destroy = Slot<Index, &V::EventDestroy>::Call;
  table.stream_record_event = Slot<Index, &V::StreamRecordEvent>::Call;
  table.stream_wait_event = Slot<Index, &V::StreamWaitEvent>::Call;
  table.event_synchronize = Slot<Index, &V::EventSynchronize>::Call;
  table.event_query = Slot<Index, &V::EventQuery>::Call;
  table.kernel_emit = Slot<Index, &V::KernelEmit>::Call;
  table.kernel_destroy = Slot<Index, &V::KernelDestroy>::Call;
  table.kernel_serialize = Slot<Index, &V::KernelSerialize>::Call;
  table.kernel_deserialize = Slot<Index, &V::KernelDeserialize>::Call;
  table.stream_launch = Slot<Index, &V::StreamLaunch>::Call;
  table.target_get_names = Slot<Index, &V::TargetGetNames>::Call;
  table.target_device_open = Slot<Index, &V::TargetDeviceOpen>::Call;
  table.device_get_counters = Slot<Index, &V::DeviceGetCounters>::Call;
  table.device_reset_counters = Slot<Index, &V::DeviceResetCounters>::Call;
  static_assert(sizeof(phal_plugin_api_t) ==
                    offsetof(phal_plugin_api_t, device_reset_counters) +
                        sizeof(table.device_reset_counters),
                "a slot was appended to phal_plugin_api_t without a check");
  return table;
}

template <size_t... Index>
std::array<phal_plugin_api_t, sizeof...(Index)> MakeSlotTables(
    std::index_sequence<Index...>) {
  return {SlotTable<Index>()...};
}

const phal_plugin_api_t& SlotTableAt(size_t index) {
  static const auto tables =
      MakeSlotTables(std::make_index_sequence<ValidationLayer::kMaxLayers>());
  return tables[index];
}

}  // namespace

bool ValidationRequested() {
  const std::string value = GetEnv("PHAL_VALIDATION");
  return value == "1" || value == "true" || value == "on" || value == "yes";
}

StatusOr<std::unique_ptr<ValidationLayer>> ValidationLayer::Create(
    const phal_plugin_api_t& plugin, const std::string& plugin_name,
    const Logger& log) {
  size_t index = 0;
  {
    std::lock_guard<std::mutex> lock(g_indices_mutex);
    while (index < kMaxLayers && g_index_used[index]) ++index;
    if (index == kMaxLayers) {
      return ResourceExhausted(
          "validation layer: " + std::to_string(kMaxLayers) +
          " validated plugins are open in this process already; destroy a "
          "client before validating plugin '" +
          plugin_name + "'");
    }
    g_index_used[index] = true;
  }
  auto checks = std::make_unique<ValidatedPlugin>(plugin, plugin_name, log);
  phal_plugin_api_t table = SlotTableAt(index);
  table.struct_size = sizeof(table);
  table.abi_version = plugin.abi_version;
  table.name = plugin.name;
  table.version = plugin.version;
  table.shutdown = plugin.shutdown;
  g_checks[index].store(checks.get(), std::memory_order_release);
  return std::unique_ptr<ValidationLayer>(
      new ValidationLayer(index, std::move(checks), table));
}

ValidationLayer::ValidationLayer(size_t index,
                                 std::unique_ptr<ValidatedPlugin> checks,
                                 const phal_plugin_api_t& table)
    : index_(index), checks_(std::move(checks)), table_(table) {}

ValidationLayer::~ValidationLayer() {
  g_checks[index_].store(nullptr, std::memory_order_release);
  std::lock_guard<std::mutex> lock(g_indices_mutex);
  g_index_used[index_] = false;
}

}  // namespace phal
