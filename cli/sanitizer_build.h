// Whether this translation unit is built with AddressSanitizer or
// ThreadSanitizer: GCC defines __SANITIZE_ADDRESS__ and __SANITIZE_THREAD__,
// clang answers __has_feature. PHAL_SANITIZER_BUILD is 1 under either.
#ifndef POLYHAL_CLI_SANITIZER_BUILD_H_
#define POLYHAL_CLI_SANITIZER_BUILD_H_

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define PHAL_SANITIZER_BUILD 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define PHAL_SANITIZER_BUILD 1
#endif
#endif
#ifndef PHAL_SANITIZER_BUILD
#define PHAL_SANITIZER_BUILD 0
#endif

#endif  // POLYHAL_CLI_SANITIZER_BUILD_H_
