// RUN: bcast-opt %s -t stablehlo | filecheck %s

// -t stablehlo writes bcast.scatter as StableHLO's scatter, in the generic
// form StableHLO prints, with the update computation JAX writes: the update
// returned (set) or combined by the kind's op (add, maximum, multiply). tests/lowering/test_scatter.py has XLA run them.

// CHECK-LABEL: func.func @main
func.func @main(%x: tensor<6x4xf32>, %i: tensor<3x1xi32>, %u: tensor<3x4xf32>) -> (tensor<6x4xf32>, tensor<6x4xf32>, tensor<6x4xf32>, tensor<6x4xf32>) {
// CHECK-NEXT: %0 = "stablehlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
// CHECK-NEXT: ^bb0(%{{.*}}: tensor<f32>, %[[NEW:.*]]: tensor<f32>):
// CHECK-NEXT:   stablehlo.return %[[NEW]] : tensor<f32>
// CHECK-NEXT: }) : (tensor<6x4xf32>, tensor<3x1xi32>, tensor<3x4xf32>) -> tensor<6x4xf32>
  %0 = bcast.scatter set %x[%i], %u, <update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1> : (tensor<6x4xf32>, tensor<3x1xi32>, tensor<3x4xf32>) -> tensor<6x4xf32>
// CHECK-NEXT: %{{.*}} = "stablehlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
// CHECK-NEXT: ^bb0(%[[OLD:.*]]: tensor<f32>, %[[UPD:.*]]: tensor<f32>):
// CHECK-NEXT:   %[[SUM:.*]] = stablehlo.add %[[OLD]], %[[UPD]] : tensor<f32>
// CHECK-NEXT:   stablehlo.return %[[SUM]] : tensor<f32>
// CHECK-NEXT: }) : (tensor<6x4xf32>, tensor<3x1xi32>, tensor<3x4xf32>) -> tensor<6x4xf32>
  %1 = bcast.scatter add %x[%i], %u, <update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1> : (tensor<6x4xf32>, tensor<3x1xi32>, tensor<3x4xf32>) -> tensor<6x4xf32>
// maximum: the op, then a NaN of either argument kept (XLA's maximum ignores a NaN operand).
// CHECK-NEXT: %{{.*}} = "stablehlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
// CHECK-NEXT: ^bb0(%[[A:.*]]: tensor<f32>, %[[B:.*]]: tensor<f32>):
// CHECK-NEXT:   %[[MAX:.*]] = stablehlo.maximum %[[A]], %[[B]] : tensor<f32>
// CHECK-NEXT:   %[[BNAN:.*]] = stablehlo.compare NE, %[[B]], %[[B]], FLOAT
// CHECK-NEXT:   %[[R1:.*]] = stablehlo.select %[[BNAN]], %[[B]], %[[MAX]]
// CHECK-NEXT:   %[[ANAN:.*]] = stablehlo.compare NE, %[[A]], %[[A]], FLOAT
// CHECK-NEXT:   %[[R2:.*]] = stablehlo.select %[[ANAN]], %[[A]], %[[R1]]
// CHECK-NEXT:   stablehlo.return %[[R2]] : tensor<f32>
// CHECK-NEXT: }) : (tensor<6x4xf32>, tensor<3x1xi32>, tensor<3x4xf32>) -> tensor<6x4xf32>
  %2 = bcast.scatter maximum %x[%i], %u, <update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1> : (tensor<6x4xf32>, tensor<3x1xi32>, tensor<3x4xf32>) -> tensor<6x4xf32>
// CHECK-NEXT: "stablehlo.scatter"
// CHECK-NEXT: ^bb0(%[[C:.*]]: tensor<f32>, %[[D:.*]]: tensor<f32>):
// CHECK-NEXT:   %[[PRODUCT:.*]] = stablehlo.multiply %[[C]], %[[D]] : tensor<f32>
// CHECK-NEXT:   stablehlo.return %[[PRODUCT]] : tensor<f32>
  %3 = bcast.scatter multiply %x[%i], %u, <update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1> : (tensor<6x4xf32>, tensor<3x1xi32>, tensor<3x4xf32>) -> tensor<6x4xf32>
  func.return %0, %1, %2, %3 : tensor<6x4xf32>, tensor<6x4xf32>, tensor<6x4xf32>, tensor<6x4xf32>
}
