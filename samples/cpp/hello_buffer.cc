// The C sample again, through the header-only C++ wrapper polyhal.hpp.
#include <cstdio>
#include <vector>

#include "polyhal/polyhal.hpp"

int main() {
  auto client = phal::Client::Create();
  if (!client.ok()) {
    std::fprintf(stderr, "%s\n", client.error().ToString().c_str());
    return 1;
  }
  for (const phal_plugin_info_t& plugin : client->Plugins()) {
    std::printf("plugin %s: %s %s\n", plugin.name,
                plugin.state == PHAL_PLUGIN_STATE_LOADED ? "loaded" : "skipped",
                plugin.reason);
  }
  for (phal::Device& device : client->Devices()) {
    auto properties = device.Properties();
    if (!properties.ok()) return 1;
    std::printf("device: %s\n", properties->name);
    std::vector<int32_t> input = {1, -2, 3, 2147483647};
    auto buffer = phal::Buffer::Allocate(device, PHAL_ELEMENT_TYPE_S32, {4});
    if (!buffer.ok()) {
      std::fprintf(stderr, "%s\n", buffer.error().ToString().c_str());
      return 1;
    }
    std::vector<int32_t> output(4);
    phal::Error error = buffer->CopyFromHost(input.data(), 16);
    if (error.ok()) error = buffer->CopyToHost(output.data(), 16);
    if (!error.ok() || output != input) {
      std::fprintf(stderr, "round trip failed: %s\n", error.ToString().c_str());
      return 1;
    }
    std::printf("round-tripped 4 x s32 through %s\n", properties->name);
  }
  return 0;
}
