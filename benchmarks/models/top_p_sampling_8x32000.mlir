module @jit_top_p_sampling attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x32000xf32>, %arg1: tensor<8xf32>) -> (tensor<8xi32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.maximum across dimensions = [1] : (tensor<8x32000xf32>, tensor<f32>) -> tensor<8xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %2 = stablehlo.maximum %1, %0 : tensor<8xf32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x32000xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<8x32000xf32>
    %6 = stablehlo.exponential %5 : tensor<8x32000xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.reduce(%6 init: %cst_1) applies stablehlo.add across dimensions = [1] : (tensor<8x32000xf32>, tensor<f32>) -> tensor<8xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x32000xf32>
    %10 = stablehlo.divide %6, %9 : tensor<8x32000xf32>
    %11 = stablehlo.negate %10 : tensor<8x32000xf32>
    %12 = call @argsort(%11) : (tensor<8x32000xf32>) -> tensor<8x32000xi32>
    %13 = call @take_along_axis(%10, %12) : (tensor<8x32000xf32>, tensor<8x32000xi32>) -> tensor<8x32000xf32>
    %14 = call @cumsum(%13) : (tensor<8x32000xf32>) -> tensor<8x32000xf32>
    %15 = stablehlo.subtract %14, %13 : tensor<8x32000xf32>
    %cst_2 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %16 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<8x32000xf32>
    %17 = stablehlo.compare LT, %15, %16, FLOAT : (tensor<8x32000xf32>, tensor<8x32000xf32>) -> tensor<8x32000xi1>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %18 = call @_where(%17, %13, %cst_3) : (tensor<8x32000xi1>, tensor<8x32000xf32>, tensor<f32>) -> tensor<8x32000xf32>
    %19 = call @cumsum(%18) : (tensor<8x32000xf32>) -> tensor<8x32000xf32>
    %20 = stablehlo.broadcast_in_dim %arg1, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %21 = stablehlo.reduce(%18 init: %cst_4) applies stablehlo.add across dimensions = [1] : (tensor<8x32000xf32>, tensor<f32>) -> tensor<8xf32>
    %22 = stablehlo.broadcast_in_dim %21, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %23 = stablehlo.multiply %20, %22 : tensor<8x1xf32>
    %24 = stablehlo.broadcast_in_dim %23, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x32000xf32>
    %25 = stablehlo.compare GE, %19, %24, FLOAT : (tensor<8x32000xf32>, tensor<8x32000xf32>) -> tensor<8x32000xi1>
    %26 = call @argmax(%25) : (tensor<8x32000xi1>) -> tensor<8xi32>
    %27 = stablehlo.broadcast_in_dim %26, dims = [0] : (tensor<8xi32>) -> tensor<8x1xi32>
    %28 = call @take_along_axis_1(%12, %27) : (tensor<8x32000xi32>, tensor<8x1xi32>) -> tensor<8x1xi32>
    %29 = stablehlo.reshape %28 : (tensor<8x1xi32>) -> tensor<8xi32>
    return %29 : tensor<8xi32>
  }
  func.func private @argsort(%arg0: tensor<8x32000xf32>) -> tensor<8x32000xi32> {
    %0 = stablehlo.iota dim = 1 : tensor<8x32000xi32>
    %1:2 = "stablehlo.sort"(%arg0, %0) <{dimension = 1 : i64, is_stable = true}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>, %arg3: tensor<i32>, %arg4: tensor<i32>):
      %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %2 = stablehlo.compare EQ, %arg1, %cst, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %3 = stablehlo.select %2, %cst_0, %arg1 : tensor<i1>, tensor<f32>
      %4 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_1 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
      %5 = stablehlo.select %4, %cst_1, %3 : tensor<i1>, tensor<f32>
      %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %6 = stablehlo.compare EQ, %arg2, %cst_2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %7 = stablehlo.select %6, %cst_3, %arg2 : tensor<i1>, tensor<f32>
      %8 = stablehlo.compare NE, %arg2, %arg2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_4 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
      %9 = stablehlo.select %8, %cst_4, %7 : tensor<i1>, tensor<f32>
      %10 = stablehlo.compare LT, %5, %9, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %10 : tensor<i1>
    }) : (tensor<8x32000xf32>, tensor<8x32000xi32>) -> (tensor<8x32000xf32>, tensor<8x32000xi32>)
    return %1#1 : tensor<8x32000xi32>
  }
  func.func private @take_along_axis(%arg0: tensor<8x32000xf32>, %arg1: tensor<8x32000xi32>) -> tensor<8x32000xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<8x32000xi32>
    %1 = stablehlo.compare LT, %arg1, %0, SIGNED : (tensor<8x32000xi32>, tensor<8x32000xi32>) -> tensor<8x32000xi1>
    %c_0 = stablehlo.constant dense<32000> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<8x32000xi32>
    %3 = stablehlo.add %arg1, %2 : tensor<8x32000xi32>
    %4 = stablehlo.select %1, %3, %arg1 : tensor<8x32000xi1>, tensor<8x32000xi32>
    %5 = stablehlo.reshape %4 : (tensor<8x32000xi32>) -> tensor<8x32000x1xi32>
    %c_1 = stablehlo.constant dense<31999> : tensor<1xi32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %6 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<8x32000x1xi32>
    %7 = stablehlo.compare GE, %5, %6, SIGNED : (tensor<8x32000x1xi32>, tensor<8x32000x1xi32>) -> tensor<8x32000x1xi1>
    %8 = stablehlo.broadcast_in_dim %c_1, dims = [2] : (tensor<1xi32>) -> tensor<1x1x1xi32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1, 2] : (tensor<1x1x1xi32>) -> tensor<8x32000x1xi32>
    %10 = stablehlo.compare LE, %5, %9, SIGNED : (tensor<8x32000x1xi32>, tensor<8x32000x1xi32>) -> tensor<8x32000x1xi1>
    %11 = stablehlo.and %7, %10 : tensor<8x32000x1xi1>
    %c_3 = stablehlo.constant dense<true> : tensor<i1>
    %12 = stablehlo.reduce(%11 init: %c_3) applies stablehlo.and across dimensions = [2] : (tensor<8x32000x1xi1>, tensor<i1>) -> tensor<8x32000xi1>
    %13 = "stablehlo.gather"(%arg0, %5) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<8x32000xf32>, tensor<8x32000x1xi32>) -> tensor<8x32000xf32>
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x32000xf32>
    %15 = stablehlo.select %12, %13, %14 : tensor<8x32000xi1>, tensor<8x32000xf32>
    return %15 : tensor<8x32000xf32>
  }
  func.func private @cumsum(%arg0: tensor<8x32000xf32>) -> tensor<8x32000xf32> {
    %0 = call @cumsum_0(%arg0) : (tensor<8x32000xf32>) -> tensor<8x32000xf32>
    return %0 : tensor<8x32000xf32>
  }
  func.func private @cumsum_0(%arg0: tensor<8x32000xf32>) -> tensor<8x32000xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<f32>
    %1 = "stablehlo.reduce_window"(%arg0, %0) <{base_dilations = array<i64: 1, 1>, padding = dense<[[0, 0], [31999, 0]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 1, 32000>, window_strides = array<i64: 1, 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %2 = stablehlo.add %arg1, %arg2 : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) : (tensor<8x32000xf32>, tensor<f32>) -> tensor<8x32000xf32>
    return %1 : tensor<8x32000xf32>
  }
  func.func private @_where(%arg0: tensor<8x32000xi1>, %arg1: tensor<8x32000xf32>, %arg2: tensor<f32>) -> tensor<8x32000xf32> {
    %0 = stablehlo.convert %arg2 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<8x32000xf32>
    %2 = stablehlo.select %arg0, %arg1, %1 : tensor<8x32000xi1>, tensor<8x32000xf32>
    return %2 : tensor<8x32000xf32>
  }
  func.func private @argmax(%arg0: tensor<8x32000xi1>) -> tensor<8xi32> {
    %0 = stablehlo.iota dim = 1 : tensor<8x32000xi32>
    %c = stablehlo.constant dense<false> : tensor<i1>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %1:2 = stablehlo.reduce(%arg0 init: %c), (%0 init: %c_0) across dimensions = [1] : (tensor<8x32000xi1>, tensor<8x32000xi32>, tensor<i1>, tensor<i32>) -> (tensor<8xi1>, tensor<8xi32>)
     reducer(%arg1: tensor<i1>, %arg3: tensor<i1>) (%arg2: tensor<i32>, %arg4: tensor<i32>)  {
      %2 = stablehlo.compare GT, %arg1, %arg3, UNSIGNED : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %3 = stablehlo.compare NE, %arg1, %arg1, UNSIGNED : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %4 = stablehlo.or %2, %3 : tensor<i1>
      %5 = stablehlo.compare EQ, %arg1, %arg3, UNSIGNED : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %6 = stablehlo.compare LT, %arg2, %arg4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %7 = stablehlo.and %5, %6 : tensor<i1>
      %8 = stablehlo.or %4, %7 : tensor<i1>
      %9 = stablehlo.select %4, %arg1, %arg3 : tensor<i1>, tensor<i1>
      %10 = stablehlo.select %8, %arg2, %arg4 : tensor<i1>, tensor<i32>
      stablehlo.return %9, %10 : tensor<i1>, tensor<i32>
    }
    return %1#1 : tensor<8xi32>
  }
  func.func private @take_along_axis_1(%arg0: tensor<8x32000xi32>, %arg1: tensor<8x1xi32>) -> tensor<8x1xi32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<8x1xi32>
    %1 = stablehlo.compare LT, %arg1, %0, SIGNED : (tensor<8x1xi32>, tensor<8x1xi32>) -> tensor<8x1xi1>
    %c_0 = stablehlo.constant dense<32000> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<8x1xi32>
    %3 = stablehlo.add %arg1, %2 : tensor<8x1xi32>
    %4 = stablehlo.select %1, %3, %arg1 : tensor<8x1xi1>, tensor<8x1xi32>
    %5 = stablehlo.reshape %4 : (tensor<8x1xi32>) -> tensor<8x1x1xi32>
    %c_1 = stablehlo.constant dense<31999> : tensor<1xi32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %6 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<8x1x1xi32>
    %7 = stablehlo.compare GE, %5, %6, SIGNED : (tensor<8x1x1xi32>, tensor<8x1x1xi32>) -> tensor<8x1x1xi1>
    %8 = stablehlo.broadcast_in_dim %c_1, dims = [2] : (tensor<1xi32>) -> tensor<1x1x1xi32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1, 2] : (tensor<1x1x1xi32>) -> tensor<8x1x1xi32>
    %10 = stablehlo.compare LE, %5, %9, SIGNED : (tensor<8x1x1xi32>, tensor<8x1x1xi32>) -> tensor<8x1x1xi1>
    %11 = stablehlo.and %7, %10 : tensor<8x1x1xi1>
    %c_3 = stablehlo.constant dense<true> : tensor<i1>
    %12 = stablehlo.reduce(%11 init: %c_3) applies stablehlo.and across dimensions = [2] : (tensor<8x1x1xi1>, tensor<i1>) -> tensor<8x1xi1>
    %13 = "stablehlo.gather"(%arg0, %5) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<8x32000xi32>, tensor<8x1x1xi32>) -> tensor<8x1xi32>
    %c_4 = stablehlo.constant dense<-2147483648> : tensor<i32>
    %14 = stablehlo.broadcast_in_dim %c_4, dims = [] : (tensor<i32>) -> tensor<8x1xi32>
    %15 = stablehlo.select %12, %13, %14 : tensor<8x1xi1>, tensor<8x1xi32>
    return %15 : tensor<8x1xi32>
  }
}
