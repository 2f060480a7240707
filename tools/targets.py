"""Every target bcast emits or runs, defined once.

A target is one ``Target``: its name, the pipeline that runs before it
(unless the caller gives one), whether it lowers to loops, how it prints a
module for ``bcast-opt -t`` (and the xdsl-opt plugin's ``-t``), the line
between the outputs of ``--split-input-file`` chunks, and, for those that
run, how it builds a callable for ``bcast.compile`` and ``bcast-run``.
``bcast-opt``, ``bcast-run``, ``bcast.compile`` and the xdsl-opt plugin
take their sets of names from ``TARGETS``.

Lowering to loops is decided here, and only here, by
``Target.lowers_to_loops`` (today the C target); its emitter prints loop IR
only. Its ``-t`` pipeline ends with ``bcast-lower-to-loops`` (so
``--timing`` and ``--print-between-passes`` show the pass); after a ``-p``
pipeline that does not lower, the target lowers before printing
(``loop_ir``); and when it builds a callable it lowers only the functions
the entry reaches, so that another function it cannot lower does not stop
this one.

The emitters and runtimes are in ``lowering`` and imported only when a
target is used: importing this module loads no backend.
"""

from __future__ import annotations

import builtins
from collections.abc import Callable
from dataclasses import dataclass
from io import StringIO
from typing import Protocol

from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.printer import Printer

EXPLICIT_PIPELINE = "bcast-make-explicit,canonicalize,cse,bcast-sink-broadcasts,canonicalize,cse"
"""Every broadcast explicit and simplified: sinking leaves copies that the
final ``canonicalize,cse`` merge, so the pipeline is a fixed point."""
STANDARD_PIPELINE = EXPLICIT_PIPELINE + ",bcast-fuse"
DYNAMIC_PIPELINE = "bcast-make-explicit,canonicalize,cse"
"""What runs before the numpy and array-api targets on a program with
dynamic or bounded dims: the explicit dynamic form (docs/ir.md), simplified.
Not sunk or fused: the NumPy target plans a fusion's blocks from static
sizes, and ``bcast-sink-broadcasts`` takes static shapes only."""
LOWER_TO_LOOPS = "bcast-lower-to-loops"
C_LOOP_PIPELINE = ("bcast-hoist-invariants,bcast-plan-parallel,bcast-invariant-divisions,bcast-streaming-stores,"
                   "bcast-stack-allocs,bcast-collapse-nests,bcast-plan-prefetch,"
                   "bcast-scratch-allocs")
"""The loop passes (``bcast.passes.loops``) that decide, on the loop IR,
what the C printer prints: it translates what they leave."""


class BuildError(Exception):
    """A target cannot build here (a package or a C compiler is missing):
    the message says what to install or set."""


class ChunkEmitter(Protocol):
    """The text of a ``-t`` run: a shared beginning, each chunk's own text
    (a failed chunk has none), and a shared end."""

    def header(self) -> str: ...
    def chunk(self, module: ModuleOp) -> str: ...
    def failed_chunk(self) -> None: ...
    def footer(self) -> str: ...


@dataclass(frozen=True)
class Built:
    """What a target built for one entry: the callable (None: the reference
    evaluator of ``api.Compiled`` runs the module itself) and the generated
    source it runs, Python or C."""

    function: Callable[..., object] | None
    python_source: str | None = None
    c_source: str | None = None
    program: object | None = None
    """What a later compile of the same text loads instead of building
    (``c_runtime.ProgramEntry``, its ``needed_bytes`` left to the caller),
    or None: the target saves nothing, or not for this program."""


Builder = Callable[[ModuleOp, str, list, list, str], Built]
"""(module, entry, argument specs, result specs, source name) -> ``Built``."""


