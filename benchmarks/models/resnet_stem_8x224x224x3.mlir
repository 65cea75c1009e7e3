module @jit_resnet_stem attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x224x224x3xf32>, %arg1: tensor<7x7x3x64xf32>, %arg2: tensor<64xf32>, %arg3: tensor<64xf32>) -> (tensor<8x56x56x64xf32> {jax.result_info = "result[0]"}, tensor<8x28x28x64xf32> {jax.result_info = "result[1]"}) {
    %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[3, 3], [3, 3]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<8x224x224x3xf32>, tensor<7x7x3x64xf32>) -> tensor<8x112x112x64xf32>
    %1 = stablehlo.broadcast_in_dim %arg2, dims = [3] : (tensor<64xf32>) -> tensor<1x1x1x64xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1, 2, 3] : (tensor<1x1x1x64xf32>) -> tensor<8x112x112x64xf32>
    %3 = stablehlo.multiply %0, %2 : tensor<8x112x112x64xf32>
    %4 = stablehlo.broadcast_in_dim %arg3, dims = [3] : (tensor<64xf32>) -> tensor<1x1x1x64xf32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0, 1, 2, 3] : (tensor<1x1x1x64xf32>) -> tensor<8x112x112x64xf32>
    %6 = stablehlo.add %3, %5 : tensor<8x112x112x64xf32>
    %7 = call @relu(%6) : (tensor<8x112x112x64xf32>) -> tensor<8x112x112x64xf32>
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<f32>
    %9 = "stablehlo.reduce_window"(%7, %8) <{base_dilations = array<i64: 1, 1, 1, 1>, padding = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi64>, window_dilations = array<i64: 1, 1, 1, 1>, window_dimensions = array<i64: 1, 3, 3, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
    ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
      %14 = stablehlo.maximum %arg4, %arg5 : tensor<f32>
      stablehlo.return %14 : tensor<f32>
    }) : (tensor<8x112x112x64xf32>, tensor<f32>) -> tensor<8x56x56x64xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %10 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<f32>
    %11 = "stablehlo.reduce_window"(%9, %10) <{base_dilations = array<i64: 1, 1, 1, 1>, padding = dense<0> : tensor<4x2xi64>, window_dilations = array<i64: 1, 1, 1, 1>, window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
    ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
      %14 = stablehlo.add %arg4, %arg5 : tensor<f32>
      stablehlo.return %14 : tensor<f32>
    }) : (tensor<8x56x56x64xf32>, tensor<f32>) -> tensor<8x28x28x64xf32>
    %cst_1 = stablehlo.constant dense<2.500000e-01> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<8x28x28x64xf32>
    %13 = stablehlo.multiply %11, %12 : tensor<8x28x28x64xf32>
    return %9, %13 : tensor<8x56x56x64xf32>, tensor<8x28x28x64xf32>
  }
  func.func private @relu(%arg0: tensor<8x112x112x64xf32>) -> tensor<8x112x112x64xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x112x112x64xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<8x112x112x64xf32>
    return %1 : tensor<8x112x112x64xf32>
  }
}
