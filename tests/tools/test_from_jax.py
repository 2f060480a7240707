"""``bcast.from_jax(fn, *example_args)``: a JAX function lowered by
``jax.jit(fn).lower(...)`` and imported into a bcast module, which
``bcast.compile`` runs to JAX's own results on every backend, and which
exports back to StableHLO that XLA runs to the same results.

Skipped, visibly, when jax is not installed; the message bcast gives then
is checked without jax too.
"""

from __future__ import annotations

import inspect
import math
import sys

import numpy as np
import pytest

import bcast
from bcast.tools.api import BACKENDS


def test_missing_jax_is_a_clear_error(monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "jax", None)  # `import jax` raises ImportError
    with pytest.raises(bcast.BcastError, match=r"needs jax, which is not installed; .*bcast\[jax\]"):
        bcast.from_jax(lambda x: x, np.zeros(3, np.float32))


jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")

from xdsl.dialects import func  # noqa: E402

from bcast.lowering.stablehlo_emitter import emit_text  # noqa: E402
from bcast.tools.jax_bridge import lower_to_stablehlo, run_stablehlo, verify_stablehlo  # noqa: E402

rng = np.random.default_rng(0)
X = rng.standard_normal((8, 16)).astype(np.float32)


def softmax(x):
    return jax.nn.softmax(x, axis=-1)


def layernorm(x):
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)
    return (x - mean) / jnp.sqrt(var + 1e-5)


def logsumexp(x):
    return jax.nn.logsumexp(x, axis=-1)


def where(c, x, y):
    return jnp.where(c, x, y)


def where_cmp(x, row):
    return jnp.where(x > row, x - row, 0.5 * x)


def int_row_max(a, b):
    return jnp.max(a * b, axis=1) - jnp.min(a - b, axis=1)


def one_hot_plus_reversed(x, labels):
    """``iota`` (one-hot) and ``reverse`` (``x[:, ::-1]``), as JAX emits them."""
    one_hot = (jnp.arange(x.shape[1])[None, :] == labels[:, None]).astype(jnp.float32)
    return one_hot + x[:, ::-1] * jnp.arange(x.shape[0], dtype=jnp.float32)[::-1, None]


def slice_times_two(x):
    """``stablehlo.slice`` (``x[:, 1:3]``), as JAX emits it."""
    return x[:, 1:3] * 2


def strided_slices(x, b):
    """Strides, a negative one (a slice and a reverse) and a boolean slice."""
    return jnp.where(b[1::2, :4], x[1:7:3, ::-5], x[::4, 2:6])


def clip(x):
    return jnp.clip(x, 0.0, 6.0)


def lax_clamp(lo, x, hi):
    return jax.lax.clamp(lo, x, hi)


def concatenate_three(x, y, z):
    """``stablehlo.concatenate`` of three operands, one of them computed."""
    return jnp.concatenate([x, jnp.exp(y), z], axis=1) * 2.0


def pad_constant(x):
    """``jnp.pad`` with constant values: ``stablehlo.pad`` (inside a called
    private function, as JAX emits it)."""
    return jnp.pad(x, ((1, 2), (0, 3)), constant_values=-1.5) + 1.0


def lax_pad(x):
    """``jax.lax.pad``: cropping (negative edges) and interior padding."""
    return jax.lax.pad(x, jnp.int32(7), ((1, -1, 1), (-2, 3, 2)))


def matmul(x, w):
    """``jnp.matmul``: one ``stablehlo.dot_general``."""
    return jnp.matmul(x, w)


def batched_einsum(q, k):
    """``jnp.einsum`` with a batch dim, the rhs contracted on its last dim
    (attention scores)."""
    return jnp.einsum("bij,bkj->bik", q, k)


def dense_layer(x, w, b):
    """``x @ W + b`` (the bias broadcast) and a ``tanh``: the epilogue."""
    return jnp.tanh(x @ w + b)


def broadcast_matmul(a, b):
    """``(2,1,3,4) @ (5,4,6)``: JAX reshapes, contracts and transposes."""
    return a @ b


def int_matvec(m, v):
    return m @ v


def lax_dynamic_slice(x, i, j):
    """``lax.dynamic_slice``: JAX wraps a negative start (``i + n``), then
    ``stablehlo.dynamic_slice`` clamps it into range."""
    return jax.lax.dynamic_slice(x, (i, j), (2, 3)) * 2


def traced_row(x, i):
    """``x[i]`` with a traced ``i``: a ``dynamic_slice`` of one row, reshaped."""
    return x[i] + 1


