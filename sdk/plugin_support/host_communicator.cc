#include "sdk/plugin_support/host_communicator.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <string>
#include <type_traits>

#include "sdk/base/element_types.h"
#include "sdk/element_semantics/complex_functions.h"
#include "sdk/element_semantics/element_traits.h"
#include "sdk/element_semantics/real_functions.h"

namespace phal {
namespace {

namespace es = element_semantics;

// result[i] = left[i] op right[i] for `count` elements of Traits' type,
// as StableHLO's add, multiply, minimum, maximum, and, or compute them
// (`result` may be `left`). False when the type has no such op.
template <typename Traits>
bool CombineTyped(uint32_t reduction, std::byte* result, const std::byte* left,
                  const std::byte* right, uint64_t count) {
  using Storage = typename Traits::Storage;
  auto* out = reinterpret_cast<Storage*>(result);
  const auto* lhs = reinterpret_cast<const Storage*>(left);
  const auto* in = reinterpret_cast<const Storage*>(right);
  const auto map = [&](auto op) {
    for (uint64_t i = 0; i < count; ++i) {
      out[i] = Traits::Store(op(Traits::Load(lhs[i]), Traits::Load(in[i])));
    }
    return true;
  };
  if constexpr (es::kIsPred<Traits>) {
    switch (reduction) {
      case PHAL_REDUCTION_SUM:  // logical or, as StableHLO's add of pred
      case PHAL_REDUCTION_MAX:
      case PHAL_REDUCTION_OR:
        return map([](bool a, bool b) { return a || b; });
      case PHAL_REDUCTION_PRODUCT:
      case PHAL_REDUCTION_MIN:
      case PHAL_REDUCTION_AND:
        return map([](bool a, bool b) { return a && b; });
      default:
        return false;
    }
  } else if constexpr (es::kIsInteger<Traits>) {
    // Integers wrap: sums and products are taken in 64 unsigned bits.
    switch (reduction) {
      case PHAL_REDUCTION_SUM:
        for (uint64_t i = 0; i < count; ++i) {
          out[i] = static_cast<Storage>(static_cast<uint64_t>(lhs[i]) +
                                        static_cast<uint64_t>(in[i]));
        }
        return true;
      case PHAL_REDUCTION_PRODUCT:
        for (uint64_t i = 0; i < count; ++i) {
          out[i] = static_cast<Storage>(static_cast<uint64_t>(lhs[i]) *
                                        static_cast<uint64_t>(in[i]));
        }
        return true;
      case PHAL_REDUCTION_MIN:
        for (uint64_t i = 0; i < count; ++i) out[i] = std::min(lhs[i], in[i]);
        return true;
      case PHAL_REDUCTION_MAX:
        for (uint64_t i = 0; i < count; ++i) out[i] = std::max(lhs[i], in[i]);
        return true;
      case PHAL_REDUCTION_AND:
        for (uint64_t i = 0; i < count; ++i) out[i] = lhs[i] & in[i];
        return true;
      case PHAL_REDUCTION_OR:
        for (uint64_t i = 0; i < count; ++i) out[i] = lhs[i] | in[i];
        return true;
      default:
        return false;
    }
  } else if constexpr (es::kIsComplex<Traits>) {
    switch (reduction) {
      case PHAL_REDUCTION_SUM:
        return map(es::ComplexAdd);
      case PHAL_REDUCTION_PRODUCT:
        return map(es::ComplexMultiply);
      case PHAL_REDUCTION_MIN:
        return map(es::ComplexMinimum);
      case PHAL_REDUCTION_MAX:
        return map(es::ComplexMaximum);
      default:
        return false;
    }
  } else {
    switch (reduction) {
      case PHAL_REDUCTION_SUM:
        // f32 and f64 sums and products round once in their own type
        // exactly as in double rounded once (53 >= 2 * 24 + 2).
        if constexpr (std::is_floating_point_v<Storage>) {
          for (uint64_t i = 0; i < count; ++i) out[i] = lhs[i] + in[i];
          return true;
        } else {
          return map(es::FloatAdd);
        }
      case PHAL_REDUCTION_PRODUCT:
        if constexpr (std::is_floating_point_v<Storage>) {
          for (uint64_t i = 0; i < count; ++i) out[i] = lhs[i] * in[i];
          return true;
        } else {
          return map(es::FloatMultiply);
        }
      case PHAL_REDUCTION_MIN:
        return map(es::FloatMinimum);
      case PHAL_REDUCTION_MAX:
        return map(es::FloatMaximum);
      default:
        return false;
    }
  }
}

bool Combine(uint32_t reduction, uint32_t type, std::byte* result,
             const std::byte* left, const std::byte* right, uint64_t count) {
  return es::DispatchElementType(static_cast<ElementType>(type),
                                 [&](auto traits) {
                                   return CombineTyped<decltype(traits)>(
                                       reduction, result, left, right, count);
                                 });
}

// result = sources[0] op sources[1] op ... in order, from `offset` bytes
// into each source: one pass over the first two, then one per source.
void ReduceInOrder(uint32_t reduction, uint32_t type, std::byte* result,
                   std::span<const std::byte* const> sources, uint64_t offset,
                   uint64_t count) {
  const uint64_t bytes = count * ElementTypeByteSize(type);
  if (sources.size() == 1) {
    if (bytes > 0) std::memcpy(result, sources[0] + offset, bytes);
    return;
  }
  Combine(reduction, type, result, sources[0] + offset, sources[1] + offset,
          count);
  for (std::size_t q = 2; q < sources.size(); ++q) {
    Combine(reduction, type, result, result, sources[q] + offset, count);
  }
}

void Copy(std::byte* destination, const std::byte* source, uint64_t bytes) {
  if (bytes > 0) std::memcpy(destination, source, bytes);
}

std::string RankList(const std::vector<uint32_t>& ranks) {
  std::string text = "{";
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    if (i > 0) text += ", ";
    text += std::to_string(ranks[i]);
  }
  return text + "}";
}

// True when Combine has `desc`'s reduction for its element type.
bool CombinesItsType(const CollectiveDesc& desc) {
  if (desc.reduction == PHAL_REDUCTION_NONE) return true;
  // A reduction of one element onto itself says whether the type has it.
  std::byte element[16] = {};
  return Combine(desc.reduction, desc.element_type, element, element, element,
                 1);
}

}  // namespace

