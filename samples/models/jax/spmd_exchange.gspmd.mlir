module @jit_spmd_exchange attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<16x6xf32>, %arg1: tensor<32xi32>) -> (tensor<4x6xf32> {jax.result_info = "result[0]"}, tensor<4x24xf32> {jax.result_info = "result[1]"}, tensor<32xi32> {jax.result_info = "result[2]"}) {
    %0 = stablehlo.custom_call @Sharding(%arg0) {backend_config = "", mhlo.sharding = "{devices=[4,1]<=[4]}"} : (tensor<16x6xf32>) -> tensor<16x6xf32>
    %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<16x6xf32>) -> tensor<4x6xf32>
    %2 = stablehlo.custom_call @Sharding(%arg1) {backend_config = "", mhlo.sharding = "{devices=[4]<=[4]}"} : (tensor<32xi32>) -> tensor<32xi32>
    %3 = stablehlo.custom_call @SPMDFullToShardShape(%2) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<32xi32>) -> tensor<8xi32>
    %4:3 = call @shmap_body(%1, %3) : (tensor<4x6xf32>, tensor<8xi32>) -> (tensor<1x6xf32>, tensor<1x24xf32>, tensor<8xi32>)
    %5 = stablehlo.custom_call @Sharding(%4#0) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<1x6xf32>) -> tensor<1x6xf32>
    %6 = stablehlo.custom_call @SPMDShardToFullShape(%5) {backend_config = "", mhlo.sharding = "{devices=[4,1]<=[4]}"} : (tensor<1x6xf32>) -> tensor<4x6xf32>
    %7 = stablehlo.custom_call @Sharding(%4#1) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<1x24xf32>) -> tensor<1x24xf32>
    %8 = stablehlo.custom_call @SPMDShardToFullShape(%7) {backend_config = "", mhlo.sharding = "{devices=[4,1]<=[4]}"} : (tensor<1x24xf32>) -> tensor<4x24xf32>
    %9 = stablehlo.custom_call @Sharding(%4#2) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<8xi32>) -> tensor<8xi32>
    %10 = stablehlo.custom_call @SPMDShardToFullShape(%9) {backend_config = "", mhlo.sharding = "{devices=[4]<=[4]}"} : (tensor<8xi32>) -> tensor<32xi32>
    return %6, %8, %10 : tensor<4x6xf32>, tensor<4x24xf32>, tensor<32xi32>
  }
  func.func private @shmap_body(%arg0: tensor<4x6xf32>, %arg1: tensor<8xi32>) -> (tensor<1x6xf32> {jax.result_info = "[('x',), None]"}, tensor<1x24xf32> {jax.result_info = "[('x',), None]"}, tensor<8xi32> {jax.result_info = "[('x',)]"}) {
    %0 = "stablehlo.reduce_scatter"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, scatter_dimension = 0 : i64, use_global_device_ids}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %5 = stablehlo.add %arg2, %arg3 : tensor<f32>
      stablehlo.return %5 : tensor<f32>
    }) : (tensor<4x6xf32>) -> tensor<1x6xf32>
    %1 = "stablehlo.all_to_all"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, concat_dimension = 1 : i64, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, split_count = 4 : i64, split_dimension = 0 : i64}> : (tensor<4x6xf32>) -> tensor<1x24xf32>
    %2 = "stablehlo.collective_permute"(%arg1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[[0, 1], [1, 2], [2, 3], [3, 0]]> : tensor<4x2xi64>}> : (tensor<8xi32>) -> tensor<8xi32>
    %c = stablehlo.constant dense<3> : tensor<i32>
    %3 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<8xi32>
    %4 = stablehlo.multiply %2, %3 : tensor<8xi32>
    return %0, %1, %4 : tensor<1x6xf32>, tensor<1x24xf32>, tensor<8xi32>
  }
}
