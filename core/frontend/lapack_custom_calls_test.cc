// The LAPACK custom calls JAX writes for CPU, read from StableHLO text as
// jax.jit(...).lower(...).as_text() prints them (index-typed layouts, the
// backend_config dictionary of character codes), with LAPACK's outputs:
// 1-based pivots, info, the untouched triangle of potrf.
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/frontend/stablehlo_test_util.h"

namespace phal::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(LapackCustomCallsTest, PotrfGivesTheFactorInfoAndTheOtherTriangle) {
  const std::string text = R"(
    func.func @main() -> (tensor<2x2xf64>, tensor<i32>, tensor<2x2xf64>, tensor<i32>) {
      %a = stablehlo.constant dense<[[4.0, 7.0], [2.0, 5.0]]> : tensor<2x2xf64>
      %0:2 = stablehlo.custom_call @lapack_dpotrf_ffi(%a) {mhlo.backend_config = {uplo = 76 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "0"}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<> : tensor<0xindex>]} : (tensor<2x2xf64>) -> (tensor<2x2xf64>, tensor<i32>)
      %b = stablehlo.constant dense<[[1.0, 0.0], [0.0, -1.0]]> : tensor<2x2xf64>
      %1:2 = stablehlo.custom_call @lapack_dpotrf_ffi(%b) {mhlo.backend_config = {uplo = 76 : ui8}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>]} : (tensor<2x2xf64>) -> (tensor<2x2xf64>, tensor<i32>)
      return %0#0, %0#1, %1#0, %1#1 : tensor<2x2xf64>, tensor<i32>, tensor<2x2xf64>, tensor<i32>
    })";
  StatusOr<std::vector<Literal>> outputs = RunStableHlo(text);
  ASSERT_TRUE(outputs.ok()) << outputs.status().message();
  // [[4, .], [2, 5]] = L L^T with L = [[2, 0], [1, 2]]; the upper triangle
  // keeps a's 7, as LAPACK leaves it.
  EXPECT_THAT(Values((*outputs)[0]), ElementsAre(2, 7, 1, 2));
  EXPECT_THAT(Values((*outputs)[1]), ElementsAre(0));
  // The second leading minor is not positive: info 2, as LAPACK says.
  EXPECT_THAT(Values((*outputs)[3]), ElementsAre(2));
}

TEST(LapackCustomCallsTest, GetrfGivesOneBasedPivotsAndInfo) {
  const std::string text = R"(
    func.func @main() -> (tensor<2x2xf64>, tensor<2xi32>, tensor<i32>, tensor<2xi32>, tensor<i32>) {
      %a = stablehlo.constant dense<[[1.0, 2.0], [4.0, 2.0]]> : tensor<2x2xf64>
      %0:3 = stablehlo.custom_call @lapack_dgetrf_ffi(%a) {mhlo.backend_config = {}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<0> : tensor<1xindex>, dense<> : tensor<0xindex>]} : (tensor<2x2xf64>) -> (tensor<2x2xf64>, tensor<2xi32>, tensor<i32>)
      %s = stablehlo.constant dense<[[1.0, 2.0], [2.0, 4.0]]> : tensor<2x2xf64>
      %1:3 = stablehlo.custom_call @lapack_dgetrf_ffi(%s) {mhlo.backend_config = {}} : (tensor<2x2xf64>) -> (tensor<2x2xf64>, tensor<2xi32>, tensor<i32>)
      return %0#0, %0#1, %0#2, %1#1, %1#2 : tensor<2x2xf64>, tensor<2xi32>, tensor<i32>, tensor<2xi32>, tensor<i32>
    })";
  StatusOr<std::vector<Literal>> outputs = RunStableHlo(text);
  ASSERT_TRUE(outputs.ok()) << outputs.status().message();
  // Rows swapped: [[4, 2], [1, 2]] = [[1, 0], [1/4, 1]] [[4, 2], [0, 1.5]].
  EXPECT_THAT(Values((*outputs)[0]), ElementsAre(4, 2, 0.25, 1.5));
  EXPECT_THAT(Values((*outputs)[1]), ElementsAre(2, 2));
  EXPECT_THAT(Values((*outputs)[2]), ElementsAre(0));
  // Singular: U[1][1] is exactly zero, so info is 2.
  EXPECT_THAT(Values((*outputs)[4]), ElementsAre(2));
}

