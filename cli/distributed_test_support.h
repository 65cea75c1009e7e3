// What the tests of `polyhal run --distributed` (over MPI and over TCP)
// share: the command, the JAX sample models' input flags, the check of a
// run's outputs against XLA's, and the two "hosts" of
// scripts/netns-hosts.sh.
#ifndef POLYHAL_CLI_DISTRIBUTED_TEST_SUPPORT_H_
#define POLYHAL_CLI_DISTRIBUTED_TEST_SUPPORT_H_

#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "core/io/npy.h"
#include "core/testing/command_output.h"
#include "core/testing/jax_models.h"
#include "core/testing/literal_comparison.h"

namespace phal::testing {

inline const std::string kPolyhal =
    std::string(PHAL_TEST_BUILD_DIR) + "/bin/polyhal";
inline const std::string kJaxModelDir =
    std::string(PHAL_TEST_SOURCE_DIR) + "/samples/models/jax/";

// "--input NAME.input_0.npy --input ..." for every input of model `name`.
inline std::string ModelInputFlags(const std::string& name) {
  std::string inputs;
  for (int i = 0; std::filesystem::exists(kJaxModelDir + name + ".input_" +
                                          std::to_string(i) + ".npy");
       ++i) {
    inputs += " --input " + kJaxModelDir + name + ".input_" +
              std::to_string(i) + ".npy";
  }
  return inputs;
}

// The outputs a run wrote to `out` against XLA's for model `name`.
inline void ExpectOutputsMatchXla(const std::string& name,
                                  const std::string& out) {
  StatusOr<JaxModel> model = ReadJaxModel(name, ".hlo");
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  for (std::size_t k = 0; k < model->results.size(); ++k) {
    StatusOr<Literal> got =
        ReadNpy(out + "/output_" + std::to_string(k) + ".npy");
    ASSERT_TRUE(got.ok()) << got.status().ToString();
    const Literal& expected = model->results[k];
    EXPECT_TRUE(Matches(*got, expected, XlaTolerance(expected.element_type())))
        << name << " output " << k;
  }
}

// scripts/netns-hosts.sh: two network namespaces joined by a veth pair.
inline const std::string kNetnsHosts =
    "bash " + std::string(PHAL_TEST_SOURCE_DIR) + "/scripts/netns-hosts.sh";

// Makes the two hosts afresh; false (and nothing left behind) where
// namespaces cannot be made here.
inline bool NetnsHostsUp() {
  if (RunCommand(kNetnsHosts + " down; " + kNetnsHosts + " up").exit_code ==
      0) {
    return true;
  }
  RunCommand(kNetnsHosts + " down");
  return false;
}

inline void NetnsHostsDown() { RunCommand(kNetnsHosts + " down"); }

}  // namespace phal::testing

#endif  // POLYHAL_CLI_DISTRIBUTED_TEST_SUPPORT_H_
