#include "core/executor/host_transport.h"

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
