module @jit_f64_ops attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<12xf64>) -> (tensor<12xf64> {jax.result_info = "result[0]"}, tensor<12xf64> {jax.result_info = "result[1]"}) {
    %0 = stablehlo.tanh %arg0 : tensor<12xf64>
    %1 = stablehlo.negate %arg0 : tensor<12xf64>
    %2 = stablehlo.multiply %1, %arg0 : tensor<12xf64>
    %3 = stablehlo.exponential %2 : tensor<12xf64>
    %4 = stablehlo.multiply %0, %3 : tensor<12xf64>
    %5 = stablehlo.abs %arg0 : tensor<12xf64>
    %6 = stablehlo.log_plus_one %5 : tensor<12xf64>
    %7 = stablehlo.add %4, %6 : tensor<12xf64>
    %8 = call @cumsum(%arg0) : (tensor<12xf64>) -> tensor<12xf64>
    return %7, %8 : tensor<12xf64>, tensor<12xf64>
  }
  func.func private @cumsum(%arg0: tensor<12xf64>) -> tensor<12xf64> {
    %0 = call @cumsum_0(%arg0) : (tensor<12xf64>) -> tensor<12xf64>
    return %0 : tensor<12xf64>
  }
  func.func private @cumsum_0(%arg0: tensor<12xf64>) -> tensor<12xf64> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f64>) -> tensor<f64>
    %1 = "stablehlo.reduce_window"(%arg0, %0) <{base_dilations = array<i64: 1>, padding = dense<[[11, 0]]> : tensor<1x2xi64>, window_dilations = array<i64: 1>, window_dimensions = array<i64: 12>, window_strides = array<i64: 1>}> ({
    ^bb0(%arg1: tensor<f64>, %arg2: tensor<f64>):
      %2 = stablehlo.add %arg1, %arg2 : tensor<f64>
      stablehlo.return %2 : tensor<f64>
    }) : (tensor<12xf64>, tensor<f64>) -> tensor<12xf64>
    return %1 : tensor<12xf64>
  }
}
