// A KIR body compiled for batch evaluation: validated once, every node
// resolved to a leaf or to the scalar op loop it runs, and a plan of
// scratch slots (reused once a value is dead). A BodyFrame evaluates the
// body over up to `capacity` iteration points at once, so each node's op
// and types are dispatched once per batch, never per element.
#ifndef POLYHAL_SDK_KIR_INTERPRETER_BODY_H_
#define POLYHAL_SDK_KIR_INTERPRETER_BODY_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "polyhal/kernel.h"
#include "sdk/base/element_types.h"
#include "sdk/base/status.h"
#include "sdk/kir_interpreter/scalar_ops.h"

namespace phal::kir_interpreter {

// Points evaluated together; chosen so a frame's scratch stays in cache.
inline constexpr int64_t kMaxBatch = 1024;

// What a body may refer to, which its kernel kind and role decide.
struct BodySignature {
  std::string role;                     // "loop", "reducer", ... for messages
  uint32_t rank = 0;                    // INDEX d needs d < rank
  std::vector<ElementType> parameters;  // PARAMETER p has type parameters[p]
  uint32_t result_count = 0;
};

class CompiledBody {
 public:
  // Validates `body` (a body of `kernel`, whose buffers are validated) and
  // prepares it. Errors name the kernel, the role and the node.
  static StatusOr<CompiledBody> Compile(const phal_kernel_desc_t& kernel,
                                        const phal_kir_body_t& body,
                                        const BodySignature& signature);

  uint32_t result_count() const {
    return static_cast<uint32_t>(results_.size());
  }
  ElementType result_type(uint32_t result) const {
    return nodes_[results_[result]].type;
  }
  // Which buffers READ nodes read.
  const std::vector<uint32_t>& read_buffers() const { return read_buffers_; }

  // "kernel K: <role> body: expected result i of type T, got U" style
  // message for a result the kernel kind constrains.
  Status CheckResultType(uint32_t result, ElementType expected,
                         const std::string& what) const;

 private:
  friend class BodyFrame;

  enum class Source { kConstant, kIndex, kParameter, kRead, kScalarOp };
  struct Node {
    Source source = Source::kConstant;
    ElementType type = PHAL_ELEMENT_TYPE_INVALID;
    uint32_t size = 0;  // bytes per element
    uint32_t operand_begin = 0;
    uint32_t operand_count = 0;
    // INDEX: the dimension; PARAMETER: the parameter; READ: the buffer.
    uint32_t slot_or_leaf = 0;
    int32_t scratch = -1;  // scratch slot holding the value, if any
    ScalarOp op = nullptr;
    const phal_kir_node_t* node = nullptr;
  };

  Status NodeError(uint32_t index, const std::string& message) const;
  Status CompileNode(uint32_t index, const BodySignature& signature);
  void PlanScratch();

  const phal_kernel_desc_t* kernel_ = nullptr;
  const phal_kir_body_t* body_ = nullptr;
  std::string role_;
  std::vector<Node> nodes_;
  std::vector<uint32_t> operands_;
  std::vector<uint32_t> results_;
  std::vector<uint32_t> read_buffers_;
  // Element size of each scratch slot.
  std::vector<uint32_t> slot_sizes_;
};

// Scratch memory for evaluating one body, owned by one thread at a time.
class BodyFrame {
 public:
  BodyFrame(const CompiledBody& body, int64_t capacity);

  // Evaluates the body at `count` (<= capacity) points. indices[d] holds
  // INDEX d at each point (s64), parameters[p] parameter p (in its type),
  // each `count` elements long; `buffers` are the kernel's. Fails only for
  // a READ out of bounds.
  Status Evaluate(std::span<uint8_t* const> buffers, int64_t count,
                  std::span<const int64_t* const> indices,
                  std::span<const uint8_t* const> parameters);

  // Result `result` of the last Evaluate: `count` elements, valid until the
  // next Evaluate.
  const uint8_t* result(uint32_t result) const {
    return values_[body_.results_[result]];
  }
  int64_t capacity() const { return capacity_; }

 private:
  Status Read(const CompiledBody::Node& node, uint32_t index,
              std::span<uint8_t* const> buffers, int64_t count, uint8_t* out);

  const CompiledBody& body_;
  int64_t capacity_;
  std::unique_ptr<std::byte[]> scratch_;
  std::vector<uint8_t*> slots_;
  std::vector<const uint8_t*> values_;
  std::vector<uint64_t> offsets_;
};

}  // namespace phal::kir_interpreter

#endif  // POLYHAL_SDK_KIR_INTERPRETER_BODY_H_
