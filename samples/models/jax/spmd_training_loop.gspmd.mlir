module @jit_spmd_training_loop attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x16xf32> {mhlo.sharding = "{replicated}"}, %arg1: tensor<16xf32> {mhlo.sharding = "{replicated}"}, %arg2: tensor<16x4xf32> {mhlo.sharding = "{replicated}"}, %arg3: tensor<4xf32> {mhlo.sharding = "{replicated}"}, %arg4: tensor<64x8xf32> {mhlo.sharding = "{devices=[4,1]<=[4]}"}, %arg5: tensor<64x4xf32> {mhlo.sharding = "{devices=[4,1]<=[4]}"}) -> (tensor<8x16xf32> {jax.result_info = "result[0]"}, tensor<16xf32> {jax.result_info = "result[1]"}, tensor<16x4xf32> {jax.result_info = "result[2]"}, tensor<4xf32> {jax.result_info = "result[3]"}, tensor<f32> {jax.result_info = "result[4]"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0:7 = stablehlo.while(%iterArg = %arg4, %iterArg_1 = %arg5, %iterArg_2 = %c, %iterArg_3 = %arg0, %iterArg_4 = %arg1, %iterArg_5 = %arg2, %iterArg_6 = %arg3) : tensor<64x8xf32>, tensor<64x4xf32>, tensor<i32>, tensor<8x16xf32>, tensor<16xf32>, tensor<16x4xf32>, tensor<4xf32>
    cond {
      %c_7 = stablehlo.constant dense<20> : tensor<i32>
      %14 = stablehlo.compare LT, %iterArg_2, %c_7, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %14 : tensor<i1>
    } do {
      %14:4 = func.call @closed_call(%iterArg, %iterArg_1, %iterArg_3, %iterArg_4, %iterArg_5, %iterArg_6) : (tensor<64x8xf32>, tensor<64x4xf32>, tensor<8x16xf32>, tensor<16xf32>, tensor<16x4xf32>, tensor<4xf32>) -> (tensor<8x16xf32>, tensor<16xf32>, tensor<16x4xf32>, tensor<4xf32>)
      %c_7 = stablehlo.constant dense<1> : tensor<i32>
      %15 = stablehlo.add %iterArg_2, %c_7 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_1, %15, %14#0, %14#1, %14#2, %14#3 : tensor<64x8xf32>, tensor<64x4xf32>, tensor<i32>, tensor<8x16xf32>, tensor<16xf32>, tensor<16x4xf32>, tensor<4xf32>
    }
    %1 = stablehlo.dot_general %arg4, %0#3, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x8xf32>, tensor<8x16xf32>) -> tensor<64x16xf32>
    %2 = stablehlo.broadcast_in_dim %0#4, dims = [1] : (tensor<16xf32>) -> tensor<1x16xf32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0, 1] : (tensor<1x16xf32>) -> tensor<64x16xf32>
    %4 = stablehlo.add %1, %3 : tensor<64x16xf32>
    %5 = stablehlo.tanh %4 : tensor<64x16xf32>
    %6 = stablehlo.dot_general %5, %0#5, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x16xf32>, tensor<16x4xf32>) -> tensor<64x4xf32>
    %7 = stablehlo.broadcast_in_dim %0#6, dims = [1] : (tensor<4xf32>) -> tensor<1x4xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0, 1] : (tensor<1x4xf32>) -> tensor<64x4xf32>
    %9 = stablehlo.add %6, %8 : tensor<64x4xf32>
    %10 = stablehlo.subtract %9, %arg5 : tensor<64x4xf32>
    %11 = stablehlo.multiply %10, %10 : tensor<64x4xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %12 = stablehlo.reduce(%11 init: %cst) applies stablehlo.add across dimensions = [0, 1] : (tensor<64x4xf32>, tensor<f32>) -> tensor<f32>
    %cst_0 = stablehlo.constant dense<2.560000e+02> : tensor<f32>
    %13 = stablehlo.divide %12, %cst_0 : tensor<f32>
    return %0#3, %0#4, %0#5, %0#6, %13 : tensor<8x16xf32>, tensor<16xf32>, tensor<16x4xf32>, tensor<4xf32>, tensor<f32>
  }
  func.func private @closed_call(%arg0: tensor<64x8xf32>, %arg1: tensor<64x4xf32>, %arg2: tensor<8x16xf32>, %arg3: tensor<16xf32>, %arg4: tensor<16x4xf32>, %arg5: tensor<4xf32>) -> (tensor<8x16xf32>, tensor<16xf32>, tensor<16x4xf32>, tensor<4xf32>) {
    %0 = stablehlo.dot_general %arg0, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x8xf32>, tensor<8x16xf32>) -> tensor<64x16xf32>
    %1 = stablehlo.broadcast_in_dim %arg3, dims = [1] : (tensor<16xf32>) -> tensor<1x16xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<1x16xf32>) -> tensor<64x16xf32>
    %3 = stablehlo.add %0, %2 : tensor<64x16xf32>
    %4 = stablehlo.tanh %3 : tensor<64x16xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<64x16xf32>
    %6 = stablehlo.subtract %5, %4 : tensor<64x16xf32>
    %7 = stablehlo.dot_general %4, %arg4, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x16xf32>, tensor<16x4xf32>) -> tensor<64x4xf32>
    %8 = stablehlo.broadcast_in_dim %arg5, dims = [1] : (tensor<4xf32>) -> tensor<1x4xf32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1] : (tensor<1x4xf32>) -> tensor<64x4xf32>
    %10 = stablehlo.add %7, %9 : tensor<64x4xf32>
    %11 = stablehlo.subtract %10, %arg1 : tensor<64x4xf32>
    %cst_0 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<64x4xf32>
    %13 = stablehlo.multiply %12, %11 : tensor<64x4xf32>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_2 = stablehlo.constant dense<2.560000e+02> : tensor<f32>
    %14 = stablehlo.divide %cst_1, %cst_2 : tensor<f32>
    %15 = stablehlo.broadcast_in_dim %14, dims = [] : (tensor<f32>) -> tensor<64x4xf32>
    %16 = stablehlo.multiply %15, %13 : tensor<64x4xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %17 = stablehlo.reduce(%16 init: %cst_3) applies stablehlo.add across dimensions = [0] : (tensor<64x4xf32>, tensor<f32>) -> tensor<4xf32>
    %18 = stablehlo.reshape %17 : (tensor<4xf32>) -> tensor<1x4xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %19 = stablehlo.reduce(%18 init: %cst_4) applies stablehlo.add across dimensions = [0] : (tensor<1x4xf32>, tensor<f32>) -> tensor<4xf32>
    %20 = stablehlo.dot_general %16, %4, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x4xf32>, tensor<64x16xf32>) -> tensor<4x16xf32>
    %21 = stablehlo.transpose %20, dims = [1, 0] : (tensor<4x16xf32>) -> tensor<16x4xf32>
    %22 = stablehlo.dot_general %16, %arg4, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<64x4xf32>, tensor<16x4xf32>) -> tensor<64x16xf32>
    %23 = stablehlo.multiply %22, %6 : tensor<64x16xf32>
    %24 = stablehlo.multiply %23, %4 : tensor<64x16xf32>
    %25 = stablehlo.add %23, %24 : tensor<64x16xf32>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %26 = stablehlo.reduce(%25 init: %cst_5) applies stablehlo.add across dimensions = [0] : (tensor<64x16xf32>, tensor<f32>) -> tensor<16xf32>
    %27 = stablehlo.reshape %26 : (tensor<16xf32>) -> tensor<1x16xf32>
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %28 = stablehlo.reduce(%27 init: %cst_6) applies stablehlo.add across dimensions = [0] : (tensor<1x16xf32>, tensor<f32>) -> tensor<16xf32>
    %29 = stablehlo.dot_general %25, %arg0, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x16xf32>, tensor<64x8xf32>) -> tensor<16x8xf32>
    %30 = stablehlo.transpose %29, dims = [1, 0] : (tensor<16x8xf32>) -> tensor<8x16xf32>
    %cst_7 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %31 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %32 = stablehlo.multiply %31, %30 : tensor<8x16xf32>
    %33 = stablehlo.subtract %arg2, %32 : tensor<8x16xf32>
    %cst_8 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %34 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %35 = stablehlo.multiply %34, %28 : tensor<16xf32>
    %36 = stablehlo.subtract %arg3, %35 : tensor<16xf32>
    %cst_9 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %37 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<16x4xf32>
    %38 = stablehlo.multiply %37, %21 : tensor<16x4xf32>
    %39 = stablehlo.subtract %arg4, %38 : tensor<16x4xf32>
    %cst_10 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %40 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %41 = stablehlo.multiply %40, %19 : tensor<4xf32>
    %42 = stablehlo.subtract %arg5, %41 : tensor<4xf32>
    return %33, %36, %39, %42 : tensor<8x16xf32>, tensor<16xf32>, tensor<16x4xf32>, tensor<4xf32>
  }
}
