"""bcast as an xDSL plugin: the ``xdsl.universe`` entry point.

``pyproject.toml`` names ``BCAST_UNIVERSE`` in the ``xdsl.universe`` entry
point group, so ``xdsl-opt`` (and every tool built on xDSL's ``Universe``)
knows the ``bcast`` dialect, the StableHLO and CHLO subset bcast imports
(``stablehlo``, ``chlo``), bcast's passes (``convert-stablehlo-to-bcast``
among them) and the ``numpy`` target::

    xdsl-opt prog.mlir -p bcast-make-explicit,canonicalize,cse,bcast-sink-broadcasts,canonicalize,bcast-fuse
    xdsl-opt prog.mlir -p <the same pipeline> -t numpy

It lives in ``tools`` because it names the targets, which are in
``lowering``: it sits at the top of the import order and everything it
names is loaded only when xDSL asks for it. ``canonicalize``, ``cse`` and
``dce`` are xDSL's own passes: xDSL's universe already names them (a plugin
naming them again is an error), so only bcast's passes are listed here.

What ``xdsl-opt`` does not do that ``bcast-opt`` does: it parses with xDSL's
own parser (no input positions on ops, so diagnostics carry no location; no
``loc`` ranges or ``#loc`` aliases used before their definition), and it
verifies with the ops' verifiers only (no function-signature or dominance
check, no ``--semantics``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import IO

from xdsl.context import Context
from xdsl.dialects.builtin import FileLineColLoc, ModuleOp
from xdsl.ir import Dialect
from xdsl.passes import ModulePass
from xdsl.universe import Universe
from xdsl.utils.exceptions import DiagnosticException
from xdsl.utils.target import Target


def _bcast_dialect() -> Dialect:
    from bcast.ir.dialect import Bcast

    return Bcast


@dataclass(frozen=True)
class NumpyTarget(Target):
    """``-t numpy``: the Python module bcast's NumPy backend runs (as
    ``bcast-opt -t numpy``). The module must be explicit and fused: run the
    standard pipeline first. A module the emitter cannot take is a
    ``DiagnosticException`` naming the op (``xdsl-opt --verify-diagnostics``
    prints it)."""

    name = "numpy"

    source_name: str = "<source>"
    """Named in the generated module's docstring; ``xdsl-opt`` does not pass
    the input file's name to targets (``-t 'numpy{source_name=f.mlir}'``
    sets it), and it is read from the module's location when that is a file."""

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        from bcast.lowering.numpy_emitter import emit_module
        from bcast.passes.errors import PassError

        name = self.source_name
        if isinstance(module.location, FileLineColLoc):
            name = module.location.filename.data
        try:
            output.write(emit_module(module, name))
        except PassError as e:
            raise DiagnosticException(f"'{e.op.name}' op {e.message}") from None


def _numpy_target() -> type[Target]:
    return NumpyTarget


@dataclass(frozen=True)
class StablehloTarget(Target):
    """``-t stablehlo``: StableHLO that jaxlib parses and XLA runs (as
    ``bcast-opt -t stablehlo``); the module must be explicit: run
    ``bcast-make-explicit`` first. A module the emitter cannot take is a
    ``DiagnosticException`` naming the op."""

    name = "stablehlo"

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        from bcast.lowering.stablehlo_emitter import emit_text
        from bcast.passes.errors import PassError

        try:
            output.write(emit_text(module))
        except PassError as e:
            raise DiagnosticException(f"'{e.op.name}' op {e.message}") from None


def _stablehlo_target() -> type[Target]:
    return StablehloTarget


def bcast_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """bcast's own passes: ``available_passes`` without the xDSL passes it
    re-exports for ``bcast-opt``."""
    from xdsl.transforms import get_all_passes

    from bcast.passes import available_passes

    xdsl_passes = get_all_passes()
    return {name: load for name, load in available_passes().items() if name not in xdsl_passes}


def _stablehlo_dialect() -> Dialect:
    from bcast.ir.stablehlo import StableHLO

    return StableHLO


def _chlo_dialect() -> Dialect:
    from bcast.ir.stablehlo import CHLO

    return CHLO


BCAST_UNIVERSE = Universe(
    all_dialects={"bcast": _bcast_dialect, "stablehlo": _stablehlo_dialect, "chlo": _chlo_dialect},
    all_passes=bcast_passes(),
    all_targets={"numpy": _numpy_target, "stablehlo": _stablehlo_target},
)
"""The dialect, passes and targets bcast adds to xDSL's tools."""
