module @jit_vit_patch_embed attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x224x224x3xf32>, %arg1: tensor<16x16x3x768xf32>, %arg2: tensor<768xf32>, %arg3: tensor<196x768xf32>, %arg4: tensor<768xf32>, %arg5: tensor<768xf32>) -> (tensor<8x196x768xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [16, 16], pad = [[0, 0], [0, 0]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<8x224x224x3xf32>, tensor<16x16x3x768xf32>) -> tensor<8x14x14x768xf32>
    %1 = stablehlo.broadcast_in_dim %arg2, dims = [3] : (tensor<768xf32>) -> tensor<1x1x1x768xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1, 2, 3] : (tensor<1x1x1x768xf32>) -> tensor<8x14x14x768xf32>
    %3 = stablehlo.add %0, %2 : tensor<8x14x14x768xf32>
    %4 = stablehlo.reshape %3 : (tensor<8x14x14x768xf32>) -> tensor<8x196x768xf32>
    %5 = stablehlo.broadcast_in_dim %arg3, dims = [1, 2] : (tensor<196x768xf32>) -> tensor<1x196x768xf32>
    %6 = stablehlo.broadcast_in_dim %5, dims = [0, 1, 2] : (tensor<1x196x768xf32>) -> tensor<8x196x768xf32>
    %7 = stablehlo.add %4, %6 : tensor<8x196x768xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %8 = stablehlo.reduce(%7 init: %cst) applies stablehlo.add across dimensions = [2] : (tensor<8x196x768xf32>, tensor<f32>) -> tensor<8x196xf32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1] : (tensor<8x196xf32>) -> tensor<8x196x1xf32>
    %cst_0 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %10 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8x196x1xf32>
    %11 = stablehlo.divide %9, %10 : tensor<8x196x1xf32>
    %12 = stablehlo.broadcast_in_dim %11, dims = [0, 1, 2] : (tensor<8x196x1xf32>) -> tensor<8x196x768xf32>
    %13 = stablehlo.subtract %7, %12 : tensor<8x196x768xf32>
    %14 = stablehlo.multiply %13, %13 : tensor<8x196x768xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %15 = stablehlo.reduce(%14 init: %cst_1) applies stablehlo.add across dimensions = [2] : (tensor<8x196x768xf32>, tensor<f32>) -> tensor<8x196xf32>
    %16 = stablehlo.broadcast_in_dim %15, dims = [0, 1] : (tensor<8x196xf32>) -> tensor<8x196x1xf32>
    %cst_2 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %17 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<8x196x1xf32>
    %18 = stablehlo.divide %16, %17 : tensor<8x196x1xf32>
    %19 = stablehlo.broadcast_in_dim %11, dims = [0, 1, 2] : (tensor<8x196x1xf32>) -> tensor<8x196x768xf32>
    %20 = stablehlo.subtract %7, %19 : tensor<8x196x768xf32>
    %cst_3 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %21 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<8x196x1xf32>
    %22 = stablehlo.add %18, %21 : tensor<8x196x1xf32>
    %23 = stablehlo.sqrt %22 : tensor<8x196x1xf32>
    %24 = stablehlo.broadcast_in_dim %23, dims = [0, 1, 2] : (tensor<8x196x1xf32>) -> tensor<8x196x768xf32>
    %25 = stablehlo.divide %20, %24 : tensor<8x196x768xf32>
    %26 = stablehlo.broadcast_in_dim %arg4, dims = [2] : (tensor<768xf32>) -> tensor<1x1x768xf32>
    %27 = stablehlo.broadcast_in_dim %26, dims = [0, 1, 2] : (tensor<1x1x768xf32>) -> tensor<8x196x768xf32>
    %28 = stablehlo.multiply %25, %27 : tensor<8x196x768xf32>
    %29 = stablehlo.broadcast_in_dim %arg5, dims = [2] : (tensor<768xf32>) -> tensor<1x1x768xf32>
    %30 = stablehlo.broadcast_in_dim %29, dims = [0, 1, 2] : (tensor<1x1x768xf32>) -> tensor<8x196x768xf32>
    %31 = stablehlo.add %28, %30 : tensor<8x196x768xf32>
    return %31 : tensor<8x196x768xf32>
  }
}
