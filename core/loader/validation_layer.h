// The validation layer (PHAL_VALIDATION=1; docs/reliability.md): a
// function table with the layout of a plugin's whose every slot checks the
// call against the ABI contract (validated_plugin.h) before and after
// forwarding it to the plugin. A client that validates calls each plugin
// through its layer's table; a client that does not calls the plugin's own
// table, so the layer costs nothing when off.
#ifndef POLYHAL_CORE_LOADER_VALIDATION_LAYER_H_
#define POLYHAL_CORE_LOADER_VALIDATION_LAYER_H_

#include <memory>
#include <string>
#include <vector>

#include "core/loader/validated_plugin.h"
#include "polyhal/plugin.h"
#include "sdk/base/log.h"
#include "sdk/base/status.h"

namespace phal {

// Whether PHAL_VALIDATION asks for the layer ("1", "true", "on" or "yes").
bool ValidationRequested();

class ValidationLayer {
 public:
  // The largest number of layers alive at once in a process: slots carry
  // no context argument, so each layer needs a table of functions of its
  // own, and those are compiled ahead.
  static constexpr size_t kMaxLayers = 64;

  // A layer in front of `plugin` (a complete table that outlives the
  // layer). Fails with RESOURCE_EXHAUSTED when kMaxLayers are alive.
  static StatusOr<std::unique_ptr<ValidationLayer>> Create(
      const phal_plugin_api_t& plugin, const std::string& plugin_name,
      const Logger& log);
  ~ValidationLayer();
  ValidationLayer(const ValidationLayer&) = delete;
  ValidationLayer& operator=(const ValidationLayer&) = delete;

  // The table the core calls instead of the plugin's: the plugin's name,
  // version, ABI version and shutdown slot, and checking slots.
  const phal_plugin_api_t& table() const { return table_; }
  ValidatedPlugin& checks() { return *checks_; }

 private:
  ValidationLayer(size_t index, std::unique_ptr<ValidatedPlugin> checks,
                  const phal_plugin_api_t& table);

  size_t index_;
  std::unique_ptr<ValidatedPlugin> checks_;
  phal_plugin_api_t table_;
};

}  // namespace phal

#endif  // POLYHAL_CORE_LOADER_VALIDATION_LAYER_H_
