// What a host runtime needs to run a kernel the toolkit emitted, without the
// KIR it came from: the emitted function's signature, how far its range
// goes, and, for a dot, the shape a BLAS library can compute the sums of.
#ifndef POLYHAL_SDK_EMITTERS_LLVM_LAUNCH_PLAN_H_
#define POLYHAL_SDK_EMITTERS_LLVM_LAUNCH_PLAN_H_

#include <cstdint>

#include "polyhal/kernel.h"

namespace phal::llvm_emitter {

// The one function every emitted host kernel defines, under kKernelSymbol:
// runs the iterations [begin, end) of the kernel's split dimension.
// buffers[i] is the base address of phal_kernel_desc_t::buffers[i].
// `dot_sums` is NULL except for a DOT, or a CONV with a ConvGemmShape: then
// it holds LaunchPlan::dot_sums_bytes bytes, sums[batch][m][n] (a CONV's
// laid out as its output) in the accumulation type (16-bit floats as f32,
// complex as two parts). When the plan has a GemmShape or ConvGemmShape the
// runtime fills them before the call and the kernel only applies its
// epilogue; otherwise a DOT's kernel computes the sums of its rows there
// itself. Calls with disjoint ranges may run concurrently.
using KernelFunction = void (*)(void* const* buffers, int64_t begin,
                                int64_t end, void* dot_sums);
inline constexpr const char* kKernelSymbol = "phal_kernel";

// A dot whose operands a GEMM routine reads directly: per batch, A is
// m x k and B is k x n with the given leading dimensions, transposed or not.
struct GemmShape {
  // f32 or f64; s32 for s8 and u8 operands, which the runtime sums exactly
  // (the cpu plugin: with AVX-512 VNNI, or in f32 GEMMs over slices of k
  // short enough that no sum exceeds 2^24).
  phal_element_type_t type = PHAL_ELEMENT_TYPE_INVALID;
  uint32_t lhs = 0;
  uint32_t rhs = 0;
  uint32_t lhs_transposed = 0;
  uint32_t rhs_transposed = 0;
  int64_t batch = 0;
  int64_t m = 0;
  int64_t n = 0;
  int64_t k = 0;
  int64_t lhs_leading = 0;
  int64_t rhs_leading = 0;
  int64_t lhs_batch_stride = 0;
  int64_t rhs_batch_stride = 0;
  // An operand's element type where it is narrower than `type` (f16 or
  // bf16 operands of an f32 GEMM, which the runtime widens first; s8 or u8
  // of an s32 one); INVALID where it is `type`.
  phal_element_type_t lhs_type = PHAL_ELEMENT_TYPE_INVALID;
  phal_element_type_t rhs_type = PHAL_ELEMENT_TYPE_INVALID;
};

// A convolution a GEMM routine computes, for channels-innermost layouts
// (input [batch, height, width, channels], kernel [kernel_height,
// kernel_width, channels, features], output [batch, out_height, out_width,
// features]; a 1-D convolution has heights of 1): per image, the patches
// (im2col, zeros on padding) times the kernel as a (kernel_height *
// kernel_width * channels) x features matrix, into sums laid out as the
// output.
struct ConvGemmShape {
  phal_element_type_t type = PHAL_ELEMENT_TYPE_INVALID;  // f32 or f64
  uint32_t input = 0;
  uint32_t kernel = 0;
  int64_t batch = 0, height = 0, width = 0, channels = 0;
  int64_t kernel_height = 0, kernel_width = 0, features = 0;
  int64_t out_height = 0, out_width = 0;
  int64_t stride_h = 1, stride_w = 1, pad_h = 0, pad_w = 0;
  int64_t dilation_h = 1, dilation_w = 1;
  // As GemmShape's lhs_type and rhs_type, for the input and the kernel.
  phal_element_type_t input_type = PHAL_ELEMENT_TYPE_INVALID;
  phal_element_type_t kernel_type = PHAL_ELEMENT_TYPE_INVALID;
};

// Plain data, so a runtime may store it byte for byte beside the object code.
struct LaunchPlan {
  phal_kernel_kind_t kind = PHAL_KERNEL_KIND_LOOP;
  uint32_t buffer_count = 0;
  // The kernel function's range is [0, split_extent).
  int64_t split_extent = 0;
  // Scalar iterations per unit of the range, so a runtime can size tasks.
  int64_t work_per_split = 0;
  // DOT: the size of the dot_sums buffer the runtime passes.
  int64_t dot_sums_bytes = 0;
  // DOT with type != INVALID: the runtime computes the sums with a GEMM.
  GemmShape gemm;
  // CONV with type != INVALID: the runtime computes the sums (dot_sums,
  // laid out as the output) with a GEMM over patches; the kernel applies
  // the epilogue.
  ConvGemmShape conv_gemm;
};

}  // namespace phal::llvm_emitter

#endif  // POLYHAL_SDK_EMITTERS_LLVM_LAUNCH_PLAN_H_