TEST(LapackCustomCallsTest, TrsmReadsSideUploTransAndDiag) {
  const std::string text = R"(
    func.func @main() -> tensor<2x1xf64> {
      %a = stablehlo.constant dense<[[2.0, 1.0], [99.0, 4.0]]> : tensor<2x2xf64>
      %b = stablehlo.constant dense<[[2.0], [9.0]]> : tensor<2x1xf64>
      %0 = stablehlo.custom_call @lapack_dtrsm_ffi(%a, %b) {mhlo.backend_config = {diag = 78 : ui8, side = 76 : ui8, trans_x = 84 : ui8, uplo = 85 : ui8}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<[0, 1]> : tensor<2xindex>]} : (tensor<2x2xf64>, tensor<2x1xf64>) -> tensor<2x1xf64>
      return %0 : tensor<2x1xf64>
    })";
  // The upper triangle [[2, 1], [0, 4]] transposed: [[2, 0], [1, 4]] x =
  // [2, 9] -> x = [1, 2].
  EXPECT_THAT(FirstOutputValues(text), ElementsAre(1, 2));
}

TEST(LapackCustomCallsTest, GeqrfOrgqrSyevdAndGesddRead) {
  const std::string text = R"(
    func.func @main() -> (tensor<2x2xf64>, tensor<2xf64>, tensor<2xf64>, tensor<i32>) {
      %a = stablehlo.constant dense<[[3.0, 1.0], [4.0, 2.0]]> : tensor<2x2xf64>
      %0:2 = stablehlo.custom_call @lapack_dgeqrf_ffi(%a) {mhlo.backend_config = {}} : (tensor<2x2xf64>) -> (tensor<2x2xf64>, tensor<2xf64>)
      %q = stablehlo.custom_call @lapack_dorgqr_ffi(%0#0, %0#1) {mhlo.backend_config = {}} : (tensor<2x2xf64>, tensor<2xf64>) -> tensor<2x2xf64>
      %s = stablehlo.constant dense<[[2.0, 1.0], [1.0, 2.0]]> : tensor<2x2xf64>
      %1:3 = stablehlo.custom_call @lapack_dsyevd_ffi(%s) {mhlo.backend_config = {mode = 86 : ui8, uplo = 76 : ui8}} : (tensor<2x2xf64>) -> (tensor<2x2xf64>, tensor<2xf64>, tensor<i32>)
      %2:5 = stablehlo.custom_call @lapack_dgesdd_ffi(%s) {mhlo.backend_config = {mode = 65 : ui8}} : (tensor<2x2xf64>) -> (tensor<2x2xf64>, tensor<2xf64>, tensor<2x2xf64>, tensor<2x2xf64>, tensor<i32>)
      return %q, %1#1, %2#1, %2#4 : tensor<2x2xf64>, tensor<2xf64>, tensor<2xf64>, tensor<i32>
    })";
  StatusOr<std::vector<Literal>> outputs = RunStableHlo(text);
  ASSERT_TRUE(outputs.ok()) << outputs.status().message();
  // Householder: beta = -5, so Q's first column is -[3, 4] / 5.
  const std::vector<double> q = Values((*outputs)[0]);
  EXPECT_NEAR(q[0], -0.6, 1e-15);
  EXPECT_NEAR(q[2], -0.8, 1e-15);
  const std::vector<double> eigenvalues = Values((*outputs)[1]);
  EXPECT_NEAR(eigenvalues[0], 1, 1e-15);
  EXPECT_NEAR(eigenvalues[1], 3, 1e-15);
  const std::vector<double> singular = Values((*outputs)[2]);
  EXPECT_NEAR(singular[0], 3, 1e-15);
  EXPECT_NEAR(singular[1], 1, 1e-15);
  EXPECT_THAT(Values((*outputs)[3]), ElementsAre(0));
}

