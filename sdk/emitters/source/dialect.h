// What differs between the C-like languages the source emitter prints: type
// names, casts, bit reinterpretation, vector construction, buffer access,
// the kernel signature and work-item queries, and the helper functions a
// kernel's prelude defines. The emitter (source_emitter.h) writes kernels in
// terms of this interface only; OpenCL C and GLSL compute implement it.
#ifndef POLYHAL_SDK_EMITTERS_SOURCE_DIALECT_H_
#define POLYHAL_SDK_EMITTERS_SOURCE_DIALECT_H_

#include <string>
#include <string_view>
#include <vector>

#include "polyhal/types.h"
#include "sdk/base/status.h"

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
  // Invocations per subgroup when the device shuffles values within one
  // (a power of two, 2 or more); 0 when it does not, or the dialect cannot.
  uint32_t subgroup_size = 0;
};

// A helper function of the prelude: its text and the helpers it calls.
struct HelperDefinition {
  std::string text;
  std::vector<std::string> dependencies;
};

// A kernel's buffer argument.
struct BufferParameter {
  std::string name;
  phal_element_type_t type = PHAL_ELEMENT_TYPE_INVALID;
  bool bytes = false;  // accessed as raw bytes (copy kernels)
};

// A work-group-shared array.
struct LocalArray {
  std::string type_name;
  std::string name;
  uint64_t elements = 0;
};

// What a kernel's translation unit is made of.
struct KernelParts {
  std::string helpers;                   // prelude helper definitions
  std::vector<BufferParameter> buffers;  // in argument (binding) order
  bool scratch = false;  // a scratch byte buffer follows the buffers
  std::vector<LocalArray> locals;
  std::string body;  // the kernel's statements, indented one level
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
  // The float constant whose bits are `bits` (a hexadecimal literal of the
  // unsigned type as wide as `type_name`, "float" or "double"). A dialect
  // whose drivers may fold arithmetic on a constant they can see against
  // IEEE rules (x * 0 -> 0 drops NaN and the sign of zero) prints it so that
  // no driver can know its value before the kernel runs.
  virtual std::string FloatConstant(std::string_view type_name,
                                    std::string_view bits) const {
    return Bitcast(type_name, bits);
  }
  // A complex value of `type` from its parts (already of the part type).
  virtual std::string MakeComplex(phal_element_type_t type,
                                  std::string_view real,
                                  std::string_view imag) const = 0;

  // The element of buffer `pointer` (of element type `type`) at `index`, as
  // a value of ComputeType(type). `pointer` is a buffer's name or a
  // ScratchView.
  virtual std::string Load(phal_element_type_t type, std::string_view pointer,
                           std::string_view index) const = 0;
  // A statement storing `value` (of ComputeType(type), already rounded to
  // `type`) at `index`.
  virtual std::string Store(phal_element_type_t type, std::string_view pointer,
                            std::string_view index,
                            std::string_view value) const = 0;
  // Element `index` (an s64 expression) of an array: a work-group-shared
  // array, a byte buffer or a ScratchView of an integer type.
  virtual std::string Subscript(std::string_view array,
                                std::string_view index) const = 0;
  // The scratch buffer (KernelParts::scratch) seen as an array of `type`,
  // from its first byte.
  virtual std::string ScratchView(phal_element_type_t type) const = 0;
  // A statement declaring `name` of type `type_name` initialised to `value`;
  // `constant` when it is never assigned again. Float values are never
  // contracted with the operations around them.
  virtual std::string Declare(std::string_view type_name, std::string_view name,
                              std::string_view value, bool constant) const = 0;
  // Work-item queries along dimension `d`, as 64-bit signed values.
  virtual std::string GlobalId(int d) const = 0;
  virtual std::string LocalId(int d) const = 0;
  virtual std::string GroupId(int d) const = 0;
  // A statement that synchronises the work-group on its shared memory.
  virtual std::string Barrier() const = 0;
  // With DeviceFeatures::subgroup_size: `value` (32- or 64-bit float or
  // 32-bit integer, or a complex) of the invocation `delta` places up in the
  // subgroup; and, as s64 values, the invocation's index in its subgroup,
  // the subgroup's size, how many of its invocations run, and the
  // subgroup's index in the work-group. "" where the dialect has no
  // subgroups.
  virtual std::string ShuffleDown(std::string_view value,
                                  std::string_view delta) const = 0;
  virtual std::string SubgroupLane() const = 0;
  virtual std::string SubgroupSize() const = 0;
  virtual std::string SubgroupLive() const = 0;
  virtual std::string SubgroupIndex() const = 0;

  // The dialect's function for the OpenCL C builtin `name` on `type`
  // ("fabs", "floor", "ceil", "round", "rint", "sqrt", "fmod", "popcount",
  // "clz", "isfinite", "min", "max"), or "" when a prelude helper
  // phal_<name>_<type suffix> stands in for it.
  virtual std::string Builtin(std::string_view name,
                              phal_element_type_t type) const = 0;

  // The translation unit of a kernel from its parts.
  virtual std::string Kernel(const KernelParts& parts,
                             const DeviceFeatures& features) const = 0;

  // The prelude helper `name` (e.g. "phal_div_s32", "phal_exp_f32"), or
  // UNIMPLEMENTED when the dialect has none of that name.
  virtual StatusOr<HelperDefinition> Helper(
      std::string_view name, const DeviceFeatures& features) const = 0;
};

// OpenCL C 1.2.
const Dialect& OpenClDialect();
// GLSL 4.50 compute shaders for Vulkan (glsl_dialect.cc says what the device
// must offer).
const Dialect& GlslDialect();

// The push constants a GLSL kernel may read: one 32-bit word at offset 0
// whose value must be zero at every dispatch. A Vulkan plugin declares this
// range (compute stage) in every pipeline layout and pushes zeros before
// each dispatch.
inline constexpr uint32_t kGlslPushConstantBytes = 4;

}  // namespace phal::source_emitter

#endif  // POLYHAL_SDK_EMITTERS_SOURCE_DIALECT_H_
