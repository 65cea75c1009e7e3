#include "sdk/plugin_support/collective_desc.h"

#include <cstddef>
#include <set>

#include "sdk/base/element_types.h"

namespace phal {
namespace {

bool Multiply(uint64_t a, uint64_t b, uint64_t* out) {
  return !__builtin_mul_overflow(a, b, out);
}

}  // namespace

std::string CollectiveKindName(uint32_t kind) {
  switch (kind) {
    case PHAL_COLLECTIVE_ALL_REDUCE:
      return "all-reduce";
    case PHAL_COLLECTIVE_ALL_GATHER:
      return "all-gather";
    case PHAL_COLLECTIVE_REDUCE_SCATTER:
      return "reduce-scatter";
    case PHAL_COLLECTIVE_ALL_TO_ALL:
      return "all-to-all";
    case PHAL_COLLECTIVE_PERMUTE:
      return "permute";
    case PHAL_COLLECTIVE_BROADCAST:
      return "broadcast";
    default:
      return "collective kind " + std::to_string(kind);
  }
}

std::string ReductionName(uint32_t reduction) {
  switch (reduction) {
    case PHAL_REDUCTION_NONE:
      return "none";
    case PHAL_REDUCTION_SUM:
      return "sum";
    case PHAL_REDUCTION_PRODUCT:
      return "product";
    case PHAL_REDUCTION_MIN:
      return "min";
    case PHAL_REDUCTION_MAX:
      return "max";
    case PHAL_REDUCTION_AND:
      return "and";
    case PHAL_REDUCTION_OR:
      return "or";
    default:
      return "reduction " + std::to_string(reduction);
  }
}

StatusOr<CollectiveDesc> CollectiveDesc::From(
    const phal_collective_desc_t* desc) {
  if (desc == nullptr) return InvalidArgument("the collective's desc is NULL");
  constexpr std::size_t kNeeded =
      offsetof(phal_collective_desc_t, timeout_ms) + sizeof(desc->timeout_ms);
  if (desc->struct_size < kNeeded) {
    return InvalidArgument("the collective's desc has struct_size " +
                           std::to_string(desc->struct_size) +
                           ", less than ABI 1.8's " + std::to_string(kNeeded));
  }
  CollectiveDesc out;
  out.kind = desc->kind;
  out.element_type = desc->element_type;
  out.reduction = desc->reduction;
  out.root = desc->root;
  out.outer_count = desc->outer_count;
  out.block_count = desc->block_count;
  out.timeout_ms = desc->timeout_ms;
  if (desc->pair_count > 0 && desc->pairs == nullptr) {
    return InvalidArgument("the collective's desc has " +
                           std::to_string(desc->pair_count) + " pairs at NULL");
  }
  out.pairs.assign(desc->pairs, desc->pairs + desc->pair_count);
  if (out.kind >= PHAL_COLLECTIVE_KIND_COUNT) {
    return InvalidArgument("the collective's kind " + std::to_string(out.kind) +
                           " is not a phal_collective_kind_t");
  }
  if (out.reduction >= PHAL_REDUCTION_COUNT) {
    return InvalidArgument("the collective's reduction " +
                           std::to_string(out.reduction) +
                           " is not a phal_reduction_t");
  }
  if (ElementTypeByteSize(out.element_type) == 0) {
    return InvalidArgument("the collective's element type " +
                           std::to_string(out.element_type) +
                           " is not a phal_element_type_t");
  }
  return out;
}

phal_collective_desc_t CollectiveDesc::ToC() const {
  phal_collective_desc_t desc{};
  desc.struct_size = sizeof(desc);
  desc.kind = kind;
  desc.element_type = element_type;
  desc.reduction = reduction;
  desc.root = root;
  desc.outer_count = outer_count;
  desc.block_count = block_count;
  desc.pairs = pairs.data();
  desc.pair_count = static_cast<uint32_t>(pairs.size());
  desc.timeout_ms = timeout_ms;
  return desc;
}

std::string CollectiveDesc::ToString() const {
  std::string text = CollectiveKindName(kind);
  if (reduction != PHAL_REDUCTION_NONE) text += " " + ReductionName(reduction);
  text += " of " + std::to_string(outer_count) + " x " +
          std::to_string(block_count) + " " +
          ElementTypeName(static_cast<ElementType>(element_type));
  if (kind == PHAL_COLLECTIVE_BROADCAST) {
    text += " from rank " + std::to_string(root);
  }
  if (kind == PHAL_COLLECTIVE_PERMUTE) {
    text += " over pairs {";
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      if (i > 0) text += ", ";
      text += std::to_string(pairs[i].source) + "->" +
              std::to_string(pairs[i].target);
    }
    text += "}";
  }
  return text;
}