TEST(LapackCustomCallsTest, GpuSolverCallsAndThePivotsPermutation) {
  const std::string text = R"(
    func.func @main() -> (tensor<2x2xf64>, tensor<i32>, tensor<2x3xi32>, tensor<2x2xf64>) {
      %a = stablehlo.constant dense<[[4.0, 7.0], [2.0, 5.0]]> : tensor<2x2xf64>
      %0:2 = stablehlo.custom_call @cusolver_potrf_ffi(%a) {mhlo.backend_config = {lower = true}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>]} : (tensor<2x2xf64>) -> (tensor<2x2xf64>, tensor<i32>)
      %p = stablehlo.constant dense<[[2, 1], [1, 2]]> : tensor<2x2xi32>
      %1 = stablehlo.custom_call @hip_lu_pivots_to_permutation(%p) {mhlo.backend_config = {}} : (tensor<2x2xi32>) -> tensor<2x3xi32>
      %s = stablehlo.constant dense<[[2.0, 0.0], [0.0, 1.0]]> : tensor<2x2xf64>
      %2:5 = stablehlo.custom_call @cusolver_gesvdj_ffi(%s) {mhlo.backend_config = {compute_uv = true, full_matrices = true}} : (tensor<2x2xf64>) -> (tensor<2x2xf64>, tensor<2xf64>, tensor<2x2xf64>, tensor<2x2xf64>, tensor<i32>)
      return %0#0, %0#1, %1, %2#3 : tensor<2x2xf64>, tensor<i32>, tensor<2x3xi32>, tensor<2x2xf64>
    })";
  StatusOr<std::vector<Literal>> outputs = RunStableHlo(text);
  ASSERT_TRUE(outputs.ok()) << outputs.status().message();
  EXPECT_THAT(Values((*outputs)[0]), ElementsAre(2, 7, 1, 2));
  EXPECT_THAT(Values((*outputs)[1]), ElementsAre(0));
  // [0 1 2]: swap 0 and 2 -> [2 1 0], then 1 and 1. [0 1 2]: swap 0 and 1
  // -> [1 0 2], then 1 and 2 -> [1 2 0].
  EXPECT_THAT(Values((*outputs)[2]), ElementsAre(2, 1, 0, 1, 2, 0));
  // gesvdj gives v (not vt); diag(2, 1) has v = I.
  EXPECT_THAT(Values((*outputs)[3]), ElementsAre(1, 0, 0, 1));
}

TEST(LapackCustomCallsTest, ARoutineNotLoweredIsNamed) {
  const std::string text = R"(
    func.func @main() -> (tensor<2x2xf64>, tensor<2xf64>, tensor<2xf64>, tensor<2x2xf64>, tensor<i32>) {
      %a = stablehlo.constant dense<[[3.0, 1.0], [4.0, 2.0]]> : tensor<2x2xf64>
      %0:5 = stablehlo.custom_call @lapack_dgeev_ffi(%a) {mhlo.backend_config = {}} : (tensor<2x2xf64>) -> (tensor<2x2xf64>, tensor<2xf64>, tensor<2xf64>, tensor<2x2xf64>, tensor<i32>)
      return %0#0, %0#1, %0#2, %0#3, %0#4 : tensor<2x2xf64>, tensor<2xf64>, tensor<2xf64>, tensor<2x2xf64>, tensor<i32>
    })";
  StatusOr<std::vector<Literal>> outputs = RunStableHlo(text);
  ASSERT_FALSE(outputs.ok());
  EXPECT_THAT(std::string(outputs.status().message()),
              HasSubstr("LAPACK's geev is not lowered yet"));
}

TEST(LapackCustomCallsTest, StablehloCholeskyReadsItsTriangle) {
  const std::string text = R"(
    func.func @main() -> (tensor<2x2xf64>, tensor<2x2xf64>) {
      %a = stablehlo.constant dense<[[4.0, 2.0], [-99.0, 5.0]]> : tensor<2x2xf64>
      %0 = stablehlo.cholesky %a, lower = false : tensor<2x2xf64>
      %b = stablehlo.constant dense<[[4.0, -99.0], [2.0, 5.0]]> : tensor<2x2xf64>
      %1 = "stablehlo.cholesky"(%b) {lower = true} : (tensor<2x2xf64>) -> tensor<2x2xf64>
      return %0, %1 : tensor<2x2xf64>, tensor<2x2xf64>
    })";
  StatusOr<std::vector<Literal>> outputs = RunStableHlo(text);
  ASSERT_TRUE(outputs.ok()) << outputs.status().message();
  EXPECT_THAT(Values((*outputs)[0]), ElementsAre(2, 1, 0, 2));
  EXPECT_THAT(Values((*outputs)[1]), ElementsAre(2, 0, 1, 2));
}

}  // namespace
}  // namespace phal::testing
