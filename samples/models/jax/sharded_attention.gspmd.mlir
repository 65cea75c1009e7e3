module @jit_sharded_attention attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x16x32xf32> {mhlo.sharding = "{devices=[2,1,1,2]<=[4] last_tile_dim_replicate}"}, %arg1: tensor<32x4x8xf32> {mhlo.sharding = "{devices=[1,2,1,2]<=[2,2]T(1,0) last_tile_dim_replicate}"}, %arg2: tensor<32x4x8xf32> {mhlo.sharding = "{devices=[1,2,1,2]<=[2,2]T(1,0) last_tile_dim_replicate}"}, %arg3: tensor<32x4x8xf32> {mhlo.sharding = "{devices=[1,2,1,2]<=[2,2]T(1,0) last_tile_dim_replicate}"}, %arg4: tensor<4x8x32xf32> {mhlo.sharding = "{devices=[2,1,1,2]<=[2,2]T(1,0) last_tile_dim_replicate}"}) -> (tensor<4x16x32xf32> {jax.result_info = "result", mhlo.sharding = "{devices=[2,1,1,2]<=[4] last_tile_dim_replicate}"}) {
    %0 = stablehlo.dot_general %arg1, %arg0, contracting_dims = [0] x [2], precision = [DEFAULT, DEFAULT] : (tensor<32x4x8xf32>, tensor<4x16x32xf32>) -> tensor<4x8x4x16xf32>
    %1 = stablehlo.transpose %0, dims = [2, 0, 3, 1] : (tensor<4x8x4x16xf32>) -> tensor<4x4x16x8xf32>
    %2 = stablehlo.dot_general %arg2, %arg0, contracting_dims = [0] x [2], precision = [DEFAULT, DEFAULT] : (tensor<32x4x8xf32>, tensor<4x16x32xf32>) -> tensor<4x8x4x16xf32>
    %3 = stablehlo.transpose %2, dims = [2, 0, 3, 1] : (tensor<4x8x4x16xf32>) -> tensor<4x4x16x8xf32>
    %4 = stablehlo.dot_general %arg3, %arg0, contracting_dims = [0] x [2], precision = [DEFAULT, DEFAULT] : (tensor<32x4x8xf32>, tensor<4x16x32xf32>) -> tensor<4x8x4x16xf32>
    %5 = stablehlo.transpose %4, dims = [2, 0, 3, 1] : (tensor<4x8x4x16xf32>) -> tensor<4x4x16x8xf32>
    %6 = stablehlo.dot_general %1, %3, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<4x4x16x8xf32>, tensor<4x4x16x8xf32>) -> tensor<4x4x16x16xf32>
    %cst = stablehlo.constant dense<2.82842708> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x4x16x16xf32>
    %8 = stablehlo.divide %6, %7 : tensor<4x4x16x16xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %9 = stablehlo.reduce(%8 init: %cst_0) applies stablehlo.maximum across dimensions = [3] : (tensor<4x4x16x16xf32>, tensor<f32>) -> tensor<4x4x16xf32>
    %cst_1 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %10 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<4x4x16xf32>
    %11 = stablehlo.maximum %10, %9 : tensor<4x4x16xf32>
    %12 = stablehlo.broadcast_in_dim %11, dims = [0, 1, 2] : (tensor<4x4x16xf32>) -> tensor<4x4x16x1xf32>
    %13 = stablehlo.broadcast_in_dim %12, dims = [0, 1, 2, 3] : (tensor<4x4x16x1xf32>) -> tensor<4x4x16x16xf32>
    %14 = stablehlo.subtract %8, %13 : tensor<4x4x16x16xf32>
    %15 = stablehlo.exponential %14 : tensor<4x4x16x16xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %16 = stablehlo.reduce(%15 init: %cst_2) applies stablehlo.add across dimensions = [3] : (tensor<4x4x16x16xf32>, tensor<f32>) -> tensor<4x4x16xf32>
    %17 = stablehlo.broadcast_in_dim %16, dims = [0, 1, 2] : (tensor<4x4x16xf32>) -> tensor<4x4x16x1xf32>
    %18 = stablehlo.broadcast_in_dim %17, dims = [0, 1, 2, 3] : (tensor<4x4x16x1xf32>) -> tensor<4x4x16x16xf32>
    %19 = stablehlo.divide %15, %18 : tensor<4x4x16x16xf32>
    %20 = stablehlo.dot_general %19, %5, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<4x4x16x16xf32>, tensor<4x4x16x8xf32>) -> tensor<4x4x16x8xf32>
    %21 = stablehlo.dot_general %20, %arg4, contracting_dims = [3, 1] x [1, 0], precision = [DEFAULT, DEFAULT] : (tensor<4x4x16x8xf32>, tensor<4x8x32xf32>) -> tensor<4x16x32xf32>
    return %21 : tensor<4x16x32xf32>
  }
}
