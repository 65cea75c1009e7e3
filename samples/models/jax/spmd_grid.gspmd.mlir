module @jit_spmd_grid attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x6xf32>, %arg1: tensor<4x4xf32>) -> (tensor<8x6xf32> {jax.result_info = "result[0]"}, tensor<4x4xf32> {jax.result_info = "result[1]"}) {
    %0 = stablehlo.custom_call @Sharding(%arg0) {backend_config = "", mhlo.sharding = "{devices=[2,1,2]<=[4] last_tile_dim_replicate}"} : (tensor<8x6xf32>) -> tensor<8x6xf32>
    %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<8x6xf32>) -> tensor<4x6xf32>
    %2 = stablehlo.custom_call @Sharding(%arg1) {backend_config = "", mhlo.sharding = "{devices=[2,2]<=[2,2]T(1,0)}"} : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %3 = stablehlo.custom_call @SPMDFullToShardShape(%2) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<4x4xf32>) -> tensor<2x2xf32>
    %4:2 = call @shmap_body(%1, %3) : (tensor<4x6xf32>, tensor<2x2xf32>) -> (tensor<4x6xf32>, tensor<4x2xf32>)
    %5 = stablehlo.custom_call @Sharding(%4#0) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<4x6xf32>) -> tensor<4x6xf32>
    %6 = stablehlo.custom_call @SPMDShardToFullShape(%5) {backend_config = "", mhlo.sharding = "{devices=[2,1,2]<=[4] last_tile_dim_replicate}"} : (tensor<4x6xf32>) -> tensor<8x6xf32>
    %7 = stablehlo.custom_call @Sharding(%4#1) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<4x2xf32>) -> tensor<4x2xf32>
    %8 = stablehlo.custom_call @SPMDShardToFullShape(%7) {backend_config = "", mhlo.sharding = "{devices=[1,2,2]<=[4] last_tile_dim_replicate}"} : (tensor<4x2xf32>) -> tensor<4x4xf32>
    return %6, %8 : tensor<8x6xf32>, tensor<4x4xf32>
  }
  func.func private @shmap_body(%arg0: tensor<4x6xf32>, %arg1: tensor<2x2xf32>) -> (tensor<4x6xf32> {jax.result_info = "[('x',), None]"}, tensor<4x2xf32> {jax.result_info = "[None, ('x',)]"}) {
    %c = stablehlo.constant dense<1> : tensor<ui32>
    %c_0 = stablehlo.constant dense<2> : tensor<ui32>
    %0 = stablehlo.partition_id : tensor<ui32>
    %1 = stablehlo.divide %0, %c : tensor<ui32>
    %2 = stablehlo.remainder %1, %c_0 : tensor<ui32>
    %3 = stablehlo.convert %2 : (tensor<ui32>) -> tensor<i32>
    %4 = stablehlo.convert %3 : (tensor<i32>) -> tensor<f32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %5 = stablehlo.add %4, %cst : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %5, dims = [] : (tensor<f32>) -> tensor<4x6xf32>
    %7 = stablehlo.multiply %arg0, %6 : tensor<4x6xf32>
    %8 = "stablehlo.all_reduce"(%7) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, use_global_device_ids}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %17 = stablehlo.add %arg2, %arg3 : tensor<f32>
      stablehlo.return %17 : tensor<f32>
    }) : (tensor<4x6xf32>) -> tensor<4x6xf32>
    %9 = "stablehlo.all_gather"(%arg1) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, use_global_device_ids}> : (tensor<2x2xf32>) -> tensor<4x2xf32>
    %c_1 = stablehlo.constant dense<2> : tensor<ui32>
    %c_2 = stablehlo.constant dense<2> : tensor<ui32>
    %10 = stablehlo.partition_id : tensor<ui32>
    %11 = stablehlo.divide %10, %c_1 : tensor<ui32>
    %12 = stablehlo.remainder %11, %c_2 : tensor<ui32>
    %13 = stablehlo.convert %12 : (tensor<ui32>) -> tensor<i32>
    %14 = stablehlo.convert %13 : (tensor<i32>) -> tensor<f32>
    %15 = stablehlo.broadcast_in_dim %14, dims = [] : (tensor<f32>) -> tensor<4x2xf32>
    %16 = stablehlo.add %9, %15 : tensor<4x2xf32>
    return %8, %16 : tensor<4x6xf32>, tensor<4x2xf32>
  }
}
