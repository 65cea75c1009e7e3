module @jit_fft_ops attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x10xf32>, %arg1: tensor<6x5xcomplex<f32>>, %arg2: tensor<2x3x4xcomplex<f64>>, %arg3: tensor<5x7xf64>) -> (tensor<3x6xcomplex<f32>> {jax.result_info = "result[0]"}, tensor<3x10xf32> {jax.result_info = "result[1]"}, tensor<6x5xcomplex<f32>> {jax.result_info = "result[2]"}, tensor<2x3x4xcomplex<f64>> {jax.result_info = "result[3]"}, tensor<5x4xcomplex<f64>> {jax.result_info = "result[4]"}, tensor<5x7xf64> {jax.result_info = "result[5]"}) {
    %0 = call @fft(%arg0) : (tensor<3x10xf32>) -> tensor<3x6xcomplex<f32>>
    %c = stablehlo.constant dense<0> : tensor<i64>
    %1 = call @_pad(%0, %c) : (tensor<3x6xcomplex<f32>>, tensor<i64>) -> tensor<3x6xcomplex<f32>>
    %2 = call @fft_0(%1) : (tensor<3x6xcomplex<f32>>) -> tensor<3x10xf32>
    %3 = call @fft_1(%arg1) : (tensor<6x5xcomplex<f32>>) -> tensor<6x5xcomplex<f32>>
    %4 = call @fft_2(%arg2) : (tensor<2x3x4xcomplex<f64>>) -> tensor<2x3x4xcomplex<f64>>
    %5 = call @fft_3(%arg3) : (tensor<5x7xf64>) -> tensor<5x4xcomplex<f64>>
    %6 = call @fft_3(%arg3) : (tensor<5x7xf64>) -> tensor<5x4xcomplex<f64>>
    %c_0 = stablehlo.constant dense<0> : tensor<i64>
    %7 = call @_pad_4(%6, %c_0) : (tensor<5x4xcomplex<f64>>, tensor<i64>) -> tensor<5x4xcomplex<f64>>
    %8 = call @fft_5(%7) : (tensor<5x4xcomplex<f64>>) -> tensor<5x7xf64>
    return %0, %2, %3, %4, %5, %8 : tensor<3x6xcomplex<f32>>, tensor<3x10xf32>, tensor<6x5xcomplex<f32>>, tensor<2x3x4xcomplex<f64>>, tensor<5x4xcomplex<f64>>, tensor<5x7xf64>
  }
  func.func private @fft(%arg0: tensor<3x10xf32>) -> tensor<3x6xcomplex<f32>> {
    %0 = stablehlo.fft %arg0, type = RFFT, length = [10] : (tensor<3x10xf32>) -> tensor<3x6xcomplex<f32>>
    return %0 : tensor<3x6xcomplex<f32>>
  }
  func.func private @_pad(%arg0: tensor<3x6xcomplex<f32>>, %arg1: tensor<i64>) -> tensor<3x6xcomplex<f32>> {
    %0 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<complex<f32>>
    %1 = stablehlo.pad %arg0, %0, low = [0, 0], high = [0, 0], interior = [0, 0] : (tensor<3x6xcomplex<f32>>, tensor<complex<f32>>) -> tensor<3x6xcomplex<f32>>
    return %1 : tensor<3x6xcomplex<f32>>
  }
  func.func private @fft_0(%arg0: tensor<3x6xcomplex<f32>>) -> tensor<3x10xf32> {
    %0 = stablehlo.fft %arg0, type = IRFFT, length = [10] : (tensor<3x6xcomplex<f32>>) -> tensor<3x10xf32>
    return %0 : tensor<3x10xf32>
  }
  func.func private @fft_1(%arg0: tensor<6x5xcomplex<f32>>) -> tensor<6x5xcomplex<f32>> {
    %0 = stablehlo.fft %arg0, type = FFT, length = [6, 5] : (tensor<6x5xcomplex<f32>>) -> tensor<6x5xcomplex<f32>>
    return %0 : tensor<6x5xcomplex<f32>>
  }
  func.func private @fft_2(%arg0: tensor<2x3x4xcomplex<f64>>) -> tensor<2x3x4xcomplex<f64>> {
    %0 = stablehlo.fft %arg0, type = IFFT, length = [2, 3, 4] : (tensor<2x3x4xcomplex<f64>>) -> tensor<2x3x4xcomplex<f64>>
    return %0 : tensor<2x3x4xcomplex<f64>>
  }
  func.func private @fft_3(%arg0: tensor<5x7xf64>) -> tensor<5x4xcomplex<f64>> {
    %0 = stablehlo.fft %arg0, type = RFFT, length = [5, 7] : (tensor<5x7xf64>) -> tensor<5x4xcomplex<f64>>
    return %0 : tensor<5x4xcomplex<f64>>
  }
  func.func private @_pad_4(%arg0: tensor<5x4xcomplex<f64>>, %arg1: tensor<i64>) -> tensor<5x4xcomplex<f64>> {
    %0 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<complex<f64>>
    %1 = stablehlo.pad %arg0, %0, low = [0, 0], high = [0, 0], interior = [0, 0] : (tensor<5x4xcomplex<f64>>, tensor<complex<f64>>) -> tensor<5x4xcomplex<f64>>
    return %1 : tensor<5x4xcomplex<f64>>
  }
  func.func private @fft_5(%arg0: tensor<5x4xcomplex<f64>>) -> tensor<5x7xf64> {
    %0 = stablehlo.fft %arg0, type = IRFFT, length = [5, 7] : (tensor<5x4xcomplex<f64>>) -> tensor<5x7xf64>
    return %0 : tensor<5x7xf64>
  }
}
