// Kernels that the tests of the KIR facts, the interpreter, the emitters and
// the plugins (and the plugins' benchmarks) all need, each built in one
// place with the KIR library's builders (sdk/kir/kernel.h). Each Build*
// takes a KirKernel of its kind and fills it.
#ifndef POLYHAL_SDK_PLUGIN_TESTING_KIR_BUILDER_KERNELS_H_
#define POLYHAL_SDK_PLUGIN_TESTING_KIR_BUILDER_KERNELS_H_

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "polyhal/kernel.h"
#include "sdk/kir/kernel.h"

namespace phal::plugin_testing {

// "multiply_add_one": out[i] = a[i] * b[i] + 1 over f32[n], buffers a, b
// and out in that order; the first kernel every plugin's tests run.
inline KirKernel MultiplyAddOne(int64_t n) {
  constexpr phal_element_type_t kF32 = PHAL_ELEMENT_TYPE_F32;
  KirKernel kernel("multiply_add_one", PHAL_KERNEL_KIND_LOOP);
  const uint32_t a = kernel.AddBuffer(kF32, {n});
  const uint32_t b = kernel.AddBuffer(kF32, {n});
  kernel.outputs = {kernel.AddBuffer(kF32, {n}, PHAL_KIR_ACCESS_WRITE)};
  kernel.dims = {n};
  KirBody& body = kernel.body;
  const uint32_t i = body.Index(0);
  const uint32_t product =
      body.Add(PHAL_KIR_OP_MULTIPLY, kF32,
               {body.Read(kF32, a, {i}), body.Read(kF32, b, {i})});
  const uint32_t one = body.Constant(kF32, 0x3f800000u);  // 1.0f
  body.AddResult(body.Add(PHAL_KIR_OP_ADD, kF32, {product, one}));
  return kernel;
}

// "test_kernel": out = f(x) elementwise over `dims`, a LOOP reading buffer
// 0 (x) and writing buffer 1 (out), both of `type`; `f(body, x)` adds to
// the body the value of out's element from x's, read at the loop index.
template <typename F>
KirKernel UnaryLoopKernel(phal_element_type_t type, std::vector<int64_t> dims,
                          F f) {
  KirKernel kernel("test_kernel", PHAL_KERNEL_KIND_LOOP);
  const uint32_t x = kernel.AddBuffer(type, dims);
  kernel.outputs = {kernel.AddBuffer(type, dims, PHAL_KIR_ACCESS_WRITE)};
  KirBody& body = kernel.body;
  std::vector<uint32_t> index;
  for (std::size_t d = 0; d < dims.size(); ++d) {
    index.push_back(body.Index(static_cast<uint32_t>(d)));
  }
  kernel.dims = std::move(dims);
  body.AddResult(f(body, body.Read(type, x, index)));
  return kernel;
}

// Makes `body` the computation (x, y) -> x + y of `type`: a sum's reducer,
// or the combiner of a scatter that adds.
inline void BuildAddition(KirBody& body, phal_element_type_t type) {
  body.AddResult(body.Add(PHAL_KIR_OP_ADD, type,
                          {body.Parameter(type, 0), body.Parameter(type, 1)}));
}

// C = A B: A [m, k] (buffer 0) and B [k, n] (buffer 1) of `type`, row-major,
// summed in `accumulation` and written as C [m, n] of it (buffer 2) by an
// identity epilogue. A `lhs_column_stride` above 1 spreads A's columns
// apart (A's buffer is [m, k * lhs_column_stride]), so no GEMM library can
// read A and a plugin must run its own loops.
inline void BuildMatmul(KirKernel& dot, phal_element_type_t type,
                        phal_element_type_t accumulation, int64_t m, int64_t n,
                        int64_t k, int64_t lhs_column_stride = 1) {
  dot.dot.lhs = dot.AddBuffer(type, {m, k * lhs_column_stride});
  dot.dot.rhs = dot.AddBuffer(type, {k, n});
  dot.dot.output = dot.AddBuffer(accumulation, {m, n}, PHAL_KIR_ACCESS_WRITE);
  dot.dot.accumulation_type = accumulation;
  dot.dot.batch = 1;
  dot.dot.m = m;
  dot.dot.n = n;
  dot.dot.k = k;
  dot.dot.lhs_strides[1] = k * lhs_column_stride;
  dot.dot.lhs_strides[2] = lhs_column_stride;
  dot.dot.rhs_strides[1] = n;
  dot.dot.rhs_strides[2] = 1;
  dot.body.AddResult(dot.body.Parameter(accumulation, 0));
}

// The sum from 0 of `type`[dims] (buffer 0) over `reduced_dims`, written by
// an identity epilogue to buffer 1, of the dimensions that remain.
inline void BuildSum(KirKernel& reduce, phal_element_type_t type,
                     const std::vector<int64_t>& dims,
                     const std::vector<int64_t>& reduced_dims) {
  std::vector<int64_t> output_dims;
  for (int64_t d = 0; d < static_cast<int64_t>(dims.size()); ++d) {
    bool reduced = false;
    for (int64_t r : reduced_dims) reduced |= r == d;
    if (!reduced) output_dims.push_back(dims[static_cast<std::size_t>(d)]);
  }
  const uint32_t input = reduce.AddBuffer(type, dims);
  reduce.outputs = {reduce.AddBuffer(type, output_dims, PHAL_KIR_ACCESS_WRITE)};
  reduce.dims = dims;
  reduce.reduced_dims = reduced_dims;
  reduce.init.AddResult(reduce.init.Constant(type, 0));
  std::vector<uint32_t> indices;
  for (std::size_t d = 0; d < dims.size(); ++d) {
    indices.push_back(reduce.body.Index(static_cast<int64_t>(d)));
  }
  reduce.body.AddResult(reduce.body.Read(type, input, indices));
  BuildAddition(reduce.reducer, type);
  reduce.epilogue.AddResult(reduce.epilogue.Parameter(type, 0));
}

// Sorts operands of `types`, each of shape `dims` (buffers 0, 1, ...),
// along `dimension` into outputs of the same types and shape (the buffers
// after them), comparing operand 0 by `direction` and `comparison`; the
// other operands are permuted alike.
inline void BuildSort(
    KirKernel& sort, const std::vector<phal_element_type_t>& types,
    const std::vector<int64_t>& dims, int64_t dimension,
    phal_kir_comparison_direction_t direction = PHAL_KIR_COMPARE_LT,
    phal_kir_comparison_type_t comparison = PHAL_KIR_COMPARISON_SIGNED) {
  for (phal_element_type_t type : types) {
    sort.operands.push_back(sort.AddBuffer(type, dims));
  }
  for (phal_element_type_t type : types) {
    sort.outputs.push_back(sort.AddBuffer(type, dims, PHAL_KIR_ACCESS_WRITE));
  }
  sort.sort.dimension = dimension;
  KirBody& c = sort.reducer;
  std::vector<uint32_t> parameters;
  for (std::size_t i = 0; i < types.size(); ++i) {
    parameters.push_back(c.Parameter(types[i], static_cast<uint32_t>(2 * i)));
    parameters.push_back(
        c.Parameter(types[i], static_cast<uint32_t>(2 * i + 1)));
  }
  c.AddResult(c.Compare(direction, comparison, parameters[0], parameters[1]));
}

}  // namespace phal::plugin_testing

#endif  // POLYHAL_SDK_PLUGIN_TESTING_KIR_BUILDER_KERNELS_H_
