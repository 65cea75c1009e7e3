// The parts of the StableHLO front end that stand in for what the HLO IR
// lacks: narrow integers, small floats, triangular_solve and fft, chlo.scan,
// and interpreter.run_parallel with collectives and host transfers.
#include <cmath>
#include <limits>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/frontend/emulated_types.h"
#include "core/frontend/stablehlo_test_util.h"

namespace phal::testing {
namespace {

using ::testing::DoubleNear;
using ::testing::ElementsAre;
using ::testing::IsEmpty;
using ::testing::Pointwise;

TEST(StableHloEmulationTest, NarrowIntegersWrapAroundTheirWidth) {
  EXPECT_THAT(CheckFailures(R"(
    func.func @main() {
      %a = stablehlo.constant dense<[7, -8, 5, -1]> : tensor<4xi4>
      %b = stablehlo.constant dense<[1, -1, 5, 1]> : tensor<4xi4>
      %sum = stablehlo.add %a, %b : tensor<4xi4>
      check.expect_eq_const %sum, dense<[-8, 7, -6, 0]> : tensor<4xi4>
      %neg = stablehlo.negate %a : tensor<4xi4>
      check.expect_eq_const %neg, dense<[-7, -8, -5, 1]> : tensor<4xi4>
      %one = stablehlo.constant dense<1> : tensor<4xi4>
      %srl = stablehlo.shift_right_logical %a, %one : tensor<4xi4>
      check.expect_eq_const %srl, dense<[3, 4, 2, 7]> : tensor<4xi4>
      %clz = stablehlo.count_leading_zeros %a : tensor<4xi4>
      check.expect_eq_const %clz, dense<[1, 0, 1, 0]> : tensor<4xi4>
      %u = stablehlo.constant dense<[15, 0]> : tensor<2xui4>
      %uone = stablehlo.constant dense<1> : tensor<2xui4>
      %usum = stablehlo.add %u, %uone : tensor<2xui4>
      check.expect_eq_const %usum, dense<[0, 1]> : tensor<2xui4>
      %i2 = stablehlo.iota dim = 0 : tensor<5xi2>
      check.expect_eq_const %i2, dense<[0, 1, -2, -1, 0]> : tensor<5xi2>
      func.return
    })"),
              IsEmpty());
}

TEST(StableHloEmulationTest, BitcastConvertOfI1PacksOneBitPerElement) {
  // 0x6B = 0b01101011, bit 0 first; -128 is the sign bit alone.
  EXPECT_THAT(CheckFailures(R"(
    func.func @main() {
      %bits = stablehlo.constant dense<[[true, true, false, true, false, true, true, false], [false, false, false, false, false, false, false, true]]> : tensor<2x8xi1>
      %u = stablehlo.bitcast_convert %bits : (tensor<2x8xi1>) -> tensor<2xui8>
      check.expect_eq_const %u, dense<[107, 128]> : tensor<2xui8>
      %s = stablehlo.bitcast_convert %bits : (tensor<2x8xi1>) -> tensor<2xi8>
      check.expect_eq_const %s, dense<[107, -128]> : tensor<2xi8>
      %back = stablehlo.bitcast_convert %s : (tensor<2xi8>) -> tensor<2x8xi1>
      check.expect_eq %back, %bits : tensor<2x8xi1>
      %same = stablehlo.bitcast_convert %bits : (tensor<2x8xi1>) -> tensor<2x8xi1>
      check.expect_eq %same, %bits : tensor<2x8xi1>
      func.return
    })"),
              IsEmpty());
}

TEST(StableHloEmulationTest, SmallFloatsHoldOnlyValuesOfTheirFormat) {
  const MinifloatFormat* e4m3fn = FindMinifloatFormat("f8E4M3FN");
  ASSERT_NE(e4m3fn, nullptr);
  EXPECT_EQ(RoundToMinifloat(*e4m3fn, 0.1), 0.1015625);
  EXPECT_EQ(RoundToMinifloat(*e4m3fn, 3.1415), 3.25);
  EXPECT_EQ(MinifloatMax(*e4m3fn), 448);
  EXPECT_TRUE(std::isnan(DecodeMinifloat(*e4m3fn, 0x7F)));
  EXPECT_EQ(DecodeMinifloat(*e4m3fn, 0x01), 0.001953125);
  const MinifloatFormat* e5m2 = FindMinifloatFormat("f8E5M2");
  EXPECT_EQ(DecodeMinifloat(*e5m2, 0x7C),
            std::numeric_limits<double>::infinity());
  EXPECT_EQ(RoundToMinifloat(*FindMinifloatFormat("f4E2M1FN"), 100.0), 6.0);
  EXPECT_THAT(CheckFailures(R"(
    func.func @main() {
      %x = stablehlo.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]> : tensor<8xf8E4M3>
      %d = stablehlo.dot_general %x, %x, contracting_dims = [0] x [0] : (tensor<8xf8E4M3>, tensor<8xf8E4M3>) -> tensor<f8E4M3>
      check.expect_eq_const %d, dense<144.0> : tensor<f8E4M3>
      func.return
    })"),
              IsEmpty());
}

TEST(StableHloEmulationTest, TriangularSolveAllVariants) {
  // a = [[2, 0], [1, 4]] (lower) and its transpose (upper); a x = b.
  const std::string text = R"(
    func.func @main() -> (tensor<2x1xf64>, tensor<2x1xf64>, tensor<1x2xf64>, tensor<2x1xf64>) {
      %a = stablehlo.constant dense<[[2.0, 99.0], [1.0, 4.0]]> : tensor<2x2xf64>
      %b = stablehlo.constant dense<[[2.0], [9.0]]> : tensor<2x1xf64>
      %r = stablehlo.constant dense<[[2.0, 9.0]]> : tensor<1x2xf64>
      %0 = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (tensor<2x2xf64>, tensor<2x1xf64>) -> tensor<2x1xf64>
      %1 = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose TRANSPOSE>} : (tensor<2x2xf64>, tensor<2x1xf64>) -> tensor<2x1xf64>
      %2 = "stablehlo.triangular_solve"(%a, %r) {left_side = false, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (tensor<2x2xf64>, tensor<1x2xf64>) -> tensor<1x2xf64>
      %3 = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = true, unit_diagonal = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (tensor<2x2xf64>, tensor<2x1xf64>) -> tensor<2x1xf64>
      return %0, %1, %2, %3 : tensor<2x1xf64>, tensor<2x1xf64>, tensor<1x2xf64>, tensor<2x1xf64>
    })";
  StatusOr<std::vector<Literal>> outputs = RunStableHlo(text);
  ASSERT_TRUE(outputs.ok()) << outputs.status().message();
  // [[2,0],[1,4]] x = [2,9] -> x = [1, 2].
  EXPECT_THAT(Values((*outputs)[0]), ElementsAre(1, 2));
  // [[2,1],[0,4]] x = [2,9] -> x = [(2 - 9/4)/2, 9/4].
  EXPECT_THAT(Values((*outputs)[1]), ElementsAre(-0.125, 2.25));
  // x [[2,0],[1,4]] = [2,9] -> x = [(2 - 9/4)/2, 9/4].
  EXPECT_THAT(Values((*outputs)[2]), ElementsAre(-0.125, 2.25));
  // Unit diagonal: [[1,0],[1,1]] x = [2,9] -> x = [2, 7].
  EXPECT_THAT(Values((*outputs)[3]), ElementsAre(2, 7));
}