@dataclass(frozen=True)
class Target:
    name: str
    pipeline: str
    """What runs before the target unless the caller gives a pipeline."""
    separator: str | None = None
    """The line between ``--split-input-file`` chunks' outputs; None for a
    target ``-t`` does not print."""
    emitter: Callable[[str, bool, bool], ChunkEmitter] | None = None
    """(source name, generic form?, debug info?) -> the ``-t`` output."""
    builder: Builder | None = None
    speed: int = 0
    """Rank of the callable it builds, slowest first (``BACKENDS`` order)."""
    lowers_to_loops: bool = False
    loop_pipeline: str = ""
    """The passes on the loop IR that run after the lowering (in ``-t``'s
    pipeline, and in ``loop_ir`` before the emitter)."""
    memory: str = "top-level"
    """What the memory guard counts, where bcast allocates: ``every-value``
    (the reference evaluator keeps them all), ``top-level`` (generated code:
    arguments and top-level values, fusions run block by block), checked
    when compiling; ``eager-calls``: the arguments' library allocates, so it
    is checked at the first call with eager arguments, never for lazy ones."""
    fallback: str | None = None
    """The backend ``backend=None`` runs instead when this one cannot
    express a program (``api.TargetUnsupported``)."""
    available: Callable[[], bool] = lambda: True
    """Whether this machine can run it (the C target needs a compiler)."""
    dynamic_pipeline: str | None = None
    """What runs before the target, instead of ``pipeline``, on a program
    with dynamic or bounded dims unless the caller gives a pipeline (``""``:
    ``pipeline`` itself); None: the target takes static shapes only and
    refuses such a program, located (docs/semantics.md, "Dynamic and
    bounded shapes")."""

    saves_programs: bool = False
    """Whether ``bcast.compile`` keys what it built on the input text and
    options, before parsing (``c_runtime.ProgramEntry``): a later compile of
    the same text then neither parses it nor runs a pass."""

    @property
    def dynamic(self) -> bool:
        """Whether it takes programs with dynamic or bounded dims."""
        return self.dynamic_pipeline is not None

    def static_runner(self, what: str = "target") -> str | None:
        """How a refusal of dynamic dims names it (``the c backend``); None
        when it takes them (``driver.prepare``'s ``static_runner``)."""
        return None if self.dynamic else f"the {self.name} {what}"

    @property
    def runs(self) -> bool:
        """Whether it runs the program (``-t`` of it prints code that runs):
        then StableHLO input is imported strictly, as ``bcast-run`` does,
        and an op the import cannot take is reported with its reason."""
        return self.builder is not None

    @property
    def emit_pipeline(self) -> str:
        """What ``-t NAME`` runs without ``-p``."""
        if not self.lowers_to_loops:
            return self.pipeline
        return ",".join(p for p in (self.pipeline, LOWER_TO_LOOPS, self.loop_pipeline) if p)


# --------------------------------------------------------------------------
# Emitting (-t)
# --------------------------------------------------------------------------


def print_module(module: ModuleOp, generic: bool = False, debuginfo: bool = False) -> str:
    """MLIR text; ``-t mlir`` and the ``--print-between-passes`` dumps share
    it, so ``--print-op-generic`` and ``--print-debuginfo`` apply to both
    (as in mlir-opt)."""
    out = StringIO()
    Printer(stream=out, print_generic_format=generic, print_debuginfo=debuginfo).print_op(module)
    return out.getvalue() + "\n"


@dataclass
class TextEmitter:
    """A target whose chunks share only a fixed beginning."""

    text: Callable[[ModuleOp], str]
    start: Callable[[], str] = lambda: ""

    def header(self) -> str:
        return self.start()

    def chunk(self, module: ModuleOp) -> str:
        return self.text(module)

    def failed_chunk(self) -> None:
        pass

    def footer(self) -> str:
        return ""


@dataclass
class PythonEmitter:
    """A Python module target: chunks share the imports and the function
    tables (``numpy_emitter.PythonModuleEmitter``)."""

    module: object

    def header(self) -> str:
        return self.module.header()

    def chunk(self, module: ModuleOp) -> str:
        return self.module.emit_chunk(module)

    def failed_chunk(self) -> None:
        self.module.failed_chunk()

    def footer(self) -> str:
        return self.module.footer()


