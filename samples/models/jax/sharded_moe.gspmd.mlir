module @jit_sharded_moe attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<32x16xf32> {mhlo.sharding = "{devices=[4,1]<=[4]}"}, %arg1: tensor<16x4xf32> {mhlo.sharding = "{replicated}"}, %arg2: tensor<4x16x32xf32> {mhlo.sharding = "{devices=[4,1,1]<=[4]}"}, %arg3: tensor<4x32x16xf32> {mhlo.sharding = "{devices=[4,1,1]<=[4]}"}) -> (tensor<32x16xf32> {jax.result_info = "result", mhlo.sharding = "{devices=[4,1]<=[4]}"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<32x16xf32>, tensor<16x4xf32>) -> tensor<32x4xf32>
    %1 = call @argmax(%0) : (tensor<32x4xf32>) -> tensor<32xi32>
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %2 = stablehlo.reduce(%0 init: %cst) applies stablehlo.maximum across dimensions = [1] : (tensor<32x4xf32>, tensor<f32>) -> tensor<32xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %4 = stablehlo.maximum %3, %2 : tensor<32xf32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0] : (tensor<32xf32>) -> tensor<32x1xf32>
    %6 = stablehlo.broadcast_in_dim %5, dims = [0, 1] : (tensor<32x1xf32>) -> tensor<32x4xf32>
    %7 = stablehlo.subtract %0, %6 : tensor<32x4xf32>
    %8 = stablehlo.exponential %7 : tensor<32x4xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %9 = stablehlo.reduce(%8 init: %cst_1) applies stablehlo.add across dimensions = [1] : (tensor<32x4xf32>, tensor<f32>) -> tensor<32xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0] : (tensor<32xf32>) -> tensor<32x1xf32>
    %11 = stablehlo.broadcast_in_dim %10, dims = [0, 1] : (tensor<32x1xf32>) -> tensor<32x4xf32>
    %12 = stablehlo.divide %8, %11 : tensor<32x4xf32>
    %cst_2 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %13 = stablehlo.reduce(%12 init: %cst_2) applies stablehlo.maximum across dimensions = [1] : (tensor<32x4xf32>, tensor<f32>) -> tensor<32xf32>
    %14 = call @_one_hot(%1) : (tensor<32xi32>) -> tensor<32x4xf32>
    %15 = stablehlo.dot_general %arg0, %14, batching_dims = [0] x [0], contracting_dims = [] x [], precision = [DEFAULT, DEFAULT] : (tensor<32x16xf32>, tensor<32x4xf32>) -> tensor<32x16x4xf32>
    %16 = stablehlo.transpose %15, dims = [2, 0, 1] : (tensor<32x16x4xf32>) -> tensor<4x32x16xf32>
    %17 = stablehlo.custom_call @Sharding(%16) {backend_config = "", mhlo.sharding = "{devices=[4,1,1]<=[4]}"} : (tensor<4x32x16xf32>) -> tensor<4x32x16xf32>
    %18 = stablehlo.dot_general %17, %arg2, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x32x16xf32>, tensor<4x16x32xf32>) -> tensor<4x32x32xf32>
    %19 = call @relu(%18) : (tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
    %20 = stablehlo.dot_general %19, %arg3, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x32x32xf32>, tensor<4x32x16xf32>) -> tensor<4x32x16xf32>
    %21 = stablehlo.dot_general %20, %14, batching_dims = [1] x [0], contracting_dims = [0] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x32x16xf32>, tensor<32x4xf32>) -> tensor<32x16xf32>
    %22 = stablehlo.broadcast_in_dim %13, dims = [0] : (tensor<32xf32>) -> tensor<32x1xf32>
    %23 = stablehlo.broadcast_in_dim %22, dims = [0, 1] : (tensor<32x1xf32>) -> tensor<32x16xf32>
    %24 = stablehlo.multiply %21, %23 : tensor<32x16xf32>
    return %24 : tensor<32x16xf32>
  }
  func.func private @argmax(%arg0: tensor<32x4xf32>) -> tensor<32xi32> {
    %0 = stablehlo.iota dim = 1 : tensor<32x4xi32>
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1:2 = stablehlo.reduce(%arg0 init: %cst), (%0 init: %c) across dimensions = [1] : (tensor<32x4xf32>, tensor<32x4xi32>, tensor<f32>, tensor<i32>) -> (tensor<32xf32>, tensor<32xi32>)
     reducer(%arg1: tensor<f32>, %arg3: tensor<f32>) (%arg2: tensor<i32>, %arg4: tensor<i32>)  {
      %2 = stablehlo.compare GT, %arg1, %arg3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %3 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %4 = stablehlo.or %2, %3 : tensor<i1>
      %5 = stablehlo.compare EQ, %arg1, %arg3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %6 = stablehlo.compare LT, %arg2, %arg4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %7 = stablehlo.and %5, %6 : tensor<i1>
      %8 = stablehlo.or %4, %7 : tensor<i1>
      %9 = stablehlo.select %4, %arg1, %arg3 : tensor<i1>, tensor<f32>
      %10 = stablehlo.select %8, %arg2, %arg4 : tensor<i1>, tensor<i32>
      stablehlo.return %9, %10 : tensor<f32>, tensor<i32>
    }
    return %1#1 : tensor<32xi32>
  }
  func.func private @_one_hot(%arg0: tensor<32xi32>) -> tensor<32x4xf32> {
    %0 = stablehlo.broadcast_in_dim %arg0, dims = [0] : (tensor<32xi32>) -> tensor<32x1xi32>
    %1 = stablehlo.iota dim = 1 : tensor<1x4xi32>
    %2 = stablehlo.broadcast_in_dim %0, dims = [0, 1] : (tensor<32x1xi32>) -> tensor<32x4xi32>
    %3 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<1x4xi32>) -> tensor<32x4xi32>
    %4 = stablehlo.compare EQ, %2, %3, SIGNED : (tensor<32x4xi32>, tensor<32x4xi32>) -> tensor<32x4xi1>
    %5 = stablehlo.convert %4 : (tensor<32x4xi1>) -> tensor<32x4xf32>
    return %5 : tensor<32x4xf32>
  }
  func.func private @relu(%arg0: tensor<4x32x32xf32>) -> tensor<4x32x32xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x32x32xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<4x32x32xf32>
    return %1 : tensor<4x32x32xf32>
  }
}
