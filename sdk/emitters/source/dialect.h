// What differs between the C-like languages the source emitter prints: type
// names, casts, bit reinterpretation, vector construction, buffer access,
// the kernel signature and work-item queries, and the helper functions a
// kernel's prelude defines. The emitter (source_emitter.h) writes kernels in
// terms of this interface only, so a second dialect (GLSL compute) is one
// more implementation of it.
#ifndef POLYHAL_SDK_EMITTERS_SOURCE_DIALECT_H_
#define POLYHAL_SDK_EMITTERS_SOURCE_DIALECT_H_

#include <string>
#include <string_view>
#include <vector>

#include "sdk/base/status.h"
#include "polyhal/types.h"

namespace phal::source_emitter {

// What the device offers that changes the printed code.
struct DeviceFeatures {
  bool fp64 = false;  // double and c128 exist (cl_khr_fp64)
  bool fp16 = false;  // half arithmetic exists (cl_khr_fp16); unused so far
  // f32 division and square root are correctly rounded when asked
  // (CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT); otherwise the emitter computes
  // them in f64 where the device has it.
  bool correctly_rounded_divide_sqrt = false;
  // The largest work-group the device runs; the emitter sizes its groups
  // below it.
  uint64_t max_work_group_size = 64;
};

// A helper function of the prelude: its text and the helpers it calls.
struct HelperDefinition {
  std::string text;
  std::vector<std::string> dependencies;
};

class Dialect {
 public:
  virtual ~Dialect() = default;

  virtual std::string_view name() const = 0;

  // The type arithmetic on `type` is done in (f16 and bf16 compute as f32;
  // pred as an 8-bit 0 or 1; complex as a two-element vector).
  virtual std::string ComputeType(phal_element_type_t type) const = 0;
  // The unsigned type arithmetic of an integer type wraps in: 32 bits for
  // types up to 32 bits wide, else 64.
  virtual std::string WrapType(phal_element_type_t type) const = 0;
  // `expression` converted with the language's cast to `type_name`.
  virtual std::string Cast(std::string_view type_name,
                           std::string_view expression) const = 0;
  // `expression`'s bits as `type_name` (equal widths).
  virtual std::string Bitcast(std::string_view type_name,
                              std::string_view expression) const = 0;
  // A complex value of `type` from its parts (already of the part type).
  virtual std::string MakeComplex(phal_element_type_t type,
                                  std::string_view real,
                                  std::string_view imag) const = 0;

  // The element of buffer parameter `pointer` (of element type `type`) at
  // `index`, as a value of ComputeType(type).
  virtual std::string Load(phal_element_type_t type, std::string_view pointer,
                           std::string_view index) const = 0;
  // A statement storing `value` (of ComputeType(type), already rounded to
  // `type`) at `index`.
  virtual std::string Store(phal_element_type_t type, std::string_view pointer,
                            std::string_view index,
                            std::string_view value) const = 0;
  // The declaration of a kernel parameter pointing at global memory of
  // `type`.
  virtual std::string BufferParameter(phal_element_type_t type,
                                      std::string_view name) const = 0;
  // The declaration of a raw byte pointer parameter (scratch memory).
  virtual std::string ByteBufferParameter(std::string_view name) const = 0;
  // A pointer to elements of `type` at byte `offset` of a byte pointer.
  virtual std::string TypedPointer(phal_element_type_t type,
                                   std::string_view bytes,
                                   std::string_view offset) const = 0;
  // The declaration of a work-group-shared array.
  virtual std::string LocalArray(std::string_view type_name,
                                 std::string_view name,
                                 uint64_t elements) const = 0;

  // The text every kernel starts with (extensions, pragmas).
  virtual std::string Preamble(const DeviceFeatures& features) const = 0;
  // `void <entry>(<parameters>)` with the language's kernel qualifiers.
  virtual std::string KernelSignature(
      std::string_view entry,
      const std::vector<std::string>& parameters) const = 0;
  // Work-item queries along dimension `d`, as 64-bit signed values.
  virtual std::string GlobalId(int d) const = 0;
  virtual std::string LocalId(int d) const = 0;
  virtual std::string GroupId(int d) const = 0;
  // A statement that synchronises the work-group on its shared memory.
  virtual std::string Barrier() const = 0;

  // The prelude helper `name` (e.g. "phal_div_s32", "phal_exp_f32"), or
  // UNIMPLEMENTED when the dialect has none of that name.
  virtual StatusOr<HelperDefinition> Helper(
      std::string_view name, const DeviceFeatures& features) const = 0;
};

// OpenCL C 1.2.
const Dialect& OpenClDialect();

}  // namespace phal::source_emitter

#endif  // POLYHAL_SDK_EMITTERS_SOURCE_DIALECT_H_