def _mlir_emitter(name: str, generic: bool, debuginfo: bool) -> ChunkEmitter:
    return TextEmitter(lambda module: print_module(module, generic, debuginfo))


def _numpy_emitter(name: str, generic: bool, debuginfo: bool) -> ChunkEmitter:
    from bcast.lowering.numpy_emitter import NumpyEmitter

    return PythonEmitter(NumpyEmitter(name))


def _array_api_emitter(name: str, generic: bool, debuginfo: bool) -> ChunkEmitter:
    from bcast.lowering.array_api_emitter import ArrayApiEmitter

    return PythonEmitter(ArrayApiEmitter(name))


def _stablehlo_emitter(name: str, generic: bool, debuginfo: bool) -> ChunkEmitter:
    from bcast.lowering.stablehlo_emitter import emit_text

    return TextEmitter(emit_text)


def loop_ir(module: ModuleOp, owned: bool = False) -> ModuleOp:
    """``module`` as the C printer reads it: loop IR (``bcast.ir.loops``;
    lowered by ``bcast-lower-to-loops`` unless it already is, as after the
    ``-t c`` pipeline), then ``C_LOOP_PIPELINE`` (which changes nothing the
    second time). A copy: the caller's module stays what it was, as every
    other target leaves it; for a module the caller made to throw away
    (``owned``), the module itself. Every caller of the C emitter goes
    through this, so one place decides when a program lowers to loops."""
    from xdsl.context import Context
    from xdsl.passes import PassPipeline

    from bcast.ir.loops import in_loop_form
    from bcast.passes import available_passes
    from bcast.passes.lower_to_loops import LowerToLoopsPass

    lowered = module if owned else module.clone()
    if not in_loop_form(lowered):
        LowerToLoopsPass().apply(Context(), lowered)
    PassPipeline.parse_spec(available_passes(), C_LOOP_PIPELINE).apply(Context(), lowered)
    return lowered


def _c_emitter(name: str, generic: bool, debuginfo: bool) -> ChunkEmitter:
    from bcast.lowering.c_emitter import emit_program, header, streams

    programs: list[str] = []

    def program(module: ModuleOp) -> str:
        programs.append(emit_program(loop_ir(module))[0])
        return programs[-1]

    # the header follows the chunks: its helpers skip immintrin.h unless one streams
    return TextEmitter(program, lambda: header(any(map(streams, programs))))


# --------------------------------------------------------------------------
# Building (bcast.compile, bcast-run)
# --------------------------------------------------------------------------


def _build_reference(module: ModuleOp, entry: str, arguments, results, source_name: str) -> Built:
    return Built(None)


def _build_python(emit_module: Callable[[ModuleOp, str], str], target: str, module: ModuleOp, entry: str,
                  source_name: str) -> Built:
    """Generated Python, run: the entry from the module's function table.
    Only the functions the entry reaches are emitted, as for C: another
    function (one holding an op bcast does not know) does not stop this one."""
    source = emit_module(reachable(module, entry), source_name)
    namespace: dict[str, object] = {}
    exec(builtins.compile(source, f"<bcast {target}: {source_name}>", "exec"), namespace)
    return Built(namespace["FUNCTIONS"][entry], python_source=source)  # type: ignore[index]


def _build_numpy(module: ModuleOp, entry: str, arguments, results, source_name: str) -> Built:
    from bcast.lowering.numpy_emitter import emit_module

    return _build_python(emit_module, "numpy", module, entry, source_name)


def _build_array_api(module: ModuleOp, entry: str, arguments, results, source_name: str) -> Built:
    try:
        import array_api_compat  # noqa: F401 - generated code needs it
    except ImportError:
        raise BuildError("the array-api backend needs the array-api-compat package: "
                         "pip install 'bcast[array-api]'") from None
    from bcast.lowering.array_api_emitter import emit_module

    return _build_python(emit_module, "array-api", module, entry, source_name)