def lax_dynamic_update_slice(x, u, i):
    """``lax.dynamic_update_slice`` with ``uint32`` starts."""
    return jax.lax.dynamic_update_slice(x, u, (i, i))


def update_row(x, v, i):
    """``lax.dynamic_update_index_in_dim`` (in a called JAX function)."""
    return jax.lax.dynamic_update_index_in_dim(x, v, i, 0) * 3


def total_order_less(x, y):
    """JAX's ``lt_to`` (its sort comparators' compare): ``stablehlo.compare
    LT, ..., TOTALORDER``; -0.0 < +0.0 and NaNs ordered by sign."""
    from jax._src.lax.lax import lt_to_p

    return lt_to_p.bind(x, y)


SIGNED_ZEROS_AND_NANS = np.array([-0.0, 0.0, np.nan, -np.nan, np.inf, -np.inf, 1.0, -1.0], np.float32)

def argmax_rows(x):
    """``jnp.argmax``: a reduce of (x, iota) with JAX's comparator body."""
    return jnp.argmax(x, axis=1)


def argmin_columns_kept(x):
    """``jnp.argmin`` of int32 along axis 0, ``keepdims`` (a reshape after it)."""
    return jnp.argmin(x, axis=0, keepdims=True)


def argmax_f16(x):
    return jnp.argmax(x.astype(jnp.float16), axis=0)


def first_true_and_false(mask):
    """``jnp.argmax``/``argmin`` of a boolean mask (the first True / False):
    imported as the argmax of the mask converted to ui8."""
    return jnp.argmax(mask, axis=1) * 10 + jnp.argmin(mask, axis=0).sum()


def running_sums(x):
    """``jnp.cumsum`` along both axes and a reversed one: ``reduce_window``."""
    return jnp.cumsum(x, axis=1) + jax.lax.cumsum(x, axis=0, reverse=True)


def running_extremes(x):
    """``cummax`` along rows, reversed ``cummin`` along columns, ``cumprod``."""
    return jax.lax.cummax(x, axis=1) - jax.lax.cummin(x, axis=0, reverse=True) + jnp.cumprod(x / 4, axis=1)


def int_cumsum(x):
    """int32 ``cumsum`` that wraps around, as XLA's does."""
    return jnp.cumsum(x, axis=0)


WITH_NAN_AND_TIES = np.array([[1, 3, 3, 0], [np.nan, 2, np.nan, 5], [-0.0, 0.0, -1, -1], [4, 4, 4, 4],
                              [-np.inf, -np.inf, -np.inf, -np.inf], [2, np.inf, np.nan, np.inf]], np.float32)

CASES = {
    "matmul": (matmul, (X, X.T[:, :5])),
    "batched_einsum": (batched_einsum, (X.reshape(2, 4, 16), X[:6].reshape(2, 3, 16))),
    "dense_layer": (dense_layer, (X, X.T[:, :5].copy(), X[0, :5].copy())),
    "broadcast_matmul": (broadcast_matmul, (X[:6, :4].reshape(2, 1, 3, 4), rng.standard_normal((5, 4, 6)).astype(np.float32))),
    "int_matvec": (int_matvec, (rng.integers(-9, 9, (5, 3)).astype(np.int32), rng.integers(-9, 9, (3,)).astype(np.int32))),
    "total_order_less": (total_order_less, (SIGNED_ZEROS_AND_NANS[:, None] * np.ones((1, 8), np.float32),
                                            SIGNED_ZEROS_AND_NANS[None, :] * np.ones((8, 1), np.float32))),
    "lax_dynamic_slice": (lax_dynamic_slice, (X, np.int32(-3), np.int32(100))),
    "lax_dynamic_slice_inside": (lax_dynamic_slice, (X, np.int32(5), np.int32(2))),
    "traced_row": (traced_row, (X, np.int32(-2))),
    "lax_dynamic_update_slice": (lax_dynamic_update_slice, (X, X[:2, :2] + 5, np.uint32(2**32 - 2))),
    "update_row": (update_row, (X, X[:1] * 2, np.int32(6))),
    "argmax_rows": (argmax_rows, (X,)),
    "argmax_nan_and_ties": (argmax_rows, (WITH_NAN_AND_TIES,)),
    "argmin_columns_kept": (argmin_columns_kept, (rng.integers(-3, 3, (6, 5)).astype(np.int32),)),
    "argmax_f16": (argmax_f16, (WITH_NAN_AND_TIES,)),
    "first_true_and_false": (first_true_and_false, (np.array([[0, 0, 1, 1], [0, 0, 0, 0], [1, 1, 1, 1],
                                                               [0, 1, 0, 1]], bool),)),
    "running_sums": (running_sums, (X,)),
    "running_extremes": (running_extremes, (X,)),
    "int_cumsum": (int_cumsum, (rng.integers(2**29, 2**31 - 1, (6, 3)).astype(np.int32),)),
    "one_hot_plus_reversed": (one_hot_plus_reversed, (X, rng.integers(0, 16, 8).astype(np.int32))),
    "softmax": (softmax, (X,)),
    "concatenate_three": (concatenate_three, (X[:, :3], X[:, 3:8], X[:, 8:9])),
    "pad_constant": (pad_constant, (X[:5, :6],)),
    "lax_pad": (lax_pad, (rng.integers(-9, 9, (4, 5)).astype(np.int32),)),
    "layernorm": (layernorm, (X,)),
    "logsumexp": (logsumexp, (X,)),
    "where": (where, (rng.random((4, 1)) < 0.5, X[:4, :3], X[0, :3])),
    "where_cmp": (where_cmp, (X, X[0])),
    "int_row_max": (int_row_max, (rng.integers(-9, 9, (5, 3)).astype(np.int32),
                                  rng.integers(-9, 9, (1, 3)).astype(np.int32))),
    "slice_times_two": (slice_times_two, (X,)),
    "strided_slices": (strided_slices, (X, rng.random((4, 4)) < 0.5)),
    "clip": (clip, (X * 4,)),
    "lax_clamp": (lax_clamp, (np.float32(-0.5), X, np.float32(0.75))),
    "lax_clamp_int": (lax_clamp, (rng.integers(-9, 0, (5, 3)).astype(np.int32),
                                  rng.integers(-20, 20, (5, 3)).astype(np.int32),
                                  rng.integers(0, 9, (5, 3)).astype(np.int32))),
}


