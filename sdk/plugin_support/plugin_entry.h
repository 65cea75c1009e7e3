// A plugin's entry point from one description: the plugin fills one
// phal_plugin_api_t with every slot of the newest ABI it speaks, names
// itself and its ABI range, and PHAL_PLUGIN_DEFINE_ENTRY writes
// `phal_plugin_entry` (plugin.h): version negotiation, host services, and
// the table each ABI version expects, cut where that version's table ends.
//
//   constexpr phal_plugin_api_t AcmeApi() {
//     phal_plugin_api_t api{};  // the header, and every slot left NULL
//     api.shutdown = Shutdown;
//     api.device_count = DeviceCount;
//     ...
//     return api;
//   }
//   constexpr phal::PluginDefinition kDefinition = {
//       .name = "acme",
//       .version = "1.0.0",
//       .min_abi_version = PHAL_MAKE_VERSION(1, 0),
//       .max_abi_version = PHAL_MAKE_VERSION(1, 2),
//       .api = AcmeApi(),
//   };
//   PHAL_PLUGIN_DEFINE_ENTRY(kDefinition)
//
// A plugin built by phal_add_plugin whose slot functions are named after
// their slots (DeviceCount for device_count, ...; plugin_slots.h declares
// them) writes all of it as
//
//   PHAL_PLUGIN_DEFINE_ENTRY_BY_SLOT_NAME(acme, PHAL_MAKE_VERSION(1, 0),
//                                         PHAL_MAKE_VERSION(1, 2))
//
// and names the optional slot groups it defines as a fourth argument
// (PluginSlotGroup, plugin_slot_list.h): one that compiles for targets
// without a device (ABI 1.4: TargetGetNames, TargetDeviceOpen) and whose
// devices keep performance counters (ABI 1.5: DeviceGetCounters,
// DeviceResetCounters) writes
//
//   PHAL_PLUGIN_DEFINE_ENTRY_BY_SLOT_NAME(
//       acme, PHAL_MAKE_VERSION(1, 0), PHAL_ABI_VERSION,
//       phal::kPluginTargetSlots | phal::kPluginCounterSlots)
//
// The header of `api` (struct_size, next, abi_version, name, version) is
// filled by the helper; leave it zero. (A designated initializer naming
// only some members of `api` does the same, but GCC's -Wextra warns about
// the members it leaves out.) The tables live as long as the library. The
// entry point may be called from any thread, any number of times; each
// call installs the host services it is given.
#ifndef POLYHAL_SDK_PLUGIN_SUPPORT_PLUGIN_ENTRY_H_
#define POLYHAL_SDK_PLUGIN_SUPPORT_PLUGIN_ENTRY_H_

#include <array>
#include <cstddef>
#include <cstdint>

#include "polyhal/plugin.h"
#include "sdk/plugin_support/plugin_slot_list.h"

namespace phal {

// One ABI version the helper can hand out, and the size of its table
// (where that version's last slot ends, so a minor version that appends no
// slot has its predecessor's; plugin.h's PHAL_PLUGIN_API_STRUCT_SIZE_*).
struct PluginAbiVersion {
  uint32_t version;
  uint32_t table_size;
};

// Every minor version of the ABI the headers declare, oldest first, each
// with its table size from the slot list (plugin_slot_list.h).
inline constexpr size_t kPluginAbiVersionCount = PHAL_ABI_VERSION_MINOR + 1;
inline constexpr auto kPluginAbiVersions = [] {
  std::array<PluginAbiVersion, kPluginAbiVersionCount> versions{};
  for (uint32_t minor = 0; minor < kPluginAbiVersionCount; ++minor) {
    const uint32_t version = PHAL_MAKE_VERSION(PHAL_ABI_VERSION_MAJOR, minor);
    versions[minor] = {version,
                       static_cast<uint32_t>(PluginTableSize(version))};
  }
  return versions;
}();
static_assert(kPluginAbiVersions[kPluginAbiVersionCount - 1].table_size ==
              sizeof(phal_plugin_api_t));

// True when the helper can hand out a table of ABI `version`.
constexpr bool IsKnownPluginAbiVersion(uint32_t version) {
  for (const PluginAbiVersion& known : kPluginAbiVersions) {
    if (known.version == version) return true;
  }
  return false;
}

// What a plugin writes once. Static storage; read-only after construction.
struct PluginDefinition {
  const char* name;     // e.g. "cpu"; static string
  const char* version;  // the plugin's release, e.g. "1.2.0"; static string
  uint32_t min_abi_version;
  uint32_t max_abi_version;
  // Every slot of max_abi_version's table. `shutdown` is called before the
  // helper forgets the host services.
  phal_plugin_api_t api;
};

// The tables of one plugin, one per ABI version of kPluginAbiVersions,
// built once; Negotiate hands out those inside the plugin's range.
// Thread-safe after construction.
class PluginEntry {
 public:
  // `shutdown` fills every table's shutdown slot: a function that calls
  // ShutdownPlugin(definition) (PHAL_PLUGIN_DEFINE_ENTRY writes it).
  PluginEntry(const PluginDefinition& definition, void (*shutdown)(void));

