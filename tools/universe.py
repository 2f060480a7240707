"""bcast as an xDSL plugin: the ``xdsl.universe`` entry point.

``pyproject.toml`` names ``BCAST_UNIVERSE`` in the ``xdsl.universe`` entry
point group, so ``xdsl-opt`` (and every tool built on xDSL's ``Universe``)
knows the ``bcast`` dialect, the StableHLO and CHLO subset bcast imports
(``stablehlo``, ``chlo``), bcast's passes (``convert-stablehlo-to-bcast``
among them) and every ``bcast-opt`` target but ``mlir`` (xDSL's own):
``numpy``, ``array-api``, ``stablehlo`` and ``c``::

    xdsl-opt prog.mlir -p bcast-make-explicit,canonicalize,cse,bcast-sink-broadcasts,canonicalize,bcast-fuse
    xdsl-opt prog.mlir -t numpy        # as bcast-opt prog.mlir -t numpy
    xdsl-opt prog.mlir -p bcast-make-explicit -t 'numpy{standard_pipeline=false}'

It lives in ``tools`` because it names the targets, which are in
``lowering``: it sits at the top of the import order. Loading it imports
only the target registry (``bcast.tools.targets``, which imports no
backend); the dialects, passes and emitters load when xDSL asks for them. ``canonicalize``, ``cse`` and
``dce`` are xDSL's own passes: xDSL's universe already names them (a plugin
naming them again is an error), so only bcast's passes are listed here.

What ``xdsl-opt`` does not do that ``bcast-opt`` does: it parses with xDSL's
own parser (no input positions on ops, so diagnostics carry no location; no
``loc`` ranges or ``#loc`` aliases used before their definition), and it
verifies with the ops' verifiers only (no function-signature or dominance
check, no ``--semantics``) until a bcast target runs bcast's checks; its own
parse and verify errors end in xDSL's traceback; with
``--split-input-file`` it stops at the first failing chunk and separates
every target's outputs with ``// -----``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from io import StringIO
from typing import IO, TYPE_CHECKING, ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import FileLineColLoc, ModuleOp
from xdsl.ir import Dialect
from xdsl.passes import ModulePass
from xdsl.universe import Universe
from xdsl.utils.exceptions import DiagnosticException
from xdsl.utils.target import Target

from bcast.tools.targets import EMITTED

if TYPE_CHECKING:
    from bcast.ir.diagnostics import Report


def _bcast_dialect() -> Dialect:
    from bcast.ir.dialect import Bcast

    return Bcast


class TargetError(DiagnosticException, SystemExit):
    """A module a target cannot take, reported as ``bcast-opt`` reports it.

    xdsl-opt catches a ``DiagnosticException`` only under
    ``--verify-diagnostics`` (it prints it and goes on, exit 0); any other
    exception from a target ends it with a traceback. Being a ``SystemExit``
    too, an uncaught one ends the process as a diagnostic should: its message
    on stderr, exit status 1, no traceback."""

    def __init__(self, message: str):
        super().__init__(message)
        self.code = message  # what SystemExit prints (the base __init__ run is Exception's)


def diagnostic(reports: Sequence[Report]) -> str:
    """The reports as ``bcast-opt`` prints them, then, for those without a
    source position (xDSL's parser records none), the IR with each reported
    op marked, as xDSL shows its own verifier errors."""
    from xdsl.printer import Printer
    from xdsl.utils.diagnostic import Diagnostic

    text = "\n".join(r.render() for r in reports)
    marks = Diagnostic()
    for report in reports:
        if report.loc is None and report.op is not None:
            marks.add_message(report.op, report.message)
    if not marks.op_messages:
        return text
    listing = StringIO()
    top = next(iter(marks.op_messages)).get_toplevel_object()
    Printer(stream=listing, diagnostic=marks).print_op(top)
    return f"{text}\n{listing.getvalue()}"


@dataclass(frozen=True)
class BcastTarget(Target):
    """``-t TARGET``: what ``bcast-opt -t TARGET`` prints. As there without
    ``-p``, the target first checks the module as bcast does (function
    signatures, dominance, ``bcast.semantics``), imports StableHLO, and runs
    its standard pipeline (``bcast.tools.targets.Target.emit_pipeline``).

    xdsl-opt tells a target nothing about ``-p``, so after a pipeline of your
    own say ``TARGET{standard_pipeline=false}``: the module is then emitted
    as ``-p`` left it, as ``bcast-opt -p ... -t TARGET`` does (the C
    pipeline, which lowers to loops, cannot run twice). A module bcast
    rejects is a ``TargetError``."""

    name: ClassVar[str]

    source_name: str = "<source>"
    """The source the numpy and array-api modules name in their docstring;
    xdsl-opt does not pass the input file's name to targets, so it is read from
    the module's location when that is a file, else from this option."""

    standard_pipeline: bool = True

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        from bcast.tools import driver, opt, targets

        name = self.source_name
        if isinstance(module.location, FileLineColLoc):
            name = module.location.filename.data
        spec = targets.TARGETS[self.name].emit_pipeline if self.standard_pipeline else ""
        try:
            driver.prepare(ctx, module, pipeline=driver.parse_pipeline(spec), static_runner=targets.static_runner(self.name))
            output.write(opt.emit_target(self.name, module, name))
        except driver.InputError as e:
            raise TargetError(diagnostic(e.reports)) from None


def _plugin_target(name: str) -> type[BcastTarget]:
    """``-t NAME`` for xdsl-opt: ``BcastTarget`` for one registry target."""
    doc = f"``-t {name}``: what ``bcast-opt -t {name}`` prints."
    attributes = {"name": name, "__doc__": doc, "__module__": __name__}
    return dataclass(frozen=True)(type(f"BcastTarget_{name.replace('-', '_')}", (BcastTarget,), attributes))


TARGETS: dict[str, type[BcastTarget]] = {name: _plugin_target(name) for name in EMITTED if name != "mlir"}
"""Every target ``bcast-opt -t`` has but ``mlir`` (xDSL's own)."""


def _loader(target: type[Target]) -> Callable[[], type[Target]]:
    """xDSL's target factory: it takes no arguments (xdsl-opt calls one that
    takes some the old way, with the module)."""
    return lambda: target


def bcast_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """bcast's own passes: ``available_passes`` without the xDSL passes it
    re-exports for ``bcast-opt``."""
    from xdsl.transforms import get_all_passes

    from bcast.passes import available_passes

    xdsl_passes = get_all_passes()
    return {name: _reporting(load) for name, load in available_passes().items() if name not in xdsl_passes}


def _reporting(load: Callable[[], type[ModulePass]]) -> Callable[[], type[ModulePass]]:
    """The pass as xdsl-opt runs it: a ``PassError`` (input the pass cannot
    take, e.g. implicit broadcasts before ``bcast-lower-to-loops``) ends
    xdsl-opt with bcast's located diagnostic, as a target's ``TargetError``
    does, not a traceback."""

    def reporting_pass() -> type[ModulePass]:
        from bcast.passes.errors import PassError

        base = load()

        def apply(self, ctx: Context, op: ModuleOp) -> None:
            try:
                base.apply(self, ctx, op)
            except PassError as e:
                raise TargetError(diagnostic([e.report])) from None

        return type(base.__name__, (base,), {"apply": apply, "__doc__": base.__doc__})

    return reporting_pass


def _stablehlo_dialect() -> Dialect:
    from bcast.ir.stablehlo import StableHLO

    return StableHLO


def _chlo_dialect() -> Dialect:
    from bcast.ir.chlo import CHLO

    return CHLO


BCAST_UNIVERSE = Universe(
    all_dialects={"bcast": _bcast_dialect, "stablehlo": _stablehlo_dialect, "chlo": _chlo_dialect},
    all_passes=bcast_passes(),
    all_targets={name: _loader(target) for name, target in TARGETS.items()},
)
"""The dialect, passes and targets bcast adds to xDSL's tools."""
