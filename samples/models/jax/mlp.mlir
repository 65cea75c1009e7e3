module @jit_mlp attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x32xf32>, %arg1: tensor<32x64xf32>, %arg2: tensor<64xf32>, %arg3: tensor<64x10xf32>, %arg4: tensor<10xf32>) -> (tensor<8x10xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x32xf32>, tensor<32x64xf32>) -> tensor<8x64xf32>
    %1 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<1x64xf32>) -> tensor<8x64xf32>
    %3 = stablehlo.add %0, %2 : tensor<8x64xf32>
    %4 = stablehlo.multiply %3, %3 : tensor<8x64xf32>
    %5 = stablehlo.multiply %4, %3 : tensor<8x64xf32>
    %cst = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x64xf32>
    %7 = stablehlo.multiply %6, %5 : tensor<8x64xf32>
    %8 = stablehlo.add %3, %7 : tensor<8x64xf32>
    %cst_0 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8x64xf32>
    %10 = stablehlo.multiply %9, %8 : tensor<8x64xf32>
    %11 = stablehlo.tanh %10 : tensor<8x64xf32>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<8x64xf32>
    %13 = stablehlo.add %12, %11 : tensor<8x64xf32>
    %cst_2 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<8x64xf32>
    %15 = stablehlo.multiply %14, %13 : tensor<8x64xf32>
    %16 = stablehlo.multiply %3, %15 : tensor<8x64xf32>
    %17 = stablehlo.dot_general %16, %arg3, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x64xf32>, tensor<64x10xf32>) -> tensor<8x10xf32>
    %18 = stablehlo.broadcast_in_dim %arg4, dims = [1] : (tensor<10xf32>) -> tensor<1x10xf32>
    %19 = stablehlo.broadcast_in_dim %18, dims = [0, 1] : (tensor<1x10xf32>) -> tensor<8x10xf32>
    %20 = stablehlo.add %17, %19 : tensor<8x10xf32>
    %cst_3 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %21 = stablehlo.reduce(%20 init: %cst_3) applies stablehlo.maximum across dimensions = [1] : (tensor<8x10xf32>, tensor<f32>) -> tensor<8xf32>
    %cst_4 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %22 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %23 = stablehlo.maximum %22, %21 : tensor<8xf32>
    %24 = stablehlo.broadcast_in_dim %23, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %25 = stablehlo.broadcast_in_dim %24, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x10xf32>
    %26 = stablehlo.subtract %20, %25 : tensor<8x10xf32>
    %27 = stablehlo.exponential %26 : tensor<8x10xf32>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %28 = stablehlo.reduce(%27 init: %cst_5) applies stablehlo.add across dimensions = [1] : (tensor<8x10xf32>, tensor<f32>) -> tensor<8xf32>
    %29 = stablehlo.broadcast_in_dim %28, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %30 = stablehlo.broadcast_in_dim %29, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x10xf32>
    %31 = stablehlo.divide %27, %30 : tensor<8x10xf32>
    return %31 : tensor<8x10xf32>
  }
}
