"""Property tests (Hypothesis): the verifier agrees with NumPy's broadcasting,
XLA ``broadcast_dimensions`` agree with an independent construction, and the
reference evaluator agrees with NumPy on random programs."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import mutually_broadcastable_shapes

import bcast
from bcast.tests.budget import examples
from bcast.tests.programs import assert_results, programs, type_text
from bcast.tools.driver import InputError, load

FAST = settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
PROGRAMS = settings(max_examples=examples(60), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

dims = st.sampled_from([1, 2, 3, 0, 4])
shapes = st.lists(dims, min_size=0, max_size=4).map(tuple)


def shape_tuples(n: int):
    """n shapes: often mutually broadcastable, sometimes independent."""
    compatible = mutually_broadcastable_shapes(num_shapes=n, min_dims=0, max_dims=4, max_side=4).map(
        lambda s: s.input_shapes
    )
    return st.one_of(compatible, st.tuples(*[shapes] * n))


def t(shape, element="f32") -> str:
    return type_text((tuple(shape),), element)


def program(args: list[str], line: str, result: str, semantics: str | None = None) -> str:
    params = ", ".join(f"%x{i}: {a}" for i, a in enumerate(args))
    func = (f"func.func @main({params}) -> {result} {{\n  %0 = {line}\n"
            f"  func.return %0 : {result}\n}}\n")
    if semantics is None:
        return func
    return f'module attributes {{bcast.semantics = "{semantics}"}} {{\n{func}}}\n'


def numpy_result(*shapes):
    try:
        return np.broadcast_shapes(*shapes)
    except ValueError:
        return None


def guess(*shapes):
    """A plausible but wrong result shape for rejected programs: per aligned
    dimension the largest size."""
    rank = max(len(s) for s in shapes)
    padded = [(1,) * (rank - len(s)) + tuple(s) for s in shapes]
    return tuple(max(col) for col in zip(*padded)) if rank else ()


def check(text: str, expected_ok: bool) -> None:
    if expected_ok:
        load(text, "prop.mlir")
    else:
        with pytest.raises(InputError) as info:
            load(text, "prop.mlir")
        assert info.value.reports and info.value.reports[0].loc is not None


# --------------------------------------------------------------------------
# (a) the verifier's accept/reject and inferred shape equal numpy's
# --------------------------------------------------------------------------


@FAST
@given(shape_tuples(2), st.sampled_from(["numpy", "tml", None]), st.sampled_from(["add", "compare"]))
def test_binary_op_shape_agrees_with_numpy(pair, semantics, op):
    a, b = pair
    expected = numpy_result(a, b)
    out = "i1" if op == "compare" else "f32"
    head = "bcast.compare LT," if op == "compare" else "bcast.add"
    result = t(expected if expected is not None else guess(a, b), out)
    text = program([t(a), t(b)], f"{head} %x0, %x1 : ({t(a)}, {t(b)}) -> {result}", result, semantics)
    ok = expected is not None
    if semantics == "tml" and op == "compare":  # relational: a scalar or identical shapes
        ok = ok and (a == b or a == () or b == ())
    check(text, ok)
    if ok:
        # any other declared result type is rejected
        wrong = tuple(expected) + (1,) if len(expected) < 4 else tuple(expected)[1:]
        bad = t(wrong, out)
        check(program([t(a), t(b)], f"{head} %x0, %x1 : ({t(a)}, {t(b)}) -> {bad}", bad, semantics),
              False)


@FAST
@given(shape_tuples(3), st.sampled_from(["numpy", "tml"]))
def test_select_shape_agrees_with_numpy(triple, semantics):
    p, a, b = triple
    expected = numpy_result(p, a, b)
    result = t(expected if expected is not None else guess(p, a, b))
    types = f"({t(p, 'i1')}, {t(a)}, {t(b)})"
    text = program([t(p, "i1"), t(a), t(b)], f"bcast.select %x0, %x1, %x2 : {types} -> {result}",
                   result, semantics)
    check(text, expected is not None)


@FAST
@given(shape_tuples(2))
def test_xla_without_dims_is_same_rank_numpy(pair):
    """Under xla, operands without broadcast_dimensions must have the same rank
    (or one of rank 0), then degenerate broadcasting is NumPy's."""
    a, b = pair
    expected = numpy_result(a, b)
    ok = expected is not None and (len(a) == len(b) or not a or not b)
    result = t(expected if expected is not None else guess(a, b))
    text = program([t(a), t(b)], f"bcast.add %x0, %x1 : ({t(a)}, {t(b)}) -> {result}", result, "xla")
    check(text, ok)


# --------------------------------------------------------------------------
# (b) XLA broadcast_dimensions against an independent construction
# --------------------------------------------------------------------------


