// For a plugin that wraps another and forwards its slots (the suite's
// faulty plugin, the loader's rule-breaking plugin, a vendor's tracing
// layer): opening the wrapped plugin's library and taking its table.
#ifndef POLYHAL_SDK_PLUGIN_SUPPORT_WRAPPED_PLUGIN_H_
#define POLYHAL_SDK_PLUGIN_SUPPORT_WRAPPED_PLUGIN_H_

#include <dlfcn.h>

#include <algorithm>
#include <cstring>

#include "polyhal/plugin.h"

namespace phal {

// Opens the plugin library at `path` (it stays open for the life of the
// process), negotiates with its entry point through `negotiation`, and
// copies the table it returns into `copy`, whose members past the wrapped
// table's struct_size are left zero. Returns the wrapped table; NULL when
// the library, its entry point or its table is missing.
inline const phal_plugin_api_t* OpenWrappedPlugin(
    const char* path, phal_plugin_negotiation_t* negotiation,
    phal_plugin_api_t* copy) {
  void* library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) return nullptr;
  auto entry = reinterpret_cast<phal_plugin_entry_fn>(
      dlsym(library, PHAL_PLUGIN_ENTRY_SYMBOL));
  if (entry == nullptr) return nullptr;
  const phal_plugin_api_t* wrapped = entry(negotiation);
  if (wrapped == nullptr) return nullptr;
  *copy = phal_plugin_api_t{};
  std::memcpy(copy, wrapped,
              std::min<std::size_t>(wrapped->struct_size, sizeof(*copy)));
  return wrapped;
}

}  // namespace phal

#endif  // POLYHAL_SDK_PLUGIN_SUPPORT_WRAPPED_PLUGIN_H_
