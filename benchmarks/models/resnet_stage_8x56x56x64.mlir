module @jit_resnet_stage attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x56x56x64xf32>, %arg1: tensor<3x3x64x64xf32>, %arg2: tensor<64xf32>, %arg3: tensor<64xf32>, %arg4: tensor<3x3x64x64xf32>, %arg5: tensor<64xf32>, %arg6: tensor<64xf32>, %arg7: tensor<3x3x64x64xf32>, %arg8: tensor<64xf32>, %arg9: tensor<64xf32>, %arg10: tensor<3x3x64x64xf32>, %arg11: tensor<64xf32>, %arg12: tensor<64xf32>) -> (tensor<8x56x56x64xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<8x56x56x64xf32>, tensor<3x3x64x64xf32>) -> tensor<8x56x56x64xf32>
    %1 = stablehlo.broadcast_in_dim %arg2, dims = [3] : (tensor<64xf32>) -> tensor<1x1x1x64xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1, 2, 3] : (tensor<1x1x1x64xf32>) -> tensor<8x56x56x64xf32>
    %3 = stablehlo.multiply %0, %2 : tensor<8x56x56x64xf32>
    %4 = stablehlo.broadcast_in_dim %arg3, dims = [3] : (tensor<64xf32>) -> tensor<1x1x1x64xf32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0, 1, 2, 3] : (tensor<1x1x1x64xf32>) -> tensor<8x56x56x64xf32>
    %6 = stablehlo.add %3, %5 : tensor<8x56x56x64xf32>
    %7 = call @relu(%6) : (tensor<8x56x56x64xf32>) -> tensor<8x56x56x64xf32>
    %8 = stablehlo.convolution(%7, %arg4) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<8x56x56x64xf32>, tensor<3x3x64x64xf32>) -> tensor<8x56x56x64xf32>
    %9 = stablehlo.broadcast_in_dim %arg5, dims = [3] : (tensor<64xf32>) -> tensor<1x1x1x64xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1, 2, 3] : (tensor<1x1x1x64xf32>) -> tensor<8x56x56x64xf32>
    %11 = stablehlo.multiply %8, %10 : tensor<8x56x56x64xf32>
    %12 = stablehlo.broadcast_in_dim %arg6, dims = [3] : (tensor<64xf32>) -> tensor<1x1x1x64xf32>
    %13 = stablehlo.broadcast_in_dim %12, dims = [0, 1, 2, 3] : (tensor<1x1x1x64xf32>) -> tensor<8x56x56x64xf32>
    %14 = stablehlo.add %11, %13 : tensor<8x56x56x64xf32>
    %15 = stablehlo.add %arg0, %14 : tensor<8x56x56x64xf32>
    %16 = call @relu(%15) : (tensor<8x56x56x64xf32>) -> tensor<8x56x56x64xf32>
    %17 = stablehlo.convolution(%16, %arg7) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<8x56x56x64xf32>, tensor<3x3x64x64xf32>) -> tensor<8x56x56x64xf32>
    %18 = stablehlo.broadcast_in_dim %arg8, dims = [3] : (tensor<64xf32>) -> tensor<1x1x1x64xf32>
    %19 = stablehlo.broadcast_in_dim %18, dims = [0, 1, 2, 3] : (tensor<1x1x1x64xf32>) -> tensor<8x56x56x64xf32>
    %20 = stablehlo.multiply %17, %19 : tensor<8x56x56x64xf32>
    %21 = stablehlo.broadcast_in_dim %arg9, dims = [3] : (tensor<64xf32>) -> tensor<1x1x1x64xf32>
    %22 = stablehlo.broadcast_in_dim %21, dims = [0, 1, 2, 3] : (tensor<1x1x1x64xf32>) -> tensor<8x56x56x64xf32>
    %23 = stablehlo.add %20, %22 : tensor<8x56x56x64xf32>
    %24 = call @relu(%23) : (tensor<8x56x56x64xf32>) -> tensor<8x56x56x64xf32>
    %25 = stablehlo.convolution(%24, %arg10) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<8x56x56x64xf32>, tensor<3x3x64x64xf32>) -> tensor<8x56x56x64xf32>
    %26 = stablehlo.broadcast_in_dim %arg11, dims = [3] : (tensor<64xf32>) -> tensor<1x1x1x64xf32>
    %27 = stablehlo.broadcast_in_dim %26, dims = [0, 1, 2, 3] : (tensor<1x1x1x64xf32>) -> tensor<8x56x56x64xf32>
    %28 = stablehlo.multiply %25, %27 : tensor<8x56x56x64xf32>
    %29 = stablehlo.broadcast_in_dim %arg12, dims = [3] : (tensor<64xf32>) -> tensor<1x1x1x64xf32>
    %30 = stablehlo.broadcast_in_dim %29, dims = [0, 1, 2, 3] : (tensor<1x1x1x64xf32>) -> tensor<8x56x56x64xf32>
    %31 = stablehlo.add %28, %30 : tensor<8x56x56x64xf32>
    %32 = stablehlo.add %16, %31 : tensor<8x56x56x64xf32>
    %33 = call @relu(%32) : (tensor<8x56x56x64xf32>) -> tensor<8x56x56x64xf32>
    return %33 : tensor<8x56x56x64xf32>
  }
  func.func private @relu(%arg0: tensor<8x56x56x64xf32>) -> tensor<8x56x56x64xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x56x56x64xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<8x56x56x64xf32>
    return %1 : tensor<8x56x56x64xf32>
  }
}