bool HostCommunicatorSupports(const phal_collective_desc_t& desc) {
  StatusOr<CollectiveDesc> read = CollectiveDesc::From(&desc);
  return read.ok() && CombinesItsType(*read);
}

HostCommunicator::HostCommunicator(uint32_t ranks)
    : ranks_(ranks), next_sequence_(ranks, 0) {}

void HostCommunicator::FailLocked(Status status) {
  if (failure_.ok()) failure_ = std::move(status);
  changed_.notify_all();
}

void HostCommunicator::Abort() {
  std::lock_guard<std::mutex> lock(mutex_);
  FailLocked(Aborted("the communicator was aborted: a peer will not come"));
}

Status HostCommunicator::Run(uint32_t rank, const CollectiveDesc& desc,
                             const std::byte* send, std::byte* recv) {
  return Arrive(rank, desc, send, recv, true);
}

Status HostCommunicator::Meet(uint32_t rank, const CollectiveDesc& desc) {
  return Arrive(rank, desc, nullptr, nullptr, false);
}

Status HostCommunicator::Arrive(uint32_t rank, const CollectiveDesc& desc,
                                const std::byte* send, std::byte* recv,
                                bool compute) {
  if (rank >= ranks_) {
    return InvalidArgument("rank " + std::to_string(rank) +
                           " of a communicator of " + std::to_string(ranks_));
  }
  // Every rank checks the same description, so all fail alike.
  PHAL_ASSIGN_OR_RETURN(const CollectiveBytes bytes,
                        CheckCollectiveDesc(desc, ranks_));
  if (compute && !CombinesItsType(desc)) {
    return Unimplemented(desc.ToString() +
                         " is not a collective of host memory");
  }
  std::unique_lock<std::mutex> lock(mutex_);
  if (!failure_.ok()) return failure_;
  const uint64_t sequence = next_sequence_[rank]++;
  std::shared_ptr<Round>& slot = rounds_[sequence];
  if (slot == nullptr) {
    slot = std::make_shared<Round>();
    slot->desc = desc;
    slot->send.resize(ranks_, nullptr);
    slot->recv.resize(ranks_, nullptr);
    slot->arrived.resize(ranks_, false);
  } else if (!slot->desc.AgreesWith(desc)) {
    FailLocked(FailedPrecondition(
        "collective " + std::to_string(sequence) +
        " of the communicator: rank " + std::to_string(rank) + " runs " +
        desc.ToString() + ", an earlier rank " + slot->desc.ToString()));
    return failure_;
  }
  const std::shared_ptr<Round> round = slot;
  round->send[rank] = send;
  round->recv[rank] = recv;
  round->arrived[rank] = true;
  ++round->arrived_count;
  // A small collective is done by the last rank to arrive, for every rank:
  // the others wake once, when it is done, instead of twice.
  const bool small = !compute || bytes.send + bytes.recv <= kSmallBytes;
  if (small && round->arrived_count == ranks_) {
    if (compute) {
      lock.unlock();
      for (uint32_t r = 0; r < ranks_; ++r) Compute(*round, r, ranks_);
      lock.lock();
    }
    round->finished_count = ranks_;
    rounds_.erase(sequence);
    changed_.notify_all();
    return OkStatus();
  }
  changed_.notify_all();
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::milliseconds(desc.timeout_ms);
  const auto done = [&] {
    return small ? round->finished_count == ranks_
                 : round->arrived_count == ranks_;
  };
  while (!done()) {
    // A complete round is always finished by every rank: peers read each
    // other's ranges until the last is done, whatever fails meanwhile.
    const bool complete = round->arrived_count == ranks_;
    if (!complete && !failure_.ok()) break;
    if (complete || desc.timeout_ms == 0) {
      changed_.wait(lock);
    } else if (changed_.wait_until(lock, deadline) == std::cv_status::timeout &&
               round->arrived_count < ranks_ && failure_.ok()) {
      std::vector<uint32_t> missing;
      for (uint32_t r = 0; r < ranks_; ++r) {
        if (!round->arrived[r]) missing.push_back(r);
      }
      FailLocked(DeadlineExceeded(
          desc.ToString() + " (collective " + std::to_string(sequence) +
          " of the communicator): rank" + (missing.size() > 1 ? "s " : " ") +
          RankList(missing) + " of " + std::to_string(ranks_) +
          " did not arrive within " + std::to_string(desc.timeout_ms) + " ms"));
    }
  }
  if (round->arrived_count < ranks_) return failure_;
  if (small) return OkStatus();
  lock.unlock();
  Compute(*round, rank, ranks_);
  lock.lock();
  if (++round->finished_count == ranks_) {
    rounds_.erase(sequence);
    changed_.notify_all();
  }
  while (round->finished_count < ranks_) changed_.wait(lock);
  return OkStatus();
}

