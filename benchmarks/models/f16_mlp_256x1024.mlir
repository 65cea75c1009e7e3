module @jit_f16_mlp attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<256x1024xf16>, %arg1: tensor<1024x2048xf16>, %arg2: tensor<2048xf16>, %arg3: tensor<2048x1024xf16>, %arg4: tensor<1024xf16>) -> (tensor<256x1024xf16> {jax.result_info = "result"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<256x1024xf16>, tensor<1024x2048xf16>) -> tensor<256x2048xf16>
    %1 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<2048xf16>) -> tensor<1x2048xf16>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<1x2048xf16>) -> tensor<256x2048xf16>
    %3 = stablehlo.add %0, %2 : tensor<256x2048xf16>
    %4 = call @relu(%3) : (tensor<256x2048xf16>) -> tensor<256x2048xf16>
    %5 = stablehlo.dot_general %4, %arg3, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<256x2048xf16>, tensor<2048x1024xf16>) -> tensor<256x1024xf16>
    %6 = stablehlo.broadcast_in_dim %arg4, dims = [1] : (tensor<1024xf16>) -> tensor<1x1024xf16>
    %7 = stablehlo.broadcast_in_dim %6, dims = [0, 1] : (tensor<1x1024xf16>) -> tensor<256x1024xf16>
    %8 = stablehlo.add %5, %7 : tensor<256x1024xf16>
    return %8 : tensor<256x1024xf16>
  }
  func.func private @relu(%arg0: tensor<256x2048xf16>) -> tensor<256x2048xf16> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f16>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f16>) -> tensor<256x2048xf16>
    %1 = stablehlo.maximum %arg0, %0 : tensor<256x2048xf16>
    return %1 : tensor<256x2048xf16>
  }
}
