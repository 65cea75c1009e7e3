module @jit_gpt2_block attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<128x768xf32>, %arg1: tensor<768xf32>, %arg2: tensor<768xf32>, %arg3: tensor<768x2304xf32>, %arg4: tensor<2304xf32>, %arg5: tensor<768x768xf32>, %arg6: tensor<768xf32>, %arg7: tensor<768xf32>, %arg8: tensor<768xf32>, %arg9: tensor<768x3072xf32>, %arg10: tensor<3072xf32>, %arg11: tensor<3072x768xf32>, %arg12: tensor<768xf32>) -> (tensor<128x768xf32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<128x768xf32>, tensor<f32>) -> tensor<128xf32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [0] : (tensor<128xf32>) -> tensor<128x1xf32>
    %cst_0 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %3 = stablehlo.divide %1, %2 : tensor<128x1xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x768xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<128x768xf32>
    %6 = stablehlo.multiply %5, %5 : tensor<128x768xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.reduce(%6 init: %cst_1) applies stablehlo.add across dimensions = [1] : (tensor<128x768xf32>, tensor<f32>) -> tensor<128xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0] : (tensor<128xf32>) -> tensor<128x1xf32>
    %cst_2 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %10 = stablehlo.divide %8, %9 : tensor<128x1xf32>
    %11 = stablehlo.broadcast_in_dim %3, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x768xf32>
    %12 = stablehlo.subtract %arg0, %11 : tensor<128x768xf32>
    %cst_3 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %14 = stablehlo.add %10, %13 : tensor<128x1xf32>
    %15 = stablehlo.sqrt %14 : tensor<128x1xf32>
    %16 = stablehlo.broadcast_in_dim %15, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x768xf32>
    %17 = stablehlo.divide %12, %16 : tensor<128x768xf32>
    %18 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %19 = stablehlo.broadcast_in_dim %18, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<128x768xf32>
    %20 = stablehlo.multiply %17, %19 : tensor<128x768xf32>
    %21 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %22 = stablehlo.broadcast_in_dim %21, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<128x768xf32>
    %23 = stablehlo.add %20, %22 : tensor<128x768xf32>
    %24 = stablehlo.dot_general %23, %arg3, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<128x768xf32>, tensor<768x2304xf32>) -> tensor<128x2304xf32>
    %25 = stablehlo.broadcast_in_dim %arg4, dims = [1] : (tensor<2304xf32>) -> tensor<1x2304xf32>
    %26 = stablehlo.broadcast_in_dim %25, dims = [0, 1] : (tensor<1x2304xf32>) -> tensor<128x2304xf32>
    %27 = stablehlo.add %24, %26 : tensor<128x2304xf32>
    %28 = stablehlo.slice %27 [0:128, 0:768] : (tensor<128x2304xf32>) -> tensor<128x768xf32>
    %29 = stablehlo.slice %27 [0:128, 768:1536] : (tensor<128x2304xf32>) -> tensor<128x768xf32>
    %30 = stablehlo.slice %27 [0:128, 1536:2304] : (tensor<128x2304xf32>) -> tensor<128x768xf32>
    %31 = stablehlo.reshape %28 : (tensor<128x768xf32>) -> tensor<128x12x64xf32>
    %32 = stablehlo.transpose %31, dims = [1, 0, 2] : (tensor<128x12x64xf32>) -> tensor<12x128x64xf32>
    %33 = stablehlo.reshape %29 : (tensor<128x768xf32>) -> tensor<128x12x64xf32>
    %34 = stablehlo.transpose %33, dims = [1, 0, 2] : (tensor<128x12x64xf32>) -> tensor<12x128x64xf32>
    %35 = stablehlo.reshape %30 : (tensor<128x768xf32>) -> tensor<128x12x64xf32>
    %36 = stablehlo.transpose %35, dims = [1, 0, 2] : (tensor<128x12x64xf32>) -> tensor<12x128x64xf32>
    %37 = stablehlo.dot_general %32, %34, batching_dims = [0] x [0], contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<12x128x64xf32>, tensor<12x128x64xf32>) -> tensor<12x128x128xf32>
    %cst_4 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %38 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<12x128x128xf32>
    %39 = stablehlo.divide %37, %38 : tensor<12x128x128xf32>
    %c = stablehlo.constant dense<true> : tensor<i1>
    %40 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i1>) -> tensor<128x128xi1>
    %41 = call @tril(%40) : (tensor<128x128xi1>) -> tensor<128x128xi1>
    %cst_5 = stablehlo.constant dense<-1.000000e+09> : tensor<f32>
    %42 = call @_where(%41, %39, %cst_5) : (tensor<128x128xi1>, tensor<12x128x128xf32>, tensor<f32>) -> tensor<12x128x128xf32>
    %cst_6 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %43 = stablehlo.reduce(%42 init: %cst_6) applies stablehlo.maximum across dimensions = [2] : (tensor<12x128x128xf32>, tensor<f32>) -> tensor<12x128xf32>
    %cst_7 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %44 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<12x128xf32>
    %45 = stablehlo.maximum %44, %43 : tensor<12x128xf32>
    %46 = stablehlo.broadcast_in_dim %45, dims = [0, 1] : (tensor<12x128xf32>) -> tensor<12x128x1xf32>
    %47 = stablehlo.broadcast_in_dim %46, dims = [0, 1, 2] : (tensor<12x128x1xf32>) -> tensor<12x128x128xf32>
    %48 = stablehlo.subtract %42, %47 : tensor<12x128x128xf32>
    %49 = stablehlo.exponential %48 : tensor<12x128x128xf32>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %50 = stablehlo.reduce(%49 init: %cst_8) applies stablehlo.add across dimensions = [2] : (tensor<12x128x128xf32>, tensor<f32>) -> tensor<12x128xf32>
    %51 = stablehlo.broadcast_in_dim %50, dims = [0, 1] : (tensor<12x128xf32>) -> tensor<12x128x1xf32>
    %52 = stablehlo.broadcast_in_dim %51, dims = [0, 1, 2] : (tensor<12x128x1xf32>) -> tensor<12x128x128xf32>
    %53 = stablehlo.divide %49, %52 : tensor<12x128x128xf32>
    %54 = stablehlo.dot_general %53, %36, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<12x128x128xf32>, tensor<12x128x64xf32>) -> tensor<12x128x64xf32>
    %55 = stablehlo.transpose %54, dims = [1, 0, 2] : (tensor<12x128x64xf32>) -> tensor<128x12x64xf32>
    %56 = stablehlo.reshape %55 : (tensor<128x12x64xf32>) -> tensor<128x768xf32>
    %57 = stablehlo.dot_general %56, %arg5, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<128x768xf32>, tensor<768x768xf32>) -> tensor<128x768xf32>
    %58 = stablehlo.add %arg0, %57 : tensor<128x768xf32>
    %59 = stablehlo.broadcast_in_dim %arg6, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %60 = stablehlo.broadcast_in_dim %59, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<128x768xf32>
    %61 = stablehlo.add %58, %60 : tensor<128x768xf32>
    %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %62 = stablehlo.reduce(%61 init: %cst_9) applies stablehlo.add across dimensions = [1] : (tensor<128x768xf32>, tensor<f32>) -> tensor<128xf32>
    %63 = stablehlo.broadcast_in_dim %62, dims = [0] : (tensor<128xf32>) -> tensor<128x1xf32>
    %cst_10 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %64 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %65 = stablehlo.divide %63, %64 : tensor<128x1xf32>
    %66 = stablehlo.broadcast_in_dim %65, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x768xf32>
    %67 = stablehlo.subtract %61, %66 : tensor<128x768xf32>
    %68 = stablehlo.multiply %67, %67 : tensor<128x768xf32>
    %cst_11 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %69 = stablehlo.reduce(%68 init: %cst_11) applies stablehlo.add across dimensions = [1] : (tensor<128x768xf32>, tensor<f32>) -> tensor<128xf32>
    %70 = stablehlo.broadcast_in_dim %69, dims = [0] : (tensor<128xf32>) -> tensor<128x1xf32>
    %cst_12 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %71 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %72 = stablehlo.divide %70, %71 : tensor<128x1xf32>
    %73 = stablehlo.broadcast_in_dim %65, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x768xf32>
    %74 = stablehlo.subtract %61, %73 : tensor<128x768xf32>
    %cst_13 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %75 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %76 = stablehlo.add %72, %75 : tensor<128x1xf32>
    %77 = stablehlo.sqrt %76 : tensor<128x1xf32>
    %78 = stablehlo.broadcast_in_dim %77, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x768xf32>
    %79 = stablehlo.divide %74, %78 : tensor<128x768xf32>
    %80 = stablehlo.broadcast_in_dim %arg7, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %81 = stablehlo.broadcast_in_dim %80, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<128x768xf32>
    %82 = stablehlo.multiply %79, %81 : tensor<128x768xf32>
    %83 = stablehlo.broadcast_in_dim %arg8, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %84 = stablehlo.broadcast_in_dim %83, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<128x768xf32>
    %85 = stablehlo.add %82, %84 : tensor<128x768xf32>
    %86 = stablehlo.dot_general %85, %arg9, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<128x768xf32>, tensor<768x3072xf32>) -> tensor<128x3072xf32>
    %87 = stablehlo.broadcast_in_dim %arg10, dims = [1] : (tensor<3072xf32>) -> tensor<1x3072xf32>
    %88 = stablehlo.broadcast_in_dim %87, dims = [0, 1] : (tensor<1x3072xf32>) -> tensor<128x3072xf32>
    %89 = stablehlo.add %86, %88 : tensor<128x3072xf32>
    %cst_14 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %90 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<128x3072xf32>
    %91 = stablehlo.multiply %90, %89 : tensor<128x3072xf32>
    %92 = stablehlo.negate %89 : tensor<128x3072xf32>
    %cst_15 = stablehlo.constant dense<0.707106769> : tensor<f32>
    %93 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<128x3072xf32>
    %94 = stablehlo.multiply %92, %93 : tensor<128x3072xf32>
    %95 = chlo.erfc %94 : tensor<128x3072xf32> -> tensor<128x3072xf32>
    %96 = stablehlo.multiply %91, %95 : tensor<128x3072xf32>
    %97 = stablehlo.dot_general %96, %arg11, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<128x3072xf32>, tensor<3072x768xf32>) -> tensor<128x768xf32>
    %98 = stablehlo.add %61, %97 : tensor<128x768xf32>
    %99 = stablehlo.broadcast_in_dim %arg12, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %100 = stablehlo.broadcast_in_dim %99, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<128x768xf32>
    %101 = stablehlo.add %98, %100 : tensor<128x768xf32>
    return %101 : tensor<128x768xf32>
  }
  func.func private @tril(%arg0: tensor<128x128xi1>) -> tensor<128x128xi1> {
    %0 = stablehlo.iota dim = 0 : tensor<128x128xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<128x128xi32>
    %2 = stablehlo.add %0, %1 : tensor<128x128xi32>
    %3 = stablehlo.iota dim = 1 : tensor<128x128xi32>
    %4 = stablehlo.compare GE, %2, %3, SIGNED : (tensor<128x128xi32>, tensor<128x128xi32>) -> tensor<128x128xi1>
    %c_0 = stablehlo.constant dense<false> : tensor<i1>
    %5 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i1>) -> tensor<128x128xi1>
    %6 = stablehlo.select %4, %arg0, %5 : tensor<128x128xi1>, tensor<128x128xi1>
    return %6 : tensor<128x128xi1>
  }
  func.func private @_where(%arg0: tensor<128x128xi1>, %arg1: tensor<12x128x128xf32>, %arg2: tensor<f32>) -> tensor<12x128x128xf32> {
    %0 = stablehlo.broadcast_in_dim %arg0, dims = [1, 2] : (tensor<128x128xi1>) -> tensor<12x128x128xi1>
    %1 = stablehlo.broadcast_in_dim %arg2, dims = [] : (tensor<f32>) -> tensor<12x128x128xf32>
    %2 = stablehlo.select %0, %arg1, %1 : tensor<12x128x128xi1>, tensor<12x128x128xf32>
    return %2 : tensor<12x128x128xf32>
  }
}
