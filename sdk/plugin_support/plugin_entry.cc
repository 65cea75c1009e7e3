#include "sdk/plugin_support/plugin_entry.h"

#include <algorithm>
#include <cstring>

#include "sdk/plugin_support/plugin_host.h"

namespace phal {
namespace {

// The negotiation record reaches the members the plugin writes; a shorter
// one cannot carry the answer.
bool HasPluginVersionFields(const phal_plugin_negotiation_t& negotiation) {
  constexpr size_t kEnd =
      PHAL_STRUCT_SIZE(phal_plugin_negotiation_t, plugin_max_version);
  return negotiation.struct_size >= kEnd;
}

// `api` cut where ABI `row`'s table ends, with the helper's header.
phal_plugin_api_t TableFor(const PluginDefinition& definition,
                           const PluginAbiVersion& row,
                           void (*shutdown)(void)) {
  phal_plugin_api_t table = definition.api;
  table.struct_size = row.table_size;
  table.next = nullptr;
  table.abi_version = row.version;
  table.name = definition.name;
  table.version = definition.version;
  table.shutdown = shutdown;
  std::memset(reinterpret_cast<char*>(&table) + row.table_size, 0,
              sizeof(table) - row.table_size);
  return table;
}

}  // namespace

PluginEntry::PluginEntry(const PluginDefinition& definition,
                         void (*shutdown)(void))
    : definition_(definition), tables_{} {
  for (size_t i = 0; i < kPluginAbiVersionCount; ++i) {
    tables_[i] = TableFor(definition, kPluginAbiVersions[i], shutdown);
  }
}

const phal_plugin_api_t* PluginEntry::Negotiate(
    phal_plugin_negotiation_t* negotiation) const noexcept {
  if (negotiation == nullptr || !HasPluginVersionFields(*negotiation)) {
    return nullptr;
  }
  negotiation->plugin_min_version = definition_.min_abi_version;
  negotiation->plugin_max_version = definition_.max_abi_version;
  const uint32_t lowest =
      std::max(negotiation->core_min_version, definition_.min_abi_version);
  const uint32_t highest =
      std::min(negotiation->core_max_version, definition_.max_abi_version);
  if (lowest > highest) return nullptr;
  for (size_t i = kPluginAbiVersionCount; i-- > 0;) {
    const uint32_t version = kPluginAbiVersions[i].version;
    if (version > highest || version < lowest) continue;
    if (!InstallHostServices(negotiation->host, definition_.name)) {
      return nullptr;
    }
    return &tables_[i];
  }
  return nullptr;
}

void ShutdownPlugin(const PluginDefinition& definition) noexcept {
  if (definition.api.shutdown != nullptr) definition.api.shutdown();
  UninstallHostServices();
}

}  // namespace phal
