module @jit_kv_cache_decode attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x768xf32>, %arg1: tensor<8x1024x12x64xf32>, %arg2: tensor<8x1024x12x64xf32>, %arg3: tensor<i32>, %arg4: tensor<768x2304xf32>, %arg5: tensor<768x768xf32>, %arg6: tensor<768x3072xf32>, %arg7: tensor<3072x768xf32>) -> (tensor<8x768xf32> {jax.result_info = "result[0]"}, tensor<8x1024x12x64xf32> {jax.result_info = "result[1]"}, tensor<8x1024x12x64xf32> {jax.result_info = "result[2]"}) {
    %0 = stablehlo.dot_general %arg0, %arg4, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x768xf32>, tensor<768x2304xf32>) -> tensor<8x2304xf32>
    %1 = stablehlo.slice %0 [0:8, 0:768] : (tensor<8x2304xf32>) -> tensor<8x768xf32>
    %2 = stablehlo.slice %0 [0:8, 768:1536] : (tensor<8x2304xf32>) -> tensor<8x768xf32>
    %3 = stablehlo.slice %0 [0:8, 1536:2304] : (tensor<8x2304xf32>) -> tensor<8x768xf32>
    %4 = stablehlo.reshape %1 : (tensor<8x768xf32>) -> tensor<8x1x12x64xf32>
    %5 = stablehlo.reshape %2 : (tensor<8x768xf32>) -> tensor<8x1x12x64xf32>
    %6 = stablehlo.reshape %3 : (tensor<8x768xf32>) -> tensor<8x1x12x64xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %7 = stablehlo.compare LT, %arg3, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_0 = stablehlo.constant dense<1024> : tensor<i32>
    %8 = stablehlo.add %arg3, %c_0 : tensor<i32>
    %9 = stablehlo.select %7, %8, %arg3 : tensor<i1>, tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %10 = stablehlo.dynamic_update_slice %arg1, %5, %c_1, %9, %c_2, %c_3 : (tensor<8x1024x12x64xf32>, tensor<8x1x12x64xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<8x1024x12x64xf32>
    %c_4 = stablehlo.constant dense<0> : tensor<i32>
    %11 = stablehlo.compare LT, %arg3, %c_4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_5 = stablehlo.constant dense<1024> : tensor<i32>
    %12 = stablehlo.add %arg3, %c_5 : tensor<i32>
    %13 = stablehlo.select %11, %12, %arg3 : tensor<i1>, tensor<i32>
    %c_6 = stablehlo.constant dense<0> : tensor<i32>
    %c_7 = stablehlo.constant dense<0> : tensor<i32>
    %c_8 = stablehlo.constant dense<0> : tensor<i32>
    %14 = stablehlo.dynamic_update_slice %arg2, %6, %c_6, %13, %c_7, %c_8 : (tensor<8x1024x12x64xf32>, tensor<8x1x12x64xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<8x1024x12x64xf32>
    %15 = stablehlo.dot_general %4, %10, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<8x1x12x64xf32>, tensor<8x1024x12x64xf32>) -> tensor<8x12x1x1024xf32>
    %cst = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %16 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x12x1x1024xf32>
    %17 = stablehlo.divide %15, %16 : tensor<8x12x1x1024xf32>
    %18 = stablehlo.iota dim = 0 : tensor<1024xi32>
    %19 = stablehlo.broadcast_in_dim %arg3, dims = [] : (tensor<i32>) -> tensor<1024xi32>
    %20 = stablehlo.compare LE, %18, %19, SIGNED : (tensor<1024xi32>, tensor<1024xi32>) -> tensor<1024xi1>
    %21 = stablehlo.broadcast_in_dim %20, dims = [3] : (tensor<1024xi1>) -> tensor<1x1x1x1024xi1>
    %cst_9 = stablehlo.constant dense<-1.000000e+09> : tensor<f32>
    %22 = call @_where(%21, %17, %cst_9) : (tensor<1x1x1x1024xi1>, tensor<8x12x1x1024xf32>, tensor<f32>) -> tensor<8x12x1x1024xf32>
    %cst_10 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %23 = stablehlo.reduce(%22 init: %cst_10) applies stablehlo.maximum across dimensions = [3] : (tensor<8x12x1x1024xf32>, tensor<f32>) -> tensor<8x12x1xf32>
    %cst_11 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %24 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<8x12x1xf32>
    %25 = stablehlo.maximum %24, %23 : tensor<8x12x1xf32>
    %26 = stablehlo.broadcast_in_dim %25, dims = [0, 1, 2] : (tensor<8x12x1xf32>) -> tensor<8x12x1x1xf32>
    %27 = stablehlo.broadcast_in_dim %26, dims = [0, 1, 2, 3] : (tensor<8x12x1x1xf32>) -> tensor<8x12x1x1024xf32>
    %28 = stablehlo.subtract %22, %27 : tensor<8x12x1x1024xf32>
    %29 = stablehlo.exponential %28 : tensor<8x12x1x1024xf32>
    %cst_12 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %30 = stablehlo.reduce(%29 init: %cst_12) applies stablehlo.add across dimensions = [3] : (tensor<8x12x1x1024xf32>, tensor<f32>) -> tensor<8x12x1xf32>
    %31 = stablehlo.broadcast_in_dim %30, dims = [0, 1, 2] : (tensor<8x12x1xf32>) -> tensor<8x12x1x1xf32>
    %32 = stablehlo.broadcast_in_dim %31, dims = [0, 1, 2, 3] : (tensor<8x12x1x1xf32>) -> tensor<8x12x1x1024xf32>
    %33 = stablehlo.divide %29, %32 : tensor<8x12x1x1024xf32>
    %34 = stablehlo.dot_general %14, %33, batching_dims = [0, 2] x [0, 1], contracting_dims = [1] x [3], precision = [DEFAULT, DEFAULT] : (tensor<8x1024x12x64xf32>, tensor<8x12x1x1024xf32>) -> tensor<8x12x64x1xf32>
    %35 = stablehlo.transpose %34, dims = [0, 3, 1, 2] : (tensor<8x12x64x1xf32>) -> tensor<8x1x12x64xf32>
    %36 = stablehlo.reshape %35 : (tensor<8x1x12x64xf32>) -> tensor<8x768xf32>
    %37 = stablehlo.dot_general %36, %arg5, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x768xf32>, tensor<768x768xf32>) -> tensor<8x768xf32>
    %38 = stablehlo.add %arg0, %37 : tensor<8x768xf32>
    %39 = stablehlo.dot_general %38, %arg6, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x768xf32>, tensor<768x3072xf32>) -> tensor<8x3072xf32>
    %40 = stablehlo.multiply %39, %39 : tensor<8x3072xf32>
    %41 = stablehlo.multiply %40, %39 : tensor<8x3072xf32>
    %cst_13 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %42 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<8x3072xf32>
    %43 = stablehlo.multiply %42, %41 : tensor<8x3072xf32>
    %44 = stablehlo.add %39, %43 : tensor<8x3072xf32>
    %cst_14 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %45 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<8x3072xf32>
    %46 = stablehlo.multiply %45, %44 : tensor<8x3072xf32>
    %47 = stablehlo.tanh %46 : tensor<8x3072xf32>
    %cst_15 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %48 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<8x3072xf32>
    %49 = stablehlo.add %48, %47 : tensor<8x3072xf32>
    %cst_16 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %50 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<8x3072xf32>
    %51 = stablehlo.multiply %50, %49 : tensor<8x3072xf32>
    %52 = stablehlo.multiply %39, %51 : tensor<8x3072xf32>
    %53 = stablehlo.dot_general %52, %arg7, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x3072xf32>, tensor<3072x768xf32>) -> tensor<8x768xf32>
    %54 = stablehlo.add %38, %53 : tensor<8x768xf32>
    return %54, %10, %14 : tensor<8x768xf32>, tensor<8x1024x12x64xf32>, tensor<8x1024x12x64xf32>
  }
  func.func private @_where(%arg0: tensor<1x1x1x1024xi1>, %arg1: tensor<8x12x1x1024xf32>, %arg2: tensor<f32>) -> tensor<8x12x1x1024xf32> {
    %0 = stablehlo.broadcast_in_dim %arg0, dims = [0, 1, 2, 3] : (tensor<1x1x1x1024xi1>) -> tensor<8x12x1x1024xi1>
    %1 = stablehlo.broadcast_in_dim %arg2, dims = [] : (tensor<f32>) -> tensor<8x12x1x1024xf32>
    %2 = stablehlo.select %0, %arg1, %1 : tensor<8x12x1x1024xi1>, tensor<8x12x1x1024xf32>
    return %2 : tensor<8x12x1x1024xf32>
  }
}
