module @jit_transformer_train_step attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x256x256xf32>, %arg1: tensor<4x256x256xf32>, %arg2: tensor<256x768xf32>, %arg3: tensor<256x256xf32>, %arg4: tensor<256x1024xf32>, %arg5: tensor<1024x256xf32>) -> (tensor<256x768xf32> {jax.result_info = "result[0]"}, tensor<256x256xf32> {jax.result_info = "result[1]"}, tensor<256x1024xf32> {jax.result_info = "result[2]"}, tensor<1024x256xf32> {jax.result_info = "result[3]"}, tensor<f32> {jax.result_info = "result[4]"}) {
    %0 = stablehlo.dot_general %arg0, %arg2, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x256x256xf32>, tensor<256x768xf32>) -> tensor<4x256x768xf32>
    %1 = stablehlo.slice %0 [0:4, 0:256, 0:256] : (tensor<4x256x768xf32>) -> tensor<4x256x256xf32>
    %2 = stablehlo.slice %0 [0:4, 0:256, 256:512] : (tensor<4x256x768xf32>) -> tensor<4x256x256xf32>
    %3 = stablehlo.slice %0 [0:4, 0:256, 512:768] : (tensor<4x256x768xf32>) -> tensor<4x256x256xf32>
    %4 = stablehlo.reshape %1 : (tensor<4x256x256xf32>) -> tensor<4x256x4x64xf32>
    %5 = stablehlo.transpose %4, dims = [0, 2, 1, 3] : (tensor<4x256x4x64xf32>) -> tensor<4x4x256x64xf32>
    %6 = stablehlo.reshape %2 : (tensor<4x256x256xf32>) -> tensor<4x256x4x64xf32>
    %7 = stablehlo.transpose %6, dims = [0, 2, 1, 3] : (tensor<4x256x4x64xf32>) -> tensor<4x4x256x64xf32>
    %8 = stablehlo.reshape %3 : (tensor<4x256x256xf32>) -> tensor<4x256x4x64xf32>
    %9 = stablehlo.transpose %8, dims = [0, 2, 1, 3] : (tensor<4x256x4x64xf32>) -> tensor<4x4x256x64xf32>
    %10 = stablehlo.dot_general %5, %7, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<4x4x256x64xf32>, tensor<4x4x256x64xf32>) -> tensor<4x4x256x256xf32>
    %cst = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %11 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x4x256x256xf32>
    %12 = stablehlo.divide %10, %11 : tensor<4x4x256x256xf32>
    %c = stablehlo.constant dense<true> : tensor<i1>
    %13 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i1>) -> tensor<256x256xi1>
    %14 = call @tril(%13) : (tensor<256x256xi1>) -> tensor<256x256xi1>
    %cst_0 = stablehlo.constant dense<-1.000000e+09> : tensor<f32>
    %15:2 = call @_where(%14, %12, %cst_0) : (tensor<256x256xi1>, tensor<4x4x256x256xf32>, tensor<f32>) -> (tensor<4x4x256x256xf32>, tensor<4x4x256x256xi1>)
    %cst_1 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %16 = stablehlo.reduce(%15#0 init: %cst_1) applies stablehlo.maximum across dimensions = [3] : (tensor<4x4x256x256xf32>, tensor<f32>) -> tensor<4x4x256xf32>
    %cst_2 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %17 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<4x4x256xf32>
    %18 = stablehlo.maximum %17, %16 : tensor<4x4x256xf32>
    %19 = stablehlo.broadcast_in_dim %18, dims = [0, 1, 2] : (tensor<4x4x256xf32>) -> tensor<4x4x256x1xf32>
    %20 = stablehlo.broadcast_in_dim %19, dims = [0, 1, 2, 3] : (tensor<4x4x256x1xf32>) -> tensor<4x4x256x256xf32>
    %21 = stablehlo.subtract %15#0, %20 : tensor<4x4x256x256xf32>
    %22 = stablehlo.exponential %21 : tensor<4x4x256x256xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %23 = stablehlo.reduce(%22 init: %cst_3) applies stablehlo.add across dimensions = [3] : (tensor<4x4x256x256xf32>, tensor<f32>) -> tensor<4x4x256xf32>
    %24 = stablehlo.broadcast_in_dim %23, dims = [0, 1, 2] : (tensor<4x4x256xf32>) -> tensor<4x4x256x1xf32>
    %25 = stablehlo.broadcast_in_dim %24, dims = [0, 1, 2, 3] : (tensor<4x4x256x1xf32>) -> tensor<4x4x256x256xf32>
    %26 = stablehlo.divide %22, %25 : tensor<4x4x256x256xf32>
    %27 = stablehlo.multiply %24, %24 : tensor<4x4x256x1xf32>
    %cst_4 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %28 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<4x4x256x1xf32>
    %29 = stablehlo.divide %28, %27 : tensor<4x4x256x1xf32>
    %30 = stablehlo.dot_general %26, %9, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<4x4x256x256xf32>, tensor<4x4x256x64xf32>) -> tensor<4x4x256x64xf32>
    %31 = stablehlo.transpose %30, dims = [0, 2, 1, 3] : (tensor<4x4x256x64xf32>) -> tensor<4x256x4x64xf32>
    %32 = stablehlo.reshape %31 : (tensor<4x256x4x64xf32>) -> tensor<4x256x256xf32>
    %33 = stablehlo.dot_general %32, %arg3, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x256x256xf32>, tensor<256x256xf32>) -> tensor<4x256x256xf32>
    %34 = stablehlo.add %arg0, %33 : tensor<4x256x256xf32>
    %35 = stablehlo.dot_general %34, %arg4, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x256x256xf32>, tensor<256x1024xf32>) -> tensor<4x256x1024xf32>
    %36 = stablehlo.multiply %35, %35 : tensor<4x256x1024xf32>
    %37 = stablehlo.multiply %36, %35 : tensor<4x256x1024xf32>
    %38 = stablehlo.multiply %35, %35 : tensor<4x256x1024xf32>
    %cst_5 = stablehlo.constant dense<3.000000e+00> : tensor<f32>
    %39 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<4x256x1024xf32>
    %40 = stablehlo.multiply %39, %38 : tensor<4x256x1024xf32>
    %cst_6 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %41 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<4x256x1024xf32>
    %42 = stablehlo.multiply %41, %37 : tensor<4x256x1024xf32>
    %43 = stablehlo.add %35, %42 : tensor<4x256x1024xf32>
    %cst_7 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %44 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<4x256x1024xf32>
    %45 = stablehlo.multiply %44, %43 : tensor<4x256x1024xf32>
    %46 = stablehlo.tanh %45 : tensor<4x256x1024xf32>
    %cst_8 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %47 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<4x256x1024xf32>
    %48 = stablehlo.subtract %47, %46 : tensor<4x256x1024xf32>
    %cst_9 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %49 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<4x256x1024xf32>
    %50 = stablehlo.add %49, %46 : tensor<4x256x1024xf32>
    %cst_10 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %51 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<4x256x1024xf32>
    %52 = stablehlo.multiply %51, %50 : tensor<4x256x1024xf32>
    %53 = stablehlo.multiply %35, %52 : tensor<4x256x1024xf32>
    %54 = stablehlo.dot_general %53, %arg5, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x256x1024xf32>, tensor<1024x256xf32>) -> tensor<4x256x256xf32>
    %55 = stablehlo.add %34, %54 : tensor<4x256x256xf32>
    %56 = stablehlo.subtract %55, %arg1 : tensor<4x256x256xf32>
    %57 = stablehlo.multiply %56, %56 : tensor<4x256x256xf32>
    %cst_11 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %58 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<4x256x256xf32>
    %59 = stablehlo.multiply %58, %56 : tensor<4x256x256xf32>
    %cst_12 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %60 = stablehlo.reduce(%57 init: %cst_12) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<4x256x256xf32>, tensor<f32>) -> tensor<f32>
    %cst_13 = stablehlo.constant dense<2.621440e+05> : tensor<f32>
    %61 = stablehlo.divide %60, %cst_13 : tensor<f32>
    %cst_14 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_15 = stablehlo.constant dense<2.621440e+05> : tensor<f32>
    %62 = stablehlo.divide %cst_14, %cst_15 : tensor<f32>
    %63 = stablehlo.broadcast_in_dim %62, dims = [] : (tensor<f32>) -> tensor<4x256x256xf32>
    %64 = stablehlo.multiply %63, %59 : tensor<4x256x256xf32>
    %65 = stablehlo.dot_general %64, %53, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<4x256x256xf32>, tensor<4x256x1024xf32>) -> tensor<256x1024xf32>
    %66 = stablehlo.transpose %65, dims = [1, 0] : (tensor<256x1024xf32>) -> tensor<1024x256xf32>
    %67 = stablehlo.dot_general %64, %arg5, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x256x256xf32>, tensor<1024x256xf32>) -> tensor<4x256x1024xf32>
    %68 = stablehlo.multiply %35, %67 : tensor<4x256x1024xf32>
    %69 = stablehlo.multiply %67, %52 : tensor<4x256x1024xf32>
    %cst_16 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %70 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<4x256x1024xf32>
    %71 = stablehlo.multiply %70, %68 : tensor<4x256x1024xf32>
    %72 = stablehlo.multiply %71, %48 : tensor<4x256x1024xf32>
    %73 = stablehlo.multiply %72, %46 : tensor<4x256x1024xf32>
    %74 = stablehlo.add %72, %73 : tensor<4x256x1024xf32>
    %cst_17 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %75 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f32>) -> tensor<4x256x1024xf32>
    %76 = stablehlo.multiply %75, %74 : tensor<4x256x1024xf32>
    %77 = stablehlo.add %69, %76 : tensor<4x256x1024xf32>
    %cst_18 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %78 = stablehlo.broadcast_in_dim %cst_18, dims = [] : (tensor<f32>) -> tensor<4x256x1024xf32>
    %79 = stablehlo.multiply %78, %76 : tensor<4x256x1024xf32>
    %80 = stablehlo.multiply %79, %40 : tensor<4x256x1024xf32>
    %81 = stablehlo.add %77, %80 : tensor<4x256x1024xf32>
    %82 = stablehlo.dot_general %81, %34, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<4x256x1024xf32>, tensor<4x256x256xf32>) -> tensor<1024x256xf32>
    %83 = stablehlo.transpose %82, dims = [1, 0] : (tensor<1024x256xf32>) -> tensor<256x1024xf32>
    %84 = stablehlo.dot_general %81, %arg4, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x256x1024xf32>, tensor<256x1024xf32>) -> tensor<4x256x256xf32>
    %85 = stablehlo.add %64, %84 : tensor<4x256x256xf32>
    %86 = stablehlo.dot_general %85, %32, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<4x256x256xf32>, tensor<4x256x256xf32>) -> tensor<256x256xf32>
    %87 = stablehlo.transpose %86, dims = [1, 0] : (tensor<256x256xf32>) -> tensor<256x256xf32>
    %88 = stablehlo.dot_general %85, %arg3, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x256x256xf32>, tensor<256x256xf32>) -> tensor<4x256x256xf32>
    %89 = stablehlo.reshape %88 : (tensor<4x256x256xf32>) -> tensor<4x256x4x64xf32>
    %90 = stablehlo.transpose %89, dims = [0, 2, 1, 3] : (tensor<4x256x4x64xf32>) -> tensor<4x4x256x64xf32>
    %91 = stablehlo.dot_general %90, %26, batching_dims = [0, 1] x [0, 1], contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<4x4x256x64xf32>, tensor<4x4x256x256xf32>) -> tensor<4x4x64x256xf32>
    %92 = stablehlo.transpose %91, dims = [0, 1, 3, 2] : (tensor<4x4x64x256xf32>) -> tensor<4x4x256x64xf32>
    %93 = stablehlo.dot_general %90, %9, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<4x4x256x64xf32>, tensor<4x4x256x64xf32>) -> tensor<4x4x256x256xf32>
    %94 = stablehlo.broadcast_in_dim %29, dims = [0, 1, 2, 3] : (tensor<4x4x256x1xf32>) -> tensor<4x4x256x256xf32>
    %95 = stablehlo.multiply %93, %94 : tensor<4x4x256x256xf32>
    %96 = stablehlo.multiply %95, %22 : tensor<4x4x256x256xf32>
    %cst_19 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %97 = stablehlo.reduce(%96 init: %cst_19) applies stablehlo.add across dimensions = [3] : (tensor<4x4x256x256xf32>, tensor<f32>) -> tensor<4x4x256xf32>
    %98 = stablehlo.reshape %97 : (tensor<4x4x256xf32>) -> tensor<4x4x256x1xf32>
    %99 = stablehlo.negate %98 : tensor<4x4x256x1xf32>
    %100 = stablehlo.broadcast_in_dim %24, dims = [0, 1, 2, 3] : (tensor<4x4x256x1xf32>) -> tensor<4x4x256x256xf32>
    %101 = stablehlo.divide %93, %100 : tensor<4x4x256x256xf32>
    %cst_20 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %102 = stablehlo.reduce(%99 init: %cst_20) applies stablehlo.add across dimensions = [3] : (tensor<4x4x256x1xf32>, tensor<f32>) -> tensor<4x4x256xf32>
    %103 = stablehlo.broadcast_in_dim %102, dims = [0, 1, 2] : (tensor<4x4x256xf32>) -> tensor<4x4x256x256xf32>
    %104 = stablehlo.add %101, %103 : tensor<4x4x256x256xf32>
    %105 = stablehlo.multiply %104, %22 : tensor<4x4x256x256xf32>
    %106 = call @_where_0(%15#1, %105) : (tensor<4x4x256x256xi1>, tensor<4x4x256x256xf32>) -> tensor<4x4x256x256xf32>
    %cst_21 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %107 = stablehlo.broadcast_in_dim %cst_21, dims = [] : (tensor<f32>) -> tensor<4x4x256x256xf32>
    %108 = stablehlo.divide %106, %107 : tensor<4x4x256x256xf32>
    %109 = stablehlo.dot_general %108, %5, batching_dims = [0, 1] x [0, 1], contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<4x4x256x256xf32>, tensor<4x4x256x64xf32>) -> tensor<4x4x256x64xf32>
    %110 = stablehlo.dot_general %108, %7, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<4x4x256x256xf32>, tensor<4x4x256x64xf32>) -> tensor<4x4x256x64xf32>
    %111 = stablehlo.transpose %92, dims = [0, 2, 1, 3] : (tensor<4x4x256x64xf32>) -> tensor<4x256x4x64xf32>
    %112 = stablehlo.reshape %111 : (tensor<4x256x4x64xf32>) -> tensor<4x256x256xf32>
    %113 = stablehlo.transpose %109, dims = [0, 2, 1, 3] : (tensor<4x4x256x64xf32>) -> tensor<4x256x4x64xf32>
    %114 = stablehlo.reshape %113 : (tensor<4x256x4x64xf32>) -> tensor<4x256x256xf32>
    %115 = stablehlo.transpose %110, dims = [0, 2, 1, 3] : (tensor<4x4x256x64xf32>) -> tensor<4x256x4x64xf32>
    %116 = stablehlo.reshape %115 : (tensor<4x256x4x64xf32>) -> tensor<4x256x256xf32>
    %117 = stablehlo.concatenate %116, %114, %112, dim = 2 : (tensor<4x256x256xf32>, tensor<4x256x256xf32>, tensor<4x256x256xf32>) -> tensor<4x256x768xf32>
    %118 = stablehlo.dot_general %117, %arg0, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<4x256x768xf32>, tensor<4x256x256xf32>) -> tensor<768x256xf32>
    %119 = stablehlo.transpose %118, dims = [1, 0] : (tensor<768x256xf32>) -> tensor<256x768xf32>
    %cst_22 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %120 = stablehlo.broadcast_in_dim %cst_22, dims = [] : (tensor<f32>) -> tensor<256x768xf32>
    %121 = stablehlo.multiply %120, %119 : tensor<256x768xf32>
    %122 = stablehlo.subtract %arg2, %121 : tensor<256x768xf32>
    %cst_23 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %123 = stablehlo.broadcast_in_dim %cst_23, dims = [] : (tensor<f32>) -> tensor<256x256xf32>
    %124 = stablehlo.multiply %123, %87 : tensor<256x256xf32>
    %125 = stablehlo.subtract %arg3, %124 : tensor<256x256xf32>
    %cst_24 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %126 = stablehlo.broadcast_in_dim %cst_24, dims = [] : (tensor<f32>) -> tensor<256x1024xf32>
    %127 = stablehlo.multiply %126, %83 : tensor<256x1024xf32>
    %128 = stablehlo.subtract %arg4, %127 : tensor<256x1024xf32>
    %cst_25 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %129 = stablehlo.broadcast_in_dim %cst_25, dims = [] : (tensor<f32>) -> tensor<1024x256xf32>
    %130 = stablehlo.multiply %129, %66 : tensor<1024x256xf32>
    %131 = stablehlo.subtract %arg5, %130 : tensor<1024x256xf32>
    return %122, %125, %128, %131, %61 : tensor<256x768xf32>, tensor<256x256xf32>, tensor<256x1024xf32>, tensor<1024x256xf32>, tensor<f32>
  }
  func.func private @tril(%arg0: tensor<256x256xi1>) -> tensor<256x256xi1> {
    %0 = stablehlo.iota dim = 0 : tensor<256x256xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<256x256xi32>
    %2 = stablehlo.add %0, %1 : tensor<256x256xi32>
    %3 = stablehlo.iota dim = 1 : tensor<256x256xi32>
    %4 = stablehlo.compare GE, %2, %3, SIGNED : (tensor<256x256xi32>, tensor<256x256xi32>) -> tensor<256x256xi1>
    %c_0 = stablehlo.constant dense<false> : tensor<i1>
    %5 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i1>) -> tensor<256x256xi1>
    %6 = stablehlo.select %4, %arg0, %5 : tensor<256x256xi1>, tensor<256x256xi1>
    return %6 : tensor<256x256xi1>
  }
  func.func private @_where(%arg0: tensor<256x256xi1>, %arg1: tensor<4x4x256x256xf32>, %arg2: tensor<f32>) -> (tensor<4x4x256x256xf32>, tensor<4x4x256x256xi1>) {
    %0 = stablehlo.broadcast_in_dim %arg0, dims = [2, 3] : (tensor<256x256xi1>) -> tensor<4x4x256x256xi1>
    %1 = stablehlo.broadcast_in_dim %arg2, dims = [] : (tensor<f32>) -> tensor<4x4x256x256xf32>
    %2 = stablehlo.select %0, %arg1, %1 : tensor<4x4x256x256xi1>, tensor<4x4x256x256xf32>
    return %2, %0 : tensor<4x4x256x256xf32>, tensor<4x4x256x256xi1>
  }
  func.func private @_where_0(%arg0: tensor<4x4x256x256xi1>, %arg1: tensor<4x4x256x256xf32>) -> tensor<4x4x256x256xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x4x256x256xf32>
    %1 = stablehlo.select %arg0, %arg1, %0 : tensor<4x4x256x256xi1>, tensor<4x4x256x256xf32>
    return %1 : tensor<4x4x256x256xf32>
  }
}
