// RUN: bcast-opt %s --split-input-file --verify-diagnostics -p "convert-stablehlo-to-bcast{strict=true}"

// Windows that cannot fit, refused at the op when their sizes are constants
// (at run time otherwise: tests/lowering/test_dynamic_windows.py).

func.func @gather_window_larger_than_the_dim(%x: tensor<?x8xf32>, %i: tensor<2xi32>) -> tensor<?x9xf32> {
  %nine = stablehlo.constant dense<9> : tensor<1xi32>
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x8xf32>) -> tensor<i32>
  %n1 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %sizes = stablehlo.concatenate %n1, %nine, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  // expected-error @+1 {{'stablehlo.dynamic_gather' op slice size 9 of dimension 1 is out of bounds for its size 8}}
  %r = "stablehlo.dynamic_gather"(%x, %i, %sizes) <{dimension_numbers = #stablehlo.gather<offset_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 0>}> : (tensor<?x8xf32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x9xf32>
  func.return %r : tensor<?x9xf32>
}

// -----

func.func @gather_collapsed_dim_of_run_time_size(%x: tensor<?x8xf32>, %i: tensor<1xi32>) -> tensor<8xf32> {
  %eight = stablehlo.constant dense<8> : tensor<1xi32>
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x8xf32>) -> tensor<i32>
  %n1 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %sizes = stablehlo.concatenate %n1, %eight, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  // expected-note @+2 {{a collapsed dim's slice size must be 1}}
  // expected-error @+1 {{'stablehlo.dynamic_gather' op with slice sizes of this form is not supported by convert-stablehlo-to-bcast}}
  %r = "stablehlo.dynamic_gather"(%x, %i, %sizes) <{dimension_numbers = #stablehlo.gather<offset_dims = [0], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 0>}> : (tensor<?x8xf32>, tensor<1xi32>, tensor<2xi32>) -> tensor<8xf32>
  func.return %r : tensor<8xf32>
}

// -----

func.func @slice_window_larger_than_the_dim(%x: tensor<?x8xf32>, %i: tensor<2xi32>) -> tensor<?x9xf32> {
  %nine = stablehlo.constant dense<9> : tensor<1xi32>
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x8xf32>) -> tensor<i32>
  %n1 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %sizes = stablehlo.concatenate %n1, %nine, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %l = stablehlo.add %i, %sizes : tensor<2xi32>
  %units = stablehlo.constant dense<1> : tensor<2xi32>
  // expected-error @+1 {{'stablehlo.real_dynamic_slice' op window size 9 of dimension 1 is out of bounds for its size 8}}
  %r = stablehlo.real_dynamic_slice %x, %i, %l, %units : (tensor<?x8xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x9xf32>
  func.return %r : tensor<?x9xf32>
}
