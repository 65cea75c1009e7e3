// StatusFromCurrentException: the one mapping of C++ exceptions to status
// codes, shared by libpolyhal's C API and the plugins.
#include "sdk/base/exception_status.h"

#include <gtest/gtest.h>

#include <new>
#include <stdexcept>
#include <system_error>

namespace phal {
namespace {

template <typename Exception>
Status StatusOf(const Exception& exception) {
  try {
    throw exception;
  } catch (...) {
    return StatusFromCurrentException("libtest");
  }
}

TEST(ExceptionStatusTest, OutOfMemoryIsResourceExhaustedNamingTheLibrary) {
  const Status status = StatusOf(std::bad_alloc());
  EXPECT_EQ(status.code(), PHAL_RESOURCE_EXHAUSTED);
  EXPECT_EQ(status.message(), "libtest: out of host memory");
}

TEST(ExceptionStatusTest, ExhaustedSystemResourcesAreResourceExhausted) {
  const Status threads = StatusOf(std::system_error(
      std::make_error_code(std::errc::resource_unavailable_try_again),
      "cannot start a thread"));
  EXPECT_EQ(threads.code(), PHAL_RESOURCE_EXHAUSTED);
  EXPECT_NE(threads.message().find("cannot start a thread"), std::string::npos)
      << threads.message();
  const Status other = StatusOf(std::system_error(
      std::make_error_code(std::errc::permission_denied), "open"));
  EXPECT_EQ(other.code(), PHAL_INTERNAL);
}

TEST(ExceptionStatusTest, StandardExceptionsKeepTheirText) {
  const Status status = StatusOf(std::logic_error("broken invariant"));
  EXPECT_EQ(status.code(), PHAL_INTERNAL);
  EXPECT_EQ(status.message(), "broken invariant");
}

TEST(ExceptionStatusTest, AnythingElseIsInternalNamingTheLibrary) {
  const Status status = StatusOf(42);
  EXPECT_EQ(status.code(), PHAL_INTERNAL);
  EXPECT_EQ(status.message(), "libtest: unknown exception");
}

}  // namespace
}  // namespace phal
