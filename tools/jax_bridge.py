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
- read StableHLO's pretty form (``generic_stablehlo``, for bcast's parser
  where it lacks an op's custom form): ``ir.Operation.parse(text,
  source_name=name)`` in that context with ``allow_unregistered_dialects``,
  printed by ``get_asm(print_generic_op_form=True, enable_debug_info=True)``;
- import (``from_jax``): ``jax.jit(fn).lower(*args).compiler_ir("stablehlo")``
  printed by ``operation.get_asm(enable_debug_info=True,
  print_generic_op_form=True)``; ``jax._src.source_info_util.register_exclusion``
  keeps this file's frames out of the locations.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

import numpy as np
from xdsl.dialects.builtin import ModuleOp

from bcast.ir.diagnostics import Report, SourceLoc
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


def _initialize_lapack() -> None:
    """jaxlib's LAPACK kernels (``custom_call @lapack_sgetrf_ffi`` ...) call
    LAPACK through function pointers jaxlib fills in only when JAX lowers a
    linear-algebra op (``jaxlib.lapack.prepare_lapack_call``); XLA running
    such a call before that crashes the process. This fills them in."""
    from jax._src.lib import lapack

    lapack.prepare_lapack_call("getrf", np.float32)


@lru_cache(maxsize=64)
def _executable(text: str):
    """XLA's executable of ``text`` and the device it runs on (compiled once
    per text: tests run one module on several inputs)."""
    from jax.extend.backend import get_backend

    backend = get_backend("cpu")
    device = backend.devices()[0]
    if "lapack_" in text:  # LAPACK custom calls (docs/ir.md, "lu"): their kernels find LAPACK once initialized
        _initialize_lapack()
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


def refined_stablehlo(text: str, shapes: Sequence[Sequence[int]]) -> str:
    """``text`` with ``@main``'s arguments given the static ``shapes`` and
    JAX's shape refinement run (``jax._src.interpreters.mlir.
    refine_polymorphic_shapes``, what ``Exported.call`` does): every ``?``
    becomes its size, each ``shape_assertion`` is checked (a
    ``BcastError`` with its message when it fails) and removed, and XLA can
    compile the result. How a dynamic ``-t stablehlo`` output runs at
    concrete sizes (docs/stablehlo.md, "Dynamic programs")."""
    _jax()
    from jax._src.interpreters import mlir
    from jax._src.lib.mlir import ir

    with mlir.make_ir_context(), ir.Location.unknown():
        module = ir.Module.parse(text)
        main = next(op for op in module.body.operations
                    if ir.StringAttr(op.attributes["sym_name"]).value == "main")  # fmt: skip
        old = ir.FunctionType(ir.TypeAttr(main.attributes["function_type"]).value)
        inputs = [ir.RankedTensorType.get(list(shape), ir.RankedTensorType(t).element_type)
                  for shape, t in zip(shapes, old.inputs)]  # fmt: skip
        main.attributes["function_type"] = ir.TypeAttr.get(ir.FunctionType.get(inputs, old.results))
        for arg, t in zip(main.regions[0].blocks[0].arguments, inputs):
            arg.set_type(t)
        try:
            refined = mlir.refine_polymorphic_shapes(module)
        except ValueError as e:
            raise BcastError(f"error: jaxlib's shape refinement fails: {e.__cause__ or e}") from None
        return refined.operation.get_asm()


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



WRAP = "module {"
"""What wraps a text of several top-level ops (an implicit module, which
bcast's parser takes, as mlir-opt does) for jaxlib's ``Operation.parse``,
which takes one."""

_BLANK_LINE = re.compile(r"[^\S\n]*(//[^\n]*)?")