TEST(StableHloEmulationTest, FftMatchesTheDiscreteFourierTransform) {
  const std::string text = R"(
    func.func @main() -> (tensor<4xcomplex<f64>>, tensor<3xcomplex<f64>>, tensor<4xf64>) {
      %x = stablehlo.constant dense<[(1.0, 0.0), (2.0, 1.0), (0.0, -1.0), (3.0, 0.0)]> : tensor<4xcomplex<f64>>
      %0 = stablehlo.fft %x, type = FFT, length = [4] : (tensor<4xcomplex<f64>>) -> tensor<4xcomplex<f64>>
      %r = stablehlo.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf64>
      %1 = stablehlo.fft %r, type = RFFT, length = [4] : (tensor<4xf64>) -> tensor<3xcomplex<f64>>
      %2 = stablehlo.fft %1, type = IRFFT, length = [4] : (tensor<3xcomplex<f64>>) -> tensor<4xf64>
      return %0, %1, %2 : tensor<4xcomplex<f64>>, tensor<3xcomplex<f64>>, tensor<4xf64>
    })";
  StatusOr<std::vector<Literal>> outputs = RunStableHlo(text);
  ASSERT_TRUE(outputs.ok()) << outputs.status().message();
  const std::complex<double> x[4] = {{1, 0}, {2, 1}, {0, -1}, {3, 0}};
  for (int k = 0; k < 4; ++k) {
    std::complex<double> expected = 0;
    for (int n = 0; n < 4; ++n)
      expected += x[n] * std::polar(1.0, -2 * M_PI * n * k / 4);
    EXPECT_NEAR(std::abs((*outputs)[0].GetAsComplex(k) - expected), 0, 1e-12)
        << k;
  }
  EXPECT_NEAR(
      std::abs((*outputs)[1].GetAsComplex(0) - std::complex<double>(10, 0)), 0,
      1e-12);
  EXPECT_NEAR(
      std::abs((*outputs)[1].GetAsComplex(1) - std::complex<double>(-2, 2)), 0,
      1e-12);
  EXPECT_THAT(Values((*outputs)[2]),
              Pointwise(DoubleNear(1e-12), {1.0, 2.0, 3.0, 4.0}));
}

