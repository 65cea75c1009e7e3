module @jit_mlp_train_step attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<784x512xf32>, %arg1: tensor<512xf32>, %arg2: tensor<512x10xf32>, %arg3: tensor<10xf32>, %arg4: tensor<128x784xf32>, %arg5: tensor<128xi32>) -> (tensor<784x512xf32> {jax.result_info = "result[0]"}, tensor<512xf32> {jax.result_info = "result[1]"}, tensor<512x10xf32> {jax.result_info = "result[2]"}, tensor<10xf32> {jax.result_info = "result[3]"}, tensor<f32> {jax.result_info = "result[4]"}) {
    %0 = stablehlo.dot_general %arg4, %arg0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<128x784xf32>, tensor<784x512xf32>) -> tensor<128x512xf32>
    %1 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<512xf32>) -> tensor<1x512xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<1x512xf32>) -> tensor<128x512xf32>
    %3 = stablehlo.add %0, %2 : tensor<128x512xf32>
    %4 = call @relu(%3) : (tensor<128x512xf32>) -> tensor<128x512xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<128x512xf32>
    %6 = stablehlo.compare GT, %3, %5, FLOAT : (tensor<128x512xf32>, tensor<128x512xf32>) -> tensor<128x512xi1>
    %7 = stablehlo.dot_general %4, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<128x512xf32>, tensor<512x10xf32>) -> tensor<128x10xf32>
    %8 = stablehlo.broadcast_in_dim %arg3, dims = [1] : (tensor<10xf32>) -> tensor<1x10xf32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1] : (tensor<1x10xf32>) -> tensor<128x10xf32>
    %10 = stablehlo.add %7, %9 : tensor<128x10xf32>
    %11:3 = call @log_softmax(%10) : (tensor<128x10xf32>) -> (tensor<128x10xf32>, tensor<128x10xf32>, tensor<128x1xf32>)
    %12 = call @_one_hot(%arg5) : (tensor<128xi32>) -> tensor<128x10xf32>
    %13 = stablehlo.multiply %11#0, %12 : tensor<128x10xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %14 = stablehlo.reduce(%13 init: %cst_0) applies stablehlo.add across dimensions = [1] : (tensor<128x10xf32>, tensor<f32>) -> tensor<128xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %15 = stablehlo.reduce(%14 init: %cst_1) applies stablehlo.add across dimensions = [0] : (tensor<128xf32>, tensor<f32>) -> tensor<f32>
    %cst_2 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %16 = stablehlo.divide %15, %cst_2 : tensor<f32>
    %17 = stablehlo.negate %16 : tensor<f32>
    %cst_3 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %18 = stablehlo.negate %cst_3 : tensor<f32>
    %cst_4 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %19 = stablehlo.divide %18, %cst_4 : tensor<f32>
    %20 = stablehlo.broadcast_in_dim %19, dims = [] : (tensor<f32>) -> tensor<128xf32>
    %21 = stablehlo.broadcast_in_dim %20, dims = [0] : (tensor<128xf32>) -> tensor<128x10xf32>
    %22 = stablehlo.multiply %21, %12 : tensor<128x10xf32>
    %23 = call @log_softmax_0(%11#1, %11#2, %22) : (tensor<128x10xf32>, tensor<128x1xf32>, tensor<128x10xf32>) -> tensor<128x10xf32>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %24 = stablehlo.reduce(%23 init: %cst_5) applies stablehlo.add across dimensions = [0] : (tensor<128x10xf32>, tensor<f32>) -> tensor<10xf32>
    %25 = stablehlo.reshape %24 : (tensor<10xf32>) -> tensor<1x10xf32>
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %26 = stablehlo.reduce(%25 init: %cst_6) applies stablehlo.add across dimensions = [0] : (tensor<1x10xf32>, tensor<f32>) -> tensor<10xf32>
    %27 = stablehlo.dot_general %23, %4, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<128x10xf32>, tensor<128x512xf32>) -> tensor<10x512xf32>
    %28 = stablehlo.transpose %27, dims = [1, 0] : (tensor<10x512xf32>) -> tensor<512x10xf32>
    %29 = stablehlo.dot_general %23, %arg2, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<128x10xf32>, tensor<512x10xf32>) -> tensor<128x512xf32>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %30 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<128x512xf32>
    %31 = stablehlo.select %6, %29, %30 : tensor<128x512xi1>, tensor<128x512xf32>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %32 = stablehlo.reduce(%31 init: %cst_8) applies stablehlo.add across dimensions = [0] : (tensor<128x512xf32>, tensor<f32>) -> tensor<512xf32>
    %33 = stablehlo.reshape %32 : (tensor<512xf32>) -> tensor<1x512xf32>
    %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %34 = stablehlo.reduce(%33 init: %cst_9) applies stablehlo.add across dimensions = [0] : (tensor<1x512xf32>, tensor<f32>) -> tensor<512xf32>
    %35 = stablehlo.dot_general %31, %arg4, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<128x512xf32>, tensor<128x784xf32>) -> tensor<512x784xf32>
    %36 = stablehlo.transpose %35, dims = [1, 0] : (tensor<512x784xf32>) -> tensor<784x512xf32>
    %cst_10 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %37 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<784x512xf32>
    %38 = stablehlo.multiply %37, %36 : tensor<784x512xf32>
    %39 = stablehlo.subtract %arg0, %38 : tensor<784x512xf32>
    %cst_11 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %40 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<512xf32>
    %41 = stablehlo.multiply %40, %34 : tensor<512xf32>
    %42 = stablehlo.subtract %arg1, %41 : tensor<512xf32>
    %cst_12 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %43 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<512x10xf32>
    %44 = stablehlo.multiply %43, %28 : tensor<512x10xf32>
    %45 = stablehlo.subtract %arg2, %44 : tensor<512x10xf32>
    %cst_13 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %46 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<10xf32>
    %47 = stablehlo.multiply %46, %26 : tensor<10xf32>
    %48 = stablehlo.subtract %arg3, %47 : tensor<10xf32>
    return %39, %42, %45, %48, %17 : tensor<784x512xf32>, tensor<512xf32>, tensor<512x10xf32>, tensor<10xf32>, tensor<f32>
  }
  func.func private @relu(%arg0: tensor<128x512xf32>) -> tensor<128x512xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<128x512xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<128x512xf32>
    return %1 : tensor<128x512xf32>
  }
  func.func private @log_softmax(%arg0: tensor<128x10xf32>) -> (tensor<128x10xf32>, tensor<128x10xf32>, tensor<128x1xf32>) {
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.maximum across dimensions = [1] : (tensor<128x10xf32>, tensor<f32>) -> tensor<128xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<128xf32>
    %2 = stablehlo.maximum %1, %0 : tensor<128xf32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0] : (tensor<128xf32>) -> tensor<128x1xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x10xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<128x10xf32>
    %6 = stablehlo.exponential %5 : tensor<128x10xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.reduce(%6 init: %cst_1) applies stablehlo.add across dimensions = [1] : (tensor<128x10xf32>, tensor<f32>) -> tensor<128xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0] : (tensor<128xf32>) -> tensor<128x1xf32>
    %9 = stablehlo.log %8 : tensor<128x1xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x10xf32>
    %11 = stablehlo.subtract %5, %10 : tensor<128x10xf32>
    return %11, %6, %8 : tensor<128x10xf32>, tensor<128x10xf32>, tensor<128x1xf32>
  }
  func.func private @_one_hot(%arg0: tensor<128xi32>) -> tensor<128x10xf32> {
    %0 = stablehlo.broadcast_in_dim %arg0, dims = [0] : (tensor<128xi32>) -> tensor<128x1xi32>
    %1 = stablehlo.iota dim = 1 : tensor<1x10xi32>
    %2 = stablehlo.broadcast_in_dim %0, dims = [0, 1] : (tensor<128x1xi32>) -> tensor<128x10xi32>
    %3 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<1x10xi32>) -> tensor<128x10xi32>
    %4 = stablehlo.compare EQ, %2, %3, SIGNED : (tensor<128x10xi32>, tensor<128x10xi32>) -> tensor<128x10xi1>
    %5 = stablehlo.convert %4 : (tensor<128x10xi1>) -> tensor<128x10xf32>
    return %5 : tensor<128x10xf32>
  }
  func.func private @log_softmax_0(%arg0: tensor<128x10xf32>, %arg1: tensor<128x1xf32>, %arg2: tensor<128x10xf32>) -> tensor<128x10xf32> {
    %0 = stablehlo.negate %arg2 : tensor<128x10xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<128x10xf32>, tensor<f32>) -> tensor<128xf32>
    %2 = stablehlo.reshape %1 : (tensor<128xf32>) -> tensor<128x1xf32>
    %3 = stablehlo.divide %2, %arg1 : tensor<128x1xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %4 = stablehlo.reduce(%3 init: %cst_0) applies stablehlo.add across dimensions = [1] : (tensor<128x1xf32>, tensor<f32>) -> tensor<128xf32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0] : (tensor<128xf32>) -> tensor<128x10xf32>
    %6 = stablehlo.multiply %5, %arg0 : tensor<128x10xf32>
    %7 = stablehlo.add %arg2, %6 : tensor<128x10xf32>
    return %7 : tensor<128x10xf32>
  }
}
