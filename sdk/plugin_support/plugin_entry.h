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
// their slots (DeviceCount for device_count, ...) writes all of it as
//
//   PHAL_PLUGIN_DEFINE_ENTRY_BY_SLOT_NAME(acme, PHAL_MAKE_VERSION(1, 0),
//                                         PHAL_MAKE_VERSION(1, 2))
//
// or, when it also compiles for targets without a device (ABI 1.4's
// target_get_names and target_device_open, as TargetGetNames and
// TargetDeviceOpen), as PHAL_PLUGIN_DEFINE_ENTRY_WITH_TARGETS_BY_SLOT_NAME,
// and when its devices keep performance counters as well (ABI 1.5's
// device_get_counters and device_reset_counters, as DeviceGetCounters and
// DeviceResetCounters), as
// PHAL_PLUGIN_DEFINE_ENTRY_WITH_TARGETS_AND_COUNTERS_BY_SLOT_NAME.
//
// The header of `api` (struct_size, next, abi_version, name, version) is
// filled by the helper; leave it zero. (A designated initializer naming
// only some members of `api` does the same, but GCC's -Wextra warns about
// the members it leaves out.) The tables live as long as the library. The
// entry point may be called from any thread, any number of times; each
// call installs the host services it is given.
#ifndef POLYHAL_SDK_PLUGIN_SUPPORT_PLUGIN_ENTRY_H_
#define POLYHAL_SDK_PLUGIN_SUPPORT_PLUGIN_ENTRY_H_

#include <cstddef>
#include <cstdint>
#include <iterator>

#include "polyhal/plugin.h"

