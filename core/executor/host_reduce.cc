#include "core/executor/host_reduce.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>

namespace phal {
namespace {

template <typename T, typename Op>
void Combine(void* x, const void* y, std::size_t count, Op op) {
  auto* out = static_cast<uint8_t*>(x);
  const auto* in = static_cast<const uint8_t*>(y);
  for (std::size_t i = 0; i < count; ++i) {
    T a;
    T b;
    std::memcpy(&a, out + i * sizeof(T), sizeof(T));
    std::memcpy(&b, in + i * sizeof(T), sizeof(T));
    const T r = op(a, b);
    std::memcpy(out + i * sizeof(T), &r, sizeof(T));
  }
}

template <typename T>
bool ReduceAs(phal_reduction_t reduction, void* x, const void* y,
              std::size_t count) {
  if constexpr (std::is_floating_point_v<T>) {
    switch (reduction) {
      case PHAL_REDUCTION_SUM:
        Combine<T>(x, y, count, [](T a, T b) { return a + b; });
        return true;
      case PHAL_REDUCTION_PRODUCT:
        Combine<T>(x, y, count, [](T a, T b) { return a * b; });
        return true;
      default:
        return false;
    }
  } else {
    // Unsigned arithmetic of at least an int's width: it wraps, where the
    // promotion of narrower types to int would overflow.
    using U = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned,
                                 std::make_unsigned_t<T>>;
    switch (reduction) {
      case PHAL_REDUCTION_SUM:
        Combine<T>(x, y, count, [](T a, T b) {
          return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
        });
        return true;
      case PHAL_REDUCTION_PRODUCT:
        Combine<T>(x, y, count, [](T a, T b) {
          return static_cast<T>(static_cast<U>(a) * static_cast<U>(b));
        });
        return true;
      case PHAL_REDUCTION_MIN:
        Combine<T>(x, y, count, [](T a, T b) { return b < a ? b : a; });
        return true;
      case PHAL_REDUCTION_MAX:
        Combine<T>(x, y, count, [](T a, T b) { return b > a ? b : a; });
        return true;
      case PHAL_REDUCTION_AND:
        Combine<T>(x, y, count, [](T a, T b) { return static_cast<T>(a & b); });
        return true;
      case PHAL_REDUCTION_OR:
        Combine<T>(x, y, count, [](T a, T b) { return static_cast<T>(a | b); });
        return true;
      default:
        return false;
    }
  }
}

bool Dispatch(phal_element_type_t type, phal_reduction_t reduction, void* x,
              const void* y, std::size_t count) {
  switch (type) {
    case PHAL_ELEMENT_TYPE_F32:
      return ReduceAs<float>(reduction, x, y, count);
    case PHAL_ELEMENT_TYPE_F64:
      return ReduceAs<double>(reduction, x, y, count);
    case PHAL_ELEMENT_TYPE_PRED:
      // Bytes of 0 or 1: a sum or product would leave that set.
      if (reduction == PHAL_REDUCTION_SUM ||
          reduction == PHAL_REDUCTION_PRODUCT) {
        return false;
      }
      return ReduceAs<uint8_t>(reduction, x, y, count);
    case PHAL_ELEMENT_TYPE_S8:
      return ReduceAs<int8_t>(reduction, x, y, count);
    case PHAL_ELEMENT_TYPE_U8:
      return ReduceAs<uint8_t>(reduction, x, y, count);
    case PHAL_ELEMENT_TYPE_S16:
      return ReduceAs<int16_t>(reduction, x, y, count);
    case PHAL_ELEMENT_TYPE_U16:
      return ReduceAs<uint16_t>(reduction, x, y, count);
    case PHAL_ELEMENT_TYPE_S32:
      return ReduceAs<int32_t>(reduction, x, y, count);
    case PHAL_ELEMENT_TYPE_U32:
      return ReduceAs<uint32_t>(reduction, x, y, count);
    case PHAL_ELEMENT_TYPE_S64:
      return ReduceAs<int64_t>(reduction, x, y, count);
    case PHAL_ELEMENT_TYPE_U64:
      return ReduceAs<uint64_t>(reduction, x, y, count);
    default:
      return false;
  }
}

}  // namespace

bool HostReducible(phal_element_type_t type, phal_reduction_t reduction) {
  uint8_t none = 0;
  return Dispatch(type, reduction, &none, &none, 0);
}

bool ReduceInto(phal_element_type_t type, phal_reduction_t reduction, void* x,
                const void* y, std::size_t count) {
  return Dispatch(type, reduction, x, y, count);
}

StatusOr<TransportReductions> TransportReductionsFromEnv(const char* variable) {
  const char* value = std::getenv(variable);
  if (value == nullptr || std::strcmp(value, "all") == 0) {
    return TransportReductions::kAll;
  }
  if (std::strcmp(value, "exact") == 0) return TransportReductions::kExact;
  if (std::strcmp(value, "off") == 0) return TransportReductions::kOff;
  return InvalidArgument(std::string(variable) + " is '" + value +
                         "': expected all, exact or off");
}

bool ReductionsAllow(TransportReductions mode, phal_element_type_t type,
                     int rank_count) {
  if (mode == TransportReductions::kOff) return false;
  const bool floating =
      type == PHAL_ELEMENT_TYPE_F32 || type == PHAL_ELEMENT_TYPE_F64;
  return !floating || mode == TransportReductions::kAll || rank_count == 2;
}

}  // namespace phal