def tolerance(expected: np.ndarray) -> dict:
    return dict(rtol=2e-5, atol=2e-6) if expected.dtype.kind == "f" else dict(rtol=0, atol=0)


@pytest.mark.quick_share(3)
@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", sorted(CASES))
def test_imported_function_runs_as_jax_does(name: str, backend: str) -> None:
    fn, args = CASES[name]
    module = bcast.from_jax(fn, *args)
    ops = {op.name.split(".")[0] for op in module.walk() if op is not module}
    assert ops <= {"func", "bcast"}, ops  # imported: no StableHLO left
    expected = np.asarray(jax.jit(fn)(*args))
    before = str(module)
    got = bcast.compile(module, backend=backend)(*args)  # the module itself, not its text
    assert str(module) == before  # the standard pipeline ran on a copy
    assert got.dtype == expected.dtype and got.shape == expected.shape
    np.testing.assert_allclose(got, expected, **tolerance(expected))


@pytest.mark.quick_share(2)
@pytest.mark.parametrize("name", sorted(CASES))
def test_round_trip_through_bcast_runs_on_xla(name: str) -> None:
    """JAX -> StableHLO -> bcast -> (bcast-make-explicit) -> StableHLO, checked
    by jaxlib and run by XLA: JAX's results."""
    from bcast.tools import driver

    fn, args = CASES[name]
    module = bcast.from_jax(fn, *args)
    driver.run_pipeline(driver.parse_pipeline(driver.EXPLICIT_PIPELINE), driver.make_context(), module)
    text = emit_text(module)
    verify_stablehlo(text)
    (got,) = run_stablehlo(text, args)
    expected = np.asarray(jax.jit(fn)(*args))
    np.testing.assert_allclose(got, expected, **tolerance(expected))


def test_module_has_the_functions_signature() -> None:
    module = bcast.from_jax(where, *CASES["where"][1])
    main = next(op for op in module.walk() if isinstance(op, func.FuncOp) and op.sym_name.data == "main")
    assert [str(t) for t in main.function_type.inputs.data] == [
        "tensor<4x1xi1>", "tensor<4x3xf32>", "tensor<3xf32>"]


def test_compile_takes_ir_text_or_a_module_only() -> None:
    with pytest.raises(TypeError, match="IR text or an xDSL ModuleOp, got bytes"):
        bcast.compile(b"func.func @main() { func.return }")


def here() -> tuple[str, int]:
    """The caller's file and line (what JAX's locations name)."""
    frame = inspect.currentframe().f_back
    return frame.f_code.co_filename, frame.f_lineno


def error_at_the_users_line(step, x) -> str:
    """``from_jax`` of ``step`` (which returns its result and ``here()`` of
    its own line) fails; the message, which must start at that line."""
    _, (path, line) = step(x)
    with pytest.raises(bcast.BcastError) as info:
        bcast.from_jax(lambda v: step(v)[0], x)
    message = str(info.value)
    assert message.startswith(f"{path}:{line}:"), message
    return message


