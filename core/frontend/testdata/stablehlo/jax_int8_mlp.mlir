module @jit_int8_mlp attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x32xf32>, %arg1: tensor<32x16xi8>, %arg2: tensor<16xi32>, %arg3: tensor<16x10xi8>) -> (tensor<8x10xf32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<[4.8828125E-4, 2.44140625E-4, 1.22070313E-4, 4.8828125E-4, 2.44140625E-4, 1.22070313E-4, 4.8828125E-4, 2.44140625E-4, 1.22070313E-4, 4.8828125E-4, 2.44140625E-4, 1.22070313E-4, 4.8828125E-4, 2.44140625E-4, 1.22070313E-4, 4.8828125E-4]> : tensor<16xf32>
    %cst_0 = stablehlo.constant dense<[4.8828125E-4, 2.44140625E-4, 1.22070313E-4, 4.8828125E-4, 2.44140625E-4, 1.22070313E-4, 4.8828125E-4, 2.44140625E-4, 1.22070313E-4, 4.8828125E-4, 2.44140625E-4, 1.22070313E-4, 4.8828125E-4, 2.44140625E-4, 1.22070313E-4, 4.8828125E-4]> : tensor<16xf32>
    %cst_1 = stablehlo.constant dense<[4.8828125E-4, 2.44140625E-4, 1.22070313E-4, 4.8828125E-4, 2.44140625E-4, 1.22070313E-4, 4.8828125E-4, 2.44140625E-4, 1.22070313E-4, 4.8828125E-4, 2.44140625E-4, 1.22070313E-4, 4.8828125E-4, 2.44140625E-4, 1.22070313E-4, 4.8828125E-4]> : tensor<16xf32>
    %cst_2 = stablehlo.constant dense<[4.8828125E-4, 2.44140625E-4, 1.22070313E-4, 4.8828125E-4, 2.44140625E-4, 1.22070313E-4, 4.8828125E-4, 2.44140625E-4, 1.22070313E-4, 4.8828125E-4, 2.44140625E-4, 1.22070313E-4, 4.8828125E-4, 2.44140625E-4, 1.22070313E-4, 4.8828125E-4]> : tensor<16xf32>
    %cst_3 = stablehlo.constant dense<[4.8828125E-4, 2.44140625E-4, 1.22070313E-4, 4.8828125E-4, 2.44140625E-4, 1.22070313E-4, 4.8828125E-4, 2.44140625E-4, 1.22070313E-4, 4.8828125E-4, 2.44140625E-4, 1.22070313E-4, 4.8828125E-4, 2.44140625E-4, 1.22070313E-4, 4.8828125E-4]> : tensor<16xf32>
    %cst_4 = stablehlo.constant dense<[4.8828125E-4, 2.44140625E-4, 1.22070313E-4, 4.8828125E-4, 2.44140625E-4, 1.22070313E-4, 4.8828125E-4, 2.44140625E-4, 1.22070313E-4, 4.8828125E-4, 2.44140625E-4, 1.22070313E-4, 4.8828125E-4, 2.44140625E-4, 1.22070313E-4, 4.8828125E-4]> : tensor<16xf32>
    %cst_5 = stablehlo.constant dense<3.125000e-02> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %1 = stablehlo.divide %arg0, %0 : tensor<8x32xf32>
    %cst_6 = stablehlo.constant dense<-1.280000e+02> : tensor<f32>
    %cst_7 = stablehlo.constant dense<1.270000e+02> : tensor<f32>
    %2 = call @clip(%1, %cst_6, %cst_7) : (tensor<8x32xf32>, tensor<f32>, tensor<f32>) -> tensor<8x32xf32>
    %3 = call @round(%2) : (tensor<8x32xf32>) -> tensor<8x32xf32>
    %4 = stablehlo.convert %3 : (tensor<8x32xf32>) -> tensor<8x32xi8>
    %5 = stablehlo.dot_general %4, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x32xi8>, tensor<32x16xi8>) -> tensor<8x16xi32>
    %6 = stablehlo.convert %5 : (tensor<8x16xi32>) -> tensor<8x16xf32>
    %7 = stablehlo.broadcast_in_dim %cst, dims = [1] : (tensor<16xf32>) -> tensor<1x16xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0, 1] : (tensor<1x16xf32>) -> tensor<8x16xf32>
    %9 = stablehlo.multiply %6, %8 : tensor<8x16xf32>
    %10 = stablehlo.broadcast_in_dim %cst_0, dims = [1] : (tensor<16xf32>) -> tensor<1x16xf32>
    %11 = stablehlo.broadcast_in_dim %10, dims = [0, 1] : (tensor<1x16xf32>) -> tensor<8x16xf32>
    %12 = stablehlo.divide %9, %11 : tensor<8x16xf32>
    %cst_8 = stablehlo.constant dense<-2.14748365E+9> : tensor<f32>
    %cst_9 = stablehlo.constant dense<2.14748365E+9> : tensor<f32>
    %13 = call @clip_0(%12, %cst_8, %cst_9) : (tensor<8x16xf32>, tensor<f32>, tensor<f32>) -> tensor<8x16xf32>
    %14 = call @round_1(%13) : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %15 = stablehlo.convert %14 : (tensor<8x16xf32>) -> tensor<8x16xi32>
    %16 = stablehlo.convert %15 : (tensor<8x16xi32>) -> tensor<8x16xf32>
    %17 = stablehlo.broadcast_in_dim %cst_1, dims = [1] : (tensor<16xf32>) -> tensor<1x16xf32>
    %18 = stablehlo.broadcast_in_dim %17, dims = [0, 1] : (tensor<1x16xf32>) -> tensor<8x16xf32>
    %19 = stablehlo.multiply %16, %18 : tensor<8x16xf32>
    %20 = stablehlo.convert %arg2 : (tensor<16xi32>) -> tensor<16xf32>
    %21 = stablehlo.multiply %20, %cst_2 : tensor<16xf32>
    %22 = stablehlo.broadcast_in_dim %21, dims = [1] : (tensor<16xf32>) -> tensor<1x16xf32>
    %23 = stablehlo.broadcast_in_dim %22, dims = [0, 1] : (tensor<1x16xf32>) -> tensor<8x16xf32>
    %24 = stablehlo.add %19, %23 : tensor<8x16xf32>
    %25 = stablehlo.broadcast_in_dim %cst_3, dims = [1] : (tensor<16xf32>) -> tensor<1x16xf32>
    %26 = stablehlo.broadcast_in_dim %25, dims = [0, 1] : (tensor<1x16xf32>) -> tensor<8x16xf32>
    %27 = stablehlo.divide %24, %26 : tensor<8x16xf32>
    %cst_10 = stablehlo.constant dense<-2.14748365E+9> : tensor<f32>
    %cst_11 = stablehlo.constant dense<2.14748365E+9> : tensor<f32>
    %28 = call @clip_0(%27, %cst_10, %cst_11) : (tensor<8x16xf32>, tensor<f32>, tensor<f32>) -> tensor<8x16xf32>
    %29 = call @round_1(%28) : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %30 = stablehlo.convert %29 : (tensor<8x16xf32>) -> tensor<8x16xi32>
    %31 = stablehlo.convert %30 : (tensor<8x16xi32>) -> tensor<8x16xf32>
    %32 = stablehlo.broadcast_in_dim %cst_4, dims = [1] : (tensor<16xf32>) -> tensor<1x16xf32>
    %33 = stablehlo.broadcast_in_dim %32, dims = [0, 1] : (tensor<1x16xf32>) -> tensor<8x16xf32>
    %34 = stablehlo.multiply %31, %33 : tensor<8x16xf32>
    %cst_12 = stablehlo.constant dense<6.250000e-02> : tensor<f32>
    %35 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %36 = stablehlo.divide %34, %35 : tensor<8x16xf32>
    %cst_13 = stablehlo.constant dense<-1.000000e+01> : tensor<f32>
    %37 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %38 = stablehlo.add %36, %37 : tensor<8x16xf32>
    %cst_14 = stablehlo.constant dense<-1.280000e+02> : tensor<f32>
    %cst_15 = stablehlo.constant dense<1.270000e+02> : tensor<f32>
    %39 = call @clip_0(%38, %cst_14, %cst_15) : (tensor<8x16xf32>, tensor<f32>, tensor<f32>) -> tensor<8x16xf32>
    %40 = call @round_1(%39) : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %41 = stablehlo.convert %40 : (tensor<8x16xf32>) -> tensor<8x16xi8>
    %42 = stablehlo.convert %41 : (tensor<8x16xi8>) -> tensor<8x16xi32>
    %c = stablehlo.constant dense<-10> : tensor<i32>
    %43 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<8x16xi32>
    %44 = stablehlo.subtract %42, %43 : tensor<8x16xi32>
    %45 = stablehlo.convert %44 : (tensor<8x16xi32>) -> tensor<8x16xf32>
    %cst_16 = stablehlo.constant dense<6.250000e-02> : tensor<f32>
    %46 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %47 = stablehlo.multiply %45, %46 : tensor<8x16xf32>
    %cst_17 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %48 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %49 = stablehlo.maximum %47, %48 : tensor<8x16xf32>
    %cst_18 = stablehlo.constant dense<6.250000e-02> : tensor<f32>
    %50 = stablehlo.broadcast_in_dim %cst_18, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %51 = stablehlo.divide %49, %50 : tensor<8x16xf32>
    %cst_19 = stablehlo.constant dense<-1.000000e+01> : tensor<f32>
    %52 = stablehlo.broadcast_in_dim %cst_19, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %53 = stablehlo.add %51, %52 : tensor<8x16xf32>
    %cst_20 = stablehlo.constant dense<-1.280000e+02> : tensor<f32>
    %cst_21 = stablehlo.constant dense<1.270000e+02> : tensor<f32>
    %54 = call @clip_0(%53, %cst_20, %cst_21) : (tensor<8x16xf32>, tensor<f32>, tensor<f32>) -> tensor<8x16xf32>
    %55 = call @round_1(%54) : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %56 = stablehlo.convert %55 : (tensor<8x16xf32>) -> tensor<8x16xi8>
    %57 = stablehlo.convert %56 : (tensor<8x16xi8>) -> tensor<8x16xi32>
    %c_22 = stablehlo.constant dense<-10> : tensor<i32>
    %58 = stablehlo.broadcast_in_dim %c_22, dims = [] : (tensor<i32>) -> tensor<8x16xi32>
    %59 = stablehlo.subtract %57, %58 : tensor<8x16xi32>
    %60 = stablehlo.convert %arg3 : (tensor<16x10xi8>) -> tensor<16x10xi32>
    %61 = stablehlo.dot_general %59, %60, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xi32>, tensor<16x10xi32>) -> tensor<8x10xi32>
    %62 = stablehlo.convert %61 : (tensor<8x10xi32>) -> tensor<8x10xf32>
    %cst_23 = stablehlo.constant dense<9.765625E-4> : tensor<f32>
    %63 = stablehlo.broadcast_in_dim %cst_23, dims = [] : (tensor<f32>) -> tensor<8x10xf32>
    %64 = stablehlo.multiply %62, %63 : tensor<8x10xf32>
    %cst_24 = stablehlo.constant dense<2.500000e-01> : tensor<f32>
    %65 = stablehlo.broadcast_in_dim %cst_24, dims = [] : (tensor<f32>) -> tensor<8x10xf32>
    %66 = stablehlo.divide %64, %65 : tensor<8x10xf32>
    %cst_25 = stablehlo.constant dense<5.000000e+00> : tensor<f32>
    %67 = stablehlo.broadcast_in_dim %cst_25, dims = [] : (tensor<f32>) -> tensor<8x10xf32>
    %68 = stablehlo.add %66, %67 : tensor<8x10xf32>
    %cst_26 = stablehlo.constant dense<-1.280000e+02> : tensor<f32>
    %cst_27 = stablehlo.constant dense<1.270000e+02> : tensor<f32>
    %69 = call @clip_2(%68, %cst_26, %cst_27) : (tensor<8x10xf32>, tensor<f32>, tensor<f32>) -> tensor<8x10xf32>
    %70 = call @round_3(%69) : (tensor<8x10xf32>) -> tensor<8x10xf32>
    %71 = stablehlo.convert %70 : (tensor<8x10xf32>) -> tensor<8x10xi8>
    %72 = stablehlo.convert %71 : (tensor<8x10xi8>) -> tensor<8x10xi32>
    %c_28 = stablehlo.constant dense<5> : tensor<i32>
    %73 = stablehlo.broadcast_in_dim %c_28, dims = [] : (tensor<i32>) -> tensor<8x10xi32>
    %74 = stablehlo.subtract %72, %73 : tensor<8x10xi32>
    %75 = stablehlo.convert %74 : (tensor<8x10xi32>) -> tensor<8x10xf32>
    %cst_29 = stablehlo.constant dense<2.500000e-01> : tensor<f32>
    %76 = stablehlo.broadcast_in_dim %cst_29, dims = [] : (tensor<f32>) -> tensor<8x10xf32>
    %77 = stablehlo.multiply %75, %76 : tensor<8x10xf32>
    return %77 : tensor<8x10xf32>
  }
  func.func private @clip(%arg0: tensor<8x32xf32>, %arg1: tensor<f32>, %arg2: tensor<f32>) -> tensor<8x32xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %1 = stablehlo.maximum %0, %arg0 : tensor<8x32xf32>
    %2 = stablehlo.broadcast_in_dim %arg2, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %3 = stablehlo.minimum %2, %1 : tensor<8x32xf32>
    return %3 : tensor<8x32xf32>
  }
  func.func private @round(%arg0: tensor<8x32xf32>) -> tensor<8x32xf32> {
    %0 = stablehlo.round_nearest_even %arg0 : tensor<8x32xf32>
    return %0 : tensor<8x32xf32>
  }
  func.func private @clip_0(%arg0: tensor<8x16xf32>, %arg1: tensor<f32>, %arg2: tensor<f32>) -> tensor<8x16xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %1 = stablehlo.maximum %0, %arg0 : tensor<8x16xf32>
    %2 = stablehlo.broadcast_in_dim %arg2, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %3 = stablehlo.minimum %2, %1 : tensor<8x16xf32>
    return %3 : tensor<8x16xf32>
  }
  func.func private @round_1(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
    %0 = stablehlo.round_nearest_even %arg0 : tensor<8x16xf32>
    return %0 : tensor<8x16xf32>
  }
  func.func private @clip_2(%arg0: tensor<8x10xf32>, %arg1: tensor<f32>, %arg2: tensor<f32>) -> tensor<8x10xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f32>) -> tensor<8x10xf32>
    %1 = stablehlo.maximum %0, %arg0 : tensor<8x10xf32>
    %2 = stablehlo.broadcast_in_dim %arg2, dims = [] : (tensor<f32>) -> tensor<8x10xf32>
    %3 = stablehlo.minimum %2, %1 : tensor<8x10xf32>
    return %3 : tensor<8x10xf32>
  }
  func.func private @round_3(%arg0: tensor<8x10xf32>) -> tensor<8x10xf32> {
    %0 = stablehlo.round_nearest_even %arg0 : tensor<8x10xf32>
    return %0 : tensor<8x10xf32>
  }
}
