module @jit_spmd_exchange attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=4]> {stablehlo.mesh = {axes = [{name = "x", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<16x6xf32>, %arg1: tensor<32xi32>) -> (tensor<4x6xf32> {jax.result_info = "result[0]"}, tensor<4x24xf32> {jax.result_info = "result[1]"}, tensor<32xi32> {jax.result_info = "result[2]"}) {
    %0:3 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{"x"}, {}]>, <@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}, {}]>, <@mesh, [{"x"}, {}]>, <@mesh, [{"x"}]>] manual_axes={"x"} (%arg2: tensor<4x6xf32>, %arg3: tensor<8xi32>) {
      %1 = "stablehlo.reduce_scatter"(%arg2) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, scatter_dimension = 0 : i64, use_global_device_ids}> ({
      ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
        %6 = stablehlo.add %arg4, %arg5 : tensor<f32>
        stablehlo.return %6 : tensor<f32>
      }) : (tensor<4x6xf32>) -> tensor<1x6xf32>
      %2 = "stablehlo.all_to_all"(%arg2) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, concat_dimension = 1 : i64, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, split_count = 4 : i64, split_dimension = 0 : i64}> : (tensor<4x6xf32>) -> tensor<1x24xf32>
      %3 = "stablehlo.collective_permute"(%arg3) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[[0, 1], [1, 2], [2, 3], [3, 0]]> : tensor<4x2xi64>}> : (tensor<8xi32>) -> tensor<8xi32>
      %c = stablehlo.constant dense<3> : tensor<i32>
      %4 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<8xi32>
      %5 = stablehlo.multiply %3, %4 : tensor<8xi32>
      sdy.return %1, %2, %5 : tensor<1x6xf32>, tensor<1x24xf32>, tensor<8xi32>
    } : (tensor<16x6xf32>, tensor<32xi32>) -> (tensor<4x6xf32>, tensor<4x24xf32>, tensor<32xi32>)
    return %0#0, %0#1, %0#2 : tensor<4x6xf32>, tensor<4x24xf32>, tensor<32xi32>
  }
}
