module @jit_mobilenet_block attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x112x112x16xf32>, %arg1: tensor<16x96xf32>, %arg2: tensor<96xf32>, %arg3: tensor<96xf32>, %arg4: tensor<3x3x1x96xf32>, %arg5: tensor<96xf32>, %arg6: tensor<96xf32>, %arg7: tensor<96x16xf32>, %arg8: tensor<16xf32>, %arg9: tensor<16xf32>) -> (tensor<8x112x112x16xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [3] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x112x112x16xf32>, tensor<16x96xf32>) -> tensor<8x112x112x96xf32>
    %1 = stablehlo.broadcast_in_dim %arg2, dims = [3] : (tensor<96xf32>) -> tensor<1x1x1x96xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1, 2, 3] : (tensor<1x1x1x96xf32>) -> tensor<8x112x112x96xf32>
    %3 = stablehlo.multiply %0, %2 : tensor<8x112x112x96xf32>
    %4 = stablehlo.broadcast_in_dim %arg3, dims = [3] : (tensor<96xf32>) -> tensor<1x1x1x96xf32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0, 1, 2, 3] : (tensor<1x1x1x96xf32>) -> tensor<8x112x112x96xf32>
    %6 = stablehlo.add %3, %5 : tensor<8x112x112x96xf32>
    %7 = call @relu6(%6) : (tensor<8x112x112x96xf32>) -> tensor<8x112x112x96xf32>
    %8 = stablehlo.convolution(%7, %arg4) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 96 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<8x112x112x96xf32>, tensor<3x3x1x96xf32>) -> tensor<8x112x112x96xf32>
    %9 = stablehlo.broadcast_in_dim %arg5, dims = [3] : (tensor<96xf32>) -> tensor<1x1x1x96xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1, 2, 3] : (tensor<1x1x1x96xf32>) -> tensor<8x112x112x96xf32>
    %11 = stablehlo.multiply %8, %10 : tensor<8x112x112x96xf32>
    %12 = stablehlo.broadcast_in_dim %arg6, dims = [3] : (tensor<96xf32>) -> tensor<1x1x1x96xf32>
    %13 = stablehlo.broadcast_in_dim %12, dims = [0, 1, 2, 3] : (tensor<1x1x1x96xf32>) -> tensor<8x112x112x96xf32>
    %14 = stablehlo.add %11, %13 : tensor<8x112x112x96xf32>
    %15 = call @relu6(%14) : (tensor<8x112x112x96xf32>) -> tensor<8x112x112x96xf32>
    %16 = stablehlo.dot_general %15, %arg7, contracting_dims = [3] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x112x112x96xf32>, tensor<96x16xf32>) -> tensor<8x112x112x16xf32>
    %17 = stablehlo.broadcast_in_dim %arg8, dims = [3] : (tensor<16xf32>) -> tensor<1x1x1x16xf32>
    %18 = stablehlo.broadcast_in_dim %17, dims = [0, 1, 2, 3] : (tensor<1x1x1x16xf32>) -> tensor<8x112x112x16xf32>
    %19 = stablehlo.multiply %16, %18 : tensor<8x112x112x16xf32>
    %20 = stablehlo.add %arg0, %19 : tensor<8x112x112x16xf32>
    %21 = stablehlo.broadcast_in_dim %arg9, dims = [3] : (tensor<16xf32>) -> tensor<1x1x1x16xf32>
    %22 = stablehlo.broadcast_in_dim %21, dims = [0, 1, 2, 3] : (tensor<1x1x1x16xf32>) -> tensor<8x112x112x16xf32>
    %23 = stablehlo.add %20, %22 : tensor<8x112x112x16xf32>
    return %23 : tensor<8x112x112x16xf32>
  }
  func.func private @relu6(%arg0: tensor<8x112x112x96xf32>) -> tensor<8x112x112x96xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x112x112x96xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<8x112x112x96xf32>
    %cst_0 = stablehlo.constant dense<6.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8x112x112x96xf32>
    %3 = stablehlo.minimum %1, %2 : tensor<8x112x112x96xf32>
    return %3 : tensor<8x112x112x96xf32>
  }
}