def generic_stablehlo(text: str, name: str, line_offset: int = 0) -> str:
    """``text`` (StableHLO, CHLO, func and ops in generic form, as JAX prints
    it) read by jaxlib's MLIR, which parses every StableHLO/CHLO op's
    pretty form, and printed back in generic form with every op's location
    (docs/contracts.md, "Ops bcast does not know"). jaxlib names the buffer
    ``name`` and counts lines from the chunk's first line in the file
    (``line_offset`` blank lines first), so an op without ``loc(...)`` is
    located ``name:line:col`` at its name, where bcast's parser locates it;
    an op's own ``loc(...)`` is kept. ``ImportError`` without jax; a
    located ``InputError`` (jaxlib's first diagnostic) when jaxlib does not
    read the text: it also verifies every op it knows."""
    from jax._src.interpreters import mlir
    from jax._src.lib.mlir import ir

    from bcast.tools.driver import InputError

    text = "\n" * line_offset + without_unknown_locations(text)
    with mlir.make_ir_context() as ctx:
        ctx.allow_unregistered_dialects = True  # ops of other dialects, bcast's in generic form
        shift = 0
        try:
            try:
                op = ir.Operation.parse(text, source_name=name)
            except ir.MLIRError as e:
                if "single top-level operation" not in str(e):
                    raise
                shift = 0 if _BLANK_LINE.fullmatch(text.split("\n", 1)[0]) else len(WRAP)
                op = ir.Operation.parse(WRAP + text + "\n}", source_name=name)
        except ir.MLIRError as e:
            raise InputError([_jaxlib_report(e, name, shift)]) from None
        generic = op.get_asm(print_generic_op_form=True, enable_debug_info=True)
    return _unshifted(generic, name, shift) if shift else generic


_UNKNOWN_ALIAS = re.compile(r"^(#[\w$.-]+)\s*=\s*loc\(unknown\)[^\S\n]*$", re.MULTILINE)


def without_unknown_locations(text: str) -> str:
    """``text`` with each ``loc(unknown)`` an op writes (JAX writes it on
    some functions, returns and constants, often as ``loc(#loc)`` of an
    alias ``#loc = loc(unknown)``) blanked out, columns kept: jaxlib then
    locates the op at its place in the input, as bcast's parser does for
    such an op, instead of keeping an unknown location that bcast would
    place in jaxlib's generic text."""
    names = _UNKNOWN_ALIAS.findall(text)
    uses = re.compile("|".join([r"loc\(unknown\)"] + [rf"loc\({re.escape(n)}\)" for n in names]))
    return "".join(line if _UNKNOWN_ALIAS.match(line) else uses.sub(lambda m: " " * len(m.group(0)), line)
                   for line in text.splitlines(keepends=True))


def _unshifted(generic: str, name: str, shift: int) -> str:
    """The columns of line 1 as the user wrote them: ``WRAP`` was written
    before the first line's ops (every other line keeps its number and
    columns; a first line without ops needs no shift). The wrapper itself
    is at 1:1, where an implicit module is."""
    quoted = re.escape(name.replace("\\", "\\\\").replace('"', '\\"'))
    return re.sub(rf'(loc\("{quoted}":1:)(\d+)', lambda m: f"{m.group(1)}{max(1, int(m.group(2)) - shift)}", generic)


def _jaxlib_report(e: Any, name: str, shift: int) -> Report:
    """jaxlib's first error, at its ``line:col`` of ``name`` (jaxlib's
    ``Location`` gives them in its text only: ``loc("name":3:10)``)."""
    diagnostics = e.error_diagnostics
    if not diagnostics:
        return Report("error", f"jaxlib's MLIR does not read the text: {e}", None)
    first = diagnostics[0]
    where = _FILE_LOC.search(str(first.location))
    loc = None
    if where:
        line, col = int(where.group(1)), int(where.group(2))
        loc = SourceLoc(name, line, max(1, col - shift) if line == 1 else col)
    return Report("error", f"{first.message.strip()} (jaxlib's MLIR)", loc)


_FILE_LOC = re.compile(r'loc\("(?:[^"\\]|\\.)*":(\d+):(\d+)')
