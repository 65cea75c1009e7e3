module @jit_conformer_conv attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x512x256xf32>, %arg1: tensor<256x512xf32>, %arg2: tensor<31x1x256xf32>, %arg3: tensor<256xf32>, %arg4: tensor<256xf32>, %arg5: tensor<256x256xf32>) -> (tensor<8x512x256xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512x256xf32>, tensor<256x512xf32>) -> tensor<8x512x512xf32>
    %1 = stablehlo.slice %0 [0:8, 0:512, 0:256] : (tensor<8x512x512xf32>) -> tensor<8x512x256xf32>
    %2 = stablehlo.slice %0 [0:8, 0:512, 256:512] : (tensor<8x512x512xf32>) -> tensor<8x512x256xf32>
    %3 = stablehlo.negate %2 : tensor<8x512x256xf32>
    %4 = stablehlo.exponential %3 : tensor<8x512x256xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x512x256xf32>
    %6 = stablehlo.add %5, %4 : tensor<8x512x256xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8x512x256xf32>
    %8 = stablehlo.divide %7, %6 : tensor<8x512x256xf32>
    %9 = stablehlo.multiply %1, %8 : tensor<8x512x256xf32>
    %10 = stablehlo.convolution(%9, %arg2) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [1], pad = [[15, 15]], lhs_dilate = [1], rhs_dilate = [1], reverse = [false]} {batch_group_count = 1 : i64, feature_group_count = 256 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<8x512x256xf32>, tensor<31x1x256xf32>) -> tensor<8x512x256xf32>
    %11 = stablehlo.broadcast_in_dim %arg3, dims = [2] : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %12 = stablehlo.broadcast_in_dim %11, dims = [0, 1, 2] : (tensor<1x1x256xf32>) -> tensor<8x512x256xf32>
    %13 = stablehlo.multiply %10, %12 : tensor<8x512x256xf32>
    %14 = stablehlo.broadcast_in_dim %arg4, dims = [2] : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %15 = stablehlo.broadcast_in_dim %14, dims = [0, 1, 2] : (tensor<1x1x256xf32>) -> tensor<8x512x256xf32>
    %16 = stablehlo.add %13, %15 : tensor<8x512x256xf32>
    %17 = call @silu(%16) : (tensor<8x512x256xf32>) -> tensor<8x512x256xf32>
    %18 = stablehlo.dot_general %17, %arg5, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512x256xf32>, tensor<256x256xf32>) -> tensor<8x512x256xf32>
    %19 = stablehlo.add %arg0, %18 : tensor<8x512x256xf32>
    return %19 : tensor<8x512x256xf32>
  }
  func.func private @silu(%arg0: tensor<8x512x256xf32>) -> tensor<8x512x256xf32> {
    %0 = stablehlo.negate %arg0 : tensor<8x512x256xf32>
    %1 = stablehlo.exponential %0 : tensor<8x512x256xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x512x256xf32>
    %3 = stablehlo.add %2, %1 : tensor<8x512x256xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8x512x256xf32>
    %5 = stablehlo.divide %4, %3 : tensor<8x512x256xf32>
    %6 = stablehlo.multiply %arg0, %5 : tensor<8x512x256xf32>
    return %6 : tensor<8x512x256xf32>
  }
}
