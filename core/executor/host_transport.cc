#include "core/executor/host_transport.h"

#include <cstdio>

namespace phal {

phal_status_code_t StatusToCError(const Status& status, char* error,
                                  size_t error_capacity) {
  if (status.ok()) return PHAL_OK;
  if (error != nullptr && error_capacity > 0) {
    std::snprintf(error, error_capacity, "%s", status.message().c_str());
  }
  return status.code();
}

Status StatusFromCError(phal_status_code_t code, char* error, size_t capacity,
                        const std::string& fallback) {
  if (code == PHAL_OK) return OkStatus();
  error[capacity - 1] = 0;
  return Status(code, error[0] != 0 ? std::string(error) : fallback);
}

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

StatusOr<uint64_t> HostTransport::ReductionGroup(
    const std::vector<int>& ranks, int instance,
    std::chrono::milliseconds timeout) {
  if (reductions() == nullptr) {
    return FailedPrecondition("the transport runs no reductions");
  }
  std::lock_guard<std::mutex> lock(groups_mutex_);
  const auto key = std::make_pair(ranks, instance);
  auto found = groups_.find(key);
  if (found != groups_.end()) return found->second;
  PHAL_ASSIGN_OR_RETURN(const uint64_t group,
                        reductions()->MakeGroup(ranks, timeout));
  groups_.emplace(key, group);
  return group;
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
    return StatusToCError(
        static_cast<RawHostTransport*>(user_data)->ExchangeRaw(
            std::span<const phal_host_message_t>(sends, send_count),
            std::span<const phal_host_message_t>(receives, receive_count),
            std::chrono::milliseconds(timeout_ms), what != nullptr ? what : ""),
        error, error_capacity);
  };
}

void RawHostTransport::ChainReductions(HostReductions& reductions) {
  c_reductions_.struct_size = sizeof(c_reductions_);
  c_reductions_.type = PHAL_EXTENSION_TYPE_HOST_REDUCTIONS;
  c_reductions_.user_data = &reductions;
  c_reductions_.supports = [](void* user_data, uint32_t element_type,
                              uint32_t reduction,
                              uint32_t rank_count) -> int32_t {
    return static_cast<HostReductions*>(user_data)->Supports(
        static_cast<phal_element_type_t>(element_type),
        static_cast<phal_reduction_t>(reduction), static_cast<int>(rank_count));
  };
  c_reductions_.group_create = [](void* user_data, const int32_t* ranks,
                                  size_t rank_count, int64_t timeout_ms,
                                  uint64_t* out_group, char* error,
                                  size_t error_capacity) -> phal_status_code_t {
    const std::vector<int> list(ranks, ranks + rank_count);
    StatusOr<uint64_t> group =
        static_cast<HostReductions*>(user_data)->MakeGroup(
            list, std::chrono::milliseconds(timeout_ms));
    if (group.ok()) *out_group = *group;
    return StatusToCError(group.status(), error, error_capacity);
  };
  c_reductions_.all_reduce = [](void* user_data, uint64_t group, void* data,
                                size_t count, uint32_t element_type,
                                uint32_t reduction, int64_t timeout_ms,
                                const char* what, char* error,
                                size_t error_capacity) -> phal_status_code_t {
    return StatusToCError(
        static_cast<HostReductions*>(user_data)->AllReduce(
            group, data, count, static_cast<phal_element_type_t>(element_type),
            static_cast<phal_reduction_t>(reduction),
            std::chrono::milliseconds(timeout_ms), what != nullptr ? what : ""),
        error, error_capacity);
  };
  c_transport_.next = &c_reductions_;
}

bool CHostReductions::Supports(phal_element_type_t type,
                               phal_reduction_t reduction,
                               int rank_count) const {
  return reductions_.supports(reductions_.user_data,
                              static_cast<uint32_t>(type),
                              static_cast<uint32_t>(reduction),
                              static_cast<uint32_t>(rank_count)) != 0;
}

StatusOr<uint64_t> CHostReductions::MakeGroup(
    std::span<const int> ranks, std::chrono::milliseconds timeout) {
  const std::vector<int32_t> list(ranks.begin(), ranks.end());
  uint64_t group = 0;
  char error[1024] = {0};
  PHAL_RETURN_IF_ERROR(StatusFromCError(
      reductions_.group_create(reductions_.user_data, list.data(), list.size(),
                               static_cast<int64_t>(timeout.count()), &group,
                               error, sizeof(error)),
      error, sizeof(error),
      "making a group of ranks " + RankListToString(list) +
          ": the transport failed"));
  return group;
}

Status CHostReductions::AllReduce(uint64_t group, void* data, std::size_t count,
                                  phal_element_type_t type,
                                  phal_reduction_t reduction,
                                  std::chrono::milliseconds timeout,
                                  const std::string& what) {
  char error[1024] = {0};
  return StatusFromCError(
      reductions_.all_reduce(reductions_.user_data, group, data, count,
                             static_cast<uint32_t>(type),
                             static_cast<uint32_t>(reduction),
                             static_cast<int64_t>(timeout.count()),
                             what.c_str(), error, sizeof(error)),
      error, sizeof(error), what + ": the transport failed");
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
