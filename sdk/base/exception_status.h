// The exception fence's one rule, shared by libpolyhal's C API and every
// plugin's ABI slots: the exception being handled becomes a Status, so that
// nothing unwinds across the C ABI (docs/abi.md, "Statuses and errors").
#ifndef POLYHAL_SDK_BASE_EXCEPTION_STATUS_H_
#define POLYHAL_SDK_BASE_EXCEPTION_STATUS_H_

#include <string_view>

#include "sdk/base/status.h"

namespace phal {

// The Status for the exception being handled; call it only inside a catch
// block. std::bad_alloc and the system errors of exhausted resources
// (threads, memory) become RESOURCE_EXHAUSTED, any other exception INTERNAL
// with its what(). `who` names the library in the messages of exceptions
// that carry none ("cpu plugin: out of host memory"). Never throws and
// thread-safe: when even the message cannot be allocated, the status keeps
// its code and an empty message.
Status StatusFromCurrentException(std::string_view who) noexcept;

}  // namespace phal

#endif  // POLYHAL_SDK_BASE_EXCEPTION_STATUS_H_