def test_unsupported_jax_op_is_reported_at_the_users_line() -> None:
    """The op JAX made for ``lax.bessel_i1e`` (an op the import does
    not take; a two-key ``lax.sort`` was the example until it imported) is
    reported at the line of this file that wrote it, not at StableHLO text
    the user never sees; the call chain follows as notes, without bcast's
    own frames."""
    def scaled_bessel(x):
        return jax.lax.bessel_i1e(x), here()

    message = error_at_the_users_line(scaled_bessel, X)
    assert "error: 'chlo.bessel_i1e' op is not supported by convert-stablehlo-to-bcast" in message
    assert "<jax:" not in message and "jax_bridge.py" not in message, message


def test_a_real_stablehlo_op_is_not_called_a_misspelling() -> None:
    """``chlo.zeta`` (``jax.scipy.special.zeta``) is a CHLO op bcast does
    not import, not a misspelled op of another name: no "did you mean" that
    changes meaning (``chlo.sinh``, the example until it imported, is
    ``bcast.sinh``, not ``stablehlo.sine``)."""
    with pytest.raises(bcast.BcastError) as info:
        bcast.from_jax(jax.scipy.special.zeta, X + 1, X)
    message = str(info.value)
    assert "'chlo.zeta' op is not supported by convert-stablehlo-to-bcast" in message
    assert "did you mean" not in message


def test_unary_functions_import() -> None:
    """``stablehlo.sine``, ``cosine``, ``tan``, ... import as the bcast op
    whose ``STABLEHLO`` counterpart they are and compute NumPy's values."""
    for jax_function, numpy_function in ((jnp.sin, np.sin), (jnp.cos, np.cos), (jnp.tan, np.tan),
                                         (jnp.expm1, np.expm1), (jnp.log1p, np.log1p), (jnp.cbrt, np.cbrt),
                                         (jnp.round, np.round), (jnp.sinh, np.sinh), (jnp.cosh, np.cosh),
                                         (jnp.arcsin, np.arcsin), (jnp.arccos, np.arccos), (jnp.arctan, np.arctan),
                                         (jnp.arcsinh, np.arcsinh), (jnp.arctanh, np.arctanh)):
        f = bcast.compile(bcast.from_jax(jax_function, X), backend="reference")
        np.testing.assert_allclose(np.asarray(f(X)), numpy_function(X), rtol=1e-6)


def _gelu_as_jax_writes_it(v: float) -> float:
    """``(x/2) * erfc(-x * 0.70710677)``, each f32 step rounded as JAX's export does."""
    half_x = np.float32(0.5) * np.float32(v)
    return float(half_x) * math.erfc(float(np.float32(-v) * np.float32(0.70710677)))


@pytest.mark.parametrize("name, jax_function, python_function", [
    ("erf", jax.scipy.special.erf, math.erf), ("erfc", jax.scipy.special.erfc, math.erfc),
    ("gelu", lambda x: jax.nn.gelu(x, approximate=False), lambda v: _gelu_as_jax_writes_it(v)),
])
@pytest.mark.parametrize("backend", ["reference", "numpy", "array-api", "c"])
def test_erf_and_erfc_import_from_chlo(name, jax_function, python_function, backend) -> None:
    """JAX writes ``chlo.erf``/``chlo.erfc`` (``gelu`` without the tanh
    approximation is ``x/2 * erfc(-x/sqrt(2))``): they import as
    ``bcast.erf``/``bcast.erfc`` and compute libm's values, far into the
    tail where ``1 - erf`` would be 0."""
    x = np.concatenate([X.ravel(), np.array([-9.0, -6.0, -0.0, 0.3, 4.0, 9.5, np.inf, -np.inf], np.float32)])
    module = bcast.from_jax(jax_function, x)
    assert {"bcast.erf", "bcast.erfc"} & {op.name for op in module.walk()}
    got = np.asarray(bcast.compile(module, backend=backend)(x))
    want = np.array([python_function(v) for v in x.astype(np.float64).tolist()]).astype(np.float32)
    np.testing.assert_allclose(got, want, rtol=4e-7, atol=0)


def test_an_op_of_a_called_jax_function_is_reported_where_it_is_called() -> None:
    """JAX locates the ops of its own functions (``jax.scipy.special.i1e``,
    written in JAX's source, makes ``chlo.bessel_i1e``, which bcast does not
    import) without a file: the error is reported at the user's call of it.
    (``lax.cumlogsumexp`` was the example until its body imported.)"""
    def scaled_bessel(x):
        return jax.scipy.special.i1e(x), here()

    message = error_at_the_users_line(scaled_bessel, X[0])
    assert "'chlo.bessel_i1e' op is not supported by convert-stablehlo-to-bcast" in message


