module @jit_bert_layer attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x128x768xf32>, %arg1: tensor<8x128xf32>, %arg2: tensor<768x2304xf32>, %arg3: tensor<2304xf32>, %arg4: tensor<768x768xf32>, %arg5: tensor<768xf32>, %arg6: tensor<768xf32>, %arg7: tensor<768xf32>, %arg8: tensor<768x3072xf32>, %arg9: tensor<3072xf32>, %arg10: tensor<3072x768xf32>, %arg11: tensor<768xf32>, %arg12: tensor<768xf32>, %arg13: tensor<768xf32>) -> (tensor<8x128x768xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.dot_general %arg0, %arg2, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x128x768xf32>, tensor<768x2304xf32>) -> tensor<8x128x2304xf32>
    %1 = stablehlo.broadcast_in_dim %arg3, dims = [2] : (tensor<2304xf32>) -> tensor<1x1x2304xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1, 2] : (tensor<1x1x2304xf32>) -> tensor<8x128x2304xf32>
    %3 = stablehlo.add %0, %2 : tensor<8x128x2304xf32>
    %4 = stablehlo.slice %3 [0:8, 0:128, 0:768] : (tensor<8x128x2304xf32>) -> tensor<8x128x768xf32>
    %5 = stablehlo.slice %3 [0:8, 0:128, 768:1536] : (tensor<8x128x2304xf32>) -> tensor<8x128x768xf32>
    %6 = stablehlo.slice %3 [0:8, 0:128, 1536:2304] : (tensor<8x128x2304xf32>) -> tensor<8x128x768xf32>
    %7 = stablehlo.reshape %4 : (tensor<8x128x768xf32>) -> tensor<8x128x12x64xf32>
    %8 = stablehlo.transpose %7, dims = [0, 2, 1, 3] : (tensor<8x128x12x64xf32>) -> tensor<8x12x128x64xf32>
    %9 = stablehlo.reshape %5 : (tensor<8x128x768xf32>) -> tensor<8x128x12x64xf32>
    %10 = stablehlo.transpose %9, dims = [0, 2, 1, 3] : (tensor<8x128x12x64xf32>) -> tensor<8x12x128x64xf32>
    %11 = stablehlo.reshape %6 : (tensor<8x128x768xf32>) -> tensor<8x128x12x64xf32>
    %12 = stablehlo.transpose %11, dims = [0, 2, 1, 3] : (tensor<8x128x12x64xf32>) -> tensor<8x12x128x64xf32>
    %13 = stablehlo.dot_general %8, %10, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<8x12x128x64xf32>, tensor<8x12x128x64xf32>) -> tensor<8x12x128x128xf32>
    %cst = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x12x128x128xf32>
    %15 = stablehlo.divide %13, %14 : tensor<8x12x128x128xf32>
    %16 = stablehlo.broadcast_in_dim %arg1, dims = [0, 3] : (tensor<8x128xf32>) -> tensor<8x1x1x128xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %17 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8x1x1x128xf32>
    %18 = stablehlo.compare GT, %16, %17, FLOAT : (tensor<8x1x1x128xf32>, tensor<8x1x1x128xf32>) -> tensor<8x1x1x128xi1>
    %cst_1 = stablehlo.constant dense<-1.000000e+09> : tensor<f32>
    %19 = call @_where(%18, %15, %cst_1) : (tensor<8x1x1x128xi1>, tensor<8x12x128x128xf32>, tensor<f32>) -> tensor<8x12x128x128xf32>
    %cst_2 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %20 = stablehlo.reduce(%19 init: %cst_2) applies stablehlo.maximum across dimensions = [3] : (tensor<8x12x128x128xf32>, tensor<f32>) -> tensor<8x12x128xf32>
    %cst_3 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %21 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<8x12x128xf32>
    %22 = stablehlo.maximum %21, %20 : tensor<8x12x128xf32>
    %23 = stablehlo.broadcast_in_dim %22, dims = [0, 1, 2] : (tensor<8x12x128xf32>) -> tensor<8x12x128x1xf32>
    %24 = stablehlo.broadcast_in_dim %23, dims = [0, 1, 2, 3] : (tensor<8x12x128x1xf32>) -> tensor<8x12x128x128xf32>
    %25 = stablehlo.subtract %19, %24 : tensor<8x12x128x128xf32>
    %26 = stablehlo.exponential %25 : tensor<8x12x128x128xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %27 = stablehlo.reduce(%26 init: %cst_4) applies stablehlo.add across dimensions = [3] : (tensor<8x12x128x128xf32>, tensor<f32>) -> tensor<8x12x128xf32>
    %28 = stablehlo.broadcast_in_dim %27, dims = [0, 1, 2] : (tensor<8x12x128xf32>) -> tensor<8x12x128x1xf32>
    %29 = stablehlo.broadcast_in_dim %28, dims = [0, 1, 2, 3] : (tensor<8x12x128x1xf32>) -> tensor<8x12x128x128xf32>
    %30 = stablehlo.divide %26, %29 : tensor<8x12x128x128xf32>
    %31 = stablehlo.dot_general %30, %12, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<8x12x128x128xf32>, tensor<8x12x128x64xf32>) -> tensor<8x12x128x64xf32>
    %32 = stablehlo.transpose %31, dims = [0, 2, 1, 3] : (tensor<8x12x128x64xf32>) -> tensor<8x128x12x64xf32>
    %33 = stablehlo.reshape %32 : (tensor<8x128x12x64xf32>) -> tensor<8x128x768xf32>
    %34 = stablehlo.dot_general %33, %arg4, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x128x768xf32>, tensor<768x768xf32>) -> tensor<8x128x768xf32>
    %35 = stablehlo.add %arg0, %34 : tensor<8x128x768xf32>
    %36 = stablehlo.broadcast_in_dim %arg5, dims = [2] : (tensor<768xf32>) -> tensor<1x1x768xf32>
    %37 = stablehlo.broadcast_in_dim %36, dims = [0, 1, 2] : (tensor<1x1x768xf32>) -> tensor<8x128x768xf32>
    %38 = stablehlo.add %35, %37 : tensor<8x128x768xf32>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %39 = stablehlo.reduce(%38 init: %cst_5) applies stablehlo.add across dimensions = [2] : (tensor<8x128x768xf32>, tensor<f32>) -> tensor<8x128xf32>
    %40 = stablehlo.broadcast_in_dim %39, dims = [0, 1] : (tensor<8x128xf32>) -> tensor<8x128x1xf32>
    %cst_6 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %41 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<8x128x1xf32>
    %42 = stablehlo.divide %40, %41 : tensor<8x128x1xf32>
    %43 = stablehlo.broadcast_in_dim %42, dims = [0, 1, 2] : (tensor<8x128x1xf32>) -> tensor<8x128x768xf32>
    %44 = stablehlo.subtract %38, %43 : tensor<8x128x768xf32>
    %45 = stablehlo.multiply %44, %44 : tensor<8x128x768xf32>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %46 = stablehlo.reduce(%45 init: %cst_7) applies stablehlo.add across dimensions = [2] : (tensor<8x128x768xf32>, tensor<f32>) -> tensor<8x128xf32>
    %47 = stablehlo.broadcast_in_dim %46, dims = [0, 1] : (tensor<8x128xf32>) -> tensor<8x128x1xf32>
    %cst_8 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %48 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<8x128x1xf32>
    %49 = stablehlo.divide %47, %48 : tensor<8x128x1xf32>
    %50 = stablehlo.broadcast_in_dim %42, dims = [0, 1, 2] : (tensor<8x128x1xf32>) -> tensor<8x128x768xf32>
    %51 = stablehlo.subtract %38, %50 : tensor<8x128x768xf32>
    %cst_9 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %52 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<8x128x1xf32>
    %53 = stablehlo.add %49, %52 : tensor<8x128x1xf32>
    %54 = stablehlo.sqrt %53 : tensor<8x128x1xf32>
    %55 = stablehlo.broadcast_in_dim %54, dims = [0, 1, 2] : (tensor<8x128x1xf32>) -> tensor<8x128x768xf32>
    %56 = stablehlo.divide %51, %55 : tensor<8x128x768xf32>
    %57 = stablehlo.broadcast_in_dim %arg6, dims = [2] : (tensor<768xf32>) -> tensor<1x1x768xf32>
    %58 = stablehlo.broadcast_in_dim %57, dims = [0, 1, 2] : (tensor<1x1x768xf32>) -> tensor<8x128x768xf32>
    %59 = stablehlo.multiply %56, %58 : tensor<8x128x768xf32>
    %60 = stablehlo.broadcast_in_dim %arg7, dims = [2] : (tensor<768xf32>) -> tensor<1x1x768xf32>
    %61 = stablehlo.broadcast_in_dim %60, dims = [0, 1, 2] : (tensor<1x1x768xf32>) -> tensor<8x128x768xf32>
    %62 = stablehlo.add %59, %61 : tensor<8x128x768xf32>
    %63 = stablehlo.dot_general %62, %arg8, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x128x768xf32>, tensor<768x3072xf32>) -> tensor<8x128x3072xf32>
    %64 = stablehlo.broadcast_in_dim %arg9, dims = [2] : (tensor<3072xf32>) -> tensor<1x1x3072xf32>
    %65 = stablehlo.broadcast_in_dim %64, dims = [0, 1, 2] : (tensor<1x1x3072xf32>) -> tensor<8x128x3072xf32>
    %66 = stablehlo.add %63, %65 : tensor<8x128x3072xf32>
    %cst_10 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %67 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<8x128x3072xf32>
    %68 = stablehlo.multiply %67, %66 : tensor<8x128x3072xf32>
    %69 = stablehlo.negate %66 : tensor<8x128x3072xf32>
    %cst_11 = stablehlo.constant dense<0.707106769> : tensor<f32>
    %70 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<8x128x3072xf32>
    %71 = stablehlo.multiply %69, %70 : tensor<8x128x3072xf32>
    %72 = chlo.erfc %71 : tensor<8x128x3072xf32> -> tensor<8x128x3072xf32>
    %73 = stablehlo.multiply %68, %72 : tensor<8x128x3072xf32>
    %74 = stablehlo.dot_general %73, %arg10, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x128x3072xf32>, tensor<3072x768xf32>) -> tensor<8x128x768xf32>
    %75 = stablehlo.broadcast_in_dim %arg11, dims = [2] : (tensor<768xf32>) -> tensor<1x1x768xf32>
    %76 = stablehlo.broadcast_in_dim %75, dims = [0, 1, 2] : (tensor<1x1x768xf32>) -> tensor<8x128x768xf32>
    %77 = stablehlo.add %74, %76 : tensor<8x128x768xf32>
    %78 = stablehlo.add %62, %77 : tensor<8x128x768xf32>
    %cst_12 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %79 = stablehlo.reduce(%78 init: %cst_12) applies stablehlo.add across dimensions = [2] : (tensor<8x128x768xf32>, tensor<f32>) -> tensor<8x128xf32>
    %80 = stablehlo.broadcast_in_dim %79, dims = [0, 1] : (tensor<8x128xf32>) -> tensor<8x128x1xf32>
    %cst_13 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %81 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<8x128x1xf32>
    %82 = stablehlo.divide %80, %81 : tensor<8x128x1xf32>
    %83 = stablehlo.broadcast_in_dim %82, dims = [0, 1, 2] : (tensor<8x128x1xf32>) -> tensor<8x128x768xf32>
    %84 = stablehlo.subtract %78, %83 : tensor<8x128x768xf32>
    %85 = stablehlo.multiply %84, %84 : tensor<8x128x768xf32>
    %cst_14 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %86 = stablehlo.reduce(%85 init: %cst_14) applies stablehlo.add across dimensions = [2] : (tensor<8x128x768xf32>, tensor<f32>) -> tensor<8x128xf32>
    %87 = stablehlo.broadcast_in_dim %86, dims = [0, 1] : (tensor<8x128xf32>) -> tensor<8x128x1xf32>
    %cst_15 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %88 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<8x128x1xf32>
    %89 = stablehlo.divide %87, %88 : tensor<8x128x1xf32>
    %90 = stablehlo.broadcast_in_dim %82, dims = [0, 1, 2] : (tensor<8x128x1xf32>) -> tensor<8x128x768xf32>
    %91 = stablehlo.subtract %78, %90 : tensor<8x128x768xf32>
    %cst_16 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %92 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<8x128x1xf32>
    %93 = stablehlo.add %89, %92 : tensor<8x128x1xf32>
    %94 = stablehlo.sqrt %93 : tensor<8x128x1xf32>
    %95 = stablehlo.broadcast_in_dim %94, dims = [0, 1, 2] : (tensor<8x128x1xf32>) -> tensor<8x128x768xf32>
    %96 = stablehlo.divide %91, %95 : tensor<8x128x768xf32>
    %97 = stablehlo.broadcast_in_dim %arg12, dims = [2] : (tensor<768xf32>) -> tensor<1x1x768xf32>
    %98 = stablehlo.broadcast_in_dim %97, dims = [0, 1, 2] : (tensor<1x1x768xf32>) -> tensor<8x128x768xf32>
    %99 = stablehlo.multiply %96, %98 : tensor<8x128x768xf32>
    %100 = stablehlo.broadcast_in_dim %arg13, dims = [2] : (tensor<768xf32>) -> tensor<1x1x768xf32>
    %101 = stablehlo.broadcast_in_dim %100, dims = [0, 1, 2] : (tensor<1x1x768xf32>) -> tensor<8x128x768xf32>
    %102 = stablehlo.add %99, %101 : tensor<8x128x768xf32>
    return %102 : tensor<8x128x768xf32>
  }
  func.func private @_where(%arg0: tensor<8x1x1x128xi1>, %arg1: tensor<8x12x128x128xf32>, %arg2: tensor<f32>) -> tensor<8x12x128x128xf32> {
    %0 = stablehlo.broadcast_in_dim %arg0, dims = [0, 1, 2, 3] : (tensor<8x1x1x128xi1>) -> tensor<8x12x128x128xi1>
    %1 = stablehlo.broadcast_in_dim %arg2, dims = [] : (tensor<f32>) -> tensor<8x12x128x128xf32>
    %2 = stablehlo.select %0, %arg1, %1 : tensor<8x12x128x128xi1>, tensor<8x12x128x128xf32>
    return %2 : tensor<8x12x128x128xf32>
  }
}
