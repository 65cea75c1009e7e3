module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x8xf32>) -> (tensor<4x8xf32> {jax.result_info = "result[0]"}, tensor<4x8xf32> {jax.result_info = "result[1]"}, tensor<4x8xf32> {jax.result_info = "result[2]"}, tensor<4x8xf32> {jax.result_info = "result[3]"}, tensor<4x8xf32> {jax.result_info = "result[4]"}, tensor<4x8xf32> {jax.result_info = "result[5]"}, tensor<4x8xf32> {jax.result_info = "result[6]"}, tensor<4x8xf32> {jax.result_info = "result[7]"}, tensor<4x8xf32> {jax.result_info = "result[8]"}, tensor<4x8xf32> {jax.result_info = "result[9]"}, tensor<4x8xf32> {jax.result_info = "result[10]"}, tensor<4x8xf32> {jax.result_info = "result[11]"}, tensor<4x8xf32> {jax.result_info = "result[12]"}, tensor<4x8xf32> {jax.result_info = "result[13]"}, tensor<4x8xf32> {jax.result_info = "result[14]"}, tensor<4x8xf32> {jax.result_info = "result[15]"}) {
    %cst = stablehlo.constant dense<3.500000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %1 = stablehlo.subtract %arg0, %0 : tensor<4x8xf32>
    %cst_0 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %3 = stablehlo.subtract %2, %arg0 : tensor<4x8xf32>
    %4 = stablehlo.complex %1, %3 : tensor<4x8xcomplex<f32>>
    %c = stablehlo.constant dense<1> : tensor<i32>
    %5 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<4x8xi32>
    %6 = chlo.lgamma %arg0 : tensor<4x8xf32> -> tensor<4x8xf32>
    %7 = chlo.digamma %arg0 : tensor<4x8xf32> -> tensor<4x8xf32>
    %cst_1 = stablehlo.constant dense<3.000000e+00> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %9 = stablehlo.subtract %arg0, %8 : tensor<4x8xf32>
    %10 = chlo.bessel_i1e %9 : tensor<4x8xf32> -> tensor<4x8xf32>
    %11 = stablehlo.convert %5 : (tensor<4x8xi32>) -> tensor<4x8xf32>
    %12 = chlo.polygamma %11, %arg0 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
    %cst_2 = stablehlo.constant dense<1.500000e+00> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %14 = stablehlo.add %arg0, %13 : tensor<4x8xf32>
    %15 = chlo.zeta %14, %arg0 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %16 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %17 = chlo.next_after %arg0, %16 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
    %cst_4 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %18 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %19 = stablehlo.multiply %18, %arg0 : tensor<4x8xf32>
    %cst_5 = stablehlo.constant dense<3.000000e+00> : tensor<f32>
    %20 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %21 = stablehlo.divide %19, %20 : tensor<4x8xf32>
    %22 = stablehlo.compare NE, %arg0, %arg0, FLOAT : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
    %23 = stablehlo.compare NE, %21, %21, FLOAT : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
    %24 = stablehlo.or %22, %23 : tensor<4x8xi1>
    %cst_6 = stablehlo.constant dense<0x7F800000> : tensor<f32>
    %25 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %26 = stablehlo.compare EQ, %21, %25, FLOAT : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %27 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %28 = stablehlo.compare EQ, %arg0, %27, FLOAT : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %29 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %30 = stablehlo.compare EQ, %21, %29, FLOAT : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
    %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %31 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %32 = stablehlo.compare LT, %21, %31, FLOAT : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
    %cst_10 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %33 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %34 = stablehlo.compare LT, %arg0, %33, FLOAT : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
    %35 = stablehlo.and %28, %30 : tensor<4x8xi1>
    %36 = stablehlo.or %32, %34 : tensor<4x8xi1>
    %37 = stablehlo.or %36, %35 : tensor<4x8xi1>
    %38 = stablehlo.or %37, %24 : tensor<4x8xi1>
    %cst_11 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %39 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %40 = stablehlo.compare GE, %21, %39, FLOAT : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
    %41 = stablehlo.compare GT, %21, %arg0, FLOAT : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
    %42 = stablehlo.and %40, %41 : tensor<4x8xi1>
    %43 = stablehlo.log %21 : tensor<4x8xf32>
    %44 = stablehlo.multiply %arg0, %43 : tensor<4x8xf32>
    %45 = stablehlo.subtract %44, %21 : tensor<4x8xf32>
    %46 = chlo.lgamma %arg0 : tensor<4x8xf32> -> tensor<4x8xf32>
    %47 = stablehlo.subtract %45, %46 : tensor<4x8xf32>
    %cst_12 = stablehlo.constant dense<3.40282347E+38> : tensor<f32>
    %48 = stablehlo.log %cst_12 : tensor<f32>
    %49 = stablehlo.negate %48 : tensor<f32>
    %50 = stablehlo.broadcast_in_dim %49, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %51 = stablehlo.compare LT, %47, %50, FLOAT : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
    %52 = stablehlo.exponential %47 : tensor<4x8xf32>
    %53 = stablehlo.or %30, %38 : tensor<4x8xi1>
    %54 = stablehlo.or %53, %51 : tensor<4x8xi1>
    %55 = stablehlo.or %54, %26 : tensor<4x8xi1>
    %56 = stablehlo.not %55 : tensor<4x8xi1>
    %57 = stablehlo.and %56, %42 : tensor<4x8xi1>
    %cst_13 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %58 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %59 = stablehlo.subtract %58, %arg0 : tensor<4x8xf32>
    %60 = stablehlo.add %21, %59 : tensor<4x8xf32>
    %cst_14 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %61 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %62 = stablehlo.add %60, %61 : tensor<4x8xf32>
    %cst_15 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %63 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %cst_16 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %64 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %65 = stablehlo.add %21, %64 : tensor<4x8xf32>
    %66 = stablehlo.multiply %62, %21 : tensor<4x8xf32>
    %67 = stablehlo.divide %65, %66 : tensor<4x8xf32>
    %cst_17 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %68 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %cst_18 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %69 = stablehlo.broadcast_in_dim %cst_18, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %cst_19 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %70 = stablehlo.broadcast_in_dim %cst_19, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %cst_20 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %71 = stablehlo.broadcast_in_dim %cst_20, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %72 = stablehlo.negate %21 : tensor<4x8xf32>
    %73 = stablehlo.multiply %67, %72 : tensor<4x8xf32>
    %74 = stablehlo.subtract %71, %73 : tensor<4x8xf32>
    %75 = stablehlo.divide %74, %66 : tensor<4x8xf32>
    %cst_21 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %76:15 = stablehlo.while(%iterArg = %57, %iterArg_59 = %67, %iterArg_60 = %68, %iterArg_61 = %59, %iterArg_62 = %62, %iterArg_63 = %cst_21, %iterArg_64 = %65, %iterArg_65 = %66, %iterArg_66 = %63, %iterArg_67 = %21, %iterArg_68 = %69, %iterArg_69 = %70, %iterArg_70 = %71, %iterArg_71 = %72, %iterArg_72 = %75) : tensor<4x8xi1>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<f32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
    cond {
      %cst_73 = stablehlo.constant dense<2.000000e+03> : tensor<f32>
      %215 = stablehlo.compare LT, %iterArg_63, %cst_73, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %c_74 = stablehlo.constant dense<false> : tensor<i1>
      %216 = stablehlo.reduce(%iterArg init: %c_74) applies stablehlo.or across dimensions = [0, 1] : (tensor<4x8xi1>, tensor<i1>) -> tensor<i1>
      %217 = stablehlo.and %215, %216 : tensor<i1>
      stablehlo.return %217 : tensor<i1>
    } do {
      %cst_73 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %215 = stablehlo.add %iterArg_63, %cst_73 : tensor<f32>
      %cst_74 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %216 = stablehlo.broadcast_in_dim %cst_74, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
      %217 = stablehlo.add %iterArg_61, %216 : tensor<4x8xf32>
      %cst_75 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
      %218 = stablehlo.broadcast_in_dim %cst_75, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
      %219 = stablehlo.add %iterArg_62, %218 : tensor<4x8xf32>
      %220 = stablehlo.broadcast_in_dim %215, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
      %221 = stablehlo.multiply %217, %220 : tensor<4x8xf32>
      %222 = stablehlo.multiply %iterArg_64, %219 : tensor<4x8xf32>
      %223 = stablehlo.multiply %iterArg_66, %221 : tensor<4x8xf32>
      %224 = stablehlo.subtract %222, %223 : tensor<4x8xf32>
      %225 = stablehlo.multiply %iterArg_65, %219 : tensor<4x8xf32>
      %226 = stablehlo.multiply %iterArg_67, %221 : tensor<4x8xf32>
      %227 = stablehlo.subtract %225, %226 : tensor<4x8xf32>
      %cst_76 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %228 = stablehlo.broadcast_in_dim %cst_76, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
      %229 = stablehlo.compare NE, %227, %228, FLOAT : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
      %230 = stablehlo.divide %224, %227 : tensor<4x8xf32>
      %231 = stablehlo.subtract %iterArg_59, %230 : tensor<4x8xf32>
      %232 = stablehlo.divide %231, %230 : tensor<4x8xf32>
      %233 = stablehlo.abs %232 : tensor<4x8xf32>
      %cst_77 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %234 = stablehlo.broadcast_in_dim %cst_77, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
      %235 = stablehlo.select %229, %233, %234 : tensor<4x8xi1>, tensor<4x8xf32>
      %236 = stablehlo.select %229, %230, %iterArg_59 : tensor<4x8xi1>, tensor<4x8xf32>
      %237 = stablehlo.multiply %iterArg_70, %219 : tensor<4x8xf32>
      %238 = stablehlo.subtract %237, %iterArg_64 : tensor<4x8xf32>
      %239 = stablehlo.multiply %iterArg_68, %221 : tensor<4x8xf32>
      %240 = stablehlo.subtract %238, %239 : tensor<4x8xf32>
      %241 = stablehlo.broadcast_in_dim %215, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
      %242 = stablehlo.multiply %iterArg_66, %241 : tensor<4x8xf32>
      %243 = stablehlo.add %240, %242 : tensor<4x8xf32>
      %244 = stablehlo.multiply %iterArg_71, %219 : tensor<4x8xf32>
      %245 = stablehlo.subtract %244, %iterArg_65 : tensor<4x8xf32>
      %246 = stablehlo.multiply %iterArg_69, %221 : tensor<4x8xf32>
      %247 = stablehlo.subtract %245, %246 : tensor<4x8xf32>
      %248 = stablehlo.broadcast_in_dim %215, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
      %249 = stablehlo.multiply %iterArg_67, %248 : tensor<4x8xf32>
      %250 = stablehlo.add %247, %249 : tensor<4x8xf32>
      %251 = stablehlo.multiply %236, %250 : tensor<4x8xf32>
      %252 = stablehlo.subtract %243, %251 : tensor<4x8xf32>
      %253 = stablehlo.divide %252, %227 : tensor<4x8xf32>
      %254 = stablehlo.select %229, %253, %iterArg_72 : tensor<4x8xi1>, tensor<4x8xf32>
      %255 = stablehlo.subtract %254, %iterArg_72 : tensor<4x8xf32>
      %256 = stablehlo.abs %255 : tensor<4x8xf32>
      %cst_78 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %257 = stablehlo.broadcast_in_dim %cst_78, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
      %258 = stablehlo.select %229, %256, %257 : tensor<4x8xi1>, tensor<4x8xf32>
      %259 = stablehlo.abs %224 : tensor<4x8xf32>
      %cst_79 = stablehlo.constant dense<1.1920929E-7> : tensor<f32>
      %cst_80 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %260 = stablehlo.broadcast_in_dim %cst_80, dims = [] : (tensor<f32>) -> tensor<f32>
      %261 = stablehlo.divide %260, %cst_79 : tensor<f32>
      %262 = stablehlo.broadcast_in_dim %261, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
      %263 = stablehlo.compare GT, %259, %262, FLOAT : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
      %cst_81 = stablehlo.constant dense<1.1920929E-7> : tensor<f32>
      %264 = stablehlo.broadcast_in_dim %cst_81, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
      %265 = stablehlo.multiply %iterArg_64, %264 : tensor<4x8xf32>
      %266 = stablehlo.select %263, %265, %iterArg_64 : tensor<4x8xi1>, tensor<4x8xf32>
      %cst_82 = stablehlo.constant dense<1.1920929E-7> : tensor<f32>
      %267 = stablehlo.broadcast_in_dim %cst_82, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
      %268 = stablehlo.multiply %224, %267 : tensor<4x8xf32>
      %269 = stablehlo.select %263, %268, %224 : tensor<4x8xi1>, tensor<4x8xf32>
      %cst_83 = stablehlo.constant dense<1.1920929E-7> : tensor<f32>
      %270 = stablehlo.broadcast_in_dim %cst_83, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
      %271 = stablehlo.multiply %iterArg_65, %270 : tensor<4x8xf32>
      %272 = stablehlo.select %263, %271, %iterArg_65 : tensor<4x8xi1>, tensor<4x8xf32>
      %cst_84 = stablehlo.constant dense<1.1920929E-7> : tensor<f32>
      %273 = stablehlo.broadcast_in_dim %cst_84, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
      %274 = stablehlo.multiply %227, %273 : tensor<4x8xf32>
      %275 = stablehlo.select %263, %274, %227 : tensor<4x8xi1>, tensor<4x8xf32>
      %cst_85 = stablehlo.constant dense<1.1920929E-7> : tensor<f32>
      %276 = stablehlo.broadcast_in_dim %cst_85, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
      %277 = stablehlo.multiply %iterArg_70, %276 : tensor<4x8xf32>
      %278 = stablehlo.select %263, %277, %iterArg_70 : tensor<4x8xi1>, tensor<4x8xf32>
      %cst_86 = stablehlo.constant dense<1.1920929E-7> : tensor<f32>
      %279 = stablehlo.broadcast_in_dim %cst_86, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
      %280 = stablehlo.multiply %iterArg_71, %279 : tensor<4x8xf32>
      %281 = stablehlo.select %263, %280, %iterArg_71 : tensor<4x8xi1>, tensor<4x8xf32>
      %cst_87 = stablehlo.constant dense<1.1920929E-7> : tensor<f32>
      %282 = stablehlo.broadcast_in_dim %cst_87, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
      %283 = stablehlo.multiply %243, %282 : tensor<4x8xf32>
      %284 = stablehlo.select %263, %283, %243 : tensor<4x8xi1>, tensor<4x8xf32>
      %cst_88 = stablehlo.constant dense<1.1920929E-7> : tensor<f32>
      %285 = stablehlo.broadcast_in_dim %cst_88, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
      %286 = stablehlo.multiply %250, %285 : tensor<4x8xf32>
      %287 = stablehlo.select %263, %286, %250 : tensor<4x8xi1>, tensor<4x8xf32>
      %cst_89 = stablehlo.constant dense<1.1920929E-7> : tensor<f32>
      %288 = stablehlo.broadcast_in_dim %cst_89, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
      %289 = stablehlo.compare GT, %235, %288, FLOAT : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
      %290 = stablehlo.and %iterArg, %289 : tensor<4x8xi1>
      %291 = stablehlo.select %iterArg, %236, %iterArg_59 : tensor<4x8xi1>, tensor<4x8xf32>
      %292 = stablehlo.select %iterArg, %235, %iterArg_60 : tensor<4x8xi1>, tensor<4x8xf32>
      %293 = stablehlo.select %iterArg, %217, %iterArg_61 : tensor<4x8xi1>, tensor<4x8xf32>
      %294 = stablehlo.select %iterArg, %219, %iterArg_62 : tensor<4x8xi1>, tensor<4x8xf32>
      %295 = stablehlo.select %iterArg, %269, %iterArg_64 : tensor<4x8xi1>, tensor<4x8xf32>
      %296 = stablehlo.select %iterArg, %275, %iterArg_65 : tensor<4x8xi1>, tensor<4x8xf32>
      %297 = stablehlo.select %iterArg, %266, %iterArg_66 : tensor<4x8xi1>, tensor<4x8xf32>
      %298 = stablehlo.select %iterArg, %272, %iterArg_67 : tensor<4x8xi1>, tensor<4x8xf32>
      %299 = stablehlo.select %iterArg, %278, %iterArg_68 : tensor<4x8xi1>, tensor<4x8xf32>
      %300 = stablehlo.select %iterArg, %281, %iterArg_69 : tensor<4x8xi1>, tensor<4x8xf32>
      %301 = stablehlo.select %iterArg, %284, %iterArg_70 : tensor<4x8xi1>, tensor<4x8xf32>
      %302 = stablehlo.select %iterArg, %287, %iterArg_71 : tensor<4x8xi1>, tensor<4x8xf32>
      %303 = stablehlo.select %iterArg, %254, %iterArg_72 : tensor<4x8xi1>, tensor<4x8xf32>
      stablehlo.return %290, %291, %292, %293, %294, %215, %295, %296, %297, %298, %299, %300, %301, %302, %303 : tensor<4x8xi1>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<f32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
    }
    %77 = stablehlo.multiply %76#1, %52 : tensor<4x8xf32>
    %cst_22 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %78 = stablehlo.broadcast_in_dim %cst_22, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %79 = stablehlo.subtract %78, %77 : tensor<4x8xf32>
    %80 = stablehlo.not %42 : tensor<4x8xi1>
    %81 = stablehlo.and %56, %80 : tensor<4x8xi1>
    %cst_23 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %82 = stablehlo.broadcast_in_dim %cst_23, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %cst_24 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %83 = stablehlo.broadcast_in_dim %cst_24, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %cst_25 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %84 = stablehlo.broadcast_in_dim %cst_25, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %cst_26 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %85 = stablehlo.broadcast_in_dim %cst_26, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %86:7 = stablehlo.while(%iterArg = %81, %iterArg_59 = %arg0, %iterArg_60 = %82, %iterArg_61 = %83, %iterArg_62 = %21, %iterArg_63 = %84, %iterArg_64 = %85) : tensor<4x8xi1>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
    cond {
      %c_65 = stablehlo.constant dense<false> : tensor<i1>
      %215 = stablehlo.reduce(%iterArg init: %c_65) applies stablehlo.or across dimensions = [0, 1] : (tensor<4x8xi1>, tensor<i1>) -> tensor<i1>
      stablehlo.return %215 : tensor<i1>
    } do {
      %cst_65 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %215 = stablehlo.broadcast_in_dim %cst_65, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
      %216 = stablehlo.add %iterArg_59, %215 : tensor<4x8xf32>
      %217 = stablehlo.divide %iterArg_62, %216 : tensor<4x8xf32>
      %218 = stablehlo.multiply %iterArg_63, %217 : tensor<4x8xf32>
      %219 = stablehlo.multiply %iterArg_60, %iterArg_62 : tensor<4x8xf32>
      %220 = stablehlo.multiply %216, %216 : tensor<4x8xf32>
      %221 = stablehlo.divide %219, %220 : tensor<4x8xf32>
      %222 = stablehlo.subtract %218, %221 : tensor<4x8xf32>
      %223 = stablehlo.add %iterArg_64, %222 : tensor<4x8xf32>
      %224 = stablehlo.divide %iterArg_62, %216 : tensor<4x8xf32>
      %225 = stablehlo.multiply %iterArg_60, %224 : tensor<4x8xf32>
      %226 = stablehlo.add %iterArg_61, %225 : tensor<4x8xf32>
      %227 = stablehlo.divide %225, %226 : tensor<4x8xf32>
      %cst_66 = stablehlo.constant dense<1.1920929E-7> : tensor<f32>
      %228 = stablehlo.broadcast_in_dim %cst_66, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
      %229 = stablehlo.compare GT, %227, %228, FLOAT : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
      %230 = stablehlo.and %iterArg, %229 : tensor<4x8xi1>
      %231 = stablehlo.select %iterArg, %216, %iterArg_59 : tensor<4x8xi1>, tensor<4x8xf32>
      %232 = stablehlo.select %iterArg, %225, %iterArg_60 : tensor<4x8xi1>, tensor<4x8xf32>
      %233 = stablehlo.select %iterArg, %226, %iterArg_61 : tensor<4x8xi1>, tensor<4x8xf32>
      %234 = stablehlo.select %iterArg, %iterArg_62, %iterArg_62 : tensor<4x8xi1>, tensor<4x8xf32>
      %235 = stablehlo.select %iterArg, %222, %iterArg_63 : tensor<4x8xi1>, tensor<4x8xf32>
      %236 = stablehlo.select %iterArg, %223, %iterArg_64 : tensor<4x8xi1>, tensor<4x8xf32>
      stablehlo.return %230, %231, %232, %233, %234, %235, %236 : tensor<4x8xi1>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
    }
    %87 = stablehlo.multiply %86#3, %52 : tensor<4x8xf32>
    %88 = stablehlo.divide %87, %arg0 : tensor<4x8xf32>
    %89 = stablehlo.select %42, %79, %88 : tensor<4x8xi1>, tensor<4x8xf32>
    %cst_27 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %90 = stablehlo.broadcast_in_dim %cst_27, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %91 = stablehlo.select %30, %90, %89 : tensor<4x8xi1>, tensor<4x8xf32>
    %cst_28 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %92 = stablehlo.broadcast_in_dim %cst_28, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %93 = stablehlo.select %26, %92, %91 : tensor<4x8xi1>, tensor<4x8xf32>
    %cst_29 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %94 = stablehlo.broadcast_in_dim %cst_29, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %95 = stablehlo.select %38, %94, %93 : tensor<4x8xi1>, tensor<4x8xf32>
    %cst_30 = stablehlo.constant dense<7.000000e+00> : tensor<f32>
    %96 = stablehlo.broadcast_in_dim %cst_30, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %97 = stablehlo.subtract %96, %arg0 : tensor<4x8xf32>
    %cst_31 = stablehlo.constant dense<7.500000e+00> : tensor<f32>
    %98 = stablehlo.broadcast_in_dim %cst_31, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %99 = stablehlo.divide %arg0, %98 : tensor<4x8xf32>
    %cst_32 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %100 = stablehlo.broadcast_in_dim %cst_32, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %101 = stablehlo.compare EQ, %arg0, %100, FLOAT : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
    %cst_33 = stablehlo.constant dense<0x7F800000> : tensor<f32>
    %102 = stablehlo.broadcast_in_dim %cst_33, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %103 = stablehlo.compare EQ, %97, %102, FLOAT : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
    %104 = stablehlo.or %101, %103 : tensor<4x8xi1>
    %cst_34 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %105 = stablehlo.broadcast_in_dim %cst_34, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %106 = stablehlo.compare EQ, %97, %105, FLOAT : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
    %cst_35 = stablehlo.constant dense<0x7F800000> : tensor<f32>
    %107 = stablehlo.broadcast_in_dim %cst_35, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %108 = stablehlo.compare EQ, %arg0, %107, FLOAT : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
    %109 = stablehlo.or %106, %108 : tensor<4x8xi1>
    %cst_36 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %110 = stablehlo.broadcast_in_dim %cst_36, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %111 = stablehlo.compare EQ, %99, %110, FLOAT : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
    %cst_37 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %112 = stablehlo.broadcast_in_dim %cst_37, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %113 = stablehlo.compare EQ, %99, %112, FLOAT : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
    %114 = stablehlo.not %111 : tensor<4x8xi1>
    %115 = stablehlo.not %113 : tensor<4x8xi1>
    %116 = stablehlo.compare NE, %arg0, %arg0, FLOAT : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
    %117 = stablehlo.compare NE, %97, %97, FLOAT : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
    %118 = stablehlo.or %116, %117 : tensor<4x8xi1>
    %119 = stablehlo.compare NE, %99, %99, FLOAT : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
    %120 = stablehlo.or %118, %119 : tensor<4x8xi1>
    %121 = stablehlo.and %109, %115 : tensor<4x8xi1>
    %122 = stablehlo.and %104, %111 : tensor<4x8xi1>
    %123 = stablehlo.or %121, %122 : tensor<4x8xi1>
    %124 = stablehlo.and %104, %114 : tensor<4x8xi1>
    %125 = stablehlo.and %109, %113 : tensor<4x8xi1>
    %126 = stablehlo.or %124, %125 : tensor<4x8xi1>
    %cst_38 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %127 = stablehlo.broadcast_in_dim %cst_38, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %128 = stablehlo.compare LT, %arg0, %127, FLOAT : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
    %cst_39 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %129 = stablehlo.broadcast_in_dim %cst_39, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %130 = stablehlo.compare LT, %97, %129, FLOAT : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
    %131 = stablehlo.or %128, %130 : tensor<4x8xi1>
    %cst_40 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %132 = stablehlo.broadcast_in_dim %cst_40, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %133 = stablehlo.compare LT, %99, %132, FLOAT : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
    %134 = stablehlo.or %131, %133 : tensor<4x8xi1>
    %cst_41 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %135 = stablehlo.broadcast_in_dim %cst_41, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %136 = stablehlo.compare GT, %99, %135, FLOAT : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
    %137 = stablehlo.or %134, %136 : tensor<4x8xi1>
    %138 = stablehlo.and %104, %109 : tensor<4x8xi1>
    %139 = stablehlo.or %138, %120 : tensor<4x8xi1>
    %140 = stablehlo.or %137, %139 : tensor<4x8xi1>
    %cst_42 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %141 = stablehlo.broadcast_in_dim %cst_42, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %142 = stablehlo.add %arg0, %141 : tensor<4x8xf32>
    %143 = stablehlo.add %arg0, %97 : tensor<4x8xf32>
    %cst_43 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %144 = stablehlo.broadcast_in_dim %cst_43, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %145 = stablehlo.add %143, %144 : tensor<4x8xf32>
    %146 = stablehlo.divide %142, %145 : tensor<4x8xf32>
    %147 = stablehlo.compare LT, %99, %146, FLOAT : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
    %148 = stablehlo.select %147, %arg0, %97 : tensor<4x8xi1>, tensor<4x8xf32>
    %149 = stablehlo.select %147, %97, %arg0 : tensor<4x8xi1>, tensor<4x8xf32>
    %cst_44 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %150 = stablehlo.broadcast_in_dim %cst_44, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %151 = stablehlo.subtract %150, %99 : tensor<4x8xf32>
    %152 = stablehlo.select %147, %99, %151 : tensor<4x8xi1>, tensor<4x8xf32>
    %c_45 = stablehlo.constant dense<0> : tensor<i32>
    %153 = stablehlo.broadcast_in_dim %c_45, dims = [] : (tensor<i32>) -> tensor<4x8xi32>
    %c_46 = stablehlo.constant dense<0> : tensor<i32>
    %154 = stablehlo.broadcast_in_dim %c_46, dims = [] : (tensor<i32>) -> tensor<4x8xi32>
    %155 = stablehlo.compare EQ, %153, %154, SIGNED : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi1>
    %cst_47 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %156 = stablehlo.broadcast_in_dim %cst_47, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %cst_48 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %157 = stablehlo.broadcast_in_dim %cst_48, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %158 = stablehlo.select %155, %156, %157 : tensor<4x8xi1>, tensor<4x8xf32>
    %159 = stablehlo.abs %158 : tensor<4x8xf32>
    %cst_49 = stablehlo.constant dense<5.96046448E-8> : tensor<f32>
    %160 = stablehlo.broadcast_in_dim %cst_49, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %161 = stablehlo.compare LT, %159, %160, FLOAT : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
    %cst_50 = stablehlo.constant dense<5.96046448E-8> : tensor<f32>
    %162 = stablehlo.broadcast_in_dim %cst_50, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %163 = stablehlo.select %161, %162, %158 : tensor<4x8xi1>, tensor<4x8xf32>
    %cst_51 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %164 = stablehlo.broadcast_in_dim %cst_51, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %c_52 = stablehlo.constant dense<1> : tensor<i32>
    %c_53 = stablehlo.constant dense<true> : tensor<i1>
    %165:8 = stablehlo.while(%iterArg = %148, %iterArg_59 = %149, %iterArg_60 = %152, %iterArg_61 = %c_52, %iterArg_62 = %c_53, %iterArg_63 = %163, %iterArg_64 = %164, %iterArg_65 = %163) : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<i32>, tensor<i1>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
    cond {
      %c_66 = stablehlo.constant dense<200> : tensor<i32>
      %215 = stablehlo.compare LT, %iterArg_61, %c_66, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %216 = stablehlo.and %215, %iterArg_62 : tensor<i1>
      stablehlo.return %216 : tensor<i1>
    } do {
      %215 = stablehlo.broadcast_in_dim %iterArg_61, dims = [] : (tensor<i32>) -> tensor<4x8xi32>
      %c_66 = stablehlo.constant dense<2> : tensor<i32>
      %216 = stablehlo.broadcast_in_dim %c_66, dims = [] : (tensor<i32>) -> tensor<4x8xi32>
      %217 = func.call @remainder(%215, %216) : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi32>
      %c_67 = stablehlo.constant dense<0> : tensor<i32>
      %218 = stablehlo.broadcast_in_dim %c_67, dims = [] : (tensor<i32>) -> tensor<4x8xi32>
      %219 = stablehlo.compare EQ, %217, %218, SIGNED : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi1>
      %c_68 = stablehlo.constant dense<1> : tensor<i32>
      %220 = stablehlo.broadcast_in_dim %c_68, dims = [] : (tensor<i32>) -> tensor<4x8xi32>
      %221 = stablehlo.compare EQ, %215, %220, SIGNED : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi1>
      %c_69 = stablehlo.constant dense<1> : tensor<i32>
      %222 = stablehlo.broadcast_in_dim %c_69, dims = [] : (tensor<i32>) -> tensor<4x8xi32>
      %223 = stablehlo.subtract %215, %222 : tensor<4x8xi32>
      %c_70 = stablehlo.constant dense<2> : tensor<i32>
      %224 = stablehlo.broadcast_in_dim %c_70, dims = [] : (tensor<i32>) -> tensor<4x8xi32>
      %225 = func.call @floor_divide(%223, %224) : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi32>
      %c_71 = stablehlo.constant dense<0> : tensor<i32>
      %226 = stablehlo.broadcast_in_dim %c_71, dims = [] : (tensor<i32>) -> tensor<4x8xi32>
      %227 = stablehlo.compare EQ, %225, %226, SIGNED : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi1>
      %228 = stablehlo.convert %225 : (tensor<4x8xi32>) -> tensor<4x8xf32>
      %cst_72 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %229 = stablehlo.broadcast_in_dim %cst_72, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
      %cst_73 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
      %230 = stablehlo.broadcast_in_dim %cst_73, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
      %231 = stablehlo.add %iterArg, %iterArg_59 : tensor<4x8xf32>
      %232 = stablehlo.negate %231 : tensor<4x8xf32>
      %233 = stablehlo.multiply %232, %iterArg_60 : tensor<4x8xf32>
      %234 = stablehlo.add %iterArg, %229 : tensor<4x8xf32>
      %235 = stablehlo.divide %233, %234 : tensor<4x8xf32>
      %236 = stablehlo.add %iterArg, %228 : tensor<4x8xf32>
      %237 = stablehlo.negate %236 : tensor<4x8xf32>
      %238 = stablehlo.add %iterArg, %iterArg_59 : tensor<4x8xf32>
      %239 = stablehlo.add %238, %228 : tensor<4x8xf32>
      %240 = stablehlo.multiply %237, %239 : tensor<4x8xf32>
      %241 = stablehlo.multiply %240, %iterArg_60 : tensor<4x8xf32>
      %242 = stablehlo.multiply %230, %228 : tensor<4x8xf32>
      %243 = stablehlo.add %iterArg, %242 : tensor<4x8xf32>
      %244 = stablehlo.multiply %230, %228 : tensor<4x8xf32>
      %245 = stablehlo.add %iterArg, %244 : tensor<4x8xf32>
      %246 = stablehlo.add %245, %229 : tensor<4x8xf32>
      %247 = stablehlo.multiply %243, %246 : tensor<4x8xf32>
      %248 = stablehlo.divide %241, %247 : tensor<4x8xf32>
      %249 = stablehlo.select %227, %235, %248 : tensor<4x8xi1>, tensor<4x8xf32>
      %250 = stablehlo.subtract %iterArg_59, %228 : tensor<4x8xf32>
      %251 = stablehlo.multiply %228, %250 : tensor<4x8xf32>
      %252 = stablehlo.multiply %251, %iterArg_60 : tensor<4x8xf32>
      %253 = stablehlo.multiply %230, %228 : tensor<4x8xf32>
      %254 = stablehlo.add %iterArg, %253 : tensor<4x8xf32>
      %255 = stablehlo.subtract %254, %229 : tensor<4x8xf32>
      %256 = stablehlo.multiply %230, %228 : tensor<4x8xf32>
      %257 = stablehlo.add %iterArg, %256 : tensor<4x8xf32>
      %258 = stablehlo.multiply %255, %257 : tensor<4x8xf32>
      %259 = stablehlo.divide %252, %258 : tensor<4x8xf32>
      %cst_74 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %260 = stablehlo.broadcast_in_dim %cst_74, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
      %261 = stablehlo.select %219, %249, %259 : tensor<4x8xi1>, tensor<4x8xf32>
      %262 = stablehlo.select %221, %260, %261 : tensor<4x8xi1>, tensor<4x8xf32>
      %263 = stablehlo.broadcast_in_dim %iterArg_61, dims = [] : (tensor<i32>) -> tensor<4x8xi32>
      %c_75 = stablehlo.constant dense<0> : tensor<i32>
      %264 = stablehlo.broadcast_in_dim %c_75, dims = [] : (tensor<i32>) -> tensor<4x8xi32>
      %265 = stablehlo.compare EQ, %263, %264, SIGNED : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi1>
      %cst_76 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %266 = stablehlo.broadcast_in_dim %cst_76, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
      %cst_77 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %267 = stablehlo.broadcast_in_dim %cst_77, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
      %268 = stablehlo.select %265, %266, %267 : tensor<4x8xi1>, tensor<4x8xf32>
      %269 = stablehlo.divide %262, %iterArg_63 : tensor<4x8xf32>
      %270 = stablehlo.add %268, %269 : tensor<4x8xf32>
      %cst_78 = stablehlo.constant dense<5.96046448E-8> : tensor<f32>
      %271 = stablehlo.broadcast_in_dim %cst_78, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
      %272 = stablehlo.abs %270 : tensor<4x8xf32>
      %273 = stablehlo.compare LT, %272, %271, FLOAT : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
      %274 = stablehlo.select %273, %271, %270 : tensor<4x8xi1>, tensor<4x8xf32>
      %275 = stablehlo.multiply %262, %iterArg_64 : tensor<4x8xf32>
      %276 = stablehlo.add %268, %275 : tensor<4x8xf32>
      %277 = stablehlo.abs %276 : tensor<4x8xf32>
      %278 = stablehlo.compare LT, %277, %271, FLOAT : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
      %279 = stablehlo.select %278, %271, %276 : tensor<4x8xi1>, tensor<4x8xf32>
      %cst_79 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %280 = stablehlo.broadcast_in_dim %cst_79, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
      %281 = stablehlo.divide %280, %279 : tensor<4x8xf32>
      %282 = stablehlo.multiply %274, %281 : tensor<4x8xf32>
      %283 = stablehlo.multiply %iterArg_65, %282 : tensor<4x8xf32>
      %c_80 = stablehlo.constant dense<1> : tensor<i32>
      %284 = stablehlo.add %iterArg_61, %c_80 : tensor<i32>
      %cst_81 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %285 = stablehlo.broadcast_in_dim %cst_81, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
      %286 = stablehlo.subtract %282, %285 : tensor<4x8xf32>
      %287 = stablehlo.abs %286 : tensor<4x8xf32>
      %cst_82 = stablehlo.constant dense<5.96046448E-8> : tensor<f32>
      %288 = stablehlo.broadcast_in_dim %cst_82, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
      %289 = stablehlo.compare GE, %287, %288, FLOAT : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
      %c_83 = stablehlo.constant dense<false> : tensor<i1>
      %290 = stablehlo.reduce(%289 init: %c_83) applies stablehlo.or across dimensions = [0, 1] : (tensor<4x8xi1>, tensor<i1>) -> tensor<i1>
      stablehlo.return %iterArg, %iterArg_59, %iterArg_60, %284, %290, %274, %281, %283 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<i32>, tensor<i1>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
    }
    %166 = chlo.lgamma %149 : tensor<4x8xf32> -> tensor<4x8xf32>
    %167 = stablehlo.add %148, %149 : tensor<4x8xf32>
    %168 = chlo.lgamma %167 : tensor<4x8xf32> -> tensor<4x8xf32>
    %169 = stablehlo.subtract %166, %168 : tensor<4x8xf32>
    %170 = chlo.lgamma %148 : tensor<4x8xf32> -> tensor<4x8xf32>
    %171 = stablehlo.add %170, %169 : tensor<4x8xf32>
    %cst_54 = stablehlo.constant dense<2.3509887E-38> : tensor<f32>
    %172 = stablehlo.broadcast_in_dim %cst_54, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %173 = stablehlo.compare LT, %148, %172, FLOAT : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
    %174 = stablehlo.negate %152 : tensor<4x8xf32>
    %175 = stablehlo.log_plus_one %174 : tensor<4x8xf32>
    %176 = stablehlo.multiply %175, %149 : tensor<4x8xf32>
    %177 = stablehlo.subtract %176, %169 : tensor<4x8xf32>
    %178 = stablehlo.exponential %177 : tensor<4x8xf32>
    %179 = stablehlo.log %152 : tensor<4x8xf32>
    %180 = stablehlo.multiply %179, %148 : tensor<4x8xf32>
    %181 = stablehlo.negate %152 : tensor<4x8xf32>
    %182 = stablehlo.log_plus_one %181 : tensor<4x8xf32>
    %183 = stablehlo.multiply %182, %149 : tensor<4x8xf32>
    %184 = stablehlo.add %180, %183 : tensor<4x8xf32>
    %185 = stablehlo.subtract %184, %171 : tensor<4x8xf32>
    %186 = stablehlo.exponential %185 : tensor<4x8xf32>
    %187 = stablehlo.divide %186, %148 : tensor<4x8xf32>
    %188 = stablehlo.select %173, %178, %187 : tensor<4x8xi1>, tensor<4x8xf32>
    %189 = stablehlo.multiply %165#7, %188 : tensor<4x8xf32>
    %cst_55 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %190 = stablehlo.broadcast_in_dim %cst_55, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %191 = stablehlo.subtract %190, %189 : tensor<4x8xf32>
    %192 = stablehlo.select %147, %189, %191 : tensor<4x8xi1>, tensor<4x8xf32>
    %cst_56 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %193 = stablehlo.broadcast_in_dim %cst_56, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %194 = stablehlo.select %123, %193, %192 : tensor<4x8xi1>, tensor<4x8xf32>
    %cst_57 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %195 = stablehlo.broadcast_in_dim %cst_57, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %196 = stablehlo.select %126, %195, %194 : tensor<4x8xi1>, tensor<4x8xf32>
    %cst_58 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %197 = stablehlo.broadcast_in_dim %cst_58, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %198 = stablehlo.select %140, %197, %196 : tensor<4x8xi1>, tensor<4x8xf32>
    %199 = chlo.asin %4 : tensor<4x8xcomplex<f32>> -> tensor<4x8xcomplex<f32>>
    %200 = stablehlo.real %199 : (tensor<4x8xcomplex<f32>>) -> tensor<4x8xf32>
    %201 = chlo.asin %4 : tensor<4x8xcomplex<f32>> -> tensor<4x8xcomplex<f32>>
    %202 = stablehlo.imag %201 : (tensor<4x8xcomplex<f32>>) -> tensor<4x8xf32>
    %203 = call @arccosh(%4) : (tensor<4x8xcomplex<f32>>) -> tensor<4x8xcomplex<f32>>
    %204 = stablehlo.real %203 : (tensor<4x8xcomplex<f32>>) -> tensor<4x8xf32>
    %205 = call @arccosh(%4) : (tensor<4x8xcomplex<f32>>) -> tensor<4x8xcomplex<f32>>
    %206 = stablehlo.imag %205 : (tensor<4x8xcomplex<f32>>) -> tensor<4x8xf32>
    %207 = chlo.atanh %4 : tensor<4x8xcomplex<f32>> -> tensor<4x8xcomplex<f32>>
    %208 = stablehlo.real %207 : (tensor<4x8xcomplex<f32>>) -> tensor<4x8xf32>
    %209 = chlo.atanh %4 : tensor<4x8xcomplex<f32>> -> tensor<4x8xcomplex<f32>>
    %210 = stablehlo.imag %209 : (tensor<4x8xcomplex<f32>>) -> tensor<4x8xf32>
    %211 = chlo.sinh %4 : tensor<4x8xcomplex<f32>> -> tensor<4x8xcomplex<f32>>
    %212 = stablehlo.real %211 : (tensor<4x8xcomplex<f32>>) -> tensor<4x8xf32>
    %213 = chlo.cosh %4 : tensor<4x8xcomplex<f32>> -> tensor<4x8xcomplex<f32>>
    %214 = stablehlo.imag %213 : (tensor<4x8xcomplex<f32>>) -> tensor<4x8xf32>
    return %6, %7, %10, %12, %15, %17, %95, %198, %200, %202, %204, %206, %208, %210, %212, %214 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
  }
  func.func private @remainder(%arg0: tensor<4x8xi32>, %arg1: tensor<4x8xi32>) -> tensor<4x8xi32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<4x8xi32>
    %1 = stablehlo.compare EQ, %arg1, %0, SIGNED : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi1>
    %c_0 = stablehlo.constant dense<1> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<4x8xi32>
    %3 = call @_where(%1, %2, %arg1) : (tensor<4x8xi1>, tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi32>
    %4 = stablehlo.remainder %arg0, %3 : tensor<4x8xi32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %5 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<4x8xi32>
    %6 = stablehlo.compare NE, %4, %5, SIGNED : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi1>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %7 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<4x8xi32>
    %8 = stablehlo.compare LT, %4, %7, SIGNED : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi1>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %9 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<i32>) -> tensor<4x8xi32>
    %10 = stablehlo.compare LT, %3, %9, SIGNED : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi1>
    %11 = stablehlo.compare NE, %8, %10, UNSIGNED : (tensor<4x8xi1>, tensor<4x8xi1>) -> tensor<4x8xi1>
    %12 = stablehlo.and %11, %6 : tensor<4x8xi1>
    %13 = stablehlo.add %4, %3 : tensor<4x8xi32>
    %14 = stablehlo.select %12, %13, %4 : tensor<4x8xi1>, tensor<4x8xi32>
    return %14 : tensor<4x8xi32>
  }
  func.func private @_where(%arg0: tensor<4x8xi1>, %arg1: tensor<4x8xi32>, %arg2: tensor<4x8xi32>) -> tensor<4x8xi32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<4x8xi1>, tensor<4x8xi32>
    return %0 : tensor<4x8xi32>
  }
  func.func private @floor_divide(%arg0: tensor<4x8xi32>, %arg1: tensor<4x8xi32>) -> tensor<4x8xi32> {
    %0 = stablehlo.divide %arg0, %arg1 : tensor<4x8xi32>
    %1 = stablehlo.sign %arg0 : tensor<4x8xi32>
    %2 = stablehlo.sign %arg1 : tensor<4x8xi32>
    %3 = stablehlo.compare NE, %1, %2, SIGNED : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi1>
    %4 = stablehlo.remainder %arg0, %arg1 : tensor<4x8xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %5 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<4x8xi32>
    %6 = stablehlo.compare NE, %4, %5, SIGNED : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi1>
    %c_0 = stablehlo.constant dense<false> : tensor<i1>
    %7 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i1>) -> tensor<4x8xi1>
    %8 = stablehlo.compare NE, %3, %7, UNSIGNED : (tensor<4x8xi1>, tensor<4x8xi1>) -> tensor<4x8xi1>
    %9 = stablehlo.convert %8 : tensor<4x8xi1>
    %c_1 = stablehlo.constant dense<false> : tensor<i1>
    %10 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i1>) -> tensor<4x8xi1>
    %11 = stablehlo.compare NE, %6, %10, UNSIGNED : (tensor<4x8xi1>, tensor<4x8xi1>) -> tensor<4x8xi1>
    %12 = stablehlo.convert %11 : tensor<4x8xi1>
    %13 = stablehlo.and %9, %12 : tensor<4x8xi1>
    %c_2 = stablehlo.constant dense<1> : tensor<i32>
    %14 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<4x8xi32>
    %15 = stablehlo.subtract %0, %14 : tensor<4x8xi32>
    %16 = call @_where_0(%13, %15, %0) : (tensor<4x8xi1>, tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi32>
    return %16 : tensor<4x8xi32>
  }
  func.func private @_where_0(%arg0: tensor<4x8xi1>, %arg1: tensor<4x8xi32>, %arg2: tensor<4x8xi32>) -> tensor<4x8xi32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<4x8xi1>, tensor<4x8xi32>
    return %0 : tensor<4x8xi32>
  }
  func.func private @arccosh(%arg0: tensor<4x8xcomplex<f32>>) -> tensor<4x8xcomplex<f32>> {
    %0 = chlo.acosh %arg0 : tensor<4x8xcomplex<f32>> -> tensor<4x8xcomplex<f32>>
    %1 = stablehlo.real %0 : (tensor<4x8xcomplex<f32>>) -> tensor<4x8xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %3 = stablehlo.compare LT, %1, %2, FLOAT : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
    %4 = stablehlo.negate %0 : tensor<4x8xcomplex<f32>>
    %5 = call @_where_1(%3, %4, %0) : (tensor<4x8xi1>, tensor<4x8xcomplex<f32>>, tensor<4x8xcomplex<f32>>) -> tensor<4x8xcomplex<f32>>
    return %5 : tensor<4x8xcomplex<f32>>
  }
  func.func private @_where_1(%arg0: tensor<4x8xi1>, %arg1: tensor<4x8xcomplex<f32>>, %arg2: tensor<4x8xcomplex<f32>>) -> tensor<4x8xcomplex<f32>> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<4x8xi1>, tensor<4x8xcomplex<f32>>
    return %0 : tensor<4x8xcomplex<f32>>
  }
}
