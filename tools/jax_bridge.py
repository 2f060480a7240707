"""JAX and XLA as bcast's neighbours: import from JAX functions, check and
run the StableHLO that ``bcast-opt -t stablehlo`` prints.

``jax`` is an optional dependency (``pip install bcast[jax]``); it is
imported on first use, and a missing ``jax`` is a ``BcastError`` saying how
to install it. The calls, checked against jax 0.10.2:

- verify: ``jax._src.interpreters.mlir.make_ir_context()`` (a context with the
  StableHLO, CHLO and func dialects registered), ``ir.Module.parse(text)``,
  ``module.operation.verify()``: jaxlib's own MLIR, not bcast's parser;
- run: ``jax.extend.backend.get_backend("cpu").compile_and_load(text,
  [device])`` compiles the module's public ``@main`` from its text;
  ``LoadedExecutable.execute(buffers)`` runs it and returns one device array
  per result. Inputs are put on the device under ``jax.enable_x64(True)``,
  so that 64-bit arrays keep their type (JAX's default would turn int64
  into int32 before XLA sees it);
- import (``from_jax``): ``jax.jit(fn).lower(*args).compiler_ir("stablehlo")``
  printed by ``operation.get_asm(enable_debug_info=True,
  print_generic_op_form=True)``; ``jax._src.source_info_util.register_exclusion``
  keeps this file's frames out of the locations.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

import numpy as np
from xdsl.dialects.builtin import ModuleOp

from bcast.tools.api import BcastError

INSTALL_HINT = "install the optional dependency: pip install 'bcast[jax]'"


def _jax() -> Any:
    try:
        import jax
    except ImportError:
        raise BcastError(f"error: this needs jax, which is not installed; {INSTALL_HINT}") from None
    return jax


def verify_stablehlo(text: str) -> None:
    """Parse and verify ``text`` with jaxlib's MLIR; a ``BcastError`` with
    MLIR's diagnostics when it does not parse or verify."""
    _jax()
    from jax._src.interpreters import mlir
    from jax._src.lib.mlir import ir

    with mlir.make_ir_context():
        try:
            module = ir.Module.parse(text)
        except ir.MLIRError as e:
            raise BcastError(f"error: jaxlib's MLIR does not parse the StableHLO: {e}") from None
        try:
            ok = module.operation.verify()
        except ir.MLIRError as e:
            raise BcastError(f"error: jaxlib's MLIR rejects the StableHLO: {e}") from None
        if not ok:
            raise BcastError("error: jaxlib's MLIR rejects the StableHLO")


@lru_cache(maxsize=64)
def _executable(text: str):
    """XLA's executable of ``text`` and the device it runs on (compiled once
    per text: tests run one module on several inputs)."""
    from jax.extend.backend import get_backend

    backend = get_backend("cpu")
    device = backend.devices()[0]
    try:
        return backend.compile_and_load(text, [device]), device
    except Exception as e:  # noqa: BLE001 - XLA reports every failure as one kind of error
        raise BcastError(f"error: XLA does not compile the StableHLO: {e}") from None


def run_stablehlo(text: str, inputs: Sequence[Any]) -> list[np.ndarray]:
    """Compile ``text`` (a module whose public ``@main`` is the entry) with
    XLA for the CPU and run it on ``inputs`` (NumPy arrays or scalars, one per
    argument, of the argument's dtype and shape); the results as NumPy arrays."""
    jax = _jax()
    executable, device = _executable(text)
    with jax.enable_x64(True):
        buffers = [jax.device_put(np.asarray(x), device) for x in inputs]
    return [np.asarray(r) for r in executable.execute(buffers)]


@lru_cache(maxsize=1)
def _hide_from_locations() -> None:
    """JAX's locations name the user's frames, not its own; this file's
    frames (``jit(fn).lower`` called from here) are not the user's either."""
    from jax._src import source_info_util

    source_info_util.register_exclusion(__file__)


def lower_to_stablehlo(fn: Callable[..., Any], *example_args: Any, located: bool = False) -> str:
    """The StableHLO text of ``jax.jit(fn)`` for arguments like ``example_args``.
    ``located``: in MLIR's generic op form, with JAX's locations (each op's
    Python file, line and call stack, as ``#loc`` aliases after the module):
    every op then parses, even one whose pretty syntax bcast does not read
    (``stablehlo.slice``), so the import reports it at the user's line."""
    jax = _jax()
    if located:
        _hide_from_locations()
    lowered = jax.jit(fn).lower(*example_args)
    if not located:
        return lowered.as_text()
    return lowered.compiler_ir("stablehlo").operation.get_asm(enable_debug_info=True, print_generic_op_form=True)


def from_jax(fn: Callable[..., Any], *example_args: Any) -> ModuleOp:
    """``fn`` lowered by ``jax.jit(fn).lower(*example_args)`` and imported into
    bcast: a verified module of bcast ops whose ``@main`` takes and returns
    what ``fn`` does; ``bcast.compile(module)`` runs it. Every op keeps JAX's
    location, so a diagnostic, now or when the module is compiled, names
    the user's Python file and line (and the calls that led there); a
    program the importer cannot express is a ``BcastError`` located so."""
    from bcast.tools import driver
    from bcast.tools.api import _error

    text = lower_to_stablehlo(fn, *example_args, located=True)
    name = f"<jax: {getattr(fn, '__name__', 'function')}>"
    try:
        return driver.load(text, name, import_stablehlo=True)
    except driver.InputError as e:
        raise _error(e.reports) from None