bool CollectiveDesc::AgreesWith(const CollectiveDesc& other) const {
  if (kind != other.kind || element_type != other.element_type ||
      reduction != other.reduction || root != other.root ||
      outer_count != other.outer_count || block_count != other.block_count ||
      pairs.size() != other.pairs.size()) {
    return false;
  }
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    if (pairs[i].source != other.pairs[i].source ||
        pairs[i].target != other.pairs[i].target) {
      return false;
    }
  }
  return true;
}

StatusOr<CollectiveBytes> CheckCollectiveDesc(const CollectiveDesc& desc,
                                              uint32_t ranks) {
  // The description's text, only when a check fails: this runs for every
  // collective a plugin queues.
  const auto invalid = [&desc](const std::string& why) {
    return InvalidArgument(desc.ToString() + ": " + why);
  };
  if (ranks == 0) return invalid("no ranks");
  const bool reduces = desc.kind == PHAL_COLLECTIVE_ALL_REDUCE ||
                       desc.kind == PHAL_COLLECTIVE_REDUCE_SCATTER;
  if (reduces && desc.reduction == PHAL_REDUCTION_NONE) {
    return invalid("the kind needs a reduction");
  }
  if (!reduces && desc.reduction != PHAL_REDUCTION_NONE) {
    return invalid("the kind takes no reduction");
  }
  const auto type = static_cast<ElementType>(desc.element_type);
  if ((desc.reduction == PHAL_REDUCTION_AND ||
       desc.reduction == PHAL_REDUCTION_OR) &&
      (IsFloat(type) || IsComplex(type))) {
    return invalid(ReductionName(desc.reduction) + " needs integers or pred");
  }
  if (desc.outer_count == 0) {
    return invalid("outer_count is 0");
  }
  if (desc.kind == PHAL_COLLECTIVE_BROADCAST && desc.root >= ranks) {
    return invalid("root " + std::to_string(desc.root) + " is not a rank of " +
                   std::to_string(ranks));
  }
  if (desc.kind != PHAL_COLLECTIVE_PERMUTE && !desc.pairs.empty()) {
    return invalid("only permute takes pairs");
  }
  std::set<uint32_t> sources;
  std::set<uint32_t> targets;
  for (const phal_collective_pair_t& pair : desc.pairs) {
    if (pair.source >= ranks || pair.target >= ranks) {
      return invalid("pair " + std::to_string(pair.source) + "->" +
                     std::to_string(pair.target) + " names a rank outside " +
                     std::to_string(ranks));
    }
    if (!sources.insert(pair.source).second) {
      return invalid("rank " + std::to_string(pair.source) +
                     " is the source of two pairs");
    }
    if (!targets.insert(pair.target).second) {
      return invalid("rank " + std::to_string(pair.target) +
                     " is the target of two pairs");
    }
  }
  uint64_t block_bytes = 0;
  uint64_t one = 0;
  uint64_t all = 0;
  if (!Multiply(desc.block_count, ElementTypeByteSize(desc.element_type),
                &block_bytes) ||
      !Multiply(block_bytes, desc.outer_count, &one) ||
      !Multiply(one, ranks, &all)) {
    return invalid("the byte size overflows 64 bits");
  }
  switch (desc.kind) {
    case PHAL_COLLECTIVE_ALL_GATHER:
      return CollectiveBytes{one, all};
    case PHAL_COLLECTIVE_REDUCE_SCATTER:
      return CollectiveBytes{all, one};
    case PHAL_COLLECTIVE_ALL_TO_ALL:
      return CollectiveBytes{all, all};
    default:
      return CollectiveBytes{one, one};
  }
}

}  // namespace phal
