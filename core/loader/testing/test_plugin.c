/*
 * Deliberately incomplete or broken plugins for the loader tests, written in
 * C to prove plugin.h serves C plugins. One source, one variant per build:
 *   PHAL_TEST_PLUGIN_MINIMAL     header only plus device_count: zero
 *                                devices with a reason; every other slot is
 *                                left to the core's stubs.
 *   PHAL_TEST_PLUGIN_FUTURE_ABI  speaks ABI 2.0-2.3 only.
 *   PHAL_TEST_PLUGIN_NEWER_MINOR speaks ABI 1.0-1.6, as a plugin built
 *                                against a later minor release does, and
 *                                answers with the newest version the core
 *                                speaks, in a table of that version's size.
 *   PHAL_TEST_PLUGIN_TINY_TABLE  returns a table smaller than the header.
 *   PHAL_TEST_PLUGIN_NO_ENTRY    exports no phal_plugin_entry.
 */
#include "polyhal/plugin.h"

#if defined(PHAL_TEST_PLUGIN_MINIMAL)

static phal_status_t* DeviceCount(size_t* out_count, const char** out_reason) {
  *out_count = 0;
  *out_reason = "no test hardware attached";
  return NULL;
}

PHAL_EXPORT const phal_plugin_api_t* phal_plugin_entry(
    phal_plugin_negotiation_t* negotiation) {
  /* A table built against an older, shorter ABI: it ends after
   * device_count, so everything beyond must be stubbed by the core. */
  static phal_plugin_api_t table;
  negotiation->plugin_min_version = PHAL_MAKE_VERSION(1, 0);
  negotiation->plugin_max_version = PHAL_MAKE_VERSION(1, 0);
  if (negotiation->core_min_version > PHAL_MAKE_VERSION(1, 0)) return NULL;
  table.struct_size = (uint32_t)(offsetof(phal_plugin_api_t, device_count) +
                                 sizeof(table.device_count));
  table.abi_version = PHAL_MAKE_VERSION(1, 0);
  table.name = "minimal";
  table.version = "0.0.1";
  table.device_count = DeviceCount;
  /* Beyond struct_size: must never be called even though it is set. */
  table.device_open = (phal_status_t * (*)(size_t, phal_plugin_device_t**))1;
  return &table;
}

#elif defined(PHAL_TEST_PLUGIN_FUTURE_ABI)

PHAL_EXPORT const phal_plugin_api_t* phal_plugin_entry(
    phal_plugin_negotiation_t* negotiation) {
  negotiation->plugin_min_version = PHAL_MAKE_VERSION(2, 0);
  negotiation->plugin_max_version = PHAL_MAKE_VERSION(2, 3);
  return NULL;
}

#elif defined(PHAL_TEST_PLUGIN_NEWER_MINOR)

static phal_status_t* DeviceCount(size_t* out_count, const char** out_reason) {
  *out_count = 0;
  *out_reason = "a plugin of a later minor release";
  return NULL;
}

static uint32_t TableSize(uint32_t version) {
  switch (PHAL_VERSION_MINOR(version)) {
    case 0:
      return (uint32_t)PHAL_PLUGIN_API_STRUCT_SIZE_1_0;
    case 1:
      return (uint32_t)PHAL_PLUGIN_API_STRUCT_SIZE_1_1;
    case 2:
      return (uint32_t)PHAL_PLUGIN_API_STRUCT_SIZE_1_2;
    case 3:
      return (uint32_t)PHAL_PLUGIN_API_STRUCT_SIZE_1_3;
    case 4:
      return (uint32_t)PHAL_PLUGIN_API_STRUCT_SIZE_1_4;
    default:
      return (uint32_t)PHAL_PLUGIN_API_STRUCT_SIZE_1_5;
  }
}

PHAL_EXPORT const phal_plugin_api_t* phal_plugin_entry(
    phal_plugin_negotiation_t* negotiation) {
  static phal_plugin_api_t table;
  const uint32_t newest = PHAL_MAKE_VERSION(1, 6);
  uint32_t version = negotiation->core_max_version;
  negotiation->plugin_min_version = PHAL_MAKE_VERSION(1, 0);
  negotiation->plugin_max_version = newest;
  if (version > newest) version = newest;
  if (version < PHAL_MAKE_VERSION(1, 0) ||
      version < negotiation->core_min_version) {
    return NULL;
  }
  table.struct_size = TableSize(version);
  table.abi_version = version;
  table.name = "newer_minor";
  table.version = "1.6.0";
  table.device_count = DeviceCount;
  return &table;
}

#elif defined(PHAL_TEST_PLUGIN_TINY_TABLE)

PHAL_EXPORT const phal_plugin_api_t* phal_plugin_entry(
    phal_plugin_negotiation_t* negotiation) {
  static phal_plugin_api_t table;
  negotiation->plugin_min_version = PHAL_MAKE_VERSION(1, 0);
  negotiation->plugin_max_version = PHAL_MAKE_VERSION(1, 0);
  table.struct_size = 8;
  table.abi_version = PHAL_MAKE_VERSION(1, 0);
  return &table;
}

#elif defined(PHAL_TEST_PLUGIN_NO_ENTRY)

PHAL_EXPORT int phal_plugin_entry_misspelled(void) { return 0; }

#else
#error "define one PHAL_TEST_PLUGIN_* variant"
#endif
