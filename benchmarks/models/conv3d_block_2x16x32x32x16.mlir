module @jit_conv3d_block attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x16x32x32x16xf32>, %arg1: tensor<3x3x3x16x32xf32>, %arg2: tensor<3x3x3x32x32xf32>) -> (tensor<2x16x32x32x32xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, 1, 2, f]x[0, 1, 2, i, o]->[b, 0, 1, 2, f], window = {stride = [1, 1, 1], pad = [[1, 1], [1, 1], [1, 1]], lhs_dilate = [1, 1, 1], rhs_dilate = [1, 1, 1], reverse = [false, false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x16x32x32x16xf32>, tensor<3x3x3x16x32xf32>) -> tensor<2x16x32x32x32xf32>
    %1 = call @relu(%0) : (tensor<2x16x32x32x32xf32>) -> tensor<2x16x32x32x32xf32>
    %2 = stablehlo.convolution(%1, %arg2) dim_numbers = [b, 0, 1, 2, f]x[0, 1, 2, i, o]->[b, 0, 1, 2, f], window = {stride = [1, 1, 1], pad = [[1, 1], [1, 1], [1, 1]], lhs_dilate = [1, 1, 1], rhs_dilate = [1, 1, 1], reverse = [false, false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x16x32x32x32xf32>, tensor<3x3x3x32x32xf32>) -> tensor<2x16x32x32x32xf32>
    %3 = call @relu(%2) : (tensor<2x16x32x32x32xf32>) -> tensor<2x16x32x32x32xf32>
    return %3 : tensor<2x16x32x32x32xf32>
  }
  func.func private @relu(%arg0: tensor<2x16x32x32x32xf32>) -> tensor<2x16x32x32x32xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x16x32x32x32xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<2x16x32x32x32xf32>
    return %1 : tensor<2x16x32x32x32xf32>
  }
}