def _build_c(module: ModuleOp, entry: str, arguments, results, source_name: str) -> Built:
    """The module's C source (``c_emitter``), built and loaded (``c_runtime``);
    a call of a declaration is the run-time error the other backends give
    (and there is no source)."""
    from bcast.lowering import c_emitter, c_runtime
    from bcast.lowering import numpy_runtime as rt
    from bcast.lowering.numpy_emitter import site

    declarations = called_declarations(module, entry)
    if declarations:
        error = rt.ProgramError("is a declaration without a body", (), site(declarations[0]))

        def fail(*args, out=None):
            [rt.argument(a, spec) for a, spec in zip(args, arguments)]
            rt.Outs(out, results, [])
            raise error

        return Built(fail)
    try:
        loops = loop_ir(reachable(module, entry), owned=True)  # reachable made a copy
        source, names = c_emitter.emit_module(loops)
        checks = [_bounds_check(op) for op in c_emitter.bounds_checks(loops)]
        sizes = _size_plans(module, entry)
        replay = {entry: _replay(module, entry)} if any(isinstance(c, c_runtime.SizeCheck) for c in checks) else {}
        library = c_runtime.Library(source, {entry: (names[entry], arguments, results)}, checks,
                                    "bcast_" + c_emitter.FAULT_FUNCTION, sizes, replay)
    except (c_runtime.CompilerMissing, c_runtime.BadCacheLimit) as e:
        raise BuildError(f"error: {e}") from None
    # Decision: a dynamic function's SizePlan reads its size ops at every call,
    # so it is not saved: such a program is parsed and transformed every time.
    program = None if sizes else c_runtime.ProgramEntry(
        source, names[entry], tuple(arguments), tuple(results), tuple(checks), "bcast_" + c_emitter.FAULT_FUNCTION, 0)
    return Built(library.functions[entry], c_source=source, program=program)


def _size_plans(module: ModuleOp, entry: str) -> dict:
    """The entry's ``c_sizes.SizePlan`` when it has dynamic dims or a size
    op (a ``shape_assertion`` of a static program: a check all the same; a
    ``dynamic_conv``, whose padding's values are checked against its
    result's sizes), with which the C runtime checks and sizes the call."""
    from bcast.ir import ops as bc
    from bcast.lowering.c_sizes import SizePlan
    from bcast.passes.errors import first_dynamic
    from bcast.passes.size_tensors import SIZE_TENSOR_OPS

    function = next(f for f in reachable_functions(module, entry) if f.sym_name.data == entry)
    needs_plan = first_dynamic(function) is not None or any(
        isinstance(op, (*SIZE_TENSOR_OPS, bc.DynamicConvOp)) for op in function.body.block.ops)
    return {entry: SizePlan(function)} if needs_plan else {}


def _replay(module: ModuleOp, entry: str) -> Callable[[list], object]:
    """The reference's run of ``entry`` on a call's arguments: what reports a
    failed size check of a control-flow region (``c_runtime.SizeCheck``)."""
    from bcast.lowering.reference import Evaluator

    return lambda values: Evaluator(module).call(entry, values)


def _bounds_check(op):
    """The run-time report of one ``cf.assert`` the loop IR checks an index
    (or a control-flow region's sizes) with."""
    from bcast.ir.diagnostics import op_source_loc
    from bcast.lowering.c_runtime import BoundsCheck, SizeCheck
    from bcast.ir.loops import BOUNDS_CHECK_ATTR, SIZE_CHECK_ATTR

    if SIZE_CHECK_ATTR in op.attributes:
        loc, name = op_source_loc(op), op.attributes[SIZE_CHECK_ATTR].data["op"].data
        return SizeCheck(None if loc is None else (loc.file, loc.line, loc.col, name))

    info = op.attributes[BOUNDS_CHECK_ATTR].data
    loc = op_source_loc(op)
    site = None if loc is None else (loc.file, loc.line, loc.col, info["op"].data)
    return BoundsCheck(info["dim"].value.data, info["size"].value.data, bool(info["iab"].value.data), site)