TEST(StableHloEmulationTest, ScanCarriesAlongTheDimension) {
  EXPECT_THAT(CheckFailures(R"(
    func.func @main() {
      %x = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
      %init = stablehlo.constant dense<0> : tensor<2xi32>
      %0:2 = chlo.scan(%x) inits(%init) dimension=1 attributes {is_reverse = true} {
      ^bb0(%e: tensor<2xi32>, %c: tensor<2xi32>):
        %s = stablehlo.add %e, %c : tensor<2xi32>
        stablehlo.return %s, %s : tensor<2xi32>, tensor<2xi32>
      } : (tensor<2x3xi32>, tensor<2xi32>) -> (tensor<2x3xi32>, tensor<2xi32>)
      check.expect_eq_const %0#0, dense<[[6, 5, 3], [15, 11, 6]]> : tensor<2x3xi32>
      check.expect_eq_const %0#1, dense<[6, 15]> : tensor<2xi32>
      func.return
    })"),
              IsEmpty());
}

TEST(StableHloEmulationTest, RunParallelSimulatesCollectivesAcrossProcesses) {
  EXPECT_THAT(CheckFailures(R"(
    module @m {
      func.func @program(%x: tensor<2xi64>) -> (tensor<2xi64>, tensor<4xi64>, tensor<2xi64>, tensor<ui32>) {
        %sum = "stablehlo.all_reduce"(%x) ({
          ^bb0(%a: tensor<i64>, %b: tensor<i64>):
            %s = stablehlo.add %a, %b : tensor<i64>
            stablehlo.return %s : tensor<i64>
        }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xi64>) -> tensor<2xi64>
        %all = "stablehlo.all_gather"(%x) {all_gather_dim = 0 : i64, replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>} : (tensor<2xi64>) -> tensor<4xi64>
        %moved = "stablehlo.collective_permute"(%x) {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xi64>) -> tensor<2xi64>
        %id = stablehlo.replica_id : tensor<ui32>
        return %sum, %all, %moved, %id : tensor<2xi64>, tensor<4xi64>, tensor<2xi64>, tensor<ui32>
      }
      func.func @main() {
        %a = stablehlo.constant dense<[1, 2]> : tensor<2xi64>
        %b = stablehlo.constant dense<[10, 20]> : tensor<2xi64>
        %r:8 = "interpreter.run_parallel"(%a, %b) {programs = [[@program], [@program]]} : (tensor<2xi64>, tensor<2xi64>) -> (tensor<2xi64>, tensor<4xi64>, tensor<2xi64>, tensor<ui32>, tensor<2xi64>, tensor<4xi64>, tensor<2xi64>, tensor<ui32>)
        check.expect_eq_const %r#0, dense<[11, 22]> : tensor<2xi64>
        check.expect_eq_const %r#4, dense<[11, 22]> : tensor<2xi64>
        check.expect_eq_const %r#1, dense<[10, 20, 1, 2]> : tensor<4xi64>
        check.expect_eq_const %r#2, dense<[0, 0]> : tensor<2xi64>
        check.expect_eq_const %r#6, dense<[1, 2]> : tensor<2xi64>
        check.expect_eq_const %r#3, dense<0> : tensor<ui32>
        check.expect_eq_const %r#7, dense<1> : tensor<ui32>
        func.return
      }
    })"),
              IsEmpty());
}

