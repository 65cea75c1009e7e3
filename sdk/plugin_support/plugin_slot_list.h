// Every slot of phal_plugin_api_t (plugin.h), declared once, in the order
// of the table, with the ABI version that added it. Everything written per
// slot elsewhere is expanded from this list: the slot functions a plugin
// declares (PHAL_DECLARE_PLUGIN_SLOTS, plugin_slots.h), the table of a
// plugin whose functions are named after their slots and the size of each
// ABI version's table (plugin_entry.h), the core's stubs for slots a
// plugin lacks (core/loader/plugin_stubs.cc) and the validation layer's
// table (core/loader/validation_layer.cc, validated_plugin.h).
//
//   X(major, minor, slot, Function, group)
//
// `slot` is the member of phal_plugin_api_t; `Function` the name of the
// function a plugin defines for it, and of the validation layer's check;
// `group` the PluginSlotGroup a plugin built with
// PHAL_PLUGIN_DEFINE_ENTRY_BY_SLOT_NAME may leave out as a whole.
//
// Adding a slot to ABI 1.N: append its member to phal_plugin_api_t and its
// PHAL_PLUGIN_API_STRUCT_SIZE_1_N (plugin.h), append its row here, and
// define what the compiler then asks for: ValidatedPlugin::Function (its
// checks) and, in each plugin that fills it, Function. The static_asserts
// below fail the build until the list and the struct agree member by
// member.
#ifndef POLYHAL_SDK_PLUGIN_SUPPORT_PLUGIN_SLOT_LIST_H_
#define POLYHAL_SDK_PLUGIN_SUPPORT_PLUGIN_SLOT_LIST_H_

#include <cstddef>
#include <cstdint>
#include <iterator>

#include "polyhal/plugin.h"

#define PHAL_PLUGIN_SLOTS(X)                                                  \
  X(1, 0, shutdown, Shutdown, kPluginCoreSlots)                               \
  X(1, 0, device_count, DeviceCount, kPluginCoreSlots)                        \
  X(1, 0, device_open, DeviceOpen, kPluginCoreSlots)                          \
  X(1, 0, device_close, DeviceClose, kPluginCoreSlots)                        \
  X(1, 0, device_get_properties, DeviceGetProperties, kPluginCoreSlots)       \
  X(1, 0, device_get_memory_space, DeviceGetMemorySpace, kPluginCoreSlots)    \
  X(1, 0, buffer_allocate, BufferAllocate, kPluginCoreSlots)                  \
  X(1, 0, buffer_free, BufferFree, kPluginCoreSlots)                          \
  X(1, 0, stream_create, StreamCreate, kPluginCoreSlots)                      \
  X(1, 0, stream_destroy, StreamDestroy, kPluginCoreSlots)                    \
  X(1, 0, stream_synchronize, StreamSynchronize, kPluginCoreSlots)            \
  X(1, 0, stream_copy_from_host, StreamCopyFromHost, kPluginCoreSlots)        \
  X(1, 0, stream_copy_to_host, StreamCopyToHost, kPluginCoreSlots)            \
  X(1, 0, stream_copy_buffer, StreamCopyBuffer, kPluginCoreSlots)             \
  X(1, 0, event_create, EventCreate, kPluginCoreSlots)                        \
  X(1, 0, event_destroy, EventDestroy, kPluginCoreSlots)                      \
  X(1, 0, stream_record_event, StreamRecordEvent, kPluginCoreSlots)           \
  X(1, 0, stream_wait_event, StreamWaitEvent, kPluginCoreSlots)               \
  X(1, 0, event_synchronize, EventSynchronize, kPluginCoreSlots)              \
  X(1, 0, event_query, EventQuery, kPluginCoreSlots)                          \
  X(1, 1, kernel_emit, KernelEmit, kPluginCoreSlots)                          \
  X(1, 1, kernel_destroy, KernelDestroy, kPluginCoreSlots)                    \
  X(1, 1, kernel_serialize, KernelSerialize, kPluginCoreSlots)                \
  X(1, 1, kernel_deserialize, KernelDeserialize, kPluginCoreSlots)            \
  X(1, 1, stream_launch, StreamLaunch, kPluginCoreSlots)                      \
  X(1, 4, target_get_names, TargetGetNames, kPluginTargetSlots)               \
  X(1, 4, target_device_open, TargetDeviceOpen, kPluginTargetSlots)           \
  X(1, 5, device_get_counters, DeviceGetCounters, kPluginCounterSlots)        \
  X(1, 5, device_reset_counters, DeviceResetCounters, kPluginCounterSlots)    \
  X(1, 8, device_supports_collective, DeviceSupportsCollective,               \
    kPluginCollectiveSlots)                                                   \
  X(1, 8, communicator_create, CommunicatorCreate, kPluginCollectiveSlots)    \
  X(1, 8, communicator_destroy, CommunicatorDestroy, kPluginCollectiveSlots)  \
  X(1, 8, communicator_abort, CommunicatorAbort, kPluginCollectiveSlots)      \
  X(1, 8, stream_collective, StreamCollective, kPluginCollectiveSlots)        \
  X(1, 12, device_supports_joined_collective, DeviceSupportsJoinedCollective, \
    kPluginJoinedCollectiveSlots)                                             \
  X(1, 12, communicator_make_id, CommunicatorMakeId,                          \
    kPluginJoinedCollectiveSlots)                                             \
  X(1, 12, communicator_join, CommunicatorJoin, kPluginJoinedCollectiveSlots) \
  X(1, 13, program_get_formats, ProgramGetFormats, kPluginProgramSlots)       \
  X(1, 13, program_accepts_op, ProgramAcceptsOp, kPluginProgramSlots)         \
  X(1, 13, program_compile, ProgramCompile, kPluginProgramSlots)

