module @jit_conv1d_stack attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x4096x64xf32>, %arg1: tensor<9x64x128xf32>, %arg2: tensor<9x128x128xf32>, %arg3: tensor<9x128x64xf32>) -> (tensor<8x4096x64xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [1], pad = [[4, 4]], lhs_dilate = [1], rhs_dilate = [1], reverse = [false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<8x4096x64xf32>, tensor<9x64x128xf32>) -> tensor<8x4096x128xf32>
    %1 = call @relu(%0) : (tensor<8x4096x128xf32>) -> tensor<8x4096x128xf32>
    %2 = stablehlo.convolution(%1, %arg2) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [1], pad = [[4, 4]], lhs_dilate = [1], rhs_dilate = [1], reverse = [false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<8x4096x128xf32>, tensor<9x128x128xf32>) -> tensor<8x4096x128xf32>
    %3 = call @relu(%2) : (tensor<8x4096x128xf32>) -> tensor<8x4096x128xf32>
    %4 = stablehlo.convolution(%3, %arg3) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [1], pad = [[4, 4]], lhs_dilate = [1], rhs_dilate = [1], reverse = [false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<8x4096x128xf32>, tensor<9x128x64xf32>) -> tensor<8x4096x64xf32>
    %5 = call @relu_0(%4) : (tensor<8x4096x64xf32>) -> tensor<8x4096x64xf32>
    return %5 : tensor<8x4096x64xf32>
  }
  func.func private @relu(%arg0: tensor<8x4096x128xf32>) -> tensor<8x4096x128xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x4096x128xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<8x4096x128xf32>
    return %1 : tensor<8x4096x128xf32>
  }
  func.func private @relu_0(%arg0: tensor<8x4096x64xf32>) -> tensor<8x4096x64xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x4096x64xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<8x4096x64xf32>
    return %1 : tensor<8x4096x64xf32>
  }
}
