module @jit_spmd_collectives attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<16x8xf32>, %arg1: tensor<8x4xf32>) -> (tensor<16x4xf32> {jax.result_info = "result[0]"}, tensor<8xf32> {jax.result_info = "result[1]"}, tensor<8xf32> {jax.result_info = "result[2]"}) {
    %0 = stablehlo.custom_call @Sharding(%arg0) {backend_config = "", mhlo.sharding = "{devices=[4,1]<=[4]}"} : (tensor<16x8xf32>) -> tensor<16x8xf32>
    %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<16x8xf32>) -> tensor<4x8xf32>
    %2 = stablehlo.custom_call @Sharding(%arg1) {backend_config = "", mhlo.sharding = "{devices=[1,4]<=[4]}"} : (tensor<8x4xf32>) -> tensor<8x4xf32>
    %3 = stablehlo.custom_call @SPMDFullToShardShape(%2) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<8x4xf32>) -> tensor<8x1xf32>
    %4:3 = call @shmap_body(%1, %3) : (tensor<4x8xf32>, tensor<8x1xf32>) -> (tensor<4x4xf32>, tensor<8xf32>, tensor<8xf32>)
    %5 = stablehlo.custom_call @Sharding(%4#0) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %6 = stablehlo.custom_call @SPMDShardToFullShape(%5) {backend_config = "", mhlo.sharding = "{devices=[4,1]<=[4]}"} : (tensor<4x4xf32>) -> tensor<16x4xf32>
    %7 = stablehlo.custom_call @Sharding(%4#1) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<8xf32>) -> tensor<8xf32>
    %8 = stablehlo.custom_call @SPMDShardToFullShape(%7) {backend_config = "", mhlo.sharding = "{replicated}"} : (tensor<8xf32>) -> tensor<8xf32>
    %9 = stablehlo.custom_call @Sharding(%4#2) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<8xf32>) -> tensor<8xf32>
    %10 = stablehlo.custom_call @SPMDShardToFullShape(%9) {backend_config = "", mhlo.sharding = "{replicated}"} : (tensor<8xf32>) -> tensor<8xf32>
    return %6, %8, %10 : tensor<16x4xf32>, tensor<8xf32>, tensor<8xf32>
  }
  func.func private @shmap_body(%arg0: tensor<4x8xf32>, %arg1: tensor<8x1xf32>) -> (tensor<4x4xf32> {jax.result_info = "[('x',), None]"}, tensor<8xf32> {jax.result_info = "[None]"}, tensor<8xf32> {jax.result_info = "[None]"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [0] : (tensor<4x8xf32>, tensor<f32>) -> tensor<8xf32>
    %1 = "stablehlo.all_reduce"(%0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %13 = stablehlo.add %arg2, %arg3 : tensor<f32>
      stablehlo.return %13 : tensor<f32>
    }) : (tensor<8xf32>) -> tensor<8xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %2 = stablehlo.reduce(%arg0 init: %cst_0) applies stablehlo.maximum across dimensions = [0] : (tensor<4x8xf32>, tensor<f32>) -> tensor<8xf32>
    %3 = "stablehlo.all_reduce"(%2) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %13 = stablehlo.maximum %arg2, %arg3 : tensor<f32>
      stablehlo.return %13 : tensor<f32>
    }) : (tensor<8xf32>) -> tensor<8xf32>
    %4 = "stablehlo.all_gather"(%arg1) <{all_gather_dim = 1 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<8x1xf32>) -> tensor<8x4xf32>
    %c = stablehlo.constant dense<1> : tensor<ui32>
    %c_1 = stablehlo.constant dense<4> : tensor<ui32>
    %5 = stablehlo.partition_id : tensor<ui32>
    %6 = stablehlo.divide %5, %c : tensor<ui32>
    %7 = stablehlo.remainder %6, %c_1 : tensor<ui32>
    %8 = stablehlo.convert %7 : (tensor<ui32>) -> tensor<i32>
    %9 = stablehlo.convert %8 : (tensor<i32>) -> tensor<f32>
    %10 = stablehlo.dot_general %arg0, %4, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
    %11 = stablehlo.broadcast_in_dim %9, dims = [] : (tensor<f32>) -> tensor<4x4xf32>
    %12 = stablehlo.add %10, %11 : tensor<4x4xf32>
    return %12, %1, %3 : tensor<4x4xf32>, tensor<8xf32>, tensor<8xf32>
  }
}
