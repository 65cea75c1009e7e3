module @jit_spmd_collectives attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=4]> {stablehlo.mesh = {axes = [{name = "x", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<16x8xf32>, %arg1: tensor<8x4xf32>) -> (tensor<16x4xf32> {jax.result_info = "result[0]"}, tensor<8xf32> {jax.result_info = "result[1]"}, tensor<8xf32> {jax.result_info = "result[2]"}) {
    %0:3 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{"x"}, {}]>, <@mesh, [{}, {"x"}]>] out_shardings=[<@mesh, [{"x"}, {}]>, <@mesh, [{}]>, <@mesh, [{}]>] manual_axes={"x"} (%arg2: tensor<4x8xf32>, %arg3: tensor<8x1xf32>) {
      %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %1 = stablehlo.reduce(%arg2 init: %cst) applies stablehlo.add across dimensions = [0] : (tensor<4x8xf32>, tensor<f32>) -> tensor<8xf32>
      %2 = "stablehlo.all_reduce"(%1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({
      ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
        %14 = stablehlo.add %arg4, %arg5 : tensor<f32>
        stablehlo.return %14 : tensor<f32>
      }) : (tensor<8xf32>) -> tensor<8xf32>
      %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
      %3 = stablehlo.reduce(%arg2 init: %cst_0) applies stablehlo.maximum across dimensions = [0] : (tensor<4x8xf32>, tensor<f32>) -> tensor<8xf32>
      %4 = "stablehlo.all_reduce"(%3) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({
      ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
        %14 = stablehlo.maximum %arg4, %arg5 : tensor<f32>
        stablehlo.return %14 : tensor<f32>
      }) : (tensor<8xf32>) -> tensor<8xf32>
      %5 = "stablehlo.all_gather"(%arg3) <{all_gather_dim = 1 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<8x1xf32>) -> tensor<8x4xf32>
      %c = stablehlo.constant dense<1> : tensor<ui32>
      %c_1 = stablehlo.constant dense<4> : tensor<ui32>
      %6 = stablehlo.partition_id : tensor<ui32>
      %7 = stablehlo.divide %6, %c : tensor<ui32>
      %8 = stablehlo.remainder %7, %c_1 : tensor<ui32>
      %9 = stablehlo.convert %8 : (tensor<ui32>) -> tensor<i32>
      %10 = stablehlo.convert %9 : (tensor<i32>) -> tensor<f32>
      %11 = stablehlo.dot_general %arg2, %5, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
      %12 = stablehlo.broadcast_in_dim %10, dims = [] : (tensor<f32>) -> tensor<4x4xf32>
      %13 = stablehlo.add %11, %12 : tensor<4x4xf32>
      sdy.return %13, %2, %4 : tensor<4x4xf32>, tensor<8xf32>, tensor<8xf32>
    } : (tensor<16x8xf32>, tensor<8x4xf32>) -> (tensor<16x4xf32>, tensor<8xf32>, tensor<8xf32>)
    return %0#0, %0#1, %0#2 : tensor<16x4xf32>, tensor<8xf32>, tensor<8xf32>
  }
}