  // phal_plugin_entry's body (plugin.h): writes the plugin's range into
  // `negotiation` whenever its struct_size reaches those members, and
  // returns the table of the newest version both sides speak after
  // installing the host services, or NULL when the ranges do not meet, the
  // record is too short, or the host services lack status_create.
  const phal_plugin_api_t* Negotiate(
      phal_plugin_negotiation_t* negotiation) const noexcept;

 private:
  const PluginDefinition& definition_;
  phal_plugin_api_t tables_[kPluginAbiVersionCount];
};

// The plugin's own shutdown, then forgetting the host services: the core
// makes no call after shutdown.
void ShutdownPlugin(const PluginDefinition& definition) noexcept;

}  // namespace phal

// Defines the exported `phal_plugin_entry` for `definition`, a constexpr
// phal::PluginDefinition with static storage. Use once per plugin, at
// namespace scope outside any namespace.
#define PHAL_PLUGIN_DEFINE_ENTRY(definition)                                   \
  static_assert(::phal::IsKnownPluginAbiVersion((definition).min_abi_version), \
                "min_abi_version is not in phal::kPluginAbiVersions");         \
  static_assert(::phal::IsKnownPluginAbiVersion((definition).max_abi_version), \
                "max_abi_version is not in phal::kPluginAbiVersions");         \
  static void PhalPluginShutdown(void) { ::phal::ShutdownPlugin(definition); } \
  extern "C" PHAL_EXPORT const phal_plugin_api_t* phal_plugin_entry(           \
      phal_plugin_negotiation_t* negotiation) {                                \
    static const ::phal::PluginEntry entry(definition, PhalPluginShutdown);    \
    return entry.Negotiate(negotiation);                                       \
  }

// The whole entry point of a plugin built by phal_add_plugin (which defines
// PHAL_PLUGIN_NAME and PHAL_PLUGIN_VERSION) whose slot functions live in
// namespace `ns`, each named after its slot (device_count: ns::DeviceCount),
// speaking ABI `min_abi` to `max_abi`. The table holds every core slot and
// the slots of the optional groups named by the fourth argument
// (PluginSlotGroup bits; none when it is left out); the slots of the other
// groups stay NULL, and the core answers them. A table of an older version
// is cut where that version ends, so an older core never sees the newer
// slots.
#define PHAL_PLUGIN_DEFINE_ENTRY_BY_SLOT_NAME(ns, min_abi, max_abi, ...)  \
  static_assert(::phal::PluginSlotGroupsWithin(                           \
                    PHAL_PLUGIN_OPTIONAL_SLOTS_(__VA_ARGS__), (max_abi)), \
                "an optional slot group is newer than max_abi: every "    \
                "table of the plugin would leave it out");                \
  PHAL_PLUGIN_DEFINE_ENTRY_FROM_API(                                      \
      min_abi, max_abi,                                                   \
      PHAL_PLUGIN_API_BY_SLOT_NAME_(ns,                                   \
                                    PHAL_PLUGIN_OPTIONAL_SLOTS_(__VA_ARGS__)))

#define PHAL_PLUGIN_OPTIONAL_SLOTS_(...) \
  static_cast<uint32_t>(::phal::kPluginCoreSlots __VA_OPT__(| (__VA_ARGS__)))

// The table of PHAL_PLUGIN_DEFINE_ENTRY_BY_SLOT_NAME, one assignment per row
// of the slot list. A slot of a group the plugin leaves out is a discarded
// statement, so its function need not be defined.
#define PHAL_PLUGIN_API_BY_SLOT_NAME_(ns, optional_slots)     \
  [] {                                                        \
    namespace phal_slot_functions = ns;                       \
    constexpr uint32_t kPhalOptionalSlots = (optional_slots); \
    phal_plugin_api_t api{};                                  \
    PHAL_PLUGIN_SLOTS(PHAL_PLUGIN_SET_SLOT_BY_NAME_)          \
    return api;                                               \
  }()

#define PHAL_PLUGIN_SET_SLOT_BY_NAME_(major, minor, slot, Function, group) \
  if constexpr ((kPhalOptionalSlots & ::phal::group) == ::phal::group) {   \
    api.slot = phal_slot_functions::Function;                              \
  }

// The entry point of a plugin built by phal_add_plugin from `table`, a
// constant phal_plugin_api_t initializer.
#define PHAL_PLUGIN_DEFINE_ENTRY_FROM_API(min_abi, max_abi, table)    \
  static constexpr ::phal::PluginDefinition kPhalPluginDefinition = { \
      .name = PHAL_PLUGIN_NAME,                                       \
      .version = PHAL_PLUGIN_VERSION,                                 \
      .min_abi_version = (min_abi),                                   \
      .max_abi_version = (max_abi),                                   \
      .api = table,                                                   \
  };                                                                  \
  PHAL_PLUGIN_DEFINE_ENTRY(kPhalPluginDefinition)

#endif  // POLYHAL_SDK_PLUGIN_SUPPORT_PLUGIN_ENTRY_H_