def test_unsupported_element_type_is_reported_at_the_users_line() -> None:
    def halve_in_f8(x):
        return (x.astype(jnp.float8_e5m2) / 2).astype(jnp.float32), here()

    message = error_at_the_users_line(halve_in_f8, X)
    assert "unsupported element type f8E5M2" in message


def test_strided_slice_in_jaxs_pretty_form_imports_and_runs() -> None:
    """JAX's pretty ``stablehlo.slice %0 [1:3, 0:16:2]`` parses and runs
    (``bcast.compile`` of the text); ``from_jax`` imports it as ``bcast.slice``
    with the same ranges."""
    def strided(x):
        return x[1:3, ::2]

    text = jax.jit(strided).lower(X).as_text()
    assert "stablehlo.slice %arg0 [1:3, 0:16:2]" in text
    module = bcast.from_jax(strided, X)
    assert "bcast.slice %arg0 [1:3, 0:16:2] : (tensor<8x16xf32>) -> tensor<2x8xf32>" in str(module)
    np.testing.assert_array_equal(bcast.compile(text, filename="strided.mlir")(X), X[1:3, ::2])


def test_indexed_update_with_a_traced_index_is_a_scatter() -> None:
    """``x.at[i].set(v)`` with a traced ``i``: JAX 0.10 writes
    ``stablehlo.scatter`` (not ``dynamic_update_slice``, which
    ``lax.dynamic_update_slice`` and ``dynamic_update_index_in_dim`` give);
    bcast imports it as ``bcast.scatter set`` and runs it to JAX's values."""
    def set_row(x):
        x = jnp.asarray(x)
        return x.at[x[0, 0].astype(jnp.int32) % 8].set(0.0)

    module = bcast.from_jax(set_row, X)
    assert "bcast.scatter set" in str(module)
    text = lower_to_stablehlo(set_row, X)
    np.testing.assert_array_equal(np.asarray(bcast.compile(text, filename="set_row.mlir")(X)),
                                  np.asarray(jax.jit(set_row)(X)))


def test_scatter_of_another_update_is_refused_at_the_users_line() -> None:
    """``x.at[i].apply(jnp.sin)``: a scatter whose update computation is a
    function of the old value, which bcast does not import; it says so at
    the line."""
    def scale_row(x):
        x = jnp.asarray(x)
        return x.at[x[0, 0].astype(jnp.int32)].apply(jnp.sin), here()

    message = error_at_the_users_line(scale_row, X)
    assert ("'stablehlo.scatter' op scatter with this update computation is not supported by "
            "convert-stablehlo-to-bcast") in message


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_composite_runs_as_its_decomposition(backend) -> None:
    """``jax.lax.composite`` exports ``stablehlo.composite`` naming a private
    decomposition function; the import inlines it, so it runs to JAX's
    results wherever the decomposition's ops run."""
    double_tanh = jax.lax.composite(lambda x: jnp.tanh(x) * 2.0, name="my.double_tanh")

    def shifted(x):
        return double_tanh(x) + 1.0

    spec = jax.ShapeDtypeStruct(X.shape, jnp.float32)
    text = jax.export.export(jax.jit(shifted))(spec).mlir_module()
    assert "stablehlo.composite" in text
    got = np.asarray(bcast.compile(text, backend=backend)(X))
    np.testing.assert_allclose(got, np.asarray(jax.jit(shifted)(X)), rtol=2e-6, atol=1e-6)


def test_top_k_runs_through_the_sort_inside_its_decomposition() -> None:
    """``jax.export`` writes ``jax.lax.top_k`` as a ``chlo.top_k`` composite;
    inlined, its decomposition's ``stablehlo.sort`` (descending, TOTALORDER)
    is imported, and the values and indices are XLA's."""
    spec = jax.ShapeDtypeStruct(X.shape, jnp.float32)
    top = jax.jit(lambda x: jax.lax.top_k(x, 2))
    text = jax.export.export(top)(spec).mlir_module()
    assert "stablehlo.composite" in text and '"stablehlo.sort"' in text
    values, indices = bcast.compile(text, backend="numpy")(X)
    want_values, want_indices = top(X)
    np.testing.assert_array_equal(values, np.asarray(want_values))
    np.testing.assert_array_equal(indices, np.asarray(want_indices))
