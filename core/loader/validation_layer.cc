#include "core/loader/validation_layer.h"

#include <array>
#include <atomic>
#include <mutex>
#include <utility>

#include "sdk/plugin_support/plugin_slot_list.h"

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

// The layer's table at `Index`: every slot of the list (plugin_slot_list.h)
// calls the check of its name (validated_plugin.h).
template <size_t Index>
phal_plugin_api_t SlotTable() {
  phal_plugin_api_t table{};
#define PHAL_VALIDATED_SLOT_(major, minor, slot, Function, group) \
  table.slot = Slot<Index, &ValidatedPlugin::Function>::Call;
  PHAL_PLUGIN_SLOTS(PHAL_VALIDATED_SLOT_)
#undef PHAL_VALIDATED_SLOT_
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
  // The plugin's own: the library calls shutdown after the client, and its
  // layers, are gone.
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
