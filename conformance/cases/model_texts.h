// The JAX-exported models of samples/models/jax, compiled into the suite
// (conformance/CMakeLists.txt generates model_texts.cc from the .hlo files)
// so an installed polyhal certifies without the source tree.
#ifndef POLYHAL_CONFORMANCE_CASES_MODEL_TEXTS_H_
#define POLYHAL_CONFORMANCE_CASES_MODEL_TEXTS_H_

#include <vector>

namespace phal::conformance {

struct ModelText {
  const char* name;  // the file's stem, e.g. "transformer_block"
  const char* hlo;   // its XLA HLO text
};

const std::vector<ModelText>& JaxModelTexts();

}  // namespace phal::conformance

#endif  // POLYHAL_CONFORMANCE_CASES_MODEL_TEXTS_H_