TEST(StableHloEmulationTest, SendAndRecvPassValuesBetweenProgramsInOrder) {
  EXPECT_THAT(CheckFailures(R"(
    module @m {
      func.func @send(%x: tensor<2xi64>, %t: !stablehlo.token) -> !stablehlo.token {
        %0 = "stablehlo.send"(%x, %t) {channel_handle = #stablehlo.channel_handle<handle = 7, type = 2>, is_host_transfer = true} : (tensor<2xi64>, !stablehlo.token) -> !stablehlo.token
        return %0 : !stablehlo.token
      }
      func.func @recv(%t: !stablehlo.token) -> (tensor<2xi64>, !stablehlo.token) {
        %0:2 = "stablehlo.recv"(%t) {channel_handle = #stablehlo.channel_handle<handle = 7, type = 3>, is_host_transfer = true} : (!stablehlo.token) -> (tensor<2xi64>, !stablehlo.token)
        return %0#0, %0#1 : tensor<2xi64>, !stablehlo.token
      }
      func.func @main() {
        %x = stablehlo.constant dense<[4, 5]> : tensor<2xi64>
        %t = stablehlo.after_all : !stablehlo.token
        %r:3 = "interpreter.run_parallel"(%x, %t, %t) {programs = [[@send], [@recv]]} : (tensor<2xi64>, !stablehlo.token, !stablehlo.token) -> (!stablehlo.token, tensor<2xi64>, !stablehlo.token)
        check.expect_eq_const %r#1, dense<[4, 5]> : tensor<2xi64>
        func.return
      }
    })"),
              IsEmpty());
}

// Outside run_parallel a collective belongs to an SPMD program whose grid
// the module states (mhlo.num_replicas, mhlo.num_partitions); this one
// states none, so it runs on one process and replica 1 does not exist.
TEST(StableHloEmulationTest, CollectivesOutsideRunParallelNeedTheModulesGrid) {
  StatusOr<StableHloModule> program = ParseStableHlo(R"(
    func.func @main(%x: tensor<2xi64>) -> tensor<4xi64> {
      %0 = "stablehlo.all_gather"(%x) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xi64>) -> tensor<4xi64>
      return %0 : tensor<4xi64>
    })",
                                                     "c.mlir");
  ASSERT_FALSE(program.ok());
  EXPECT_THAT(program.status().message(),
              ::testing::HasSubstr(
                  "c.mlir:3:7: error: stablehlo.all_gather: replica id 1 "
                  "is out of range: the program runs on 1 replicas x 1 "
                  "partitions"));
}

}  // namespace
}  // namespace phal::testing
