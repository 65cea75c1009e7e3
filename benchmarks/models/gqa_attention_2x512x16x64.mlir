module @jit_gqa_attention attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x512x16x64xf32>, %arg1: tensor<2x512x4x64xf32>, %arg2: tensor<2x512x4x64xf32>) -> (tensor<2x512x16x64xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.reshape %arg0 : (tensor<2x512x16x64xf32>) -> tensor<2x512x4x4x64xf32>
    %1 = stablehlo.dot_general %arg1, %0, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [4], precision = [DEFAULT, DEFAULT] : (tensor<2x512x4x64xf32>, tensor<2x512x4x4x64xf32>) -> tensor<2x4x512x512x4xf32>
    %2 = stablehlo.transpose %1, dims = [0, 1, 4, 3, 2] : (tensor<2x4x512x512x4xf32>) -> tensor<2x4x4x512x512xf32>
    %cst = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x4x4x512x512xf32>
    %4 = stablehlo.divide %2, %3 : tensor<2x4x4x512x512xf32>
    %c = stablehlo.constant dense<true> : tensor<i1>
    %5 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i1>) -> tensor<512x512xi1>
    %6 = call @tril(%5) : (tensor<512x512xi1>) -> tensor<512x512xi1>
    %cst_0 = stablehlo.constant dense<-1.000000e+30> : tensor<f32>
    %7 = call @_where(%6, %4, %cst_0) : (tensor<512x512xi1>, tensor<2x4x4x512x512xf32>, tensor<f32>) -> tensor<2x4x4x512x512xf32>
    %cst_1 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %8 = stablehlo.reduce(%7 init: %cst_1) applies stablehlo.maximum across dimensions = [4] : (tensor<2x4x4x512x512xf32>, tensor<f32>) -> tensor<2x4x4x512xf32>
    %cst_2 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<2x4x4x512xf32>
    %10 = stablehlo.maximum %9, %8 : tensor<2x4x4x512xf32>
    %11 = stablehlo.broadcast_in_dim %10, dims = [0, 1, 2, 3] : (tensor<2x4x4x512xf32>) -> tensor<2x4x4x512x1xf32>
    %12 = stablehlo.broadcast_in_dim %11, dims = [0, 1, 2, 3, 4] : (tensor<2x4x4x512x1xf32>) -> tensor<2x4x4x512x512xf32>
    %13 = stablehlo.subtract %7, %12 : tensor<2x4x4x512x512xf32>
    %14 = stablehlo.exponential %13 : tensor<2x4x4x512x512xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %15 = stablehlo.reduce(%14 init: %cst_3) applies stablehlo.add across dimensions = [4] : (tensor<2x4x4x512x512xf32>, tensor<f32>) -> tensor<2x4x4x512xf32>
    %16 = stablehlo.broadcast_in_dim %15, dims = [0, 1, 2, 3] : (tensor<2x4x4x512xf32>) -> tensor<2x4x4x512x1xf32>
    %17 = stablehlo.broadcast_in_dim %16, dims = [0, 1, 2, 3, 4] : (tensor<2x4x4x512x1xf32>) -> tensor<2x4x4x512x512xf32>
    %18 = stablehlo.divide %14, %17 : tensor<2x4x4x512x512xf32>
    %19 = stablehlo.dot_general %arg2, %18, batching_dims = [0, 2] x [0, 1], contracting_dims = [1] x [4], precision = [DEFAULT, DEFAULT] : (tensor<2x512x4x64xf32>, tensor<2x4x4x512x512xf32>) -> tensor<2x4x64x4x512xf32>
    %20 = stablehlo.transpose %19, dims = [0, 4, 1, 3, 2] : (tensor<2x4x64x4x512xf32>) -> tensor<2x512x4x4x64xf32>
    %21 = stablehlo.reshape %20 : (tensor<2x512x4x4x64xf32>) -> tensor<2x512x16x64xf32>
    return %21 : tensor<2x512x16x64xf32>
  }
  func.func private @tril(%arg0: tensor<512x512xi1>) -> tensor<512x512xi1> {
    %0 = stablehlo.iota dim = 0 : tensor<512x512xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<512x512xi32>
    %2 = stablehlo.add %0, %1 : tensor<512x512xi32>
    %3 = stablehlo.iota dim = 1 : tensor<512x512xi32>
    %4 = stablehlo.compare GE, %2, %3, SIGNED : (tensor<512x512xi32>, tensor<512x512xi32>) -> tensor<512x512xi1>
    %c_0 = stablehlo.constant dense<false> : tensor<i1>
    %5 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i1>) -> tensor<512x512xi1>
    %6 = stablehlo.select %4, %arg0, %5 : tensor<512x512xi1>, tensor<512x512xi1>
    return %6 : tensor<512x512xi1>
  }
  func.func private @_where(%arg0: tensor<512x512xi1>, %arg1: tensor<2x4x4x512x512xf32>, %arg2: tensor<f32>) -> tensor<2x4x4x512x512xf32> {
    %0 = stablehlo.broadcast_in_dim %arg0, dims = [3, 4] : (tensor<512x512xi1>) -> tensor<2x4x4x512x512xi1>
    %1 = stablehlo.broadcast_in_dim %arg2, dims = [] : (tensor<f32>) -> tensor<2x4x4x512x512xf32>
    %2 = stablehlo.select %0, %arg1, %1 : tensor<2x4x4x512x512xi1>, tensor<2x4x4x512x512xf32>
    return %2 : tensor<2x4x4x512x512xf32>
  }
}