void HostCommunicator::Compute(const Round& round, uint32_t rank,
                               uint32_t ranks) {
  const CollectiveDesc& desc = round.desc;
  if (desc.kind != PHAL_COLLECTIVE_ALL_REDUCE) {
    ComputeCollectiveRank(desc, round.send, rank, round.recv[rank]);
    return;
  }
  // This rank reduces one n-th of the elements and writes it to every
  // rank.
  const uint64_t element = ElementTypeByteSize(desc.element_type);
  const uint64_t total = desc.outer_count * desc.block_count;
  const uint64_t begin = total * rank / ranks;
  const uint64_t end = total * (rank + 1) / ranks;
  const uint64_t offset = begin * element;
  const uint64_t bytes = (end - begin) * element;
  std::byte* accumulator = round.recv[rank] + offset;
  ReduceInOrder(desc.reduction, desc.element_type, accumulator, round.send,
                offset, end - begin);
  for (uint32_t q = 0; q < ranks; ++q) {
    if (q != rank) Copy(round.recv[q] + offset, accumulator, bytes);
  }
}

void ComputeCollectiveRank(const CollectiveDesc& desc,
                           std::span<const std::byte* const> sends,
                           uint32_t rank, std::byte* recv) {
  const auto ranks = static_cast<uint32_t>(sends.size());
  const uint64_t element = ElementTypeByteSize(desc.element_type);
  const uint64_t block = desc.block_count * element;
  const uint64_t outer = desc.outer_count;
  switch (desc.kind) {
    case PHAL_COLLECTIVE_ALL_REDUCE:
      ReduceInOrder(desc.reduction, desc.element_type, recv, sends, 0,
                    outer * desc.block_count);
      return;
    case PHAL_COLLECTIVE_ALL_GATHER:
      for (uint64_t o = 0; o < outer; ++o) {
        for (uint32_t q = 0; q < ranks; ++q) {
          Copy(recv + (o * ranks + q) * block, sends[q] + o * block, block);
        }
      }
      return;
    case PHAL_COLLECTIVE_REDUCE_SCATTER:
      for (uint64_t o = 0; o < outer; ++o) {
        ReduceInOrder(desc.reduction, desc.element_type, recv + o * block,
                      sends, (o * ranks + rank) * block, desc.block_count);
      }
      return;
    case PHAL_COLLECTIVE_ALL_TO_ALL:
      for (uint64_t o = 0; o < outer; ++o) {
        for (uint32_t q = 0; q < ranks; ++q) {
          Copy(recv + (o * ranks + q) * block,
               sends[q] + (o * ranks + rank) * block, block);
        }
      }
      return;
    case PHAL_COLLECTIVE_PERMUTE:
      for (const phal_collective_pair_t& pair : desc.pairs) {
        if (pair.target == rank) {
          Copy(recv, sends[pair.source], outer * block);
          return;
        }
      }
      if (outer * block > 0) std::memset(recv, 0, outer * block);
      return;
    case PHAL_COLLECTIVE_BROADCAST:
      Copy(recv, sends[desc.root], outer * block);
      return;
    default:
      return;
  }
}

}  // namespace phal