@st.composite
def in_dim_cases(draw):
    high = draw(st.lists(dims, min_size=1, max_size=4).map(tuple))
    low_rank = draw(st.integers(0, len(high) - 1))
    if draw(st.booleans()):  # a valid-looking tuple and sizes taken from high
        bdims = sorted(draw(st.permutations(range(len(high))))[:low_rank])
        low = tuple(draw(st.sampled_from([high[d], 1, high[d], 2])) for d in bdims)
    else:
        low = tuple(draw(st.lists(dims, min_size=low_rank, max_size=low_rank)))
        bdims = draw(st.lists(st.integers(-1, len(high)), min_size=max(0, low_rank - 1),
                              max_size=low_rank + 1))
    return low, high, list(bdims), draw(st.booleans())


def independent_in_dim(low, high, bdims):
    """The result shape of XLA InDim broadcasting, or None: expand ``low`` to
    ``high``'s rank with np.expand_dims at the dims not listed, then NumPy."""
    if len(bdims) != len(low) or any(not 0 <= d < len(high) for d in bdims):
        return None
    if any(b <= a for a, b in zip(bdims, bdims[1:])):
        return None
    others = tuple(i for i in range(len(high)) if i not in bdims)
    expanded = np.expand_dims(np.empty(low), others).shape
    assert [expanded[d] for d in bdims] == list(low)
    return numpy_result(expanded, high)


@FAST
@given(in_dim_cases(), st.sampled_from(["xla", "numpy"]))
def test_xla_broadcast_dimensions_agree_with_expand_dims(case, semantics):
    low, high, bdims, low_is_lhs = case
    expected = independent_in_dim(low, high, bdims)
    lhs, rhs = (low, high) if low_is_lhs else (high, low)
    result = t(expected if expected is not None else high)
    dims_text = ", ".join(map(str, bdims))
    line = (f"bcast.add %x0, %x1 broadcast_dimensions = [{dims_text}] : "
            f"({t(lhs)}, {t(rhs)}) -> {result}")
    check(program([t(lhs), t(rhs)], line, result, semantics), expected is not None)


@FAST
@given(in_dim_cases())
def test_broadcast_in_dim_op_agrees_with_numpy(case):
    """broadcast_in_dim(low -> high, dims) is valid exactly when numpy can
    broadcast the expanded operand to ``high`` without changing ``high``."""
    low, high, bdims, _ = case
    ok = len(bdims) == len(low) and len(set(bdims)) == len(bdims) and all(
        0 <= d < len(high) for d in bdims)
    if ok:
        order = sorted(range(len(bdims)), key=lambda i: bdims[i])
        moved = np.transpose(np.empty(low), order) if low else np.empty(low)
        others = tuple(i for i in range(len(high)) if i not in bdims)
        expanded = np.expand_dims(moved, others).shape
        ok = numpy_result(expanded, high) == tuple(high)
    line = (f"bcast.broadcast_in_dim %x0, dims = [{', '.join(map(str, bdims))}] : "
            f"({t(low)}) -> {t(high)}")
    check(program([t(low)], line, t(high), "numpy"), ok)


# --------------------------------------------------------------------------
# (c) the reference evaluator agrees with NumPy on random programs
# --------------------------------------------------------------------------


def run_program(p) -> None:
    f = bcast.compile(p.text, backend="reference")
    assert_results(p, f(*[a.copy() for a in p.inputs]))


@PROGRAMS
@given(programs(mode="numpy", max_ops=6))
def test_reference_matches_numpy_numpy_mode(p):
    run_program(p)


@PROGRAMS
@given(programs(mode="xla", max_ops=6))
def test_reference_matches_numpy_xla_mode(p):
    run_program(p)


@PROGRAMS
@given(programs(mode="tml", max_ops=6))
def test_reference_matches_numpy_tml_mode(p):
    run_program(p)


@pytest.mark.slow
@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(programs(max_ops=12))
def test_reference_matches_numpy_long_programs(p):
    run_program(p)


@PROGRAMS
@given(programs(max_ops=8))
def test_generated_programs_verify(p):
    """Every generated program parses and verifies (the generator's contract)."""
    load(p.text, "gen.mlir")


def test_generator_examples_cover_the_ops():
    """A fixed sample of generated programs uses every op family and mode."""
    seen_ops: set[str] = set()
    seen_modes: set[str] = set()
    nested = zero = rank0 = dims = 0

    @settings(max_examples=300, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(programs(max_ops=8))
    def collect(p):
        nonlocal nested, zero, rank0, dims
        seen_ops.update(p.ops)
        seen_modes.add(p.mode)
        nested += "xtensor<" in p.text or "tensor<tensor<" in p.text
        zero += any(0 in a.shape for a in p.inputs)
        rank0 += any(a.ndim == 0 for a in p.inputs)
        dims += "broadcast_dimensions" in p.text

    collect()
    assert seen_modes == {"numpy", "xla", "tml"}
    missing = {"add", "compare", "select", "negate", "broadcast_in_dim", "transpose", "reshape",
               "convert", "constant"} - seen_ops
    assert not missing
    assert nested and zero and rank0 and dims
