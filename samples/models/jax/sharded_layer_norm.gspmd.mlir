module @jit_sharded_layer_norm attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<64x32xf32> {mhlo.sharding = "{devices=[4,1]<=[4]}"}, %arg1: tensor<32xf32> {mhlo.sharding = "{replicated}"}, %arg2: tensor<32xf32> {mhlo.sharding = "{replicated}"}) -> (tensor<64x32xf32> {jax.result_info = "result[0]", mhlo.sharding = "{devices=[4,1]<=[4]}"}, tensor<f32> {jax.result_info = "result[1]", mhlo.sharding = "{replicated}"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<64x32xf32>, tensor<f32>) -> tensor<64xf32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [0] : (tensor<64xf32>) -> tensor<64x1xf32>
    %cst_0 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<64x1xf32>
    %3 = stablehlo.divide %1, %2 : tensor<64x1xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1] : (tensor<64x1xf32>) -> tensor<64x32xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<64x32xf32>
    %6 = stablehlo.multiply %5, %5 : tensor<64x32xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.reduce(%6 init: %cst_1) applies stablehlo.add across dimensions = [1] : (tensor<64x32xf32>, tensor<f32>) -> tensor<64xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0] : (tensor<64xf32>) -> tensor<64x1xf32>
    %cst_2 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<64x1xf32>
    %10 = stablehlo.divide %8, %9 : tensor<64x1xf32>
    %11 = stablehlo.broadcast_in_dim %3, dims = [0, 1] : (tensor<64x1xf32>) -> tensor<64x32xf32>
    %12 = stablehlo.subtract %arg0, %11 : tensor<64x32xf32>
    %cst_3 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<64x1xf32>
    %14 = stablehlo.add %10, %13 : tensor<64x1xf32>
    %15 = stablehlo.sqrt %14 : tensor<64x1xf32>
    %16 = stablehlo.broadcast_in_dim %15, dims = [0, 1] : (tensor<64x1xf32>) -> tensor<64x32xf32>
    %17 = stablehlo.divide %12, %16 : tensor<64x32xf32>
    %18 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<32xf32>) -> tensor<1x32xf32>
    %19 = stablehlo.broadcast_in_dim %18, dims = [0, 1] : (tensor<1x32xf32>) -> tensor<64x32xf32>
    %20 = stablehlo.multiply %17, %19 : tensor<64x32xf32>
    %21 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<32xf32>) -> tensor<1x32xf32>
    %22 = stablehlo.broadcast_in_dim %21, dims = [0, 1] : (tensor<1x32xf32>) -> tensor<64x32xf32>
    %23 = stablehlo.add %20, %22 : tensor<64x32xf32>
    %24 = stablehlo.multiply %23, %23 : tensor<64x32xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %25 = stablehlo.reduce(%24 init: %cst_4) applies stablehlo.add across dimensions = [0, 1] : (tensor<64x32xf32>, tensor<f32>) -> tensor<f32>
    %cst_5 = stablehlo.constant dense<2.048000e+03> : tensor<f32>
    %26 = stablehlo.divide %25, %cst_5 : tensor<f32>
    return %23, %26 : tensor<64x32xf32>, tensor<f32>
  }
}
