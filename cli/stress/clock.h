// The clock `polyhal stress` measures its phases and its deadline on.
#ifndef POLYHAL_CLI_STRESS_CLOCK_H_
#define POLYHAL_CLI_STRESS_CLOCK_H_

#include <chrono>

namespace phal::cli::stress {

using Clock = std::chrono::steady_clock;

inline double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

}  // namespace phal::cli::stress

#endif  // POLYHAL_CLI_STRESS_CLOCK_H_
