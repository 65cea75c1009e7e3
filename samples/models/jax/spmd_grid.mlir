module @jit_spmd_grid attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=2]> {stablehlo.mesh = {axes = [{name = "x", size = 2 : i64}, {name = "y", size = 2 : i64}]}}
  func.func public @main(%arg0: tensor<8x6xf32>, %arg1: tensor<4x4xf32>) -> (tensor<8x6xf32> {jax.result_info = "result[0]"}, tensor<4x4xf32> {jax.result_info = "result[1]"}) {
    %0:2 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{"x"}, {}]>, <@mesh, [{"y"}, {"x"}]>] out_shardings=[<@mesh, [{"x"}, {}]>, <@mesh, [{}, {"x"}]>] manual_axes={"x", "y"} (%arg2: tensor<4x6xf32>, %arg3: tensor<2x2xf32>) {
      %c = stablehlo.constant dense<1> : tensor<ui32>
      %c_0 = stablehlo.constant dense<2> : tensor<ui32>
      %1 = stablehlo.partition_id : tensor<ui32>
      %2 = stablehlo.divide %1, %c : tensor<ui32>
      %3 = stablehlo.remainder %2, %c_0 : tensor<ui32>
      %4 = stablehlo.convert %3 : (tensor<ui32>) -> tensor<i32>
      %5 = stablehlo.convert %4 : (tensor<i32>) -> tensor<f32>
      %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %6 = stablehlo.add %5, %cst : tensor<f32>
      %7 = stablehlo.broadcast_in_dim %6, dims = [] : (tensor<f32>) -> tensor<4x6xf32>
      %8 = stablehlo.multiply %arg2, %7 : tensor<4x6xf32>
      %9 = "stablehlo.all_reduce"(%8) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, use_global_device_ids}> ({
      ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
        %18 = stablehlo.add %arg4, %arg5 : tensor<f32>
        stablehlo.return %18 : tensor<f32>
      }) : (tensor<4x6xf32>) -> tensor<4x6xf32>
      %10 = "stablehlo.all_gather"(%arg3) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, use_global_device_ids}> : (tensor<2x2xf32>) -> tensor<4x2xf32>
      %c_1 = stablehlo.constant dense<2> : tensor<ui32>
      %c_2 = stablehlo.constant dense<2> : tensor<ui32>
      %11 = stablehlo.partition_id : tensor<ui32>
      %12 = stablehlo.divide %11, %c_1 : tensor<ui32>
      %13 = stablehlo.remainder %12, %c_2 : tensor<ui32>
      %14 = stablehlo.convert %13 : (tensor<ui32>) -> tensor<i32>
      %15 = stablehlo.convert %14 : (tensor<i32>) -> tensor<f32>
      %16 = stablehlo.broadcast_in_dim %15, dims = [] : (tensor<f32>) -> tensor<4x2xf32>
      %17 = stablehlo.add %10, %16 : tensor<4x2xf32>
      sdy.return %9, %17 : tensor<4x6xf32>, tensor<4x2xf32>
    } : (tensor<8x6xf32>, tensor<4x4xf32>) -> (tensor<8x6xf32>, tensor<4x4xf32>)
    return %0#0, %0#1 : tensor<8x6xf32>, tensor<4x4xf32>
  }
}
