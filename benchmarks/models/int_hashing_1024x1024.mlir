module @jit_int_hashing attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<1024x1024xi32>) -> (tensor<1024x1024xui32> {jax.result_info = "result[0]"}, tensor<4096xi32> {jax.result_info = "result[1]"}) {
    %0 = stablehlo.convert %arg0 : (tensor<1024x1024xi32>) -> tensor<1024x1024xui32>
    %c = stablehlo.constant dense<2654435761> : tensor<ui32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<ui32>) -> tensor<1024x1024xui32>
    %2 = stablehlo.multiply %0, %1 : tensor<1024x1024xui32>
    %c_0 = stablehlo.constant dense<15> : tensor<ui32>
    %3 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<ui32>) -> tensor<1024x1024xui32>
    %4 = stablehlo.shift_right_logical %2, %3 : tensor<1024x1024xui32>
    %5 = stablehlo.xor %2, %4 : tensor<1024x1024xui32>
    %c_1 = stablehlo.constant dense<2246822519> : tensor<ui32>
    %6 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<ui32>) -> tensor<1024x1024xui32>
    %7 = stablehlo.multiply %5, %6 : tensor<1024x1024xui32>
    %c_2 = stablehlo.constant dense<13> : tensor<ui32>
    %8 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<ui32>) -> tensor<1024x1024xui32>
    %9 = stablehlo.shift_right_logical %7, %8 : tensor<1024x1024xui32>
    %10 = stablehlo.xor %7, %9 : tensor<1024x1024xui32>
    %c_3 = stablehlo.constant dense<4096> : tensor<ui32>
    %11 = call @remainder(%10, %c_3) : (tensor<1024x1024xui32>, tensor<ui32>) -> tensor<1024x1024xui32>
    %12 = stablehlo.convert %11 : (tensor<1024x1024xui32>) -> tensor<1024x1024xi32>
    %c_4 = stablehlo.constant dense<0> : tensor<i32>
    %13 = stablehlo.broadcast_in_dim %c_4, dims = [] : (tensor<i32>) -> tensor<4096xi32>
    %14 = stablehlo.reshape %12 : (tensor<1024x1024xi32>) -> tensor<1048576xi32>
    %c_5 = stablehlo.constant dense<0> : tensor<i32>
    %15 = stablehlo.broadcast_in_dim %c_5, dims = [] : (tensor<i32>) -> tensor<1048576xi32>
    %16 = stablehlo.compare LT, %14, %15, SIGNED : (tensor<1048576xi32>, tensor<1048576xi32>) -> tensor<1048576xi1>
    %c_6 = stablehlo.constant dense<4096> : tensor<i32>
    %17 = stablehlo.broadcast_in_dim %c_6, dims = [] : (tensor<i32>) -> tensor<1048576xi32>
    %18 = stablehlo.add %14, %17 : tensor<1048576xi32>
    %19 = stablehlo.select %16, %18, %14 : tensor<1048576xi1>, tensor<1048576xi32>
    %20 = stablehlo.broadcast_in_dim %19, dims = [0] : (tensor<1048576xi32>) -> tensor<1048576x1xi32>
    %c_7 = stablehlo.constant dense<1> : tensor<i32>
    %21 = stablehlo.broadcast_in_dim %c_7, dims = [] : (tensor<i32>) -> tensor<1048576xi32>
    %22 = "stablehlo.scatter"(%13, %20, %21) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg1: tensor<i32>, %arg2: tensor<i32>):
      %23 = stablehlo.add %arg1, %arg2 : tensor<i32>
      stablehlo.return %23 : tensor<i32>
    }) : (tensor<4096xi32>, tensor<1048576x1xi32>, tensor<1048576xi32>) -> tensor<4096xi32>
    return %10, %22 : tensor<1024x1024xui32>, tensor<4096xi32>
  }
  func.func private @remainder(%arg0: tensor<1024x1024xui32>, %arg1: tensor<ui32>) -> tensor<1024x1024xui32> {
    %c = stablehlo.constant dense<0> : tensor<ui32>
    %0 = stablehlo.compare EQ, %arg1, %c, UNSIGNED : (tensor<ui32>, tensor<ui32>) -> tensor<i1>
    %c_0 = stablehlo.constant dense<1> : tensor<ui32>
    %1 = call @_where(%0, %c_0, %arg1) : (tensor<i1>, tensor<ui32>, tensor<ui32>) -> tensor<ui32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [] : (tensor<ui32>) -> tensor<1024x1024xui32>
    %3 = stablehlo.remainder %arg0, %2 : tensor<1024x1024xui32>
    %c_1 = stablehlo.constant dense<0> : tensor<ui32>
    %4 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<ui32>) -> tensor<1024x1024xui32>
    %5 = stablehlo.compare NE, %3, %4, UNSIGNED : (tensor<1024x1024xui32>, tensor<1024x1024xui32>) -> tensor<1024x1024xi1>
    %c_2 = stablehlo.constant dense<0> : tensor<ui32>
    %6 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<ui32>) -> tensor<1024x1024xui32>
    %7 = stablehlo.compare LT, %3, %6, UNSIGNED : (tensor<1024x1024xui32>, tensor<1024x1024xui32>) -> tensor<1024x1024xi1>
    %c_3 = stablehlo.constant dense<0> : tensor<ui32>
    %8 = stablehlo.compare LT, %1, %c_3, UNSIGNED : (tensor<ui32>, tensor<ui32>) -> tensor<i1>
    %9 = stablehlo.broadcast_in_dim %8, dims = [] : (tensor<i1>) -> tensor<1024x1024xi1>
    %10 = stablehlo.compare NE, %7, %9, UNSIGNED : (tensor<1024x1024xi1>, tensor<1024x1024xi1>) -> tensor<1024x1024xi1>
    %11 = stablehlo.and %10, %5 : tensor<1024x1024xi1>
    %12 = stablehlo.broadcast_in_dim %1, dims = [] : (tensor<ui32>) -> tensor<1024x1024xui32>
    %13 = stablehlo.add %3, %12 : tensor<1024x1024xui32>
    %14 = stablehlo.select %11, %13, %3 : tensor<1024x1024xi1>, tensor<1024x1024xui32>
    return %14 : tensor<1024x1024xui32>
  }
  func.func private @_where(%arg0: tensor<i1>, %arg1: tensor<ui32>, %arg2: tensor<ui32>) -> tensor<ui32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<i1>, tensor<ui32>
    return %0 : tensor<ui32>
  }
}
