// What the StableHLO front end produces: an HLO module holding every
// function of the program, and for each function its computation, its
// signature and the checks it contains.
#ifndef POLYHAL_CORE_FRONTEND_STABLEHLO_MODULE_H_
#define POLYHAL_CORE_FRONTEND_STABLEHLO_MODULE_H_

#include <memory>
#include <string>
#include <vector>

#include "core/frontend/check_spec.h"
#include "core/hlo/module.h"

namespace phal {

struct StableHloFunction {
  std::string name;
  bool is_public = true;
  HloComputation* computation = nullptr;  // owned by the module
  int64_t parameter_count = 0;
  // The function's own results are outputs [0, result_count); the values
  // its checks compare follow them.
  int64_t result_count = 0;
  std::vector<CheckSpec> checks;
  // Names of the functions it calls (func.call, composite decompositions).
  std::vector<std::string> callees;
  // The computation's root is a tuple of every output (results and check
  // values) when this is true; otherwise the root is the single result.
  bool returns_tuple = false;
};

struct StableHloModule {
  // Every function becomes a computation. The entry computation is
  // `main`, else the only public function; null when neither exists.
  std::unique_ptr<HloModule> module;
  std::vector<StableHloFunction> functions;

  // The function called `name`, or null.
  const StableHloFunction* FindFunction(const std::string& name) const;
  // The function of the entry computation, or null.
  const StableHloFunction* EntryFunction() const;
};

}  // namespace phal

#endif  // POLYHAL_CORE_FRONTEND_STABLEHLO_MODULE_H_
