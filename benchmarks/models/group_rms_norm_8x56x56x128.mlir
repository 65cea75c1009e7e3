module @jit_group_rms_norm attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x56x56x128xf32>, %arg1: tensor<128xf32>, %arg2: tensor<128xf32>, %arg3: tensor<128xf32>) -> (tensor<8x56x56x128xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.reshape %arg0 : (tensor<8x56x56x128xf32>) -> tensor<8x56x56x32x4xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across dimensions = [1, 2, 4] : (tensor<8x56x56x32x4xf32>, tensor<f32>) -> tensor<8x32xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 3] : (tensor<8x32xf32>) -> tensor<8x1x1x32x1xf32>
    %cst_0 = stablehlo.constant dense<1.254400e+04> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8x1x1x32x1xf32>
    %4 = stablehlo.divide %2, %3 : tensor<8x1x1x32x1xf32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0, 1, 2, 3, 4] : (tensor<8x1x1x32x1xf32>) -> tensor<8x56x56x32x4xf32>
    %6 = stablehlo.subtract %0, %5 : tensor<8x56x56x32x4xf32>
    %7 = stablehlo.multiply %6, %6 : tensor<8x56x56x32x4xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %8 = stablehlo.reduce(%7 init: %cst_1) applies stablehlo.add across dimensions = [1, 2, 4] : (tensor<8x56x56x32x4xf32>, tensor<f32>) -> tensor<8x32xf32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 3] : (tensor<8x32xf32>) -> tensor<8x1x1x32x1xf32>
    %cst_2 = stablehlo.constant dense<1.254400e+04> : tensor<f32>
    %10 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<8x1x1x32x1xf32>
    %11 = stablehlo.divide %9, %10 : tensor<8x1x1x32x1xf32>
    %12 = stablehlo.broadcast_in_dim %4, dims = [0, 1, 2, 3, 4] : (tensor<8x1x1x32x1xf32>) -> tensor<8x56x56x32x4xf32>
    %13 = stablehlo.subtract %0, %12 : tensor<8x56x56x32x4xf32>
    %cst_3 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<8x1x1x32x1xf32>
    %15 = stablehlo.add %11, %14 : tensor<8x1x1x32x1xf32>
    %16 = stablehlo.sqrt %15 : tensor<8x1x1x32x1xf32>
    %17 = stablehlo.broadcast_in_dim %16, dims = [0, 1, 2, 3, 4] : (tensor<8x1x1x32x1xf32>) -> tensor<8x56x56x32x4xf32>
    %18 = stablehlo.divide %13, %17 : tensor<8x56x56x32x4xf32>
    %19 = stablehlo.reshape %18 : (tensor<8x56x56x32x4xf32>) -> tensor<8x56x56x128xf32>
    %20 = stablehlo.broadcast_in_dim %arg1, dims = [3] : (tensor<128xf32>) -> tensor<1x1x1x128xf32>
    %21 = stablehlo.broadcast_in_dim %20, dims = [0, 1, 2, 3] : (tensor<1x1x1x128xf32>) -> tensor<8x56x56x128xf32>
    %22 = stablehlo.multiply %19, %21 : tensor<8x56x56x128xf32>
    %23 = stablehlo.broadcast_in_dim %arg2, dims = [3] : (tensor<128xf32>) -> tensor<1x1x1x128xf32>
    %24 = stablehlo.broadcast_in_dim %23, dims = [0, 1, 2, 3] : (tensor<1x1x1x128xf32>) -> tensor<8x56x56x128xf32>
    %25 = stablehlo.add %22, %24 : tensor<8x56x56x128xf32>
    %26 = stablehlo.multiply %25, %25 : tensor<8x56x56x128xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %27 = stablehlo.reduce(%26 init: %cst_4) applies stablehlo.add across dimensions = [3] : (tensor<8x56x56x128xf32>, tensor<f32>) -> tensor<8x56x56xf32>
    %28 = stablehlo.broadcast_in_dim %27, dims = [0, 1, 2] : (tensor<8x56x56xf32>) -> tensor<8x56x56x1xf32>
    %cst_5 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %29 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<8x56x56x1xf32>
    %30 = stablehlo.divide %28, %29 : tensor<8x56x56x1xf32>
    %cst_6 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %31 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<8x56x56x1xf32>
    %32 = stablehlo.add %30, %31 : tensor<8x56x56x1xf32>
    %33 = stablehlo.rsqrt %32 : tensor<8x56x56x1xf32>
    %34 = stablehlo.broadcast_in_dim %33, dims = [0, 1, 2, 3] : (tensor<8x56x56x1xf32>) -> tensor<8x56x56x128xf32>
    %35 = stablehlo.multiply %25, %34 : tensor<8x56x56x128xf32>
    %36 = stablehlo.broadcast_in_dim %arg3, dims = [3] : (tensor<128xf32>) -> tensor<1x1x1x128xf32>
    %37 = stablehlo.broadcast_in_dim %36, dims = [0, 1, 2, 3] : (tensor<1x1x1x128xf32>) -> tensor<8x56x56x128xf32>
    %38 = stablehlo.multiply %35, %37 : tensor<8x56x56x128xf32>
    return %38 : tensor<8x56x56x128xf32>
  }
}
