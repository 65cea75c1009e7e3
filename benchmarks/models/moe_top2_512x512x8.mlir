module @jit_moe_top2 attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<512x512xf32>, %arg1: tensor<512x8xf32>, %arg2: tensor<8x512x1024xf32>, %arg3: tensor<8x1024x512xf32>) -> (tensor<512x512xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<512x512xf32>, tensor<512x8xf32>) -> tensor<512x8xf32>
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.maximum across dimensions = [1] : (tensor<512x8xf32>, tensor<f32>) -> tensor<512xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<512xf32>
    %3 = stablehlo.maximum %2, %1 : tensor<512xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0] : (tensor<512xf32>) -> tensor<512x1xf32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0, 1] : (tensor<512x1xf32>) -> tensor<512x8xf32>
    %6 = stablehlo.subtract %0, %5 : tensor<512x8xf32>
    %7 = stablehlo.exponential %6 : tensor<512x8xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %8 = stablehlo.reduce(%7 init: %cst_1) applies stablehlo.add across dimensions = [1] : (tensor<512x8xf32>, tensor<f32>) -> tensor<512xf32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0] : (tensor<512xf32>) -> tensor<512x1xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1] : (tensor<512x1xf32>) -> tensor<512x8xf32>
    %11 = stablehlo.divide %7, %10 : tensor<512x8xf32>
    %values, %indices = chlo.top_k(%11, k = 2) : tensor<512x8xf32> -> (tensor<512x2xf32>, tensor<512x2xi32>)
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %12 = stablehlo.reduce(%values init: %cst_2) applies stablehlo.add across dimensions = [1] : (tensor<512x2xf32>, tensor<f32>) -> tensor<512xf32>
    %13 = stablehlo.broadcast_in_dim %12, dims = [0] : (tensor<512xf32>) -> tensor<512x1xf32>
    %14 = stablehlo.broadcast_in_dim %13, dims = [0, 1] : (tensor<512x1xf32>) -> tensor<512x2xf32>
    %15 = stablehlo.divide %values, %14 : tensor<512x2xf32>
    %16 = call @_one_hot(%indices) : (tensor<512x2xi32>) -> tensor<512x2x8xf32>
    %17 = stablehlo.broadcast_in_dim %15, dims = [0, 1] : (tensor<512x2xf32>) -> tensor<512x2x1xf32>
    %18 = stablehlo.broadcast_in_dim %17, dims = [0, 1, 2] : (tensor<512x2x1xf32>) -> tensor<512x2x8xf32>
    %19 = stablehlo.multiply %16, %18 : tensor<512x2x8xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %20 = stablehlo.reduce(%19 init: %cst_3) applies stablehlo.add across dimensions = [1] : (tensor<512x2x8xf32>, tensor<f32>) -> tensor<512x8xf32>
    %21 = stablehlo.dot_general %arg0, %arg2, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<512x512xf32>, tensor<8x512x1024xf32>) -> tensor<512x8x1024xf32>
    %22 = stablehlo.multiply %21, %21 : tensor<512x8x1024xf32>
    %23 = stablehlo.multiply %22, %21 : tensor<512x8x1024xf32>
    %cst_4 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %24 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<512x8x1024xf32>
    %25 = stablehlo.multiply %24, %23 : tensor<512x8x1024xf32>
    %26 = stablehlo.add %21, %25 : tensor<512x8x1024xf32>
    %cst_5 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %27 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<512x8x1024xf32>
    %28 = stablehlo.multiply %27, %26 : tensor<512x8x1024xf32>
    %29 = stablehlo.tanh %28 : tensor<512x8x1024xf32>
    %cst_6 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %30 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<512x8x1024xf32>
    %31 = stablehlo.add %30, %29 : tensor<512x8x1024xf32>
    %cst_7 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %32 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<512x8x1024xf32>
    %33 = stablehlo.multiply %32, %31 : tensor<512x8x1024xf32>
    %34 = stablehlo.multiply %21, %33 : tensor<512x8x1024xf32>
    %35 = stablehlo.dot_general %arg3, %34, batching_dims = [0] x [1], contracting_dims = [1] x [2], precision = [DEFAULT, DEFAULT] : (tensor<8x1024x512xf32>, tensor<512x8x1024xf32>) -> tensor<8x512x512xf32>
    %36 = stablehlo.transpose %35, dims = [2, 0, 1] : (tensor<8x512x512xf32>) -> tensor<512x8x512xf32>
    %37 = stablehlo.dot_general %36, %20, batching_dims = [0] x [0], contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<512x8x512xf32>, tensor<512x8xf32>) -> tensor<512x512xf32>
    return %37 : tensor<512x512xf32>
  }
  func.func private @_one_hot(%arg0: tensor<512x2xi32>) -> tensor<512x2x8xf32> {
    %0 = stablehlo.broadcast_in_dim %arg0, dims = [0, 1] : (tensor<512x2xi32>) -> tensor<512x2x1xi32>
    %1 = stablehlo.iota dim = 2 : tensor<1x1x8xi32>
    %2 = stablehlo.broadcast_in_dim %0, dims = [0, 1, 2] : (tensor<512x2x1xi32>) -> tensor<512x2x8xi32>
    %3 = stablehlo.broadcast_in_dim %1, dims = [0, 1, 2] : (tensor<1x1x8xi32>) -> tensor<512x2x8xi32>
    %4 = stablehlo.compare EQ, %2, %3, SIGNED : (tensor<512x2x8xi32>, tensor<512x2x8xi32>) -> tensor<512x2x8xi1>
    %5 = stablehlo.convert %4 : (tensor<512x2x8xi1>) -> tensor<512x2x8xf32>
    return %5 : tensor<512x2x8xf32>
  }
}
