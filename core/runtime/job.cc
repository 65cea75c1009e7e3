// phal_client_get_process_index, phal_client_get_global_device_count and
// phal_client_get_global_device, and the job behind them.
#include "core/runtime/job.h"

#include <cstring>

#include "core/executor/spmd_executor.h"
#include "core/runtime/api_guard.h"
#include "core/runtime/client.h"
#include "sdk/base/extensible_struct.h"

namespace phal {
namespace {

// One process's devices as its peers read them: per device, the plugin's
// name and the device's, each ending in a NUL.
std::vector<uint8_t> DescribeDevices(const phal_client& client) {
  std::vector<uint8_t> bytes;
  for (const auto& device : client.devices) {
    const std::string& plugin =
        client.plugins[device->plugin_index].manifest.name;
    bytes.insert(bytes.end(), plugin.begin(), plugin.end());
    bytes.push_back(0);
    const char* name = device->properties.name;
    bytes.insert(bytes.end(), name, name + std::strlen(name));
    bytes.push_back(0);
  }
  return bytes;
}

}  // namespace

CHostTransport::CHostTransport(const phal_host_transport_t& transport)
    : transport_(transport) {
  // A chain element too small for the 1.11 members, or without them, is
  // ignored: the collectives then exchange every process's values.
  const auto* reductions = reinterpret_cast<const phal_host_reductions_t*>(
      phal_extension_find(transport.next, PHAL_EXTENSION_TYPE_HOST_REDUCTIONS));
  if (reductions != nullptr &&
      reductions->struct_size >= sizeof(phal_host_reductions_t) &&
      reductions->supports != nullptr && reductions->group_create != nullptr &&
      reductions->all_reduce != nullptr) {
    reductions_ = std::make_unique<CHostReductions>(*reductions);
  }
}

Status CHostTransport::Exchange(std::vector<Message>& sends,
                                std::vector<Message>& receives, int tag,
                                std::chrono::milliseconds timeout,
                                const std::string& what) {
  std::vector<phal_host_message_t> c_sends = ToHostMessages(sends, tag);
  std::vector<phal_host_message_t> c_receives = ToHostMessages(receives, tag);
  char error[1024] = {0};
  return StatusFromCError(
      transport_.exchange(transport_.user_data, c_sends.data(), c_sends.size(),
                          c_receives.data(), c_receives.size(),
                          static_cast<int64_t>(timeout.count()), what.c_str(),
                          error, sizeof(error)),
      error, sizeof(error), what + ": the transport failed");
}

Status JoinJob(phal_client_t* client, const phal_host_transport_t* transport) {
  ClientJob& job = client->job;
  if (transport == nullptr) {
    for (const auto& device : client->devices) {
      job.devices.push_back(
          {0, device.get(), client->plugins[device->plugin_index].manifest.name,
           device->properties.name});
    }
    return OkStatus();
  }
  if (transport->struct_size <
          PHAL_STRUCT_SIZE(phal_host_transport_t, exchange) ||
      transport->exchange == nullptr) {
    return InvalidArgument(
        "options->transport: struct_size too small or no exchange function");
  }
  if (transport->size < 1 || transport->rank < 0 ||
      transport->rank >= transport->size) {
    return InvalidArgument("options->transport: rank " +
                           std::to_string(transport->rank) +
                           " is not in a job of " +
                           std::to_string(transport->size) + " processes");
  }
  job.transport = std::make_unique<CHostTransport>(*transport);
  PHAL_ASSIGN_OR_RETURN(const std::chrono::milliseconds timeout,
                        CollectiveTimeoutFromEnv());
  const std::vector<uint8_t> mine = DescribeDevices(*client);
  const std::string what = "gathering the job's devices (process " +
                           std::to_string(transport->rank) + ")";
  std::vector<uint8_t> length(sizeof(uint64_t));
  const uint64_t size = mine.size();
  std::memcpy(length.data(), &size, sizeof(size));
  PHAL_ASSIGN_OR_RETURN(
      std::vector<std::vector<uint8_t>> lengths,
      job.transport->AllGather(length, kDeviceTableTag, timeout, what));
  std::vector<HostTransport::Message> sends;
  std::vector<HostTransport::Message> receives;
  for (int peer = 0; peer < transport->size; ++peer) {
    if (peer == transport->rank) continue;
    uint64_t theirs = 0;
    std::memcpy(&theirs, lengths[static_cast<std::size_t>(peer)].data(),
                sizeof(theirs));
    sends.push_back({peer, mine});
    receives.push_back({peer, std::vector<uint8_t>(theirs)});
  }
  PHAL_RETURN_IF_ERROR(job.transport->Exchange(
      sends, receives, kDeviceTableTag + 1, timeout, what));
  std::size_t next = 0;
  std::size_t local = 0;
  for (int process = 0; process < transport->size; ++process) {
    const std::vector<uint8_t>& bytes =
        process == transport->rank ? mine : receives[next++].bytes;
    std::vector<std::string> strings;
    std::string current;
    for (uint8_t byte : bytes) {
      if (byte == 0) {
        strings.push_back(std::move(current));
        current.clear();
      } else {
        current.push_back(static_cast<char>(byte));
      }
    }
    if (!current.empty() || strings.size() % 2 != 0) {
      return Status(PHAL_DATA_LOSS,
                    what + ": process " + std::to_string(process) +
                        " described its devices in a form this release does "
                        "not read");
    }
    for (std::size_t i = 0; i < strings.size(); i += 2) {
      GlobalDevice device;
      device.process = static_cast<uint32_t>(process);
      device.plugin = strings[i];
      device.name = strings[i + 1];
      if (process == transport->rank) {
        device.device = client->devices[local++].get();
      }
      job.devices.push_back(std::move(device));
    }
  }
  return OkStatus();
}

}  // namespace phal

extern "C" {

PHAL_API phal_status_t* phal_client_get_process_index(
    const phal_client_t* client, uint32_t* out_index, uint32_t* out_count) {
  return phal::GuardedCall([&]() -> phal::Status {
    if (client == nullptr) return phal::NullArgument("client");
    if (out_index == nullptr) return phal::NullArgument("out_index");
    if (out_count == nullptr) return phal::NullArgument("out_count");
    *out_index = static_cast<uint32_t>(client->job.rank());
    *out_count = static_cast<uint32_t>(client->job.size());
    return phal::OkStatus();
  });
}

PHAL_API phal_status_t* phal_client_get_global_device_count(
    const phal_client_t* client, size_t* out_count) {
  return phal::GuardedCall([&]() -> phal::Status {
    if (client == nullptr) return phal::NullArgument("client");
    if (out_count == nullptr) return phal::NullArgument("out_count");
    *out_count = client->job.devices.size();
    return phal::OkStatus();
  });
}

PHAL_API phal_status_t* phal_client_get_global_device(
    const phal_client_t* client, size_t index, phal_global_device_t* out) {
  return phal::GuardedCall([&]() -> phal::Status {
    if (client == nullptr) return phal::NullArgument("client");
    if (index >= client->job.devices.size()) {
      return phal::OutOfRange("global device index " + std::to_string(index) +
                              " is not below the job's device count " +
                              std::to_string(client->job.devices.size()));
    }
    const phal::GlobalDevice& device = client->job.devices[index];
    phal_global_device_t info{};
    info.process_index = device.process;
    info.device = device.device;
    info.plugin_name = device.plugin.c_str();
    info.device_name = device.name.c_str();
    return phal::CopyFittingMembers(info, out);
  });
}

}  // extern "C"
