func.func @inc(%a: tensor<4x!quant.uniform<i8:f32, 0.5:1>>) -> tensor<4x!quant.uniform<i8:f32, 0.5:1>> {
  %one = stablehlo.constant dense<3> : tensor<4xi8>
  %q1 = stablehlo.bitcast_convert %one : (tensor<4xi8>) -> tensor<4x!quant.uniform<i8:f32, 0.5:1>>
  %s = stablehlo.add %a, %q1 : tensor<4x!quant.uniform<i8:f32, 0.5:1>>
  func.return %s : tensor<4x!quant.uniform<i8:f32, 0.5:1>>
}

func.func @main() {
  %x = stablehlo.constant dense<[1.0, -1.0, 2.5, 60.0]> : tensor<4xf32>
  %q = stablehlo.uniform_quantize %x : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 0.5:1>>
  %c = func.call @inc(%q) : (tensor<4x!quant.uniform<i8:f32, 0.5:1>>) -> tensor<4x!quant.uniform<i8:f32, 0.5:1>>
  %i0 = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%i = %i0, %v = %c) : tensor<i32>, tensor<4x!quant.uniform<i8:f32, 0.5:1>>
    cond {
      %n = stablehlo.constant dense<3> : tensor<i32>
      %lt = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
    } do {
      %one = stablehlo.constant dense<1> : tensor<i32>
      %j = stablehlo.add %i, %one : tensor<i32>
      %w = func.call @inc(%v) : (tensor<4x!quant.uniform<i8:f32, 0.5:1>>) -> tensor<4x!quant.uniform<i8:f32, 0.5:1>>
      stablehlo.return %j, %w : tensor<i32>, tensor<4x!quant.uniform<i8:f32, 0.5:1>>
    }
  %d = stablehlo.uniform_dequantize %r#1 : (tensor<4x!quant.uniform<i8:f32, 0.5:1>>) -> tensor<4xf32>
  check.expect_eq_const %d, dense<[5.0, 3.0, 6.5, 63.0]> : tensor<4xf32>
  %p = stablehlo.constant dense<1> : tensor<i8>
  %qp = stablehlo.bitcast_convert %p : (tensor<i8>) -> tensor<!quant.uniform<i8:f32, 0.5:1>>
  %pad = stablehlo.pad %q, %qp, low = [1], high = [1], interior = [0] : (tensor<4x!quant.uniform<i8:f32, 0.5:1>>, tensor<!quant.uniform<i8:f32, 0.5:1>>) -> tensor<6x!quant.uniform<i8:f32, 0.5:1>>
  %pd = stablehlo.uniform_dequantize %pad : (tensor<6x!quant.uniform<i8:f32, 0.5:1>>) -> tensor<6xf32>
  check.expect_eq_const %pd, dense<[0.0, 1.0, -1.0, 2.5, 60.0, 0.0]> : tensor<6xf32>
  %t = stablehlo.constant dense<[true, false, true, false]> : tensor<4xi1>
  %sel = stablehlo.select %t, %q, %c : tensor<4xi1>, tensor<4x!quant.uniform<i8:f32, 0.5:1>>
  %sd = stablehlo.uniform_dequantize %sel : (tensor<4x!quant.uniform<i8:f32, 0.5:1>>) -> tensor<4xf32>
  check.expect_eq_const %sd, dense<[1.0, 0.0, 2.5, 61.0]> : tensor<4xf32>
  %w = stablehlo.constant dense<[[1], [2], [3], [4]]> : tensor<4x1xi8>
  %qw = stablehlo.bitcast_convert %w : (tensor<4x1xi8>) -> tensor<4x1x!quant.uniform<i8:f32:0, {1.0, 1.0, 1.0, 1.0}>>
  %bad = stablehlo.dot_general %q, %qw, contracting_dims = [0] x [0] : (tensor<4x!quant.uniform<i8:f32, 0.5:1>>, tensor<4x1x!quant.uniform<i8:f32:0, {1.0, 1.0, 1.0, 1.0}>>) -> tensor<1x!quant.uniform<i8:f32, 1.0>>
  %bd = stablehlo.uniform_dequantize %bad : (tensor<1x!quant.uniform<i8:f32, 1.0>>) -> tensor<1xf32>
  check.expect_eq_const %bd, dense<[127.0]> : tensor<1xf32>
  func.return
}
