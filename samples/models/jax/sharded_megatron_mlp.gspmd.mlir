module @jit_sharded_megatron_mlp attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<16x32xf32> {mhlo.sharding = "{replicated}"}, %arg1: tensor<32x128xf32> {mhlo.sharding = "{devices=[1,4]<=[4]}"}, %arg2: tensor<128xf32> {mhlo.sharding = "{devices=[4]<=[4]}"}, %arg3: tensor<128x32xf32> {mhlo.sharding = "{devices=[4,1]<=[4]}"}, %arg4: tensor<32xf32> {mhlo.sharding = "{replicated}"}) -> (tensor<16x32xf32> {jax.result_info = "result", mhlo.sharding = "{replicated}"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x32xf32>, tensor<32x128xf32>) -> tensor<16x128xf32>
    %1 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<128xf32>) -> tensor<1x128xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<1x128xf32>) -> tensor<16x128xf32>
    %3 = stablehlo.add %0, %2 : tensor<16x128xf32>
    %4 = stablehlo.multiply %3, %3 : tensor<16x128xf32>
    %5 = stablehlo.multiply %4, %3 : tensor<16x128xf32>
    %cst = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16x128xf32>
    %7 = stablehlo.multiply %6, %5 : tensor<16x128xf32>
    %8 = stablehlo.add %3, %7 : tensor<16x128xf32>
    %cst_0 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<16x128xf32>
    %10 = stablehlo.multiply %9, %8 : tensor<16x128xf32>
    %11 = stablehlo.tanh %10 : tensor<16x128xf32>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<16x128xf32>
    %13 = stablehlo.add %12, %11 : tensor<16x128xf32>
    %cst_2 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<16x128xf32>
    %15 = stablehlo.multiply %14, %13 : tensor<16x128xf32>
    %16 = stablehlo.multiply %3, %15 : tensor<16x128xf32>
    %17 = stablehlo.dot_general %16, %arg3, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x128xf32>, tensor<128x32xf32>) -> tensor<16x32xf32>
    %18 = stablehlo.broadcast_in_dim %arg4, dims = [1] : (tensor<32xf32>) -> tensor<1x32xf32>
    %19 = stablehlo.broadcast_in_dim %18, dims = [0, 1] : (tensor<1x32xf32>) -> tensor<16x32xf32>
    %20 = stablehlo.add %17, %19 : tensor<16x32xf32>
    return %20 : tensor<16x32xf32>
  }
}
