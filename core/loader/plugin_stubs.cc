#include "core/loader/plugin_stubs.h"

#include <cstddef>
#include <cstring>

#include "core/abi/c_status.h"
#include "sdk/plugin_support/plugin_slot_list.h"

namespace phal {
namespace {

phal_status_t* Unimplemented(const char* slot) {
  std::string message = std::string("the plugin does not implement ") + slot;
  return MakeCStatus(PHAL_UNIMPLEMENTED, message.c_str());
}

// The stub of a slot whose absence means only that: a status slot answers
// UNIMPLEMENTED naming the slot, a void slot does nothing.
template <PluginSlot kSlot, typename Pointer>
struct UnimplementedStub;
template <PluginSlot kSlot, typename... Parameters>
struct UnimplementedStub<kSlot, phal_status_t* (*)(Parameters...)> {
  static phal_status_t* Call(Parameters...) {
    return Unimplemented(GetPluginSlotInfo(kSlot).name);
  }
};
template <PluginSlot kSlot, typename... Parameters>
struct UnimplementedStub<kSlot, void (*)(Parameters...)> {
  static void Call(Parameters...) {}
};

// The stub of each slot of the list (plugin_slot_list.h): UnimplementedStub
// unless the slot's absence means more, as it does for the slots below.
template <PluginSlot kSlot, typename Pointer>
struct Stub : UnimplementedStub<kSlot, Pointer> {};

// A plugin without devices says so.
template <typename Pointer>
struct Stub<PluginSlot::kDeviceCount, Pointer> {
  static phal_status_t* Call(size_t* out_count, const char** out_reason) {
    *out_count = 0;
    *out_reason = "the plugin does not implement device_count";
    return nullptr;
  }
};

// A plugin without the ahead-of-time slots compiles for no target.
template <typename Pointer>
struct Stub<PluginSlot::kTargetGetNames, Pointer> {
  static phal_status_t* Call(const char* const** out_names, size_t* out_count) {
    *out_names = nullptr;
    *out_count = 0;
    return nullptr;
  }
};
template <typename Pointer>
struct Stub<PluginSlot::kTargetDeviceOpen, Pointer> {
  static phal_status_t* Call(const char*, phal_plugin_device_t**) {
    return MakeCStatus(PHAL_UNIMPLEMENTED,
                       "the plugin does not implement target_device_open: it "
                       "compiles only for the devices it has opened");
  }
};

// A plugin without the counter slots keeps no counters: its devices report
// none, and there is nothing to reset.
template <typename Pointer>
struct Stub<PluginSlot::kDeviceGetCounters, Pointer> {
  static phal_status_t* Call(phal_plugin_device_t*,
                             phal_device_counter_t** out_counters,
                             size_t* out_count) {
    *out_counters = nullptr;
    *out_count = 0;
    return nullptr;
  }
};
template <typename Pointer>
struct Stub<PluginSlot::kDeviceResetCounters, Pointer> {
  static phal_status_t* Call(phal_plugin_device_t*) { return nullptr; }
};

// A plugin without the collective slots runs no collective itself: the
// core stages every collective of its devices through host memory.
template <typename Pointer>
struct Stub<PluginSlot::kDeviceSupportsCollective, Pointer> {
  static phal_status_t* Call(phal_plugin_device_t*,
                             const phal_collective_desc_t*,
                             int* out_supported) {
    *out_supported = 0;
    return nullptr;
  }
};

// Nor does it join communicators over several processes: the core moves
// those collectives between processes itself.
template <typename Pointer>
struct Stub<PluginSlot::kDeviceSupportsJoinedCollective, Pointer> {
  static phal_status_t* Call(phal_plugin_device_t*,
                             const phal_collective_desc_t*, uint32_t,
                             int* out_supported) {
    *out_supported = 0;
    return nullptr;
  }
};

// A plugin without the whole-program slots reads no program format: the
// core offers it nothing but kernels.
template <typename Pointer>
struct Stub<PluginSlot::kProgramGetFormats, Pointer> {
  static phal_status_t* Call(phal_plugin_device_t*, uint32_t* out_formats) {
    *out_formats = 0;
    return nullptr;
  }
};

// Replaces `slot` with `stub` when the plugin's table ends before the slot
// or leaves it NULL.
template <typename Slot>
void FillSlot(Slot& slot, Slot stub, size_t offset, size_t provided_size,
              const char* name, std::vector<std::string>* missing) {
  if (offset + sizeof(Slot) <= provided_size && slot != nullptr) return;
  slot = stub;
  if (missing != nullptr) missing->push_back(name);
}

}  // namespace

phal_plugin_api_t CompletePluginTable(const phal_plugin_api_t& provided,
                                      std::vector<std::string>* missing) {
  phal_plugin_api_t table;
  std::memset(&table, 0, sizeof(table));
  size_t provided_size = provided.struct_size;
  std::memcpy(&table, &provided,
              provided_size < sizeof(table) ? provided_size : sizeof(table));
  table.struct_size = sizeof(table);

#define PHAL_FILL_SLOT_(major, minor, slot, Function, group)           \
  FillSlot(table.slot,                                                 \
           &Stub<PluginSlot::k##Function, decltype(table.slot)>::Call, \
           offsetof(phal_plugin_api_t, slot), provided_size, #slot, missing);
  PHAL_PLUGIN_SLOTS(PHAL_FILL_SLOT_)
#undef PHAL_FILL_SLOT_
  return table;
}

}  // namespace phal