namespace phal {

// Slots a plugin fills all together or not at all, as bits. A plugin built
// with PHAL_PLUGIN_DEFINE_ENTRY_BY_SLOT_NAME (plugin_entry.h) defines the
// core slots and names the optional groups it defines; the core answers the
// slots of the others (plugin.h says what that answer means for each).
enum PluginSlotGroup : uint32_t {
  // Devices, memory, streams, events (ABI 1.0) and kernels (ABI 1.1).
  kPluginCoreSlots = 0,
  // Compiling for a target with no device of it present (ABI 1.4).
  kPluginTargetSlots = 1u << 0,
  // Devices that keep performance counters (ABI 1.5).
  kPluginCounterSlots = 1u << 1,
  // Collectives between the plugin's devices (ABI 1.8).
  kPluginCollectiveSlots = 1u << 2,
  // Communicators over devices of several processes (ABI 1.12).
  kPluginJoinedCollectiveSlots = 1u << 3,
  // Whole programs, or the parts of them the plugin accepts (ABI 1.13).
  kPluginProgramSlots = 1u << 4,
};

// Names a slot, in table order: PluginSlot::kDeviceCount for device_count.
enum class PluginSlot : size_t {
#define PHAL_PLUGIN_SLOT_ENUMERATOR_(major, minor, slot, Function, group) \
  k##Function,
  PHAL_PLUGIN_SLOTS(PHAL_PLUGIN_SLOT_ENUMERATOR_)
#undef PHAL_PLUGIN_SLOT_ENUMERATOR_
};

// A slot as the list declares it and where phal_plugin_api_t holds it.
struct PluginSlotInfo {
  const char* name;      // the member's name, e.g. "device_count"
  uint32_t abi_version;  // the version that added the slot
  PluginSlotGroup group;
  size_t offset;  // offsetof(phal_plugin_api_t, slot)
  size_t size;    // sizeof the member
};

inline constexpr PluginSlotInfo kPluginSlots[] = {
#define PHAL_PLUGIN_SLOT_INFO_(major, minor, slot, Function, group) \
  {#slot, PHAL_MAKE_VERSION(major, minor), group,                   \
   offsetof(phal_plugin_api_t, slot), sizeof(phal_plugin_api_t::slot)},
    PHAL_PLUGIN_SLOTS(PHAL_PLUGIN_SLOT_INFO_)
#undef PHAL_PLUGIN_SLOT_INFO_
};
inline constexpr size_t kPluginSlotCount = std::size(kPluginSlots);

constexpr const PluginSlotInfo& GetPluginSlotInfo(PluginSlot slot) {
  return kPluginSlots[static_cast<size_t>(slot)];
}

// The struct_size of a complete table of ABI `version`: where the last slot
// of that version or an older one ends (the header alone when none).
constexpr size_t PluginTableSize(uint32_t version) {
  size_t size = PHAL_PLUGIN_API_MIN_STRUCT_SIZE;
  for (const PluginSlotInfo& slot : kPluginSlots) {
    if (slot.abi_version <= version) size = slot.offset + slot.size;
  }
  return size;
}

// True when the rows name the members of phal_plugin_api_t after its header
// in order, each right after the one before, the last ending the struct,
// with versions that never decrease.
constexpr bool PluginSlotListMatchesTheTable() {
  size_t end = PHAL_PLUGIN_API_MIN_STRUCT_SIZE;
  uint32_t version = PHAL_MAKE_VERSION(1, 0);
  for (const PluginSlotInfo& slot : kPluginSlots) {
    if (slot.offset != end || slot.abi_version < version) return false;
    end = slot.offset + slot.size;
    version = slot.abi_version;
  }
  return end == sizeof(phal_plugin_api_t) && version <= PHAL_ABI_VERSION;
}

static_assert(PluginSlotListMatchesTheTable(),
              "PHAL_PLUGIN_SLOTS and phal_plugin_api_t (plugin.h) disagree: "
              "every member after the header needs its row, in order");
static_assert(PluginTableSize(PHAL_MAKE_VERSION(1, 0)) ==
                  PHAL_PLUGIN_API_STRUCT_SIZE_1_0,
              "the slots of ABI 1.0 disagree with plugin.h");
static_assert(PluginTableSize(PHAL_MAKE_VERSION(1, 1)) ==
                  PHAL_PLUGIN_API_STRUCT_SIZE_1_1,
              "the slots of ABI 1.1 disagree with plugin.h");
static_assert(PluginTableSize(PHAL_MAKE_VERSION(1, 2)) ==
                  PHAL_PLUGIN_API_STRUCT_SIZE_1_2,
              "the slots of ABI 1.2 disagree with plugin.h");
static_assert(PluginTableSize(PHAL_MAKE_VERSION(1, 3)) ==
                  PHAL_PLUGIN_API_STRUCT_SIZE_1_3,
              "the slots of ABI 1.3 disagree with plugin.h");
static_assert(PluginTableSize(PHAL_MAKE_VERSION(1, 4)) ==
                  PHAL_PLUGIN_API_STRUCT_SIZE_1_4,
              "the slots of ABI 1.4 disagree with plugin.h");
static_assert(PluginTableSize(PHAL_MAKE_VERSION(1, 5)) ==
                  PHAL_PLUGIN_API_STRUCT_SIZE_1_5,
              "the slots of ABI 1.5 disagree with plugin.h");
static_assert(PluginTableSize(PHAL_MAKE_VERSION(1, 6)) ==
                  PHAL_PLUGIN_API_STRUCT_SIZE_1_6,
              "the slots of ABI 1.6 disagree with plugin.h");
static_assert(PluginTableSize(PHAL_MAKE_VERSION(1, 7)) ==
                  PHAL_PLUGIN_API_STRUCT_SIZE_1_7,
              "the slots of ABI 1.7 disagree with plugin.h");
static_assert(PluginTableSize(PHAL_MAKE_VERSION(1, 8)) ==
                  PHAL_PLUGIN_API_STRUCT_SIZE_1_8,
              "the slots of ABI 1.8 disagree with plugin.h");
static_assert(PluginTableSize(PHAL_MAKE_VERSION(1, 9)) ==
                  PHAL_PLUGIN_API_STRUCT_SIZE_1_9,
              "the slots of ABI 1.9 disagree with plugin.h");
static_assert(PluginTableSize(PHAL_MAKE_VERSION(1, 10)) ==
                  PHAL_PLUGIN_API_STRUCT_SIZE_1_10,
              "the slots of ABI 1.10 disagree with plugin.h");
static_assert(PluginTableSize(PHAL_MAKE_VERSION(1, 11)) ==
                  PHAL_PLUGIN_API_STRUCT_SIZE_1_11,
              "the slots of ABI 1.11 disagree with plugin.h");
static_assert(PluginTableSize(PHAL_MAKE_VERSION(1, 12)) ==
                  PHAL_PLUGIN_API_STRUCT_SIZE_1_12,
              "the slots of ABI 1.12 disagree with plugin.h");
static_assert(PluginTableSize(PHAL_MAKE_VERSION(1, 13)) ==
                  PHAL_PLUGIN_API_STRUCT_SIZE_1_13,
              "the slots of ABI 1.13 disagree with plugin.h");
static_assert(PluginTableSize(PHAL_MAKE_VERSION(1, 14)) ==
                  PHAL_PLUGIN_API_STRUCT_SIZE_1_14,
              "the slots of ABI 1.14 disagree with plugin.h");

// True when no slot of `groups` (PluginSlotGroup bits) is newer than
// `max_abi_version`: a plugin defines no slot its newest table cuts off.
constexpr bool PluginSlotGroupsWithin(uint32_t groups,
                                      uint32_t max_abi_version) {
  for (const PluginSlotInfo& slot : kPluginSlots) {
    if ((groups & slot.group) != 0 && slot.abi_version > max_abi_version) {
      return false;
    }
  }
  return true;
}

}  // namespace phal

#endif  // POLYHAL_SDK_PLUGIN_SUPPORT_PLUGIN_SLOT_LIST_H_
