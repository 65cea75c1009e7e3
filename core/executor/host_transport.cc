#include "core/executor/host_transport.h"

#include <cstdio>

namespace phal {

StatusOr<std::vector<std::vector<uint8_t>>> HostTransport::AllGather(
    const std::vector<uint8_t>& bytes, int tag,
    std::chrono::milliseconds timeout, const std::string& what) {
  std::vector<Message> sends;
  std::vector<Message> receives;
  for (int peer = 0; peer < size(); ++peer) {
    if (peer == rank()) continue;
    sends.push_back({peer, bytes});
    receives.push_back({peer, std::vector<uint8_t>(bytes.size())});
  }
  PHAL_RETURN_IF_ERROR(Exchange(sends, receives, tag, timeout, what));
  std::vector<std::vector<uint8_t>> all(static_cast<std::size_t>(size()));
  all[static_cast<std::size_t>(rank())] = bytes;
  for (Message& message : receives) {
    all[static_cast<std::size_t>(message.peer)] = std::move(message.bytes);
  }
  return all;
}

RawHostTransport::RawHostTransport(int rank, int size)
    : rank_(rank), size_(size) {
  c_transport_.struct_size = sizeof(c_transport_);
  c_transport_.rank = rank;
  c_transport_.size = size;
  c_transport_.user_data = this;
  c_transport_.exchange =
      [](void* user_data, const phal_host_message_t* sends, size_t send_count,
         const phal_host_message_t* receives, size_t receive_count,
         int64_t timeout_ms, const char* what, char* error,
         size_t error_capacity) -> phal_status_code_t {
    const Status status =
        static_cast<RawHostTransport*>(user_data)->ExchangeRaw(
            std::span<const phal_host_message_t>(sends, send_count),
            std::span<const phal_host_message_t>(receives, receive_count),
            std::chrono::milliseconds(timeout_ms), what != nullptr ? what : "");
    if (status.ok()) return PHAL_OK;
    if (error != nullptr && error_capacity > 0) {
      std::snprintf(error, error_capacity, "%s", status.message().c_str());
    }
    return status.code();
  };
}

Status RawHostTransport::Exchange(std::vector<Message>& sends,
                                  std::vector<Message>& receives, int tag,
                                  std::chrono::milliseconds timeout,
                                  const std::string& what) {
  const std::vector<phal_host_message_t> raw_sends = ToHostMessages(sends, tag);
  const std::vector<phal_host_message_t> raw_receives =
      ToHostMessages(receives, tag);
  return ExchangeRaw(raw_sends, raw_receives, timeout, what);
}

std::vector<phal_host_message_t> ToHostMessages(
    std::vector<HostTransport::Message>& messages, int tag) {
  std::vector<phal_host_message_t> out;
  for (HostTransport::Message& message : messages) {
    out.push_back({message.peer, message.tag != 0 ? message.tag : tag,
                   message.bytes.data(), message.bytes.size()});
  }
  return out;
}

std::string RankListToString(const std::vector<int>& ranks) {
  std::string text = "{";
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    if (i > 0) text += ", ";
    text += std::to_string(ranks[i]);
  }
  return text + "}";
}

}  // namespace phal
