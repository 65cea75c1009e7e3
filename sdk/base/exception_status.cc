#include "sdk/base/exception_status.h"

#include <exception>
#include <new>
#include <string>
#include <system_error>

namespace phal {
namespace {

// A status whose message allocation may itself run out of memory.
Status Describe(phal_status_code_t code, std::string_view who,
                std::string_view what) noexcept {
  try {
    std::string message;
    if (!who.empty()) message.append(who).append(": ");
    message.append(what);
    return Status(code, std::move(message));
  } catch (...) {
    return Status(code, std::string());
  }
}

bool IsExhaustion(const std::system_error& error) {
  return error.code() == std::errc::resource_unavailable_try_again ||
         error.code() == std::errc::not_enough_memory;
}

}  // namespace

Status StatusFromCurrentException(std::string_view who) noexcept {
  try {
    throw;
  } catch (const std::bad_alloc&) {
    return Describe(PHAL_RESOURCE_EXHAUSTED, who, "out of host memory");
  } catch (const std::system_error& error) {
    return Describe(
        IsExhaustion(error) ? PHAL_RESOURCE_EXHAUSTED : PHAL_INTERNAL, {},
        error.what());
  } catch (const std::exception& error) {
    return Describe(PHAL_INTERNAL, {}, error.what());
  } catch (...) {
    return Describe(PHAL_INTERNAL, who, "unknown exception");
  }
}

}  // namespace phal
