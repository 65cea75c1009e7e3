module @jit_gru_scan attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<64x32x256xf32>, %arg1: tensor<32x256xf32>, %arg2: tensor<256x768xf32>, %arg3: tensor<256x768xf32>, %arg4: tensor<768xf32>) -> (tensor<32x256xf32> {jax.result_info = "result[0]"}, tensor<64x32x256xf32> {jax.result_info = "result[1]"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<64x32x256xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1:7 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %arg2, %iterArg_1 = %arg4, %iterArg_2 = %arg3, %iterArg_3 = %c, %iterArg_4 = %arg1, %iterArg_5 = %0) : tensor<64x32x256xf32>, tensor<256x768xf32>, tensor<768xf32>, tensor<256x768xf32>, tensor<i32>, tensor<32x256xf32>, tensor<64x32x256xf32>
    cond {
      %c_6 = stablehlo.constant dense<64> : tensor<i32>
      %2 = stablehlo.compare LT, %iterArg_3, %c_6, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %2 : tensor<i1>
    } do {
      %2 = func.call @dynamic_index_in_dim(%iterArg, %iterArg_3) : (tensor<64x32x256xf32>, tensor<i32>) -> tensor<32x256xf32>
      %3:2 = func.call @closed_call(%iterArg_0, %iterArg_1, %iterArg_2, %iterArg_4, %2) : (tensor<256x768xf32>, tensor<768xf32>, tensor<256x768xf32>, tensor<32x256xf32>, tensor<32x256xf32>) -> (tensor<32x256xf32>, tensor<32x256xf32>)
      %4 = func.call @dynamic_update_index_in_dim(%iterArg_5, %3#1, %iterArg_3) : (tensor<64x32x256xf32>, tensor<32x256xf32>, tensor<i32>) -> tensor<64x32x256xf32>
      %c_6 = stablehlo.constant dense<1> : tensor<i32>
      %5 = stablehlo.add %iterArg_3, %c_6 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_0, %iterArg_1, %iterArg_2, %5, %3#0, %4 : tensor<64x32x256xf32>, tensor<256x768xf32>, tensor<768xf32>, tensor<256x768xf32>, tensor<i32>, tensor<32x256xf32>, tensor<64x32x256xf32>
    }
    return %1#5, %1#6 : tensor<32x256xf32>, tensor<64x32x256xf32>
  }
  func.func private @dynamic_index_in_dim(%arg0: tensor<64x32x256xf32>, %arg1: tensor<i32>) -> tensor<32x256xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, sizes = [1, 32, 256] : (tensor<64x32x256xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x32x256xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x32x256xf32>) -> tensor<32x256xf32>
    return %1 : tensor<32x256xf32>
  }
  func.func private @closed_call(%arg0: tensor<256x768xf32>, %arg1: tensor<768xf32>, %arg2: tensor<256x768xf32>, %arg3: tensor<32x256xf32>, %arg4: tensor<32x256xf32>) -> (tensor<32x256xf32>, tensor<32x256xf32>) {
    %0 = stablehlo.dot_general %arg4, %arg0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<32x256xf32>, tensor<256x768xf32>) -> tensor<32x768xf32>
    %1 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<32x768xf32>
    %3 = stablehlo.add %0, %2 : tensor<32x768xf32>
    %4 = stablehlo.dot_general %arg3, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<32x256xf32>, tensor<256x768xf32>) -> tensor<32x768xf32>
    %5 = stablehlo.slice %3 [0:32, 0:256] : (tensor<32x768xf32>) -> tensor<32x256xf32>
    %6 = stablehlo.slice %3 [0:32, 256:512] : (tensor<32x768xf32>) -> tensor<32x256xf32>
    %7 = stablehlo.slice %3 [0:32, 512:768] : (tensor<32x768xf32>) -> tensor<32x256xf32>
    %8 = stablehlo.slice %4 [0:32, 0:256] : (tensor<32x768xf32>) -> tensor<32x256xf32>
    %9 = stablehlo.slice %4 [0:32, 256:512] : (tensor<32x768xf32>) -> tensor<32x256xf32>
    %10 = stablehlo.slice %4 [0:32, 512:768] : (tensor<32x768xf32>) -> tensor<32x256xf32>
    %11 = stablehlo.add %5, %8 : tensor<32x256xf32>
    %12 = stablehlo.negate %11 : tensor<32x256xf32>
    %13 = stablehlo.exponential %12 : tensor<32x256xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<32x256xf32>
    %15 = stablehlo.add %14, %13 : tensor<32x256xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %16 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<32x256xf32>
    %17 = stablehlo.divide %16, %15 : tensor<32x256xf32>
    %18 = stablehlo.add %6, %9 : tensor<32x256xf32>
    %19 = stablehlo.negate %18 : tensor<32x256xf32>
    %20 = stablehlo.exponential %19 : tensor<32x256xf32>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %21 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<32x256xf32>
    %22 = stablehlo.add %21, %20 : tensor<32x256xf32>
    %cst_2 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %23 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<32x256xf32>
    %24 = stablehlo.divide %23, %22 : tensor<32x256xf32>
    %25 = stablehlo.multiply %17, %10 : tensor<32x256xf32>
    %26 = stablehlo.add %7, %25 : tensor<32x256xf32>
    %27 = stablehlo.tanh %26 : tensor<32x256xf32>
    %cst_3 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %28 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<32x256xf32>
    %29 = stablehlo.subtract %28, %24 : tensor<32x256xf32>
    %30 = stablehlo.multiply %29, %27 : tensor<32x256xf32>
    %31 = stablehlo.multiply %24, %arg3 : tensor<32x256xf32>
    %32 = stablehlo.add %30, %31 : tensor<32x256xf32>
    return %32, %32 : tensor<32x256xf32>, tensor<32x256xf32>
  }
  func.func private @dynamic_update_index_in_dim(%arg0: tensor<64x32x256xf32>, %arg1: tensor<32x256xf32>, %arg2: tensor<i32>) -> tensor<64x32x256xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2] : (tensor<32x256xf32>) -> tensor<1x32x256xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0 : (tensor<64x32x256xf32>, tensor<1x32x256xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<64x32x256xf32>
    return %1 : tensor<64x32x256xf32>
  }
}