namespace phal {

// One ABI version the helper can hand out, and the size of its table
// (plugin.h's PHAL_PLUGIN_API_STRUCT_SIZE_*: where that version's last slot
// ends, so a minor version that appends no slot has its predecessor's).
struct PluginAbiVersion {
  uint32_t version;
  uint32_t table_size;
};

// Oldest first. Supporting a new ABI version is adding its row.
inline constexpr PluginAbiVersion kPluginAbiVersions[] = {
    {PHAL_MAKE_VERSION(1, 0), PHAL_PLUGIN_API_STRUCT_SIZE_1_0},
    {PHAL_MAKE_VERSION(1, 1), PHAL_PLUGIN_API_STRUCT_SIZE_1_1},
    {PHAL_MAKE_VERSION(1, 2), PHAL_PLUGIN_API_STRUCT_SIZE_1_2},
    {PHAL_MAKE_VERSION(1, 3), PHAL_PLUGIN_API_STRUCT_SIZE_1_3},
    {PHAL_MAKE_VERSION(1, 4), PHAL_PLUGIN_API_STRUCT_SIZE_1_4},
    {PHAL_MAKE_VERSION(1, 5), PHAL_PLUGIN_API_STRUCT_SIZE_1_5},
};
inline constexpr size_t kPluginAbiVersionCount = std::size(kPluginAbiVersions);
static_assert(kPluginAbiVersions[kPluginAbiVersionCount - 1].version ==
                      PHAL_ABI_VERSION &&
                  kPluginAbiVersions[kPluginAbiVersionCount - 1].table_size ==
                      sizeof(phal_plugin_api_t),
              "the ABI has a version kPluginAbiVersions lacks: add its row");

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

// The slots every plugin of this tree fills, as designated initializers,
// for a plugin whose slot functions live in namespace `ns`, each named after
// its slot in CamelCase (device_count: ns::DeviceCount, stream_launch:
// ns::StreamLaunch). The header is left to the helper.
#define PHAL_PLUGIN_DEVICE_SLOTS_BY_NAME(ns)                                   \
  .struct_size = 0, .next = nullptr, .abi_version = 0, .name = nullptr,        \
  .version = nullptr, .shutdown = ns::Shutdown,                                \
  .device_count = ns::DeviceCount, .device_open = ns::DeviceOpen,              \
  .device_close = ns::DeviceClose,                                             \
  .device_get_properties = ns::DeviceGetProperties,                            \
  .device_get_memory_space = ns::DeviceGetMemorySpace,                         \
  .buffer_allocate = ns::BufferAllocate, .buffer_free = ns::BufferFree,        \
  .stream_create = ns::StreamCreate, .stream_destroy = ns::StreamDestroy,      \
  .stream_synchronize = ns::StreamSynchronize,                                 \
  .stream_copy_from_host = ns::StreamCopyFromHost,                             \
  .stream_copy_to_host = ns::StreamCopyToHost,                                 \
  .stream_copy_buffer = ns::StreamCopyBuffer, .event_create = ns::EventCreate, \
  .event_destroy = ns::EventDestroy,                                           \
  .stream_record_event = ns::StreamRecordEvent,                                \
  .stream_wait_event = ns::StreamWaitEvent,                                    \
  .event_synchronize = ns::EventSynchronize, .event_query = ns::EventQuery,    \
  .kernel_emit = ns::KernelEmit, .kernel_destroy = ns::KernelDestroy,          \
  .kernel_serialize = ns::KernelSerialize,                                     \
  .kernel_deserialize = ns::KernelDeserialize,                                 \
  .stream_launch = ns::StreamLaunch

// The table of a plugin that compiles only for the devices it opens: every
// slot above by name, the ahead-of-time slots of ABI 1.4 and the counter
// slots of ABI 1.5 NULL (the core answers that the plugin compiles for no
// target and that its devices have no counters).
#define PHAL_PLUGIN_API_BY_SLOT_NAME(ns)                                  \
  {                                                                       \
    PHAL_PLUGIN_DEVICE_SLOTS_BY_NAME(ns),                                 \
        .target_get_names = nullptr, .target_device_open = nullptr,       \
        .device_get_counters = nullptr, .device_reset_counters = nullptr, \
  }

// The table of a plugin that also compiles ahead of time, with no device
// (plugin.h, ABI 1.4): ns::TargetGetNames and ns::TargetDeviceOpen too.
#define PHAL_PLUGIN_API_WITH_TARGETS_BY_SLOT_NAME(ns)                     \
  {                                                                       \
    PHAL_PLUGIN_DEVICE_SLOTS_BY_NAME(ns),                                 \
        .target_get_names = ns::TargetGetNames,                           \
        .target_device_open = ns::TargetDeviceOpen,                       \
        .device_get_counters = nullptr, .device_reset_counters = nullptr, \
  }

// The table of a plugin that compiles ahead of time and whose devices keep
// performance counters (plugin.h, ABI 1.5): ns::DeviceGetCounters and
// ns::DeviceResetCounters too.
#define PHAL_PLUGIN_API_WITH_TARGETS_AND_COUNTERS_BY_SLOT_NAME(ns) \
  {                                                                \
    PHAL_PLUGIN_DEVICE_SLOTS_BY_NAME(ns),                          \
        .target_get_names = ns::TargetGetNames,                    \
        .target_device_open = ns::TargetDeviceOpen,                \
        .device_get_counters = ns::DeviceGetCounters,              \
        .device_reset_counters = ns::DeviceResetCounters,          \
  }

// The whole entry point of a plugin built by phal_add_plugin (which defines
// PHAL_PLUGIN_NAME and PHAL_PLUGIN_VERSION) whose slots are named as
// PHAL_PLUGIN_API_BY_SLOT_NAME expects, speaking ABI `min_abi` to `max_abi`.
#define PHAL_PLUGIN_DEFINE_ENTRY_BY_SLOT_NAME(ns, min_abi, max_abi) \
  PHAL_PLUGIN_DEFINE_ENTRY_FROM_API(min_abi, max_abi,               \
                                    PHAL_PLUGIN_API_BY_SLOT_NAME(ns))

// The same for a plugin that compiles ahead of time: its table is
// PHAL_PLUGIN_API_WITH_TARGETS_BY_SLOT_NAME(ns). A core older than ABI 1.4
// never sees the target slots (the table is cut where its version ends).
#define PHAL_PLUGIN_DEFINE_ENTRY_WITH_TARGETS_BY_SLOT_NAME(ns, min_abi, \
                                                           max_abi)     \
  PHAL_PLUGIN_DEFINE_ENTRY_FROM_API(                                    \
      min_abi, max_abi, PHAL_PLUGIN_API_WITH_TARGETS_BY_SLOT_NAME(ns))

// The same for a plugin that compiles ahead of time and counts: its table
// is PHAL_PLUGIN_API_WITH_TARGETS_AND_COUNTERS_BY_SLOT_NAME(ns). A core
// older than ABI 1.5 never sees the counter slots.
#define PHAL_PLUGIN_DEFINE_ENTRY_WITH_TARGETS_AND_COUNTERS_BY_SLOT_NAME( \
    ns, min_abi, max_abi)                                                \
  PHAL_PLUGIN_DEFINE_ENTRY_FROM_API(                                     \
      min_abi, max_abi,                                                  \
      PHAL_PLUGIN_API_WITH_TARGETS_AND_COUNTERS_BY_SLOT_NAME(ns))

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
