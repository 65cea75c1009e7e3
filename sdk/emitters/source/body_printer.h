// The statements of one kernel under construction: lines at an indentation,
// the prelude helpers they call, and KIR bodies printed as one constant per
// node. The kernel kinds (source_emitter.cc) drive it.
#ifndef POLYHAL_SDK_EMITTERS_SOURCE_BODY_PRINTER_H_
#define POLYHAL_SDK_EMITTERS_SOURCE_BODY_PRINTER_H_

#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "polyhal/kernel.h"
#include "sdk/base/element_types.h"
#include "sdk/base/status.h"
#include "sdk/emitters/source/dialect.h"
#include "sdk/kir/facts.h"

namespace phal::source_emitter {

class BodyPrinter {
 public:
  // INDEX d of a body: the expression of dimension d, or "" when the body's
  // space has no such dimension.
  using IndexFn = std::function<std::string(int64_t)>;

  BodyPrinter(const phal_kernel_desc_t& kernel, const Dialect& dialect,
              const DeviceFeatures& features)
      : kernel_(kernel), dialect_(dialect), features_(features) {}

  const Dialect& dialect() const { return dialect_; }
  const DeviceFeatures& features() const { return features_; }

  // Appends one line at the current indentation; Open/Close add a brace
  // and move the indentation.
  void Line(std::string_view text);
  void Open(std::string_view text);
  void Close(std::string_view text = "}");
  // A name no other call returns: prefix and a counter.
  std::string Fresh(std::string_view prefix);
  // Records that the code calls prelude helper `name`; returns `name`.
  std::string Use(std::string name);

  // Prints `body`'s nodes as constants and returns the expressions of its
  // results. `parameters` are the expressions of its parameters (of the
  // compute type of their element type). The kernel has passed
  // CheckKernelStructure (sdk/kir/facts.h).
  StatusOr<std::vector<std::string>> Print(
      const phal_kir_body_t& body, const IndexFn& index,
      const std::vector<std::string>& parameters);

  // `value` of element type `from` converted to `to` (StableHLO convert).
  StatusOr<std::string> Convert(phal_element_type_t from,
                                phal_element_type_t to,
                                const std::string& value);
  // Rounds an f16 or bf16 value held in f32 to its type; others unchanged.
  std::string Round(phal_element_type_t type, const std::string& value);
  // sum + a * b in `type`, as an accumulating dot or convolution computes.
  StatusOr<std::string> MultiplyAdd(phal_element_type_t type,
                                    const std::string& sum,
                                    const std::string& a, const std::string& b);
  // Zero of `type` in its compute type.
  std::string Zero(phal_element_type_t type) const;
  // Expression of the element `position` (s64 expressions, one per
  // dimension) of buffer `buffer`, row-major.
  std::string LinearIndex(uint32_t buffer,
                          const std::vector<std::string>& position) const;
  // Name of buffer `buffer`'s kernel parameter.
  static std::string BufferName(uint32_t buffer);

  // Declares a work-group-shared array of the kernel.
  void Local(std::string type_name, std::string name, uint64_t elements);
  // The dialect's builtin `name` (an OpenCL C builtin's name: "fabs",
  // "rint", "popcount", ...) on `type`, or the prelude helper
  // phal_<name>_<type> standing in for it.
  std::string Function(std::string_view name, phal_element_type_t type);

  // The translation unit: the helpers in dependency order, the kernel's
  // buffers (and a scratch buffer when `scratch`), its shared arrays and the
  // lines printed so far.
  StatusOr<std::string> Finish(const std::vector<BufferParameter>& buffers,
                               bool scratch);

 private:
  StatusOr<std::string> NodeExpression(const phal_kir_body_t& body,
                                       const phal_kir_node_t& node,
                                       const std::vector<std::string>& values,
                                       const IndexFn& index,
                                       const std::vector<std::string>& params);
  StatusOr<std::string> Unary(const phal_kir_node_t& node,
                              phal_element_type_t operand_type,
                              const std::string& a);
  StatusOr<std::string> Binary(const phal_kir_node_t& node,
                               phal_element_type_t operand_type,
                               const std::string& a, const std::string& b);
  StatusOr<std::string> Compare(const phal_kir_node_t& node,
                                phal_element_type_t operand_type,
                                const std::string& a, const std::string& b);
  StatusOr<std::string> Bitcast(phal_element_type_t from,
                                phal_element_type_t to,
                                const std::string& value);
  StatusOr<std::string> ReducePrecision(phal_element_type_t type,
                                        const std::string& value,
                                        int64_t exponent_bits,
                                        int64_t mantissa_bits);
  std::string Constant(const phal_kir_node_t& node) const;
  Status AppendHelper(const std::string& name, std::set<std::string>* done,
                      std::string* text) const;

  const phal_kernel_desc_t& kernel_;
  const Dialect& dialect_;
  const DeviceFeatures& features_;
  std::string lines_;
  int indent_ = 1;
  int counter_ = 0;
  std::vector<std::string> helpers_;
  std::vector<LocalArray> locals_;
};

}  // namespace phal::source_emitter

#endif  // POLYHAL_SDK_EMITTERS_SOURCE_BODY_PRINTER_H_
