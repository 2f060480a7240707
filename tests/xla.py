"""XLA as a test oracle: compile StableHLO text (as JAX prints it, pretty or
generic) with XLA's CPU backend and run it on NumPy arrays.

Shared by the StableHLO import tests and the StableHLO emitter tests. Needs
jax (``pytest.importorskip("jax")`` before importing this module); written
against jax 0.10.2, whose public ``jax.extend.backend.get_backend`` gives
the client, and whose client compiles MLIR text directly.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np


@lru_cache(maxsize=None)
def _client():
    import jax

    jax.config.update("jax_platforms", "cpu")
    from jax.extend.backend import get_backend

    return get_backend("cpu")


@lru_cache(maxsize=64)
def compile_stablehlo(text: str):
    """An XLA executable for ``text`` (a StableHLO module; its public
    ``main`` is the entry). Raises whatever jaxlib raises for text it rejects."""
    from jax._src.lib import xla_client as xc

    client = _client()
    devices = xc.DeviceList(tuple(client.devices()[:1]))
    return client.compile_and_load(text, devices, xc.CompileOptions())


def run_stablehlo(text: str, *args: np.ndarray) -> list[np.ndarray]:
    """``main`` of ``text`` run by XLA on ``args``: its results as NumPy arrays."""
    import jax

    executable = compile_stablehlo(text)
    device = _client().devices()[0]
    buffers = [jax.device_put(np.asarray(a), device) for a in args]
    return [np.asarray(r) for r in executable.execute(buffers)]


def random_inputs(specs: Sequence[dict], seed: int = 0) -> list[np.ndarray]:
    """Random arrays for manifest input specs (``{"shape": [...], "dtype": ...}``):
    normal floats, small integers, fair booleans."""
    rng = np.random.default_rng(seed)
    arrays = []
    for spec in specs:
        shape, dtype = tuple(spec["shape"]), np.dtype(spec["dtype"])
        if dtype == np.bool_:
            arrays.append(rng.random(shape) < 0.5)
        elif dtype.kind == "f":
            arrays.append(rng.standard_normal(shape).astype(dtype))
        elif dtype.kind == "u":
            arrays.append(rng.integers(0, 20, shape).astype(dtype))
        else:
            arrays.append(rng.integers(-10, 10, shape).astype(dtype))
    return arrays
