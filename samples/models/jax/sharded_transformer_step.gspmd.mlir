module @jit_sharded_transformer_step attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<32x4x8xf32> {mhlo.sharding = "{devices=[1,2,1,2]<=[2,2]T(1,0) last_tile_dim_replicate}"}, %arg1: tensor<32x4x8xf32> {mhlo.sharding = "{devices=[1,2,1,2]<=[2,2]T(1,0) last_tile_dim_replicate}"}, %arg2: tensor<32x4x8xf32> {mhlo.sharding = "{devices=[1,2,1,2]<=[2,2]T(1,0) last_tile_dim_replicate}"}, %arg3: tensor<4x8x32xf32> {mhlo.sharding = "{devices=[2,1,1,2]<=[2,2]T(1,0) last_tile_dim_replicate}"}, %arg4: tensor<32x64xf32> {mhlo.sharding = "{devices=[1,2,2]<=[2,2]T(1,0) last_tile_dim_replicate}"}, %arg5: tensor<64x32xf32> {mhlo.sharding = "{devices=[2,1,2]<=[2,2]T(1,0) last_tile_dim_replicate}"}, %arg6: tensor<32xf32> {mhlo.sharding = "{replicated}"}, %arg7: tensor<32xf32> {mhlo.sharding = "{replicated}"}, %arg8: tensor<4x16x32xf32> {mhlo.sharding = "{devices=[2,1,1,2]<=[4] last_tile_dim_replicate}"}, %arg9: tensor<4x16x32xf32> {mhlo.sharding = "{devices=[2,1,1,2]<=[4] last_tile_dim_replicate}"}) -> (tensor<32x4x8xf32> {jax.result_info = "result[0]", mhlo.sharding = "{devices=[1,2,1,2]<=[2,2]T(1,0) last_tile_dim_replicate}"}, tensor<32x4x8xf32> {jax.result_info = "result[1]", mhlo.sharding = "{devices=[1,2,1,2]<=[2,2]T(1,0) last_tile_dim_replicate}"}, tensor<32x4x8xf32> {jax.result_info = "result[2]", mhlo.sharding = "{devices=[1,2,1,2]<=[2,2]T(1,0) last_tile_dim_replicate}"}, tensor<4x8x32xf32> {jax.result_info = "result[3]", mhlo.sharding = "{devices=[2,1,1,2]<=[2,2]T(1,0) last_tile_dim_replicate}"}, tensor<32x64xf32> {jax.result_info = "result[4]", mhlo.sharding = "{devices=[1,2,2]<=[2,2]T(1,0) last_tile_dim_replicate}"}, tensor<64x32xf32> {jax.result_info = "result[5]", mhlo.sharding = "{devices=[2,1,2]<=[2,2]T(1,0) last_tile_dim_replicate}"}, tensor<32xf32> {jax.result_info = "result[6]", mhlo.sharding = "{replicated}"}, tensor<32xf32> {jax.result_info = "result[7]", mhlo.sharding = "{replicated}"}, tensor<f32> {jax.result_info = "result[8]", mhlo.sharding = "{replicated}"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg8 init: %cst) applies stablehlo.add across dimensions = [2] : (tensor<4x16x32xf32>, tensor<f32>) -> tensor<4x16xf32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [0, 1] : (tensor<4x16xf32>) -> tensor<4x16x1xf32>
    %cst_0 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4x16x1xf32>
    %3 = stablehlo.divide %1, %2 : tensor<4x16x1xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1, 2] : (tensor<4x16x1xf32>) -> tensor<4x16x32xf32>
    %5 = stablehlo.subtract %arg8, %4 : tensor<4x16x32xf32>
    %6 = stablehlo.multiply %5, %5 : tensor<4x16x32xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.reduce(%6 init: %cst_1) applies stablehlo.add across dimensions = [2] : (tensor<4x16x32xf32>, tensor<f32>) -> tensor<4x16xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0, 1] : (tensor<4x16xf32>) -> tensor<4x16x1xf32>
    %cst_2 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<4x16x1xf32>
    %10 = stablehlo.divide %8, %9 : tensor<4x16x1xf32>
    %11 = stablehlo.broadcast_in_dim %3, dims = [0, 1, 2] : (tensor<4x16x1xf32>) -> tensor<4x16x32xf32>
    %12 = stablehlo.subtract %arg8, %11 : tensor<4x16x32xf32>
    %cst_3 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<4x16x1xf32>
    %14 = stablehlo.add %10, %13 : tensor<4x16x1xf32>
    %15 = stablehlo.sqrt %14 : tensor<4x16x1xf32>
    %16 = stablehlo.broadcast_in_dim %15, dims = [0, 1, 2] : (tensor<4x16x1xf32>) -> tensor<4x16x32xf32>
    %17 = stablehlo.divide %12, %16 : tensor<4x16x32xf32>
    %18 = stablehlo.broadcast_in_dim %arg6, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %19 = stablehlo.broadcast_in_dim %18, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<4x16x32xf32>
    %20 = stablehlo.multiply %17, %19 : tensor<4x16x32xf32>
    %21 = stablehlo.dot_general %arg0, %20, contracting_dims = [0] x [2], precision = [DEFAULT, DEFAULT] : (tensor<32x4x8xf32>, tensor<4x16x32xf32>) -> tensor<4x8x4x16xf32>
    %22 = stablehlo.transpose %21, dims = [2, 0, 3, 1] : (tensor<4x8x4x16xf32>) -> tensor<4x4x16x8xf32>
    %23 = stablehlo.dot_general %arg1, %20, contracting_dims = [0] x [2], precision = [DEFAULT, DEFAULT] : (tensor<32x4x8xf32>, tensor<4x16x32xf32>) -> tensor<4x8x4x16xf32>
    %24 = stablehlo.transpose %23, dims = [2, 0, 3, 1] : (tensor<4x8x4x16xf32>) -> tensor<4x4x16x8xf32>
    %25 = stablehlo.dot_general %arg2, %20, contracting_dims = [0] x [2], precision = [DEFAULT, DEFAULT] : (tensor<32x4x8xf32>, tensor<4x16x32xf32>) -> tensor<4x8x4x16xf32>
    %26 = stablehlo.transpose %25, dims = [2, 0, 3, 1] : (tensor<4x8x4x16xf32>) -> tensor<4x4x16x8xf32>
    %27 = stablehlo.dot_general %22, %24, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<4x4x16x8xf32>, tensor<4x4x16x8xf32>) -> tensor<4x4x16x16xf32>
    %cst_4 = stablehlo.constant dense<2.82842708> : tensor<f32>
    %28 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<4x4x16x16xf32>
    %29 = stablehlo.divide %27, %28 : tensor<4x4x16x16xf32>
    %cst_5 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %30 = stablehlo.reduce(%29 init: %cst_5) applies stablehlo.maximum across dimensions = [3] : (tensor<4x4x16x16xf32>, tensor<f32>) -> tensor<4x4x16xf32>
    %cst_6 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %31 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<4x4x16xf32>
    %32 = stablehlo.maximum %31, %30 : tensor<4x4x16xf32>
    %33 = stablehlo.broadcast_in_dim %32, dims = [0, 1, 2] : (tensor<4x4x16xf32>) -> tensor<4x4x16x1xf32>
    %34 = stablehlo.broadcast_in_dim %33, dims = [0, 1, 2, 3] : (tensor<4x4x16x1xf32>) -> tensor<4x4x16x16xf32>
    %35 = stablehlo.subtract %29, %34 : tensor<4x4x16x16xf32>
    %36 = stablehlo.exponential %35 : tensor<4x4x16x16xf32>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %37 = stablehlo.reduce(%36 init: %cst_7) applies stablehlo.add across dimensions = [3] : (tensor<4x4x16x16xf32>, tensor<f32>) -> tensor<4x4x16xf32>
    %38 = stablehlo.broadcast_in_dim %37, dims = [0, 1, 2] : (tensor<4x4x16xf32>) -> tensor<4x4x16x1xf32>
    %39 = stablehlo.broadcast_in_dim %38, dims = [0, 1, 2, 3] : (tensor<4x4x16x1xf32>) -> tensor<4x4x16x16xf32>
    %40 = stablehlo.divide %36, %39 : tensor<4x4x16x16xf32>
    %41 = stablehlo.multiply %38, %38 : tensor<4x4x16x1xf32>
    %cst_8 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %42 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<4x4x16x1xf32>
    %43 = stablehlo.divide %42, %41 : tensor<4x4x16x1xf32>
    %44 = stablehlo.dot_general %40, %26, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<4x4x16x16xf32>, tensor<4x4x16x8xf32>) -> tensor<4x4x16x8xf32>
    %45 = stablehlo.dot_general %44, %arg3, contracting_dims = [3, 1] x [1, 0], precision = [DEFAULT, DEFAULT] : (tensor<4x4x16x8xf32>, tensor<4x8x32xf32>) -> tensor<4x16x32xf32>
    %46 = stablehlo.add %arg8, %45 : tensor<4x16x32xf32>
    %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %47 = stablehlo.reduce(%46 init: %cst_9) applies stablehlo.add across dimensions = [2] : (tensor<4x16x32xf32>, tensor<f32>) -> tensor<4x16xf32>
    %48 = stablehlo.broadcast_in_dim %47, dims = [0, 1] : (tensor<4x16xf32>) -> tensor<4x16x1xf32>
    %cst_10 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %49 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<4x16x1xf32>
    %50 = stablehlo.divide %48, %49 : tensor<4x16x1xf32>
    %51 = stablehlo.broadcast_in_dim %50, dims = [0, 1, 2] : (tensor<4x16x1xf32>) -> tensor<4x16x32xf32>
    %52 = stablehlo.subtract %46, %51 : tensor<4x16x32xf32>
    %53 = stablehlo.multiply %52, %52 : tensor<4x16x32xf32>
    %cst_11 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %54 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<4x16x32xf32>
    %55 = stablehlo.multiply %54, %52 : tensor<4x16x32xf32>
    %cst_12 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %56 = stablehlo.reduce(%53 init: %cst_12) applies stablehlo.add across dimensions = [2] : (tensor<4x16x32xf32>, tensor<f32>) -> tensor<4x16xf32>
    %57 = stablehlo.broadcast_in_dim %56, dims = [0, 1] : (tensor<4x16xf32>) -> tensor<4x16x1xf32>
    %cst_13 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %58 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<4x16x1xf32>
    %59 = stablehlo.divide %57, %58 : tensor<4x16x1xf32>
    %60 = stablehlo.broadcast_in_dim %50, dims = [0, 1, 2] : (tensor<4x16x1xf32>) -> tensor<4x16x32xf32>
    %61 = stablehlo.subtract %46, %60 : tensor<4x16x32xf32>
    %cst_14 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %62 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<4x16x1xf32>
    %63 = stablehlo.add %59, %62 : tensor<4x16x1xf32>
    %64 = stablehlo.sqrt %63 : tensor<4x16x1xf32>
    %cst_15 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %65 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<4x16x1xf32>
    %66 = stablehlo.divide %65, %64 : tensor<4x16x1xf32>
    %67 = stablehlo.broadcast_in_dim %64, dims = [0, 1, 2] : (tensor<4x16x1xf32>) -> tensor<4x16x32xf32>
    %68 = stablehlo.divide %61, %67 : tensor<4x16x32xf32>
    %69 = stablehlo.multiply %64, %64 : tensor<4x16x1xf32>
    %cst_16 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %70 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<4x16x1xf32>
    %71 = stablehlo.divide %70, %69 : tensor<4x16x1xf32>
    %72 = stablehlo.broadcast_in_dim %arg7, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %73 = stablehlo.broadcast_in_dim %72, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<4x16x32xf32>
    %74 = stablehlo.multiply %68, %73 : tensor<4x16x32xf32>
    %75 = stablehlo.dot_general %74, %arg4, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x16x32xf32>, tensor<32x64xf32>) -> tensor<4x16x64xf32>
    %76 = stablehlo.multiply %75, %75 : tensor<4x16x64xf32>
    %77 = stablehlo.multiply %76, %75 : tensor<4x16x64xf32>
    %78 = stablehlo.multiply %75, %75 : tensor<4x16x64xf32>
    %cst_17 = stablehlo.constant dense<3.000000e+00> : tensor<f32>
    %79 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f32>) -> tensor<4x16x64xf32>
    %80 = stablehlo.multiply %79, %78 : tensor<4x16x64xf32>
    %cst_18 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %81 = stablehlo.broadcast_in_dim %cst_18, dims = [] : (tensor<f32>) -> tensor<4x16x64xf32>
    %82 = stablehlo.multiply %81, %77 : tensor<4x16x64xf32>
    %83 = stablehlo.add %75, %82 : tensor<4x16x64xf32>
    %cst_19 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %84 = stablehlo.broadcast_in_dim %cst_19, dims = [] : (tensor<f32>) -> tensor<4x16x64xf32>
    %85 = stablehlo.multiply %84, %83 : tensor<4x16x64xf32>
    %86 = stablehlo.tanh %85 : tensor<4x16x64xf32>
    %cst_20 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %87 = stablehlo.broadcast_in_dim %cst_20, dims = [] : (tensor<f32>) -> tensor<4x16x64xf32>
    %88 = stablehlo.subtract %87, %86 : tensor<4x16x64xf32>
    %cst_21 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %89 = stablehlo.broadcast_in_dim %cst_21, dims = [] : (tensor<f32>) -> tensor<4x16x64xf32>
    %90 = stablehlo.add %89, %86 : tensor<4x16x64xf32>
    %cst_22 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %91 = stablehlo.broadcast_in_dim %cst_22, dims = [] : (tensor<f32>) -> tensor<4x16x64xf32>
    %92 = stablehlo.multiply %91, %90 : tensor<4x16x64xf32>
    %93 = stablehlo.multiply %75, %92 : tensor<4x16x64xf32>
    %94 = stablehlo.dot_general %93, %arg5, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x16x64xf32>, tensor<64x32xf32>) -> tensor<4x16x32xf32>
    %95 = stablehlo.add %46, %94 : tensor<4x16x32xf32>
    %96 = stablehlo.subtract %95, %arg9 : tensor<4x16x32xf32>
    %97 = stablehlo.multiply %96, %96 : tensor<4x16x32xf32>
    %cst_23 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %98 = stablehlo.broadcast_in_dim %cst_23, dims = [] : (tensor<f32>) -> tensor<4x16x32xf32>
    %99 = stablehlo.multiply %98, %96 : tensor<4x16x32xf32>
    %cst_24 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %100 = stablehlo.reduce(%97 init: %cst_24) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<4x16x32xf32>, tensor<f32>) -> tensor<f32>
    %cst_25 = stablehlo.constant dense<2.048000e+03> : tensor<f32>
    %101 = stablehlo.divide %100, %cst_25 : tensor<f32>
    %cst_26 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_27 = stablehlo.constant dense<2.048000e+03> : tensor<f32>
    %102 = stablehlo.divide %cst_26, %cst_27 : tensor<f32>
    %103 = stablehlo.broadcast_in_dim %102, dims = [] : (tensor<f32>) -> tensor<4x16x32xf32>
    %104 = stablehlo.multiply %103, %99 : tensor<4x16x32xf32>
    %105 = stablehlo.dot_general %104, %93, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<4x16x32xf32>, tensor<4x16x64xf32>) -> tensor<32x64xf32>
    %106 = stablehlo.transpose %105, dims = [1, 0] : (tensor<32x64xf32>) -> tensor<64x32xf32>
    %107 = stablehlo.dot_general %104, %arg5, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x16x32xf32>, tensor<64x32xf32>) -> tensor<4x16x64xf32>
    %108 = stablehlo.multiply %75, %107 : tensor<4x16x64xf32>
    %109 = stablehlo.multiply %107, %92 : tensor<4x16x64xf32>
    %cst_28 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %110 = stablehlo.broadcast_in_dim %cst_28, dims = [] : (tensor<f32>) -> tensor<4x16x64xf32>
    %111 = stablehlo.multiply %110, %108 : tensor<4x16x64xf32>
    %112 = stablehlo.multiply %111, %88 : tensor<4x16x64xf32>
    %113 = stablehlo.multiply %112, %86 : tensor<4x16x64xf32>
    %114 = stablehlo.add %112, %113 : tensor<4x16x64xf32>
    %cst_29 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %115 = stablehlo.broadcast_in_dim %cst_29, dims = [] : (tensor<f32>) -> tensor<4x16x64xf32>
    %116 = stablehlo.multiply %115, %114 : tensor<4x16x64xf32>
    %117 = stablehlo.add %109, %116 : tensor<4x16x64xf32>
    %cst_30 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %118 = stablehlo.broadcast_in_dim %cst_30, dims = [] : (tensor<f32>) -> tensor<4x16x64xf32>
    %119 = stablehlo.multiply %118, %116 : tensor<4x16x64xf32>
    %120 = stablehlo.multiply %119, %80 : tensor<4x16x64xf32>
    %121 = stablehlo.add %117, %120 : tensor<4x16x64xf32>
    %122 = stablehlo.dot_general %121, %74, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<4x16x64xf32>, tensor<4x16x32xf32>) -> tensor<64x32xf32>
    %123 = stablehlo.transpose %122, dims = [1, 0] : (tensor<64x32xf32>) -> tensor<32x64xf32>
    %124 = stablehlo.dot_general %121, %arg4, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x16x64xf32>, tensor<32x64xf32>) -> tensor<4x16x32xf32>
    %125 = stablehlo.multiply %68, %124 : tensor<4x16x32xf32>
    %cst_31 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %126 = stablehlo.reduce(%125 init: %cst_31) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x16x32xf32>, tensor<f32>) -> tensor<32xf32>
    %127 = stablehlo.reshape %126 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %128 = stablehlo.broadcast_in_dim %72, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<4x16x32xf32>
    %129 = stablehlo.multiply %124, %128 : tensor<4x16x32xf32>
    %cst_32 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %130 = stablehlo.reduce(%127 init: %cst_32) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x32xf32>, tensor<f32>) -> tensor<32xf32>
    %131 = stablehlo.broadcast_in_dim %71, dims = [0, 1, 2] : (tensor<4x16x1xf32>) -> tensor<4x16x32xf32>
    %132 = stablehlo.multiply %129, %131 : tensor<4x16x32xf32>
    %133 = stablehlo.multiply %132, %61 : tensor<4x16x32xf32>
    %cst_33 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %134 = stablehlo.reduce(%133 init: %cst_33) applies stablehlo.add across dimensions = [2] : (tensor<4x16x32xf32>, tensor<f32>) -> tensor<4x16xf32>
    %135 = stablehlo.reshape %134 : (tensor<4x16xf32>) -> tensor<4x16x1xf32>
    %136 = stablehlo.negate %135 : tensor<4x16x1xf32>
    %137 = stablehlo.broadcast_in_dim %64, dims = [0, 1, 2] : (tensor<4x16x1xf32>) -> tensor<4x16x32xf32>
    %138 = stablehlo.divide %129, %137 : tensor<4x16x32xf32>
    %139 = stablehlo.multiply %136, %66 : tensor<4x16x1xf32>
    %140 = stablehlo.negate %138 : tensor<4x16x32xf32>
    %cst_34 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %141 = stablehlo.reduce(%140 init: %cst_34) applies stablehlo.add across dimensions = [2] : (tensor<4x16x32xf32>, tensor<f32>) -> tensor<4x16xf32>
    %142 = stablehlo.reshape %141 : (tensor<4x16xf32>) -> tensor<4x16x1xf32>
    %143 = stablehlo.add %104, %138 : tensor<4x16x32xf32>
    %cst_35 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %144 = stablehlo.broadcast_in_dim %cst_35, dims = [] : (tensor<f32>) -> tensor<4x16x1xf32>
    %145 = stablehlo.divide %139, %144 : tensor<4x16x1xf32>
    %cst_36 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %146 = stablehlo.reduce(%145 init: %cst_36) applies stablehlo.add across dimensions = [2] : (tensor<4x16x1xf32>, tensor<f32>) -> tensor<4x16xf32>
    %147 = stablehlo.broadcast_in_dim %146, dims = [0, 1] : (tensor<4x16xf32>) -> tensor<4x16x32xf32>
    %148 = stablehlo.multiply %147, %55 : tensor<4x16x32xf32>
    %149 = stablehlo.negate %148 : tensor<4x16x32xf32>
    %cst_37 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %150 = stablehlo.reduce(%149 init: %cst_37) applies stablehlo.add across dimensions = [2] : (tensor<4x16x32xf32>, tensor<f32>) -> tensor<4x16xf32>
    %151 = stablehlo.reshape %150 : (tensor<4x16xf32>) -> tensor<4x16x1xf32>
    %152 = stablehlo.add %143, %148 : tensor<4x16x32xf32>
    %153 = stablehlo.add %142, %151 : tensor<4x16x1xf32>
    %cst_38 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %154 = stablehlo.broadcast_in_dim %cst_38, dims = [] : (tensor<f32>) -> tensor<4x16x1xf32>
    %155 = stablehlo.divide %153, %154 : tensor<4x16x1xf32>
    %cst_39 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %156 = stablehlo.reduce(%155 init: %cst_39) applies stablehlo.add across dimensions = [2] : (tensor<4x16x1xf32>, tensor<f32>) -> tensor<4x16xf32>
    %157 = stablehlo.broadcast_in_dim %156, dims = [0, 1] : (tensor<4x16xf32>) -> tensor<4x16x32xf32>
    %158 = stablehlo.add %152, %157 : tensor<4x16x32xf32>
    %159 = stablehlo.dot_general %158, %44, contracting_dims = [0, 1] x [0, 2], precision = [DEFAULT, DEFAULT] : (tensor<4x16x32xf32>, tensor<4x4x16x8xf32>) -> tensor<32x4x8xf32>
    %160 = stablehlo.transpose %159, dims = [1, 2, 0] : (tensor<32x4x8xf32>) -> tensor<4x8x32xf32>
    %161 = stablehlo.dot_general %158, %arg3, contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<4x16x32xf32>, tensor<4x8x32xf32>) -> tensor<4x16x4x8xf32>
    %162 = stablehlo.transpose %161, dims = [0, 2, 1, 3] : (tensor<4x16x4x8xf32>) -> tensor<4x4x16x8xf32>
    %163 = stablehlo.dot_general %162, %40, batching_dims = [0, 1] x [0, 1], contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<4x4x16x8xf32>, tensor<4x4x16x16xf32>) -> tensor<4x4x8x16xf32>
    %164 = stablehlo.transpose %163, dims = [0, 1, 3, 2] : (tensor<4x4x8x16xf32>) -> tensor<4x4x16x8xf32>
    %165 = stablehlo.dot_general %162, %26, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<4x4x16x8xf32>, tensor<4x4x16x8xf32>) -> tensor<4x4x16x16xf32>
    %166 = stablehlo.broadcast_in_dim %43, dims = [0, 1, 2, 3] : (tensor<4x4x16x1xf32>) -> tensor<4x4x16x16xf32>
    %167 = stablehlo.multiply %165, %166 : tensor<4x4x16x16xf32>
    %168 = stablehlo.multiply %167, %36 : tensor<4x4x16x16xf32>
    %cst_40 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %169 = stablehlo.reduce(%168 init: %cst_40) applies stablehlo.add across dimensions = [3] : (tensor<4x4x16x16xf32>, tensor<f32>) -> tensor<4x4x16xf32>
    %170 = stablehlo.reshape %169 : (tensor<4x4x16xf32>) -> tensor<4x4x16x1xf32>
    %171 = stablehlo.negate %170 : tensor<4x4x16x1xf32>
    %172 = stablehlo.broadcast_in_dim %38, dims = [0, 1, 2, 3] : (tensor<4x4x16x1xf32>) -> tensor<4x4x16x16xf32>
    %173 = stablehlo.divide %165, %172 : tensor<4x4x16x16xf32>
    %cst_41 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %174 = stablehlo.reduce(%171 init: %cst_41) applies stablehlo.add across dimensions = [3] : (tensor<4x4x16x1xf32>, tensor<f32>) -> tensor<4x4x16xf32>
    %175 = stablehlo.broadcast_in_dim %174, dims = [0, 1, 2] : (tensor<4x4x16xf32>) -> tensor<4x4x16x16xf32>
    %176 = stablehlo.add %173, %175 : tensor<4x4x16x16xf32>
    %177 = stablehlo.multiply %176, %36 : tensor<4x4x16x16xf32>
    %cst_42 = stablehlo.constant dense<2.82842708> : tensor<f32>
    %178 = stablehlo.broadcast_in_dim %cst_42, dims = [] : (tensor<f32>) -> tensor<4x4x16x16xf32>
    %179 = stablehlo.divide %177, %178 : tensor<4x4x16x16xf32>
    %180 = stablehlo.dot_general %179, %22, batching_dims = [0, 1] x [0, 1], contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<4x4x16x16xf32>, tensor<4x4x16x8xf32>) -> tensor<4x4x16x8xf32>
    %181 = stablehlo.dot_general %179, %24, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<4x4x16x16xf32>, tensor<4x4x16x8xf32>) -> tensor<4x4x16x8xf32>
    %182 = stablehlo.transpose %164, dims = [1, 3, 0, 2] : (tensor<4x4x16x8xf32>) -> tensor<4x8x4x16xf32>
    %183 = stablehlo.dot_general %182, %arg2, contracting_dims = [0, 1] x [1, 2], precision = [DEFAULT, DEFAULT] : (tensor<4x8x4x16xf32>, tensor<32x4x8xf32>) -> tensor<4x16x32xf32>
    %184 = stablehlo.dot_general %182, %20, contracting_dims = [2, 3] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<4x8x4x16xf32>, tensor<4x16x32xf32>) -> tensor<4x8x32xf32>
    %185 = stablehlo.transpose %184, dims = [2, 0, 1] : (tensor<4x8x32xf32>) -> tensor<32x4x8xf32>
    %186 = stablehlo.transpose %180, dims = [1, 3, 0, 2] : (tensor<4x4x16x8xf32>) -> tensor<4x8x4x16xf32>
    %187 = stablehlo.dot_general %186, %arg1, contracting_dims = [0, 1] x [1, 2], precision = [DEFAULT, DEFAULT] : (tensor<4x8x4x16xf32>, tensor<32x4x8xf32>) -> tensor<4x16x32xf32>
    %188 = stablehlo.add %183, %187 : tensor<4x16x32xf32>
    %189 = stablehlo.dot_general %186, %20, contracting_dims = [2, 3] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<4x8x4x16xf32>, tensor<4x16x32xf32>) -> tensor<4x8x32xf32>
    %190 = stablehlo.transpose %189, dims = [2, 0, 1] : (tensor<4x8x32xf32>) -> tensor<32x4x8xf32>
    %191 = stablehlo.transpose %181, dims = [1, 3, 0, 2] : (tensor<4x4x16x8xf32>) -> tensor<4x8x4x16xf32>
    %192 = stablehlo.dot_general %191, %arg0, contracting_dims = [0, 1] x [1, 2], precision = [DEFAULT, DEFAULT] : (tensor<4x8x4x16xf32>, tensor<32x4x8xf32>) -> tensor<4x16x32xf32>
    %193 = stablehlo.add %188, %192 : tensor<4x16x32xf32>
    %194 = stablehlo.dot_general %191, %20, contracting_dims = [2, 3] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<4x8x4x16xf32>, tensor<4x16x32xf32>) -> tensor<4x8x32xf32>
    %195 = stablehlo.transpose %194, dims = [2, 0, 1] : (tensor<4x8x32xf32>) -> tensor<32x4x8xf32>
    %196 = stablehlo.multiply %17, %193 : tensor<4x16x32xf32>
    %cst_43 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %197 = stablehlo.reduce(%196 init: %cst_43) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x16x32xf32>, tensor<f32>) -> tensor<32xf32>
    %198 = stablehlo.reshape %197 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %cst_44 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %199 = stablehlo.reduce(%198 init: %cst_44) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x32xf32>, tensor<f32>) -> tensor<32xf32>
    %cst_45 = stablehlo.constant dense<5.000000e-02> : tensor<f32>
    %200 = stablehlo.broadcast_in_dim %cst_45, dims = [] : (tensor<f32>) -> tensor<32x4x8xf32>
    %201 = stablehlo.multiply %200, %195 : tensor<32x4x8xf32>
    %202 = stablehlo.subtract %arg0, %201 : tensor<32x4x8xf32>
    %cst_46 = stablehlo.constant dense<5.000000e-02> : tensor<f32>
    %203 = stablehlo.broadcast_in_dim %cst_46, dims = [] : (tensor<f32>) -> tensor<32x4x8xf32>
    %204 = stablehlo.multiply %203, %190 : tensor<32x4x8xf32>
    %205 = stablehlo.subtract %arg1, %204 : tensor<32x4x8xf32>
    %cst_47 = stablehlo.constant dense<5.000000e-02> : tensor<f32>
    %206 = stablehlo.broadcast_in_dim %cst_47, dims = [] : (tensor<f32>) -> tensor<32x4x8xf32>
    %207 = stablehlo.multiply %206, %185 : tensor<32x4x8xf32>
    %208 = stablehlo.subtract %arg2, %207 : tensor<32x4x8xf32>
    %cst_48 = stablehlo.constant dense<5.000000e-02> : tensor<f32>
    %209 = stablehlo.broadcast_in_dim %cst_48, dims = [] : (tensor<f32>) -> tensor<4x8x32xf32>
    %210 = stablehlo.multiply %209, %160 : tensor<4x8x32xf32>
    %211 = stablehlo.subtract %arg3, %210 : tensor<4x8x32xf32>
    %cst_49 = stablehlo.constant dense<5.000000e-02> : tensor<f32>
    %212 = stablehlo.broadcast_in_dim %cst_49, dims = [] : (tensor<f32>) -> tensor<32x64xf32>
    %213 = stablehlo.multiply %212, %123 : tensor<32x64xf32>
    %214 = stablehlo.subtract %arg4, %213 : tensor<32x64xf32>
    %cst_50 = stablehlo.constant dense<5.000000e-02> : tensor<f32>
    %215 = stablehlo.broadcast_in_dim %cst_50, dims = [] : (tensor<f32>) -> tensor<64x32xf32>
    %216 = stablehlo.multiply %215, %106 : tensor<64x32xf32>
    %217 = stablehlo.subtract %arg5, %216 : tensor<64x32xf32>
    %cst_51 = stablehlo.constant dense<5.000000e-02> : tensor<f32>
    %218 = stablehlo.broadcast_in_dim %cst_51, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %219 = stablehlo.multiply %218, %199 : tensor<32xf32>
    %220 = stablehlo.subtract %arg6, %219 : tensor<32xf32>
    %cst_52 = stablehlo.constant dense<5.000000e-02> : tensor<f32>
    %221 = stablehlo.broadcast_in_dim %cst_52, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %222 = stablehlo.multiply %221, %130 : tensor<32xf32>
    %223 = stablehlo.subtract %arg7, %222 : tensor<32xf32>
    return %202, %205, %208, %211, %214, %217, %220, %223, %101 : tensor<32x4x8xf32>, tensor<32x4x8xf32>, tensor<32x4x8xf32>, tensor<4x8x32xf32>, tensor<32x64xf32>, tensor<64x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<f32>
  }
}