def reachable_functions(module: ModuleOp, entry: str) -> list[func.FuncOp]:
    """``entry`` and every function it calls, directly or not (in the order a
    depth-first walk of the calls reaches them)."""
    functions = {f.sym_name.data: f for f in module.ops if isinstance(f, func.FuncOp)}
    seen, todo, order = {entry}, [entry], []
    while todo:
        f = functions.get(todo.pop())
        if f is None:
            continue
        order.append(f)
        for op in f.walk():
            if isinstance(op, func.CallOp) and (name := op.callee.string_value()) not in seen:
                seen.add(name)
                todo.append(name)
    return order


def reachable(module: ModuleOp, entry: str) -> ModuleOp:
    """A copy of ``module`` with only ``entry`` and the functions it calls."""
    keep = {f.sym_name.data for f in reachable_functions(module, entry)}
    clone = module.clone()
    for f in [f for f in clone.ops if isinstance(f, func.FuncOp) and f.sym_name.data not in keep]:
        f.detach()
        f.erase()
    return clone


def called_declarations(module: ModuleOp, entry: str) -> list[func.FuncOp]:
    """Declarations (functions without a body) the entry calls, directly or not."""
    return [f for f in reachable_functions(module, entry) if not f.body.blocks]


def _c_available() -> bool:
    from bcast.lowering import c_runtime

    return c_runtime.available()


# --------------------------------------------------------------------------
# The registry
# --------------------------------------------------------------------------

_C_SEPARATOR = "/* ----- */\n"
_MLIR_SEPARATOR = "// -----\n"
_PYTHON_SEPARATOR = "# -----\n"  # the output stays one Python module

TARGETS: dict[str, Target] = {t.name: t for t in (
    Target("reference", "", builder=_build_reference, speed=0, memory="every-value",  # runs it as written
           dynamic_pipeline=""),
    Target("mlir", "", _MLIR_SEPARATOR, _mlir_emitter, dynamic_pipeline=""),
    Target("numpy", STANDARD_PIPELINE, _PYTHON_SEPARATOR, _numpy_emitter, _build_numpy, speed=2,
           dynamic_pipeline=DYNAMIC_PIPELINE),
    # explicit, unfused: dask and XLA schedule themselves
    Target("array-api", EXPLICIT_PIPELINE, _PYTHON_SEPARATOR, _array_api_emitter, _build_array_api, speed=1,
           memory="eager-calls", dynamic_pipeline=DYNAMIC_PIPELINE),
    Target("stablehlo", EXPLICIT_PIPELINE, _MLIR_SEPARATOR, _stablehlo_emitter,  # XLA fuses by itself
           dynamic_pipeline=""),  # written as JAX exports dynamic programs (docs/stablehlo.md)
    Target("c", STANDARD_PIPELINE, _C_SEPARATOR, _c_emitter, _build_c, speed=3, lowers_to_loops=True,
           loop_pipeline=C_LOOP_PIPELINE, fallback="numpy", available=_c_available,
           dynamic_pipeline="", saves_programs=True),  # fuse and sink take dynamic functions (sink: static sources only)
)}
"""Every target, in ``bcast-opt -t``'s order."""

EMITTED = tuple(name for name, t in TARGETS.items() if t.emitter is not None)
"""What ``bcast-opt -t`` prints."""
RUNNABLE = tuple(sorted((name for name, t in TARGETS.items() if t.builder is not None),
                        key=lambda name: TARGETS[name].speed))
"""What ``bcast.compile`` and ``bcast-run --backend`` run, slowest first."""


def default_backend() -> str:
    """``backend=None``: the fastest runnable target this machine has (the C
    backend when a C compiler is present, else NumPy)."""
    return next(name for name in reversed(RUNNABLE) if TARGETS[name].available())
