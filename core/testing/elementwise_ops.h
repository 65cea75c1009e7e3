// HLO's elementwise ops by the element types of their operands, spelled as
// in HLO text: what the end-to-end sweeps run on every plugin, and what the
// conformance corpus must have cases for.
#ifndef POLYHAL_CORE_TESTING_ELEMENTWISE_OPS_H_
#define POLYHAL_CORE_TESTING_ELEMENTWISE_OPS_H_

#include <string>
#include <vector>

namespace phal::testing {

// On floating operands; is-finite yields pred.
inline const std::vector<std::string> kFloatUnaryOps = {"abs",
                                                        "negate",
                                                        "sign",
                                                        "floor",
                                                        "ceil",
                                                        "round-nearest-afz",
                                                        "round-nearest-even",
                                                        "exponential",
                                                        "exponential-minus-one",
                                                        "log",
                                                        "log-plus-one",
                                                        "logistic",
                                                        "sqrt",
                                                        "rsqrt",
                                                        "cbrt",
                                                        "tanh",
                                                        "sine",
                                                        "cosine",
                                                        "tan",
                                                        "erf",
                                                        "is-finite"};
inline const std::vector<std::string> kFloatBinaryOps = {
    "add",     "subtract", "multiply", "divide", "remainder",
    "maximum", "minimum",  "power",    "atan2"};

// On integer operands; abs, negate and sign on signed ones only.
inline const std::vector<std::string> kIntegerUnaryOps = {
    "abs", "negate", "sign", "not", "popcnt", "count-leading-zeros"};
inline const std::vector<std::string> kIntegerBinaryOps = {
    "add",
    "subtract",
    "multiply",
    "divide",
    "remainder",
    "maximum",
    "minimum",
    "and",
    "or",
    "xor",
    "shift-left",
    "shift-right-arithmetic",
    "shift-right-logical",
    "power"};

}  // namespace phal::testing

#endif  // POLYHAL_CORE_TESTING_ELEMENTWISE_OPS_H_
