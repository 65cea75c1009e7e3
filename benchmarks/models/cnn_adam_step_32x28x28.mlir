module @jit_cnn_adam_step attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x3x1x32xf32>, %arg1: tensor<3x3x32x64xf32>, %arg2: tensor<64x10xf32>, %arg3: tensor<3x3x1x32xf32>, %arg4: tensor<3x3x32x64xf32>, %arg5: tensor<64x10xf32>, %arg6: tensor<3x3x1x32xf32>, %arg7: tensor<3x3x32x64xf32>, %arg8: tensor<64x10xf32>, %arg9: tensor<32x28x28x1xf32>, %arg10: tensor<32xi32>) -> (tensor<3x3x1x32xf32> {jax.result_info = "result[0]"}, tensor<3x3x32x64xf32> {jax.result_info = "result[1]"}, tensor<64x10xf32> {jax.result_info = "result[2]"}, tensor<3x3x1x32xf32> {jax.result_info = "result[3]"}, tensor<3x3x32x64xf32> {jax.result_info = "result[4]"}, tensor<64x10xf32> {jax.result_info = "result[5]"}, tensor<3x3x1x32xf32> {jax.result_info = "result[6]"}, tensor<3x3x32x64xf32> {jax.result_info = "result[7]"}, tensor<64x10xf32> {jax.result_info = "result[8]"}, tensor<f32> {jax.result_info = "result[9]"}) {
    %0 = stablehlo.convolution(%arg9, %arg0) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<32x28x28x1xf32>, tensor<3x3x1x32xf32>) -> tensor<32x28x28x32xf32>
    %1 = call @relu(%0) : (tensor<32x28x28x32xf32>) -> tensor<32x28x28x32xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<32x28x28x32xf32>
    %3 = stablehlo.compare GT, %0, %2, FLOAT : (tensor<32x28x28x32xf32>, tensor<32x28x28x32xf32>) -> tensor<32x28x28x32xi1>
    %4 = stablehlo.convolution(%1, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[0, 1], [0, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<32x28x28x32xf32>, tensor<3x3x32x64xf32>) -> tensor<32x14x14x64xf32>
    %5 = call @relu_0(%4) : (tensor<32x14x14x64xf32>) -> tensor<32x14x14x64xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<32x14x14x64xf32>
    %7 = stablehlo.compare GT, %4, %6, FLOAT : (tensor<32x14x14x64xf32>, tensor<32x14x14x64xf32>) -> tensor<32x14x14x64xi1>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %8 = stablehlo.reduce(%5 init: %cst_1) applies stablehlo.add across dimensions = [1, 2] : (tensor<32x14x14x64xf32>, tensor<f32>) -> tensor<32x64xf32>
    %cst_2 = stablehlo.constant dense<1.960000e+02> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<32x64xf32>
    %10 = stablehlo.divide %8, %9 : tensor<32x64xf32>
    %11 = stablehlo.dot_general %10, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<32x64xf32>, tensor<64x10xf32>) -> tensor<32x10xf32>
    %12:3 = call @log_softmax(%11) : (tensor<32x10xf32>) -> (tensor<32x10xf32>, tensor<32x10xf32>, tensor<32x1xf32>)
    %13 = call @_one_hot(%arg10) : (tensor<32xi32>) -> tensor<32x10xf32>
    %14 = stablehlo.multiply %12#0, %13 : tensor<32x10xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %15 = stablehlo.reduce(%14 init: %cst_3) applies stablehlo.add across dimensions = [1] : (tensor<32x10xf32>, tensor<f32>) -> tensor<32xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %16 = stablehlo.reduce(%15 init: %cst_4) applies stablehlo.add across dimensions = [0] : (tensor<32xf32>, tensor<f32>) -> tensor<f32>
    %cst_5 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %17 = stablehlo.divide %16, %cst_5 : tensor<f32>
    %18 = stablehlo.negate %17 : tensor<f32>
    %cst_6 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %19 = stablehlo.negate %cst_6 : tensor<f32>
    %cst_7 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %20 = stablehlo.divide %19, %cst_7 : tensor<f32>
    %21 = stablehlo.broadcast_in_dim %20, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %22 = stablehlo.broadcast_in_dim %21, dims = [0] : (tensor<32xf32>) -> tensor<32x10xf32>
    %23 = stablehlo.multiply %22, %13 : tensor<32x10xf32>
    %24 = call @log_softmax_1(%12#1, %12#2, %23) : (tensor<32x10xf32>, tensor<32x1xf32>, tensor<32x10xf32>) -> tensor<32x10xf32>
    %25 = stablehlo.dot_general %24, %10, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<32x10xf32>, tensor<32x64xf32>) -> tensor<10x64xf32>
    %26 = stablehlo.transpose %25, dims = [1, 0] : (tensor<10x64xf32>) -> tensor<64x10xf32>
    %27 = stablehlo.dot_general %24, %arg2, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<32x10xf32>, tensor<64x10xf32>) -> tensor<32x64xf32>
    %cst_8 = stablehlo.constant dense<1.960000e+02> : tensor<f32>
    %28 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<32x64xf32>
    %29 = stablehlo.divide %27, %28 : tensor<32x64xf32>
    %30 = stablehlo.broadcast_in_dim %29, dims = [0, 3] : (tensor<32x64xf32>) -> tensor<32x14x14x64xf32>
    %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %31 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<32x14x14x64xf32>
    %32 = stablehlo.select %7, %30, %31 : tensor<32x14x14x64xi1>, tensor<32x14x14x64xf32>
    %33 = stablehlo.convolution(%1, %32) dim_numbers = [f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f], window = {stride = [1, 1], pad = [[0, 1], [0, 1]], lhs_dilate = [1, 1], rhs_dilate = [2, 2], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<32x28x28x32xf32>, tensor<32x14x14x64xf32>) -> tensor<3x3x32x64xf32>
    %34 = stablehlo.reverse %arg1, dims = [0, 1] : tensor<3x3x32x64xf32>
    %35 = stablehlo.convolution(%32, %34) dim_numbers = [b, 0, 1, f]x[0, 1, o, i]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[2, 1], [2, 1]], lhs_dilate = [2, 2], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<32x14x14x64xf32>, tensor<3x3x32x64xf32>) -> tensor<32x28x28x32xf32>
    %cst_10 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %36 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<32x28x28x32xf32>
    %37 = stablehlo.select %3, %35, %36 : tensor<32x28x28x32xi1>, tensor<32x28x28x32xf32>
    %38 = stablehlo.convolution(%arg9, %37) dim_numbers = [f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<32x28x28x1xf32>, tensor<32x28x28x32xf32>) -> tensor<3x3x1x32xf32>
    %cst_11 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %39 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<3x3x1x32xf32>
    %40 = stablehlo.multiply %39, %arg3 : tensor<3x3x1x32xf32>
    %cst_12 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %41 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<3x3x1x32xf32>
    %42 = stablehlo.multiply %41, %38 : tensor<3x3x1x32xf32>
    %43 = stablehlo.add %40, %42 : tensor<3x3x1x32xf32>
    %cst_13 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %44 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<3x3x32x64xf32>
    %45 = stablehlo.multiply %44, %arg4 : tensor<3x3x32x64xf32>
    %cst_14 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %46 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<3x3x32x64xf32>
    %47 = stablehlo.multiply %46, %33 : tensor<3x3x32x64xf32>
    %48 = stablehlo.add %45, %47 : tensor<3x3x32x64xf32>
    %cst_15 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %49 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<64x10xf32>
    %50 = stablehlo.multiply %49, %arg5 : tensor<64x10xf32>
    %cst_16 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %51 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<64x10xf32>
    %52 = stablehlo.multiply %51, %26 : tensor<64x10xf32>
    %53 = stablehlo.add %50, %52 : tensor<64x10xf32>
    %cst_17 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %54 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f32>) -> tensor<3x3x1x32xf32>
    %55 = stablehlo.multiply %54, %arg6 : tensor<3x3x1x32xf32>
    %cst_18 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %56 = stablehlo.broadcast_in_dim %cst_18, dims = [] : (tensor<f32>) -> tensor<3x3x1x32xf32>
    %57 = stablehlo.multiply %56, %38 : tensor<3x3x1x32xf32>
    %58 = stablehlo.multiply %57, %38 : tensor<3x3x1x32xf32>
    %59 = stablehlo.add %55, %58 : tensor<3x3x1x32xf32>
    %cst_19 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %60 = stablehlo.broadcast_in_dim %cst_19, dims = [] : (tensor<f32>) -> tensor<3x3x32x64xf32>
    %61 = stablehlo.multiply %60, %arg7 : tensor<3x3x32x64xf32>
    %cst_20 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %62 = stablehlo.broadcast_in_dim %cst_20, dims = [] : (tensor<f32>) -> tensor<3x3x32x64xf32>
    %63 = stablehlo.multiply %62, %33 : tensor<3x3x32x64xf32>
    %64 = stablehlo.multiply %63, %33 : tensor<3x3x32x64xf32>
    %65 = stablehlo.add %61, %64 : tensor<3x3x32x64xf32>
    %cst_21 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %66 = stablehlo.broadcast_in_dim %cst_21, dims = [] : (tensor<f32>) -> tensor<64x10xf32>
    %67 = stablehlo.multiply %66, %arg8 : tensor<64x10xf32>
    %cst_22 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %68 = stablehlo.broadcast_in_dim %cst_22, dims = [] : (tensor<f32>) -> tensor<64x10xf32>
    %69 = stablehlo.multiply %68, %26 : tensor<64x10xf32>
    %70 = stablehlo.multiply %69, %26 : tensor<64x10xf32>
    %71 = stablehlo.add %67, %70 : tensor<64x10xf32>
    %cst_23 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %72 = stablehlo.broadcast_in_dim %cst_23, dims = [] : (tensor<f32>) -> tensor<3x3x1x32xf32>
    %73 = stablehlo.multiply %72, %43 : tensor<3x3x1x32xf32>
    %74 = stablehlo.sqrt %59 : tensor<3x3x1x32xf32>
    %cst_24 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %75 = stablehlo.broadcast_in_dim %cst_24, dims = [] : (tensor<f32>) -> tensor<3x3x1x32xf32>
    %76 = stablehlo.add %74, %75 : tensor<3x3x1x32xf32>
    %77 = stablehlo.divide %73, %76 : tensor<3x3x1x32xf32>
    %78 = stablehlo.subtract %arg0, %77 : tensor<3x3x1x32xf32>
    %cst_25 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %79 = stablehlo.broadcast_in_dim %cst_25, dims = [] : (tensor<f32>) -> tensor<3x3x32x64xf32>
    %80 = stablehlo.multiply %79, %48 : tensor<3x3x32x64xf32>
    %81 = stablehlo.sqrt %65 : tensor<3x3x32x64xf32>
    %cst_26 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %82 = stablehlo.broadcast_in_dim %cst_26, dims = [] : (tensor<f32>) -> tensor<3x3x32x64xf32>
    %83 = stablehlo.add %81, %82 : tensor<3x3x32x64xf32>
    %84 = stablehlo.divide %80, %83 : tensor<3x3x32x64xf32>
    %85 = stablehlo.subtract %arg1, %84 : tensor<3x3x32x64xf32>
    %cst_27 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %86 = stablehlo.broadcast_in_dim %cst_27, dims = [] : (tensor<f32>) -> tensor<64x10xf32>
    %87 = stablehlo.multiply %86, %53 : tensor<64x10xf32>
    %88 = stablehlo.sqrt %71 : tensor<64x10xf32>
    %cst_28 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %89 = stablehlo.broadcast_in_dim %cst_28, dims = [] : (tensor<f32>) -> tensor<64x10xf32>
    %90 = stablehlo.add %88, %89 : tensor<64x10xf32>
    %91 = stablehlo.divide %87, %90 : tensor<64x10xf32>
    %92 = stablehlo.subtract %arg2, %91 : tensor<64x10xf32>
    return %78, %85, %92, %43, %48, %53, %59, %65, %71, %18 : tensor<3x3x1x32xf32>, tensor<3x3x32x64xf32>, tensor<64x10xf32>, tensor<3x3x1x32xf32>, tensor<3x3x32x64xf32>, tensor<64x10xf32>, tensor<3x3x1x32xf32>, tensor<3x3x32x64xf32>, tensor<64x10xf32>, tensor<f32>
  }
  func.func private @relu(%arg0: tensor<32x28x28x32xf32>) -> tensor<32x28x28x32xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<32x28x28x32xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<32x28x28x32xf32>
    return %1 : tensor<32x28x28x32xf32>
  }
  func.func private @relu_0(%arg0: tensor<32x14x14x64xf32>) -> tensor<32x14x14x64xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<32x14x14x64xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<32x14x14x64xf32>
    return %1 : tensor<32x14x14x64xf32>
  }
  func.func private @log_softmax(%arg0: tensor<32x10xf32>) -> (tensor<32x10xf32>, tensor<32x10xf32>, tensor<32x1xf32>) {
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.maximum across dimensions = [1] : (tensor<32x10xf32>, tensor<f32>) -> tensor<32xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %2 = stablehlo.maximum %1, %0 : tensor<32xf32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0] : (tensor<32xf32>) -> tensor<32x1xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1] : (tensor<32x1xf32>) -> tensor<32x10xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<32x10xf32>
    %6 = stablehlo.exponential %5 : tensor<32x10xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.reduce(%6 init: %cst_1) applies stablehlo.add across dimensions = [1] : (tensor<32x10xf32>, tensor<f32>) -> tensor<32xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0] : (tensor<32xf32>) -> tensor<32x1xf32>
    %9 = stablehlo.log %8 : tensor<32x1xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1] : (tensor<32x1xf32>) -> tensor<32x10xf32>
    %11 = stablehlo.subtract %5, %10 : tensor<32x10xf32>
    return %11, %6, %8 : tensor<32x10xf32>, tensor<32x10xf32>, tensor<32x1xf32>
  }
  func.func private @_one_hot(%arg0: tensor<32xi32>) -> tensor<32x10xf32> {
    %0 = stablehlo.broadcast_in_dim %arg0, dims = [0] : (tensor<32xi32>) -> tensor<32x1xi32>
    %1 = stablehlo.iota dim = 1 : tensor<1x10xi32>
    %2 = stablehlo.broadcast_in_dim %0, dims = [0, 1] : (tensor<32x1xi32>) -> tensor<32x10xi32>
    %3 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<1x10xi32>) -> tensor<32x10xi32>
    %4 = stablehlo.compare EQ, %2, %3, SIGNED : (tensor<32x10xi32>, tensor<32x10xi32>) -> tensor<32x10xi1>
    %5 = stablehlo.convert %4 : (tensor<32x10xi1>) -> tensor<32x10xf32>
    return %5 : tensor<32x10xf32>
  }
  func.func private @log_softmax_1(%arg0: tensor<32x10xf32>, %arg1: tensor<32x1xf32>, %arg2: tensor<32x10xf32>) -> tensor<32x10xf32> {
    %0 = stablehlo.negate %arg2 : tensor<32x10xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<32x10xf32>, tensor<f32>) -> tensor<32xf32>
    %2 = stablehlo.reshape %1 : (tensor<32xf32>) -> tensor<32x1xf32>
    %3 = stablehlo.divide %2, %arg1 : tensor<32x1xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %4 = stablehlo.reduce(%3 init: %cst_0) applies stablehlo.add across dimensions = [1] : (tensor<32x1xf32>, tensor<f32>) -> tensor<32xf32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0] : (tensor<32xf32>) -> tensor<32x10xf32>
    %6 = stablehlo.multiply %5, %arg0 : tensor<32x10xf32>
    %7 = stablehlo.add %arg2, %6 : tensor<32x10xf32>
    return %7 : tensor<32x10xf32>
  }
}
