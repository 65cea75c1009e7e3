module @jit_int8_matmul attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<512x2048xi8>, %arg1: tensor<2048x1024xi8>, %arg2: tensor<f32>, %arg3: tensor<1024xf32>) -> (tensor<512x1024xf32> {jax.result_info = "result[0]"}, tensor<512x1024xi8> {jax.result_info = "result[1]"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<512x2048xi8>, tensor<2048x1024xi8>) -> tensor<512x1024xi32>
    %1 = stablehlo.convert %0 : (tensor<512x1024xi32>) -> tensor<512x1024xf32>
    %2 = stablehlo.broadcast_in_dim %arg2, dims = [] : (tensor<f32>) -> tensor<512x1024xf32>
    %3 = stablehlo.multiply %1, %2 : tensor<512x1024xf32>
    %4 = stablehlo.broadcast_in_dim %arg3, dims = [1] : (tensor<1024xf32>) -> tensor<1x1024xf32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0, 1] : (tensor<1x1024xf32>) -> tensor<512x1024xf32>
    %6 = stablehlo.multiply %3, %5 : tensor<512x1024xf32>
    %cst = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<512x1024xf32>
    %8 = stablehlo.multiply %6, %7 : tensor<512x1024xf32>
    %9 = call @round(%8) : (tensor<512x1024xf32>) -> tensor<512x1024xf32>
    %c = stablehlo.constant dense<-128> : tensor<i32>
    %c_0 = stablehlo.constant dense<127> : tensor<i32>
    %10 = call @clip(%9, %c, %c_0) : (tensor<512x1024xf32>, tensor<i32>, tensor<i32>) -> tensor<512x1024xf32>
    %11 = stablehlo.convert %10 : (tensor<512x1024xf32>) -> tensor<512x1024xi8>
    return %6, %11 : tensor<512x1024xf32>, tensor<512x1024xi8>
  }
  func.func private @round(%arg0: tensor<512x1024xf32>) -> tensor<512x1024xf32> {
    %0 = stablehlo.round_nearest_even %arg0 : tensor<512x1024xf32>
    return %0 : tensor<512x1024xf32>
  }
  func.func private @clip(%arg0: tensor<512x1024xf32>, %arg1: tensor<i32>, %arg2: tensor<i32>) -> tensor<512x1024xf32> {
    %0 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<512x1024xf32>
    %2 = stablehlo.maximum %1, %arg0 : tensor<512x1024xf32>
    %3 = stablehlo.convert %arg2 : (tensor<i32>) -> tensor<f32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [] : (tensor<f32>) -> tensor<512x1024xf32>
    %5 = stablehlo.minimum %4, %2 : tensor<512x1024xf32>
    return %5 : tensor<512x1024xf32>
  }
}
