/*
 * The smallest Polyhal program: create a client, list plugins and devices,
 * and round-trip a buffer through the first device. Build against
 * libpolyhal and sdk/include; run with the plugins found on the default
 * search path (or set PHAL_PLUGIN_PATH).
 */
#include <stdio.h>
#include <string.h>

#include "polyhal/runtime.h"

/* Prints a failed status, frees it and returns 1; returns 0 for success. */
static int Failed(phal_status_t* status, const char* what) {
  if (status == NULL) return 0;
  fprintf(stderr, "hello_buffer: %s failed: %s: %s\n", what,
          phal_status_code_name(phal_status_get_code(status)),
          phal_status_get_message(status));
  phal_status_free(status);
  return 1;
}

static void ListPlugins(const phal_client_t* client) {
  size_t count = 0;
  if (Failed(phal_client_get_plugin_count(client, &count), "plugin count")) {
    return;
  }
  printf("%zu plugin manifest(s):\n", count);
  for (size_t i = 0; i < count; ++i) {
    phal_plugin_info_t info;
    memset(&info, 0, sizeof(info));
    info.struct_size = sizeof(info);
    if (Failed(phal_client_get_plugin_info(client, i, &info), "plugin info")) {
      continue;
    }
    printf("  %s: %s%s%s\n", info.name[0] ? info.name : "(unnamed)",
           info.state == PHAL_PLUGIN_STATE_LOADED ? "loaded" : "skipped",
           info.reason[0] ? " - " : "", info.reason);
  }
}

static int RoundTrip(phal_device_t* device) {
  float input[6] = {1.5f, -2.0f, 3.25f, 0.0f, -0.0f, 1e-30f};
  float output[6] = {0};
  int64_t dims[2] = {2, 3};
  phal_buffer_desc_t desc;
  memset(&desc, 0, sizeof(desc));
  desc.struct_size = sizeof(desc);
  desc.element_type = PHAL_ELEMENT_TYPE_F32;
  desc.rank = 2;
  desc.dims = dims;
  phal_buffer_t* buffer = NULL;
  if (Failed(phal_buffer_allocate(device, &desc, &buffer), "allocate")) {
    return 1;
  }
  int failed =
      Failed(phal_buffer_copy_from_host(buffer, 0, input, sizeof(input)),
             "copy to device") ||
      Failed(phal_buffer_copy_to_host(buffer, 0, output, sizeof(output)),
             "copy to host");
  phal_buffer_free(buffer);
  if (failed) return 1;
  if (memcmp(input, output, sizeof(input)) != 0) {
    fprintf(stderr, "hello_buffer: the data came back changed\n");
    return 1;
  }
  printf("round-tripped a 2x3 f32 buffer: %g %g %g / %g %g %g\n", output[0],
         output[1], output[2], output[3], output[4], output[5]);
  return 0;
}

int main(void) {
  printf("libpolyhal %s, ABI %u.%u\n", phal_get_version_string(),
         PHAL_VERSION_MAJOR(phal_get_abi_version()),
         PHAL_VERSION_MINOR(phal_get_abi_version()));
  phal_client_t* client = NULL;
  if (Failed(phal_client_create(NULL, &client), "client create")) return 1;
  ListPlugins(client);
  size_t device_count = 0;
  int result = Failed(phal_client_get_device_count(client, &device_count),
                      "device count");
  if (result == 0 && device_count == 0) {
    fprintf(stderr, "hello_buffer: no device; run 'polyhal plugins'\n");
    result = 1;
  }
  for (size_t i = 0; result == 0 && i < device_count; ++i) {
    phal_device_t* device = NULL;
    phal_device_properties_t properties;
    memset(&properties, 0, sizeof(properties));
    properties.struct_size = sizeof(properties);
    result =
        Failed(phal_client_get_device(client, i, &device), "device") ||
        Failed(phal_device_get_properties(device, &properties), "properties");
    if (result == 0) {
      printf("device %zu: %s (%s, %u compute units)\n", i, properties.name,
             properties.vendor, properties.compute_units);
      result = RoundTrip(device);
    }
  }
  phal_client_destroy(client);
  return result;
}
