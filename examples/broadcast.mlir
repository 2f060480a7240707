// out = (x + row) * col - 0.5 * x, with NumPy-style implicit broadcasting:
// row (4) is broadcast over the rows of x (3x4), col (3x1) over its columns.
func.func @main(%x: tensor<3x4xf32>, %row: tensor<4xf32>, %col: tensor<3x1xf32>) -> tensor<3x4xf32> {
  %half = bcast.constant dense<0.5> : tensor<f32>
  %sum = bcast.add %x, %row : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  %scaled = bcast.multiply %sum, %col : (tensor<3x4xf32>, tensor<3x1xf32>) -> tensor<3x4xf32>
  %hx = bcast.multiply %half, %x : (tensor<f32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %out = bcast.subtract %scaled, %hx : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  func.return %out : tensor<3x4xf32>
}
