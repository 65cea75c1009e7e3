module @jit_dilated_conv attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x64x64x64xf32>, %arg1: tensor<3x3x64x64xf32>, %arg2: tensor<3x3x64x64xf32>) -> (tensor<4x64x64x64xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[2, 2], [2, 2]], lhs_dilate = [1, 1], rhs_dilate = [2, 2], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<4x64x64x64xf32>, tensor<3x3x64x64xf32>) -> tensor<4x64x64x64xf32>
    %1 = call @relu(%0) : (tensor<4x64x64x64xf32>) -> tensor<4x64x64x64xf32>
    %2 = stablehlo.convolution(%1, %arg2) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[4, 4], [4, 4]], lhs_dilate = [1, 1], rhs_dilate = [4, 4], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<4x64x64x64xf32>, tensor<3x3x64x64xf32>) -> tensor<4x64x64x64xf32>
    %3 = call @relu(%2) : (tensor<4x64x64x64xf32>) -> tensor<4x64x64x64xf32>
    return %3 : tensor<4x64x64x64xf32>
  }
  func.func private @relu(%arg0: tensor<4x64x64x64xf32>) -> tensor<4x64x64x64xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x64x64x64xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<4x64x64x64xf32>
    return %1 : tensor<4x64x64x64xf32>
  }
}
