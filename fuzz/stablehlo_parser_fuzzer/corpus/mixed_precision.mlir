module @jit_mixed attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<9xf32>) -> (tensor<9xf32> {jax.result_info = "result[0]"}, tensor<9xf16> {jax.result_info = "result[1]"}) {
    %0 = stablehlo.convert %arg0 : (tensor<9xf32>) -> tensor<9xbf16>
    %cst = stablehlo.constant dense<3.000000e+00> : tensor<bf16>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<bf16>) -> tensor<9xbf16>
    %2 = stablehlo.multiply %0, %1 : tensor<9xbf16>
    %3 = stablehlo.convert %2 : (tensor<9xbf16>) -> tensor<9xf32>
    %4 = stablehlo.convert %arg0 : (tensor<9xf32>) -> tensor<9xf16>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f16>
    %5 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f16>) -> tensor<9xf16>
    %6 = stablehlo.add %4, %5 : tensor<9xf16>
    return %3, %6 : tensor<9xf32>, tensor<9xf16>
  }
}
