module @jit_wavenet_stack attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x8192x64xf32>, %arg1: tensor<4x2x64x64xf32>, %arg2: tensor<4x2x64x64xf32>, %arg3: tensor<4x64x64xf32>) -> (tensor<4x8192x64xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = call @_pad(%arg0, %c) : (tensor<4x8192x64xf32>, tensor<i32>) -> tensor<4x8193x64xf32>
    %1 = stablehlo.slice %arg1 [0:1, 0:2, 0:64, 0:64] : (tensor<4x2x64x64xf32>) -> tensor<1x2x64x64xf32>
    %2 = stablehlo.reshape %1 : (tensor<1x2x64x64xf32>) -> tensor<2x64x64xf32>
    %3 = stablehlo.convolution(%0, %2) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [1], pad = [[0, 0]], lhs_dilate = [1], rhs_dilate = [1], reverse = [false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<4x8193x64xf32>, tensor<2x64x64xf32>) -> tensor<4x8192x64xf32>
    %4 = stablehlo.slice %arg2 [0:1, 0:2, 0:64, 0:64] : (tensor<4x2x64x64xf32>) -> tensor<1x2x64x64xf32>
    %5 = stablehlo.reshape %4 : (tensor<1x2x64x64xf32>) -> tensor<2x64x64xf32>
    %6 = stablehlo.convolution(%0, %5) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [1], pad = [[0, 0]], lhs_dilate = [1], rhs_dilate = [1], reverse = [false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<4x8193x64xf32>, tensor<2x64x64xf32>) -> tensor<4x8192x64xf32>
    %7 = stablehlo.tanh %3 : tensor<4x8192x64xf32>
    %8 = stablehlo.negate %6 : tensor<4x8192x64xf32>
    %9 = stablehlo.exponential %8 : tensor<4x8192x64xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %10 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x8192x64xf32>
    %11 = stablehlo.add %10, %9 : tensor<4x8192x64xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4x8192x64xf32>
    %13 = stablehlo.divide %12, %11 : tensor<4x8192x64xf32>
    %14 = stablehlo.multiply %7, %13 : tensor<4x8192x64xf32>
    %15 = stablehlo.slice %arg3 [0:1, 0:64, 0:64] : (tensor<4x64x64xf32>) -> tensor<1x64x64xf32>
    %16 = stablehlo.reshape %15 : (tensor<1x64x64xf32>) -> tensor<64x64xf32>
    %17 = stablehlo.dot_general %14, %16, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8192x64xf32>, tensor<64x64xf32>) -> tensor<4x8192x64xf32>
    %18 = stablehlo.add %arg0, %17 : tensor<4x8192x64xf32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %19 = call @_pad_0(%18, %c_1) : (tensor<4x8192x64xf32>, tensor<i32>) -> tensor<4x8194x64xf32>
    %20 = stablehlo.slice %arg1 [1:2, 0:2, 0:64, 0:64] : (tensor<4x2x64x64xf32>) -> tensor<1x2x64x64xf32>
    %21 = stablehlo.reshape %20 : (tensor<1x2x64x64xf32>) -> tensor<2x64x64xf32>
    %22 = stablehlo.convolution(%19, %21) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [1], pad = [[0, 0]], lhs_dilate = [1], rhs_dilate = [2], reverse = [false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<4x8194x64xf32>, tensor<2x64x64xf32>) -> tensor<4x8192x64xf32>
    %23 = stablehlo.slice %arg2 [1:2, 0:2, 0:64, 0:64] : (tensor<4x2x64x64xf32>) -> tensor<1x2x64x64xf32>
    %24 = stablehlo.reshape %23 : (tensor<1x2x64x64xf32>) -> tensor<2x64x64xf32>
    %25 = stablehlo.convolution(%19, %24) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [1], pad = [[0, 0]], lhs_dilate = [1], rhs_dilate = [2], reverse = [false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<4x8194x64xf32>, tensor<2x64x64xf32>) -> tensor<4x8192x64xf32>
    %26 = stablehlo.tanh %22 : tensor<4x8192x64xf32>
    %27 = stablehlo.negate %25 : tensor<4x8192x64xf32>
    %28 = stablehlo.exponential %27 : tensor<4x8192x64xf32>
    %cst_2 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %29 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<4x8192x64xf32>
    %30 = stablehlo.add %29, %28 : tensor<4x8192x64xf32>
    %cst_3 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %31 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<4x8192x64xf32>
    %32 = stablehlo.divide %31, %30 : tensor<4x8192x64xf32>
    %33 = stablehlo.multiply %26, %32 : tensor<4x8192x64xf32>
    %34 = stablehlo.slice %arg3 [1:2, 0:64, 0:64] : (tensor<4x64x64xf32>) -> tensor<1x64x64xf32>
    %35 = stablehlo.reshape %34 : (tensor<1x64x64xf32>) -> tensor<64x64xf32>
    %36 = stablehlo.dot_general %33, %35, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8192x64xf32>, tensor<64x64xf32>) -> tensor<4x8192x64xf32>
    %37 = stablehlo.add %18, %36 : tensor<4x8192x64xf32>
    %c_4 = stablehlo.constant dense<0> : tensor<i32>
    %38 = call @_pad_1(%37, %c_4) : (tensor<4x8192x64xf32>, tensor<i32>) -> tensor<4x8196x64xf32>
    %39 = stablehlo.slice %arg1 [2:3, 0:2, 0:64, 0:64] : (tensor<4x2x64x64xf32>) -> tensor<1x2x64x64xf32>
    %40 = stablehlo.reshape %39 : (tensor<1x2x64x64xf32>) -> tensor<2x64x64xf32>
    %41 = stablehlo.convolution(%38, %40) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [1], pad = [[0, 0]], lhs_dilate = [1], rhs_dilate = [4], reverse = [false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<4x8196x64xf32>, tensor<2x64x64xf32>) -> tensor<4x8192x64xf32>
    %42 = stablehlo.slice %arg2 [2:3, 0:2, 0:64, 0:64] : (tensor<4x2x64x64xf32>) -> tensor<1x2x64x64xf32>
    %43 = stablehlo.reshape %42 : (tensor<1x2x64x64xf32>) -> tensor<2x64x64xf32>
    %44 = stablehlo.convolution(%38, %43) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [1], pad = [[0, 0]], lhs_dilate = [1], rhs_dilate = [4], reverse = [false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<4x8196x64xf32>, tensor<2x64x64xf32>) -> tensor<4x8192x64xf32>
    %45 = stablehlo.tanh %41 : tensor<4x8192x64xf32>
    %46 = stablehlo.negate %44 : tensor<4x8192x64xf32>
    %47 = stablehlo.exponential %46 : tensor<4x8192x64xf32>
    %cst_5 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %48 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<4x8192x64xf32>
    %49 = stablehlo.add %48, %47 : tensor<4x8192x64xf32>
    %cst_6 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %50 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<4x8192x64xf32>
    %51 = stablehlo.divide %50, %49 : tensor<4x8192x64xf32>
    %52 = stablehlo.multiply %45, %51 : tensor<4x8192x64xf32>
    %53 = stablehlo.slice %arg3 [2:3, 0:64, 0:64] : (tensor<4x64x64xf32>) -> tensor<1x64x64xf32>
    %54 = stablehlo.reshape %53 : (tensor<1x64x64xf32>) -> tensor<64x64xf32>
    %55 = stablehlo.dot_general %52, %54, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8192x64xf32>, tensor<64x64xf32>) -> tensor<4x8192x64xf32>
    %56 = stablehlo.add %37, %55 : tensor<4x8192x64xf32>
    %c_7 = stablehlo.constant dense<0> : tensor<i32>
    %57 = call @_pad_2(%56, %c_7) : (tensor<4x8192x64xf32>, tensor<i32>) -> tensor<4x8200x64xf32>
    %58 = stablehlo.slice %arg1 [3:4, 0:2, 0:64, 0:64] : (tensor<4x2x64x64xf32>) -> tensor<1x2x64x64xf32>
    %59 = stablehlo.reshape %58 : (tensor<1x2x64x64xf32>) -> tensor<2x64x64xf32>
    %60 = stablehlo.convolution(%57, %59) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [1], pad = [[0, 0]], lhs_dilate = [1], rhs_dilate = [8], reverse = [false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<4x8200x64xf32>, tensor<2x64x64xf32>) -> tensor<4x8192x64xf32>
    %61 = stablehlo.slice %arg2 [3:4, 0:2, 0:64, 0:64] : (tensor<4x2x64x64xf32>) -> tensor<1x2x64x64xf32>
    %62 = stablehlo.reshape %61 : (tensor<1x2x64x64xf32>) -> tensor<2x64x64xf32>
    %63 = stablehlo.convolution(%57, %62) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [1], pad = [[0, 0]], lhs_dilate = [1], rhs_dilate = [8], reverse = [false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<4x8200x64xf32>, tensor<2x64x64xf32>) -> tensor<4x8192x64xf32>
    %64 = stablehlo.tanh %60 : tensor<4x8192x64xf32>
    %65 = stablehlo.negate %63 : tensor<4x8192x64xf32>
    %66 = stablehlo.exponential %65 : tensor<4x8192x64xf32>
    %cst_8 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %67 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<4x8192x64xf32>
    %68 = stablehlo.add %67, %66 : tensor<4x8192x64xf32>
    %cst_9 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %69 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<4x8192x64xf32>
    %70 = stablehlo.divide %69, %68 : tensor<4x8192x64xf32>
    %71 = stablehlo.multiply %64, %70 : tensor<4x8192x64xf32>
    %72 = stablehlo.slice %arg3 [3:4, 0:64, 0:64] : (tensor<4x64x64xf32>) -> tensor<1x64x64xf32>
    %73 = stablehlo.reshape %72 : (tensor<1x64x64xf32>) -> tensor<64x64xf32>
    %74 = stablehlo.dot_general %71, %73, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8192x64xf32>, tensor<64x64xf32>) -> tensor<4x8192x64xf32>
    %75 = stablehlo.add %56, %74 : tensor<4x8192x64xf32>
    return %75 : tensor<4x8192x64xf32>
  }
  func.func private @_pad(%arg0: tensor<4x8192x64xf32>, %arg1: tensor<i32>) -> tensor<4x8193x64xf32> {
    %0 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<f32>
    %1 = stablehlo.pad %arg0, %0, low = [0, 1, 0], high = [0, 0, 0], interior = [0, 0, 0] : (tensor<4x8192x64xf32>, tensor<f32>) -> tensor<4x8193x64xf32>
    return %1 : tensor<4x8193x64xf32>
  }
  func.func private @_pad_0(%arg0: tensor<4x8192x64xf32>, %arg1: tensor<i32>) -> tensor<4x8194x64xf32> {
    %0 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<f32>
    %1 = stablehlo.pad %arg0, %0, low = [0, 2, 0], high = [0, 0, 0], interior = [0, 0, 0] : (tensor<4x8192x64xf32>, tensor<f32>) -> tensor<4x8194x64xf32>
    return %1 : tensor<4x8194x64xf32>
  }
  func.func private @_pad_1(%arg0: tensor<4x8192x64xf32>, %arg1: tensor<i32>) -> tensor<4x8196x64xf32> {
    %0 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<f32>
    %1 = stablehlo.pad %arg0, %0, low = [0, 4, 0], high = [0, 0, 0], interior = [0, 0, 0] : (tensor<4x8192x64xf32>, tensor<f32>) -> tensor<4x8196x64xf32>
    return %1 : tensor<4x8196x64xf32>
  }
  func.func private @_pad_2(%arg0: tensor<4x8192x64xf32>, %arg1: tensor<i32>) -> tensor<4x8200x64xf32> {
    %0 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<f32>
    %1 = stablehlo.pad %arg0, %0, low = [0, 8, 0], high = [0, 0, 0], interior = [0, 0, 0] : (tensor<4x8192x64xf32>, tensor<f32>) -> tensor<4x8200x64xf32>
    return %1 : tensor<4x8200x64xf32>
  }
}
