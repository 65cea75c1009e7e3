// Errors as values inside the core: Status (a code and a message, OK when
// the code is PHAL_OK) and StatusOr<T> (a value or an error). They never
// throw; conversion to the ABI's phal_status_t happens at the C boundary.
#ifndef POLYHAL_SDK_BASE_STATUS_H_
#define POLYHAL_SDK_BASE_STATUS_H_

#include <cassert>
#include <optional>
#include <string>
#include <utility>

#include "polyhal/types.h"

namespace phal {

class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(phal_status_code_t code, std::string message)
      : code_(code), message_(std::move(message)) {}

  bool ok() const { return code_ == PHAL_OK; }
  phal_status_code_t code() const { return code_; }
  const std::string& message() const { return message_; }
  // "INVALID_ARGUMENT: message".
  std::string ToString() const;

 private:
  phal_status_code_t code_ = PHAL_OK;
  std::string message_;
};

inline Status OkStatus() { return Status(); }
inline Status InvalidArgument(std::string m) {
  return Status(PHAL_INVALID_ARGUMENT, std::move(m));
}
inline Status NotFound(std::string m) {
  return Status(PHAL_NOT_FOUND, std::move(m));
}
inline Status Unimplemented(std::string m) {
  return Status(PHAL_UNIMPLEMENTED, std::move(m));
}
inline Status Internal(std::string m) {
  return Status(PHAL_INTERNAL, std::move(m));
}
inline Status FailedPrecondition(std::string m) {
  return Status(PHAL_FAILED_PRECONDITION, std::move(m));
}
inline Status OutOfRange(std::string m) {
  return Status(PHAL_OUT_OF_RANGE, std::move(m));
}
inline Status ResourceExhausted(std::string m) {
  return Status(PHAL_RESOURCE_EXHAUSTED, std::move(m));
}
inline Status Unavailable(std::string m) {
  return Status(PHAL_UNAVAILABLE, std::move(m));
}
inline Status DeadlineExceeded(std::string m) {
  return Status(PHAL_DEADLINE_EXCEEDED, std::move(m));
}
inline Status Aborted(std::string m) {
  return Status(PHAL_ABORTED, std::move(m));
}

// Upper-case name of a code, e.g. "INVALID_ARGUMENT".
const char* StatusCodeName(phal_status_code_t code);

template <typename T>
class [[nodiscard]] StatusOr {
 public:
  StatusOr(T value) : value_(std::move(value)) {}  // NOLINT: implicit by design
  StatusOr(Status status) : status_(std::move(status)) {  // NOLINT
    assert(!status_.ok() && "StatusOr built from an OK status");
    if (status_.ok()) status_ = Internal("StatusOr built from an OK status");
  }

  bool ok() const { return status_.ok(); }
  const Status& status() const { return status_; }
  T& value() & { return *value_; }
  const T& value() const& { return *value_; }
  T&& value() && { return std::move(*value_); }
  T& operator*() & { return *value_; }
  const T& operator*() const& { return *value_; }
  T* operator->() { return &*value_; }
  const T* operator->() const { return &*value_; }

 private:
  Status status_;
  std::optional<T> value_;
};

}  // namespace phal

#define PHAL_CONCAT_INNER_(a, b) a##b
#define PHAL_CONCAT_(a, b) PHAL_CONCAT_INNER_(a, b)

// Returns from the enclosing function when `expr` yields a non-OK Status.
#define PHAL_RETURN_IF_ERROR(expr)               \
  do {                                           \
    ::phal::Status phal_status_ = (expr);        \
    if (!phal_status_.ok()) return phal_status_; \
  } while (0)

// `lhs = value of expr`, or return its error from the enclosing function.
#define PHAL_ASSIGN_OR_RETURN(lhs, expr) \
  PHAL_ASSIGN_OR_RETURN_IMPL_(PHAL_CONCAT_(phal_statusor_, __LINE__), lhs, expr)
#define PHAL_ASSIGN_OR_RETURN_IMPL_(tmp, lhs, expr) \
  auto tmp = (expr);                                \
  if (!tmp.ok()) return tmp.status();               \
  lhs = std::move(tmp).value()

#endif  // POLYHAL_SDK_BASE_STATUS_H_
