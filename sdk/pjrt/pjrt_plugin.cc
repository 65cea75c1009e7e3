// GetPjrtApi: the PJRT C API table of Polyhal's plugin. Every slot is
// filled: entry points Polyhal implements, and for the rest a stub that
// answers UNIMPLEMENTED naming itself (pjrt_entry_points.def).
#include <string>

#include "sdk/pjrt/pjrt_entry_points.h"
#include "sdk/pjrt/pjrt_error.h"

namespace phal::pjrt {
namespace {

#define PHAL_PJRT_IMPLEMENTED(name)
#define PHAL_PJRT_UNIMPLEMENTED(name)                         \
  PJRT_Error* Unimplemented_##name(PJRT_##name##_Args*) {     \
    return MakeError(PJRT_Error_Code_UNIMPLEMENTED,           \
                     "PJRT_" #name                            \
                     " is not implemented by Polyhal's PJRT " \
                     "plugin");                               \
  }
#include "sdk/pjrt/pjrt_entry_points.def"
#undef PHAL_PJRT_IMPLEMENTED
#undef PHAL_PJRT_UNIMPLEMENTED

PJRT_Api MakeApi() {
  PJRT_Api api{};
  api.struct_size = PJRT_Api_STRUCT_SIZE;
  api.extension_start = nullptr;
  api.pjrt_api_version.struct_size = PJRT_Api_Version_STRUCT_SIZE;
  api.pjrt_api_version.major_version = PJRT_API_MAJOR;
  api.pjrt_api_version.minor_version = PJRT_API_MINOR;
#define PHAL_PJRT_IMPLEMENTED(name) api.PJRT_##name = name;
#define PHAL_PJRT_UNIMPLEMENTED(name) api.PJRT_##name = Unimplemented_##name;
#include "sdk/pjrt/pjrt_entry_points.def"
#undef PHAL_PJRT_IMPLEMENTED
#undef PHAL_PJRT_UNIMPLEMENTED
  return api;
}

// What JAX reads to choose the StableHLO version of the artifacts it hands
// over: the portable-artifact reader knows 0.9.0 to 1.20.0.
const int64_t kStableHloCurrent[] = {1, 20, 0};
const int64_t kStableHloMinimum[] = {0, 9, 0};

PJRT_NamedValue NamedInt64List(const char* name, const int64_t* values,
                               size_t count) {
  PJRT_NamedValue value{};
  value.struct_size = PJRT_NamedValue_STRUCT_SIZE;
  value.name = name;
  value.name_size = std::char_traits<char>::length(name);
  value.type = PJRT_NamedValue_kInt64List;
  value.int64_array_value = values;
  value.value_size = count;
  return value;
}

}  // namespace

PJRT_Error* Plugin_Initialize(PJRT_Plugin_Initialize_Args* args) {
  PHAL_PJRT_CHECK_ARGS(PJRT_Plugin_Initialize_Args, args);
  return nullptr;
}

PJRT_Error* Plugin_Attributes(PJRT_Plugin_Attributes_Args* args) {
  PHAL_PJRT_CHECK_ARGS(PJRT_Plugin_Attributes_Args, args);
  static const PJRT_NamedValue kAttributes[] = {
      NamedInt64List("stablehlo_current_version", kStableHloCurrent, 3),
      NamedInt64List("stablehlo_minimum_version", kStableHloMinimum, 3),
  };
  args->attributes = kAttributes;
  args->num_attributes = sizeof(kAttributes) / sizeof(kAttributes[0]);
  return nullptr;
}

}  // namespace phal::pjrt

extern "C" __attribute__((visibility("default"))) const PJRT_Api* GetPjrtApi() {
  static const PJRT_Api api = phal::pjrt::MakeApi();
  return &api;
}
