"""The table of docs/semantics.md ("Dynamic and bounded shapes") in
``bcast.ir.rules``: each pair of aligned dims is proven, refuted or left to
a run-time check, and a refuted pair never has a run-time size that NumPy
broadcasts."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from bcast.ir import rules
from bcast.ir.rules import Dynamic, IncompatibleDims, RuleError

Q = Dynamic()


@pytest.mark.parametrize("a, b, result, check", [
    (4, 4, 4, None),                          # n and n
    (1, 5, 5, None),                          # 1 and x
    (Q, 1, Q, None),                          # ? and 1
    (1, Dynamic(3), Dynamic(3), None),
    (Q, 4, 4, "broadcastable"),               # ? and n: ? is 1 or n
    (4, Q, 4, "broadcastable"),
    (Q, Q, Q, "broadcastable"),               # ? and ? (different values)
    (Dynamic(2), 4, 4, "is_one"),             # ?<=B and n, B < n: ? is 1
    (Dynamic(4), 4, 4, "broadcastable"),      # B = n: either
    (Dynamic(4), Dynamic(8), Dynamic(8), "broadcastable"),
    (Dynamic(4), Q, Q, "broadcastable"),
])
def test_broadcast_dim_rows(a, b, result, check):
    assert not rules.refuted_pair(a, b)
    assert rules.broadcast_dim(a, b) == (result, check)


def test_the_same_value_twice_is_proven():
    assert rules.broadcast_dim(Q, Q, same=True) == (Q, None)
    assert rules.broadcast_dynamic_shapes((Q, 4), (Q, 4), same=True) == ((Q, 4), [])


@pytest.mark.parametrize("a, b", [(3, 4), (Dynamic(0), 4), (4, Dynamic(0))])
def test_refuted_pairs(a, b):
    assert rules.refuted_pair(a, b)
    with pytest.raises(IncompatibleDims):
        rules.broadcast_dynamic_shapes((a,), (b,))


def test_shapes_give_the_checks_per_axis():
    shape, checks = rules.broadcast_dynamic_shapes((Q, 1, Dynamic(2)), (5, 3, 4))
    assert shape == (5, 3, 4)
    assert checks == [(-3, "broadcastable"), (-1, "is_one")]


def test_static_shapes_are_the_static_rule():
    assert rules.broadcast_dynamic_shapes((2, 1), (3,)) == ((2, 3), [])
    assert rules.broadcast_shapes((Q, 1), (3,)) == (Q, 3)


@pytest.mark.parametrize("a, b, expected", [
    (Q, 4, (4, "equal")),
    (Q, 1, (1, "equal")),                      # never stretched: 1 only if equal
    (Dynamic(2), 4, None),
    (Q, Dynamic(3), (Dynamic(3), "equal")),
    (3, 4, None),
    (4, 4, (4, None)),
])
def test_strict_dim(a, b, expected):
    assert rules.strict_dim(a, b) == expected


def test_strict_levels_need_the_same_rank():
    with pytest.raises(RuleError, match="identical shapes"):
        rules.check_strict_levels((((Q,),), ((4, Q),)), "logical")
    assert rules.check_strict_levels((((Q,),), ((4,),)), "logical") == ((4,),)


def test_compatible_declared_dims():
    assert rules.compatible_dims(Q, 4)              # more static: checked at run time
    assert not rules.compatible_dims(4, Q)          # less static: a fact dropped
    assert rules.compatible_dims(Dynamic(4), 3)
    assert not rules.compatible_dims(Dynamic(4), 5)
    assert not rules.compatible_dims(4, Dynamic(3))
    assert not rules.compatible_levels(((Q,),), ((Q, 1),))


@pytest.mark.parametrize("operand, result, refuted", [
    (Q, 4, False), (Dynamic(2), 4, False), (Dynamic(0), 4, True), (Dynamic(0), 1, True),
    (3, Q, False), (1, Q, False), (3, Dynamic(2), True), (Q, Q, False),
])
def test_refuted_expansion(operand, result, refuted):
    assert rules.refuted_expansion(operand, result) == refuted


def _dims():
    for static in (0, 1, 2, 3):
        yield static
    yield Q
    for bound in (0, 1, 2, 3):
        yield Dynamic(bound)


def _sizes(d):
    """The run-time sizes a dim allows (up to 4)."""
    return [d] if isinstance(d, int) else [n for n in range(5) if rules.may_be(d, n)]


@pytest.mark.parametrize("a, b", list(itertools.product(list(_dims()), repeat=2)), ids=str)
def test_table_agrees_with_numpy_at_every_size(a, b):
    """Refuted exactly when no run-time sizes broadcast; otherwise the
    inferred dim allows the size NumPy gives, and the check passes exactly
    when NumPy succeeds."""
    outcomes = []
    for x, y in itertools.product(_sizes(a), _sizes(b)):
        try:
            outcomes.append((x, y, np.broadcast_shapes((x,), (y,))[0]))
        except ValueError:
            outcomes.append((x, y, None))
    assert rules.refuted_pair(a, b) == all(n is None for _, _, n in outcomes)
    if rules.refuted_pair(a, b):
        return
    result, check = rules.broadcast_dim(a, b)
    for x, y, n in outcomes:
        passes = {None: True, "broadcastable": x == y or 1 in (x, y),
                  "is_one": (x if isinstance(a, Dynamic) else y) == 1}[check]
        assert passes == (n is not None), (x, y, check)
        if n is not None:
            assert rules.may_be(result, n)


# --------------------------------------------------------------------------
# The table's third column on ops: what each op leaves to run time
# --------------------------------------------------------------------------

from bcast.tools.driver import load  # noqa: E402


def checks_of(body: str, args: str, semantics: str = "numpy") -> list:
    text = (f'module attributes {{bcast.semantics = "{semantics}"}} {{\nfunc.func @main({args}) {{\n'
            f"{body}\n  func.return\n}}\n}}\n")
    module = load(text, "t.mlir")
    ops = [op for op in module.walk() if op.name.startswith("bcast.")]
    return [op.runtime_checks() for op in ops]


def test_runtime_checks_per_row():
    args = ("%d: tensor<?xf32>, %e: tensor<?xf32>, %one: tensor<1xf32>, %four: tensor<4xf32>, "
            "%b2: tensor<?xf32, #stablehlo.bounds<2>>")
    body = """  %0 = bcast.add %d, %one : (tensor<?xf32>, tensor<1xf32>) -> tensor<?xf32>
  %1 = bcast.add %d, %four : (tensor<?xf32>, tensor<4xf32>) -> tensor<4xf32>
  %2 = bcast.add %d, %e : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  %3 = bcast.add %d, %d : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  %4 = bcast.add %b2, %four : (tensor<?xf32, #stablehlo.bounds<2>>, tensor<4xf32>) -> tensor<4xf32>
  %5 = bcast.add %d, %e : (tensor<?xf32>, tensor<?xf32>) -> tensor<4xf32>
  %6 = bcast.add %four, %four : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %7 = bcast.select %p, %d, %d : (tensor<1xi1>, tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>"""
    assert checks_of(body, args + ", %p: tensor<1xi1>") == [
        [],                                          # ? and 1
        [(0, -1, "broadcastable")],                  # ? and n
        [(0, -1, "broadcastable")],                  # ? and ?
        [],                                          # the same SSA value twice
        [(0, -1, "is_one")],                         # ?<=2 and 4
        [(0, -1, "broadcastable"), (0, -1, "equal")],  # declared more static
        [],                                          # static
        [],                                          # 1, ? and the same ?: proven
    ]


def test_runtime_checks_under_xla_and_tml():
    xla = checks_of("  %0 = bcast.add %m, %c broadcast_dimensions = [0] : (tensor<?x4xf32>, tensor<3xf32>) -> "
                    "tensor<3x4xf32>", "%m: tensor<?x4xf32>, %c: tensor<3xf32>", "xla")
    assert xla == [[(0, -2, "broadcastable")]]
    tml = checks_of("""  %0 = bcast.and %p, %q : (tensor<?xi1>, tensor<4xi1>) -> tensor<4xi1>
  %1 = bcast.add %n, %m : (tensor<2xtensor<?xf32>>, tensor<2xtensor<3xf32>>) -> tensor<2xtensor<3xf32>>
  %2 = bcast.and %p, %p : (tensor<?xi1>, tensor<?xi1>) -> tensor<?xi1>""",
                    "%p: tensor<?xi1>, %q: tensor<4xi1>, %n: tensor<2xtensor<?xf32>>, %m: tensor<2xtensor<3xf32>>",
                    "tml")
    assert tml == [[(0, -1, "equal")], [(1, -1, "broadcastable")], []]
