module @jit_unet_block attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x64x64x32xf32>, %arg1: tensor<3x3x32x64xf32>, %arg2: tensor<2x2x64x32xf32>, %arg3: tensor<3x3x64x32xf32>) -> (tensor<4x64x64x32xf32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<f32>
    %1 = "stablehlo.reduce_window"(%arg0, %0) <{base_dilations = array<i64: 1, 1, 1, 1>, padding = dense<0> : tensor<4x2xi64>, window_dilations = array<i64: 1, 1, 1, 1>, window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
    ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
      %9 = stablehlo.maximum %arg4, %arg5 : tensor<f32>
      stablehlo.return %9 : tensor<f32>
    }) : (tensor<4x64x64x32xf32>, tensor<f32>) -> tensor<4x32x32x32xf32>
    %2 = stablehlo.convolution(%1, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<4x32x32x32xf32>, tensor<3x3x32x64xf32>) -> tensor<4x32x32x64xf32>
    %3 = call @relu(%2) : (tensor<4x32x32x64xf32>) -> tensor<4x32x32x64xf32>
    %4 = stablehlo.convolution(%3, %arg2) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [2, 2], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<4x32x32x64xf32>, tensor<2x2x64x32xf32>) -> tensor<4x64x64x32xf32>
    %5 = call @relu_0(%4) : (tensor<4x64x64x32xf32>) -> tensor<4x64x64x32xf32>
    %6 = stablehlo.concatenate %arg0, %5, dim = 3 : (tensor<4x64x64x32xf32>, tensor<4x64x64x32xf32>) -> tensor<4x64x64x64xf32>
    %7 = stablehlo.convolution(%6, %arg3) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<4x64x64x64xf32>, tensor<3x3x64x32xf32>) -> tensor<4x64x64x32xf32>
    %8 = call @relu_0(%7) : (tensor<4x64x64x32xf32>) -> tensor<4x64x64x32xf32>
    return %8 : tensor<4x64x64x32xf32>
  }
  func.func private @relu(%arg0: tensor<4x32x32x64xf32>) -> tensor<4x32x32x64xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x32x32x64xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<4x32x32x64xf32>
    return %1 : tensor<4x32x32x64xf32>
  }
  func.func private @relu_0(%arg0: tensor<4x64x64x32xf32>) -> tensor<4x64x64x32xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x64x64x32xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<4x64x64x32xf32>
    return %1 : tensor<4x64x64x32xf32>
  }
}
