module @jit_block attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x16xf32>, %arg1: tensor<4x16xf32>, %arg2: tensor<16x48xf32>, %arg3: tensor<16x16xf32>, %arg4: tensor<16x64xf32>, %arg5: tensor<64xf32>, %arg6: tensor<64x16xf32>) -> (tensor<8x16xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.slice %arg1 [0:1, 0:16] : (tensor<4x16xf32>) -> tensor<1x16xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x16xf32>) -> tensor<16xf32>
    %2 = stablehlo.slice %arg1 [1:2, 0:16] : (tensor<4x16xf32>) -> tensor<1x16xf32>
    %3 = stablehlo.reshape %2 : (tensor<1x16xf32>) -> tensor<16xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %4 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %cst_0 = stablehlo.constant dense<1.600000e+01> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %7 = stablehlo.divide %5, %6 : tensor<8x1xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x16xf32>
    %9 = stablehlo.subtract %arg0, %8 : tensor<8x16xf32>
    %10 = stablehlo.multiply %9, %9 : tensor<8x16xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %11 = stablehlo.reduce(%10 init: %cst_1) applies stablehlo.add across dimensions = [1] : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
    %12 = stablehlo.broadcast_in_dim %11, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %cst_2 = stablehlo.constant dense<1.600000e+01> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %14 = stablehlo.divide %12, %13 : tensor<8x1xf32>
    %15 = stablehlo.broadcast_in_dim %7, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x16xf32>
    %16 = stablehlo.subtract %arg0, %15 : tensor<8x16xf32>
    %cst_3 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %17 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %18 = stablehlo.add %14, %17 : tensor<8x1xf32>
    %19 = stablehlo.rsqrt %18 : tensor<8x1xf32>
    %20 = stablehlo.broadcast_in_dim %19, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x16xf32>
    %21 = stablehlo.multiply %16, %20 : tensor<8x16xf32>
    %22 = stablehlo.broadcast_in_dim %1, dims = [1] : (tensor<16xf32>) -> tensor<1x16xf32>
    %23 = stablehlo.broadcast_in_dim %22, dims = [0, 1] : (tensor<1x16xf32>) -> tensor<8x16xf32>
    %24 = stablehlo.multiply %21, %23 : tensor<8x16xf32>
    %25 = stablehlo.broadcast_in_dim %3, dims = [1] : (tensor<16xf32>) -> tensor<1x16xf32>
    %26 = stablehlo.broadcast_in_dim %25, dims = [0, 1] : (tensor<1x16xf32>) -> tensor<8x16xf32>
    %27 = stablehlo.add %24, %26 : tensor<8x16xf32>
    %28 = stablehlo.dot_general %27, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<16x48xf32>) -> tensor<8x48xf32>
    %29 = stablehlo.slice %28 [0:8, 0:16] : (tensor<8x48xf32>) -> tensor<8x16xf32>
    %30 = stablehlo.slice %28 [0:8, 16:32] : (tensor<8x48xf32>) -> tensor<8x16xf32>
    %31 = stablehlo.slice %28 [0:8, 32:48] : (tensor<8x48xf32>) -> tensor<8x16xf32>
    %32 = stablehlo.reshape %29 : (tensor<8x16xf32>) -> tensor<8x2x8xf32>
    %33 = stablehlo.transpose %32, dims = [1, 0, 2] : (tensor<8x2x8xf32>) -> tensor<2x8x8xf32>
    %34 = stablehlo.reshape %30 : (tensor<8x16xf32>) -> tensor<8x2x8xf32>
    %35 = stablehlo.transpose %34, dims = [1, 0, 2] : (tensor<8x2x8xf32>) -> tensor<2x8x8xf32>
    %36 = stablehlo.reshape %31 : (tensor<8x16xf32>) -> tensor<8x2x8xf32>
    %37 = stablehlo.transpose %36, dims = [1, 0, 2] : (tensor<8x2x8xf32>) -> tensor<2x8x8xf32>
    %38 = stablehlo.transpose %35, dims = [0, 2, 1] : (tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
    %39 = stablehlo.dot_general %33, %38, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x8xf32>, tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
    %cst_4 = stablehlo.constant dense<2.82842708> : tensor<f32>
    %40 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<2x8x8xf32>
    %41 = stablehlo.divide %39, %40 : tensor<2x8x8xf32>
    %c = stablehlo.constant dense<true> : tensor<i1>
    %42 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i1>) -> tensor<8x8xi1>
    %43 = call @tril(%42) : (tensor<8x8xi1>) -> tensor<8x8xi1>
    %cst_5 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %44 = call @_where(%43, %41, %cst_5) : (tensor<8x8xi1>, tensor<2x8x8xf32>, tensor<f32>) -> tensor<2x8x8xf32>
    %cst_6 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %45 = stablehlo.reduce(%44 init: %cst_6) applies stablehlo.maximum across dimensions = [2] : (tensor<2x8x8xf32>, tensor<f32>) -> tensor<2x8xf32>
    %cst_7 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %46 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<2x8xf32>
    %47 = stablehlo.maximum %46, %45 : tensor<2x8xf32>
    %48 = stablehlo.broadcast_in_dim %47, dims = [0, 1] : (tensor<2x8xf32>) -> tensor<2x8x1xf32>
    %49 = stablehlo.broadcast_in_dim %48, dims = [0, 1, 2] : (tensor<2x8x1xf32>) -> tensor<2x8x8xf32>
    %50 = stablehlo.subtract %44, %49 : tensor<2x8x8xf32>
    %51 = stablehlo.exponential %50 : tensor<2x8x8xf32>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %52 = stablehlo.reduce(%51 init: %cst_8) applies stablehlo.add across dimensions = [2] : (tensor<2x8x8xf32>, tensor<f32>) -> tensor<2x8xf32>
    %53 = stablehlo.broadcast_in_dim %52, dims = [0, 1] : (tensor<2x8xf32>) -> tensor<2x8x1xf32>
    %54 = stablehlo.broadcast_in_dim %53, dims = [0, 1, 2] : (tensor<2x8x1xf32>) -> tensor<2x8x8xf32>
    %55 = stablehlo.divide %51, %54 : tensor<2x8x8xf32>
    %56 = stablehlo.dot_general %55, %37, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x8xf32>, tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
    %57 = stablehlo.transpose %56, dims = [1, 0, 2] : (tensor<2x8x8xf32>) -> tensor<8x2x8xf32>
    %58 = stablehlo.reshape %57 : (tensor<8x2x8xf32>) -> tensor<8x16xf32>
    %59 = stablehlo.dot_general %58, %arg3, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
    %60 = stablehlo.add %arg0, %59 : tensor<8x16xf32>
    %61 = stablehlo.slice %arg1 [2:3, 0:16] : (tensor<4x16xf32>) -> tensor<1x16xf32>
    %62 = stablehlo.reshape %61 : (tensor<1x16xf32>) -> tensor<16xf32>
    %63 = stablehlo.slice %arg1 [3:4, 0:16] : (tensor<4x16xf32>) -> tensor<1x16xf32>
    %64 = stablehlo.reshape %63 : (tensor<1x16xf32>) -> tensor<16xf32>
    %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %65 = stablehlo.reduce(%60 init: %cst_9) applies stablehlo.add across dimensions = [1] : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
    %66 = stablehlo.broadcast_in_dim %65, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %cst_10 = stablehlo.constant dense<1.600000e+01> : tensor<f32>
    %67 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %68 = stablehlo.divide %66, %67 : tensor<8x1xf32>
    %69 = stablehlo.broadcast_in_dim %68, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x16xf32>
    %70 = stablehlo.subtract %60, %69 : tensor<8x16xf32>
    %71 = stablehlo.multiply %70, %70 : tensor<8x16xf32>
    %cst_11 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %72 = stablehlo.reduce(%71 init: %cst_11) applies stablehlo.add across dimensions = [1] : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
    %73 = stablehlo.broadcast_in_dim %72, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %cst_12 = stablehlo.constant dense<1.600000e+01> : tensor<f32>
    %74 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %75 = stablehlo.divide %73, %74 : tensor<8x1xf32>
    %76 = stablehlo.broadcast_in_dim %68, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x16xf32>
    %77 = stablehlo.subtract %60, %76 : tensor<8x16xf32>
    %cst_13 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %78 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %79 = stablehlo.add %75, %78 : tensor<8x1xf32>
    %80 = stablehlo.rsqrt %79 : tensor<8x1xf32>
    %81 = stablehlo.broadcast_in_dim %80, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x16xf32>
    %82 = stablehlo.multiply %77, %81 : tensor<8x16xf32>
    %83 = stablehlo.broadcast_in_dim %62, dims = [1] : (tensor<16xf32>) -> tensor<1x16xf32>
    %84 = stablehlo.broadcast_in_dim %83, dims = [0, 1] : (tensor<1x16xf32>) -> tensor<8x16xf32>
    %85 = stablehlo.multiply %82, %84 : tensor<8x16xf32>
    %86 = stablehlo.broadcast_in_dim %64, dims = [1] : (tensor<16xf32>) -> tensor<1x16xf32>
    %87 = stablehlo.broadcast_in_dim %86, dims = [0, 1] : (tensor<1x16xf32>) -> tensor<8x16xf32>
    %88 = stablehlo.add %85, %87 : tensor<8x16xf32>
    %89 = stablehlo.dot_general %88, %arg4, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<16x64xf32>) -> tensor<8x64xf32>
    %90 = stablehlo.broadcast_in_dim %arg5, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %91 = stablehlo.broadcast_in_dim %90, dims = [0, 1] : (tensor<1x64xf32>) -> tensor<8x64xf32>
    %92 = stablehlo.add %89, %91 : tensor<8x64xf32>
    %cst_14 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %93 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<8x64xf32>
    %94 = stablehlo.multiply %93, %92 : tensor<8x64xf32>
    %95 = stablehlo.negate %92 : tensor<8x64xf32>
    %cst_15 = stablehlo.constant dense<0.707106769> : tensor<f32>
    %96 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<8x64xf32>
    %97 = stablehlo.multiply %95, %96 : tensor<8x64xf32>
    %98 = chlo.erfc %97 : tensor<8x64xf32> -> tensor<8x64xf32>
    %99 = stablehlo.multiply %94, %98 : tensor<8x64xf32>
    %100 = stablehlo.dot_general %99, %arg6, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x64xf32>, tensor<64x16xf32>) -> tensor<8x16xf32>
    %101 = stablehlo.add %60, %100 : tensor<8x16xf32>
    return %101 : tensor<8x16xf32>
  }
  func.func private @tril(%arg0: tensor<8x8xi1>) -> tensor<8x8xi1> {
    %0 = stablehlo.iota dim = 0 : tensor<8x8xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<8x8xi32>
    %2 = stablehlo.add %0, %1 : tensor<8x8xi32>
    %3 = stablehlo.iota dim = 1 : tensor<8x8xi32>
    %4 = stablehlo.compare GE, %2, %3, SIGNED : (tensor<8x8xi32>, tensor<8x8xi32>) -> tensor<8x8xi1>
    %c_0 = stablehlo.constant dense<false> : tensor<i1>
    %5 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i1>) -> tensor<8x8xi1>
    %6 = stablehlo.select %4, %arg0, %5 : tensor<8x8xi1>, tensor<8x8xi1>
    return %6 : tensor<8x8xi1>
  }
  func.func private @_where(%arg0: tensor<8x8xi1>, %arg1: tensor<2x8x8xf32>, %arg2: tensor<f32>) -> tensor<2x8x8xf32> {
    %0 = stablehlo.convert %arg2 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %arg0, dims = [1, 2] : (tensor<8x8xi1>) -> tensor<2x8x8xi1>
    %2 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<2x8x8xf32>
    %3 = stablehlo.select %1, %arg1, %2 : tensor<2x8x8xi1>, tensor<2x8x8xf32>
    return %3 : tensor<2x8x8xf32>
  }
}
