module @jit_fft_spectrum attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<64x4096xf32>) -> (tensor<64x2049xf32> {jax.result_info = "result[0]"}, tensor<64x4096xf32> {jax.result_info = "result[1]"}) {
    %0 = call @fft(%arg0) : (tensor<64x4096xf32>) -> tensor<64x2049xcomplex<f32>>
    %1 = stablehlo.abs %0 : (tensor<64x2049xcomplex<f32>>) -> tensor<64x2049xf32>
    %2 = stablehlo.multiply %1, %1 : tensor<64x2049xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<64x2049xf32>
    %4 = stablehlo.compare GT, %2, %3, FLOAT : (tensor<64x2049xf32>, tensor<64x2049xf32>) -> tensor<64x2049xi1>
    %5 = stablehlo.convert %4 : (tensor<64x2049xi1>) -> tensor<64x2049xcomplex<f32>>
    %6 = stablehlo.multiply %0, %5 : tensor<64x2049xcomplex<f32>>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %7 = call @_pad(%6, %c) : (tensor<64x2049xcomplex<f32>>, tensor<i32>) -> tensor<64x2049xcomplex<f32>>
    %8 = call @fft_0(%7) : (tensor<64x2049xcomplex<f32>>) -> tensor<64x4096xf32>
    return %2, %8 : tensor<64x2049xf32>, tensor<64x4096xf32>
  }
  func.func private @fft(%arg0: tensor<64x4096xf32>) -> tensor<64x2049xcomplex<f32>> {
    %0 = stablehlo.fft %arg0, type = RFFT, length = [4096] : (tensor<64x4096xf32>) -> tensor<64x2049xcomplex<f32>>
    return %0 : tensor<64x2049xcomplex<f32>>
  }
  func.func private @_pad(%arg0: tensor<64x2049xcomplex<f32>>, %arg1: tensor<i32>) -> tensor<64x2049xcomplex<f32>> {
    %0 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<complex<f32>>
    %1 = stablehlo.pad %arg0, %0, low = [0, 0], high = [0, 0], interior = [0, 0] : (tensor<64x2049xcomplex<f32>>, tensor<complex<f32>>) -> tensor<64x2049xcomplex<f32>>
    return %1 : tensor<64x2049xcomplex<f32>>
  }
  func.func private @fft_0(%arg0: tensor<64x2049xcomplex<f32>>) -> tensor<64x4096xf32> {
    %0 = stablehlo.fft %arg0, type = IRFFT, length = [4096] : (tensor<64x2049xcomplex<f32>>) -> tensor<64x4096xf32>
    return %0 : tensor<64x4096xf32>
  }
}
