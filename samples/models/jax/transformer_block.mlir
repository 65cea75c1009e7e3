module @jit_transformer_block attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6x16xf32>, %arg1: tensor<16x16xf32>, %arg2: tensor<16x16xf32>, %arg3: tensor<16x16xf32>, %arg4: tensor<16x16xf32>, %arg5: tensor<16xf32>, %arg6: tensor<16xf32>) -> (tensor<6x16xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<6x16xf32>, tensor<16x16xf32>) -> tensor<6x16xf32>
    %1 = stablehlo.dot_general %arg0, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<6x16xf32>, tensor<16x16xf32>) -> tensor<6x16xf32>
    %2 = stablehlo.dot_general %arg0, %arg3, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<6x16xf32>, tensor<16x16xf32>) -> tensor<6x16xf32>
    %3 = stablehlo.reshape %0 : (tensor<6x16xf32>) -> tensor<1x6x16xf32>
    %4 = stablehlo.reshape %1 : (tensor<6x16xf32>) -> tensor<1x6x16xf32>
    %5 = stablehlo.dot_general %3, %4, batching_dims = [0] x [0], contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<1x6x16xf32>, tensor<1x6x16xf32>) -> tensor<1x6x6xf32>
    %cst = stablehlo.constant dense<4.000000e+00> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<1x6x6xf32>
    %7 = stablehlo.divide %5, %6 : tensor<1x6x6xf32>
    %c = stablehlo.constant dense<true> : tensor<i1>
    %8 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i1>) -> tensor<6x6xi1>
    %9 = call @tril(%8) : (tensor<6x6xi1>) -> tensor<6x6xi1>
    %cst_0 = stablehlo.constant dense<-1.000000e+09> : tensor<f64>
    %10 = call @_where(%9, %7, %cst_0) : (tensor<6x6xi1>, tensor<1x6x6xf32>, tensor<f64>) -> tensor<1x6x6xf32>
    %cst_1 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %11 = stablehlo.reduce(%10 init: %cst_1) applies stablehlo.maximum across dimensions = [2] : (tensor<1x6x6xf32>, tensor<f32>) -> tensor<1x6xf32>
    %cst_2 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<1x6xf32>
    %13 = stablehlo.maximum %12, %11 : tensor<1x6xf32>
    %14 = stablehlo.broadcast_in_dim %13, dims = [0, 1] : (tensor<1x6xf32>) -> tensor<1x6x1xf32>
    %15 = stablehlo.broadcast_in_dim %14, dims = [0, 1, 2] : (tensor<1x6x1xf32>) -> tensor<1x6x6xf32>
    %16 = stablehlo.subtract %10, %15 : tensor<1x6x6xf32>
    %17 = stablehlo.exponential %16 : tensor<1x6x6xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %18 = stablehlo.reduce(%17 init: %cst_3) applies stablehlo.add across dimensions = [2] : (tensor<1x6x6xf32>, tensor<f32>) -> tensor<1x6xf32>
    %19 = stablehlo.broadcast_in_dim %18, dims = [0, 1] : (tensor<1x6xf32>) -> tensor<1x6x1xf32>
    %20 = stablehlo.broadcast_in_dim %19, dims = [0, 1, 2] : (tensor<1x6x1xf32>) -> tensor<1x6x6xf32>
    %21 = stablehlo.divide %17, %20 : tensor<1x6x6xf32>
    %22 = stablehlo.reshape %2 : (tensor<6x16xf32>) -> tensor<1x6x16xf32>
    %23 = stablehlo.dot_general %21, %22, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<1x6x6xf32>, tensor<1x6x16xf32>) -> tensor<1x6x16xf32>
    %24 = stablehlo.reshape %23 : (tensor<1x6x16xf32>) -> tensor<6x16xf32>
    %25 = stablehlo.dot_general %24, %arg4, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<6x16xf32>, tensor<16x16xf32>) -> tensor<6x16xf32>
    %26 = stablehlo.add %arg0, %25 : tensor<6x16xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %27 = stablehlo.reduce(%26 init: %cst_4) applies stablehlo.add across dimensions = [1] : (tensor<6x16xf32>, tensor<f32>) -> tensor<6xf32>
    %28 = stablehlo.broadcast_in_dim %27, dims = [0] : (tensor<6xf32>) -> tensor<6x1xf32>
    %cst_5 = stablehlo.constant dense<1.600000e+01> : tensor<f32>
    %29 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<6x1xf32>
    %30 = stablehlo.divide %28, %29 : tensor<6x1xf32>
    %31 = stablehlo.broadcast_in_dim %30, dims = [0, 1] : (tensor<6x1xf32>) -> tensor<6x16xf32>
    %32 = stablehlo.subtract %26, %31 : tensor<6x16xf32>
    %33 = stablehlo.multiply %32, %32 : tensor<6x16xf32>
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %34 = stablehlo.reduce(%33 init: %cst_6) applies stablehlo.add across dimensions = [1] : (tensor<6x16xf32>, tensor<f32>) -> tensor<6xf32>
    %35 = stablehlo.broadcast_in_dim %34, dims = [0] : (tensor<6xf32>) -> tensor<6x1xf32>
    %cst_7 = stablehlo.constant dense<1.600000e+01> : tensor<f32>
    %36 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<6x1xf32>
    %37 = stablehlo.divide %35, %36 : tensor<6x1xf32>
    %38 = stablehlo.broadcast_in_dim %30, dims = [0, 1] : (tensor<6x1xf32>) -> tensor<6x16xf32>
    %39 = stablehlo.subtract %26, %38 : tensor<6x16xf32>
    %cst_8 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %40 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<6x1xf32>
    %41 = stablehlo.add %37, %40 : tensor<6x1xf32>
    %42 = stablehlo.sqrt %41 : tensor<6x1xf32>
    %43 = stablehlo.broadcast_in_dim %42, dims = [0, 1] : (tensor<6x1xf32>) -> tensor<6x16xf32>
    %44 = stablehlo.divide %39, %43 : tensor<6x16xf32>
    %45 = stablehlo.broadcast_in_dim %arg5, dims = [1] : (tensor<16xf32>) -> tensor<1x16xf32>
    %46 = stablehlo.broadcast_in_dim %45, dims = [0, 1] : (tensor<1x16xf32>) -> tensor<6x16xf32>
    %47 = stablehlo.multiply %44, %46 : tensor<6x16xf32>
    %48 = stablehlo.broadcast_in_dim %arg6, dims = [1] : (tensor<16xf32>) -> tensor<1x16xf32>
    %49 = stablehlo.broadcast_in_dim %48, dims = [0, 1] : (tensor<1x16xf32>) -> tensor<6x16xf32>
    %50 = stablehlo.add %47, %49 : tensor<6x16xf32>
    return %50 : tensor<6x16xf32>
  }
  func.func private @tril(%arg0: tensor<6x6xi1>) -> tensor<6x6xi1> {
    %0 = stablehlo.iota dim = 0 : tensor<6x6xi64>
    %c = stablehlo.constant dense<0> : tensor<i64>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i64>) -> tensor<6x6xi64>
    %2 = stablehlo.add %0, %1 : tensor<6x6xi64>
    %3 = stablehlo.iota dim = 1 : tensor<6x6xi64>
    %4 = stablehlo.compare GE, %2, %3, SIGNED : (tensor<6x6xi64>, tensor<6x6xi64>) -> tensor<6x6xi1>
    %c_0 = stablehlo.constant dense<false> : tensor<i1>
    %5 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i1>) -> tensor<6x6xi1>
    %6 = stablehlo.select %4, %arg0, %5 : tensor<6x6xi1>, tensor<6x6xi1>
    return %6 : tensor<6x6xi1>
  }
  func.func private @_where(%arg0: tensor<6x6xi1>, %arg1: tensor<1x6x6xf32>, %arg2: tensor<f64>) -> tensor<1x6x6xf32> {
    %0 = stablehlo.convert %arg2 : (tensor<f64>) -> tensor<f32>
    %1 = stablehlo.broadcast_in_dim %arg0, dims = [1, 2] : (tensor<6x6xi1>) -> tensor<1x6x6xi1>
    %2 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<1x6x6xf32>
    %3 = stablehlo.select %1, %arg1, %2 : tensor<1x6x6xi1>, tensor<1x6x6xf32>
    return %3 : tensor<1x6x6xf32>
  }
}
