module @jit_bf16_conv attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x56x56x64xbf16>, %arg1: tensor<3x3x64x64xbf16>) -> (tensor<8x56x56x64xbf16> {jax.result_info = "result"}) {
    %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<8x56x56x64xbf16>, tensor<3x3x64x64xbf16>) -> tensor<8x56x56x64xf32>
    %1 = call @relu(%0) : (tensor<8x56x56x64xf32>) -> tensor<8x56x56x64xf32>
    %2 = stablehlo.convert %1 : (tensor<8x56x56x64xf32>) -> tensor<8x56x56x64xbf16>
    return %2 : tensor<8x56x56x64xbf16>
  }
  func.func private @relu(%arg0: tensor<8x56x56x64xf32>) -> tensor<8x56x56x64xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x56x56x64xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<8x56x56x64xf32>
    return %1 : tensor<8x56x56x64xf32>
  }
}
