"""A new program's first calls on the C backend, while its library builds.

``bcast.compile`` of a new program on the C backend spends most of its time
lowering to loops, emitting C and running the C compiler (docs/performance.md,
"Time to first result"). For the programs of one narrow rule (``eligible``)
it does not wait for that: it parses the text, makes broadcasts explicit
(``QUICK_PIPELINE``) and returns a ``FirstCalls``, whose calls run each op
with NumPy, in C's own expressions, until the C library is ready; the first
call starts that build on a thread of its own, and every call after the
build runs the library, as a compile that waited would have.

The rule (and ``$CC`` without one of ``INEXACT_FLAGS``): every value of the entry function is an ``f32`` or ``f64`` tensor
of static shape, and every op is ``broadcast_in_dim``, ``add``,
``subtract``, ``multiply``, ``negate``, ``maximum``, ``minimum`` or the
return. Why these give the C library's bits exactly:

- ``+ - *`` and negation are exactly rounded IEEE operations in both: NumPy
  computes ``f32`` in ``f32``; the C build is ``-std=c99`` (GCC then does
  not contract ``a * b + c`` into an FMA: ``-ffp-contract=off``), without
  ``-ffast-math``, on x86-64's SSE arithmetic (no excess precision), and the
  emitter casts each result to its type (``c_emitter``).
- ``maximum``/``minimum`` are not ``np.maximum`` (which zero of +0.0 and
  -0.0 it returns is NumPy's choice) but the C emitter's own expression,
  ``(a > b || a != a) ? a : b``, written with NumPy (``_maximum``).
- Broadcasts and the passes between (canonicalization, CSE, sinking
  broadcasts, fusion) move values, never round them: canonicalization's
  only arithmetic rewrite folds constants, and the rule has none.
- Anything else (a constant, a conversion, division, a transcendental
  function, a reduction, integers, ``f16``, ``?`` dims, a call) is outside
  the rule and compiles as before: the first call runs the library.

One thing is not the same bit for bit, and is not on any backend: where
two NaNs meet in ``+ - *``, which one's sign and payload the result
carries (IEEE 754 leaves it open, and the C compiler may swap the operands
of ``+`` and ``*``); the result is a NaN on both tiers.

``tests/tools/test_first_calls.py`` checks first calls against the library's
bit for bit, NaNs, infinities, signed zeros and subnormals included.

Decisions: the build starts at the end of the first call, not at compile
time, so that it does not take the first call's turns at Python's GIL (a
NumPy loop over a few thousand elements releases the GIL, and getting it
back from a busy thread takes up to ``sys.getswitchinterval()``); the
build thread is not a daemon, so a process that exits after its first call
waits for the build, which saves the program for the next compile of the
same text. Asking for what only the build makes (``c_source``, ``module``,
``program``...) waits for it (and starts it if no call has). A build that
fails leaves the calls on the first tier (whose results are the same) and
raises its error when what it would have made is asked for. Only a compile
of text that the C backend would save (``api.saved_program_key``), with the
backend's standard pipeline, takes this route, and not with
``BCAST_FIRST_CALLS=0`` in the environment (``enabled``: compiles then wait
for the library, as before; the test suite sets it, so that the C
backend's tests call the library, and this module's tests unset it).
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Callable

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import Float32Type, Float64Type, ModuleOp, TensorType
from xdsl.ir import Attribute

from bcast.ir.ops import (
    AddOp,
    BroadcastInDimOp,
    MaximumOp,
    MinimumOp,
    MultiplyOp,
    NegateOp,
    SubtractOp,
)
from bcast.lowering import numpy_runtime as rt
from bcast.lowering.reference import signature
from bcast.tools import api

QUICK_PIPELINE = "bcast-make-explicit"
"""What the first tier runs on the parsed program: broadcasts made explicit
under the program's semantics, nothing else."""


def enabled() -> bool:
    """Whether compiles may take this route (``BCAST_FIRST_CALLS``, default on)."""
    return os.environ.get("BCAST_FIRST_CALLS", "1") != "0"


def _maximum(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The C emitter's ``arith.maximumf``: ``(a > b || a != a) ? a : b``."""
    return np.where((a > b) | (a != a), a, b)


def _minimum(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The C emitter's ``arith.minimumf``: ``(a < b || a != a) ? a : b``."""
    return np.where((a < b) | (a != a), a, b)


EXACT: dict[type, Callable[..., np.ndarray]] = {
    AddOp: np.add,
    SubtractOp: np.subtract,
    MultiplyOp: np.multiply,
    NegateOp: np.negative,
    MaximumOp: _maximum,
    MinimumOp: _minimum,
}
"""The ops of the rule, each as NumPy computes exactly what the C build does."""

FLOATS = (Float32Type, Float64Type)


def exact_type(t: Attribute) -> bool:
    """An ``f32``/``f64`` tensor of static shape (not nested, no ``?``)."""
    return (isinstance(t, TensorType) and isinstance(t.element_type, FLOATS)
            and all(d >= 0 for d in t.get_shape()))


def eligible(function: func.FuncOp) -> bool:
    """Whether ``function`` (after ``QUICK_PIPELINE``) is inside the rule of
    the module docstring, so that ``Plan`` computes the C library's bits."""
    if not function.body.blocks or len(function.body.blocks) != 1:
        return False
    block = function.body.blocks[0]
    if not all(exact_type(a.type) for a in block.args):
        return False
    for op in block.ops:
        if isinstance(op, func.ReturnOp):
            continue
        if type(op) is BroadcastInDimOp:
            if not (exact_type(op.operand.type) and exact_type(op.result.type)
                    and op.operand.type.element_type == op.result.type.element_type):
                return False
            continue
        if type(op) not in EXACT or op.regions or len(op.results) != 1:
            return False
        result = op.results[0].type
        if not exact_type(result) or any(v.type != result for v in op.operands):
            return False
    return True


class Plan:
    """An eligible function as a list of NumPy steps over numbered values;
    each step also names the values it used last, which the call drops
    (the arrays alive at once are about those the C build's loops hold)."""

    def __init__(self, function: func.FuncOp):
        if not eligible(function):  # no plan of a program outside the rule, whoever asks
            raise ValueError(f"@{function.sym_name.data} is outside the first-call rule (bcast.tools.first_calls)")
        block = function.body.blocks[0]
        slots = {value: k for k, value in enumerate(block.args)}
        ops = [op for op in block.ops if not isinstance(op, func.ReturnOp)]
        self.returned = tuple(slots[v] if v in slots else len(slots) + ops.index(v.owner)
                              for v in block.last_op.operands)
        last_use: dict[int, int] = {}
        steps: list[tuple[Callable[..., np.ndarray], tuple[int, ...]]] = []
        for k, op in enumerate(ops):
            if type(op) is BroadcastInDimOp:
                step = _broadcast(tuple(op.dims), tuple(op.result.type.get_shape()))
            else:
                step = EXACT[type(op)]
            operands = tuple(slots[v] for v in op.operands)
            steps.append((step, operands))
            last_use.update((slot, k) for slot in operands)
            slots[op.results[0]] = len(slots)
        kept = set(self.returned)
        dropped: list[list[int]] = [[] for _ in steps]
        for slot, k in last_use.items():
            if slot not in kept:
                dropped[k].append(slot)
        first = len(block.args)
        for k in range(len(steps)):  # a value nothing uses: dropped as soon as it is made
            if first + k not in last_use and first + k not in kept:
                dropped[k].append(first + k)
        self.steps = [(step, operands, tuple(dropped[k])) for k, (step, operands) in enumerate(steps)]
        self.arguments, self.results = signature(function)

    def __call__(self, *args, out=None):
        """One call, with the checks every backend makes (``rt.argument``,
        ``rt.Outs``)."""
        values = [rt.argument(a, spec) for a, spec in zip(args, self.arguments)]
        outs = rt.Outs(out, self.results, values)
        fp_errors = rt.FP_ERRORS.set(rt.IGNORE_ALL)
        try:
            env: list[np.ndarray | None] = list(values)
            for step, operands, dropped in self.steps:
                env.append(np.asarray(step(*(env[k] for k in operands))))
                for k in dropped:
                    env[k] = None
        finally:
            rt.FP_ERRORS.reset(fp_errors)
        results = [env[k] for k in self.returned]
        # an argument or a broadcast view returned as it is gets copied
        fresh = [r.flags.owndata and r.flags.c_contiguous and r.flags.writeable
                 and not any(r is v for v in values) for r in results]
        return outs.deliver(results, fresh)


def _broadcast(dims: tuple[int, ...], shape: tuple[int, ...]) -> Callable[[np.ndarray], np.ndarray]:
    def step(x: np.ndarray) -> np.ndarray:
        return np.broadcast_to(rt.expand(x, dims, len(shape)), shape)

    return step


_pending: set[threading.Thread] = set()
_pending_lock = threading.Lock()


def wait_for_builds() -> None:
    """Wait until every build started so far has finished (tests call it
    before their environment changes under a build)."""
    while True:
        with _pending_lock:
            threads = list(_pending)
        if not threads:
            return
        for thread in threads:
            thread.join()


class FirstCalls(api.Compiled):
    """A C-backend program whose calls run ``Plan`` until its library is
    built (module docstring); then the library's function, with nothing
    between the call and it."""

    def __init__(self, plan: Plan, entry: str, build: Callable[[], api.Compiled]):
        self.entry, self.backend = entry, "c"
        self.arguments, self.results = plan.arguments, plan.results
        self.memory_checked = True
        self._reload = None
        self._build = build
        self._built: api.Compiled | None = None
        self._error: BaseException | None = None
        self._thread: threading.Thread | None = None
        self._start_lock = threading.Lock()
        self.plan = plan
        """The first tier (the calls before the switch run it)."""
        self._python_function = self._first_call(plan)

    def _first_call(self, plan: Plan) -> Callable[..., object]:
        def call(*args, out=None):
            try:
                return plan(*args, out=out)
            finally:
                self.start_build()

        return call

    def start_build(self) -> threading.Thread:
        """The build's thread, started once."""
        with self._start_lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run_build, name="bcast-build")
                with _pending_lock:
                    _pending.add(self._thread)
                self._thread.start()
            return self._thread

    def _run_build(self) -> None:
        try:
            built = self._build()
            self._built = built
            self._python_function = built._python_function  # one assignment: the switch
        except BaseException as e:  # kept for whoever asks for what the build makes
            self._error = e
        finally:
            with _pending_lock:
                _pending.discard(threading.current_thread())

    def wait(self) -> api.Compiled:
        """The built program (building it first if no call has started it)."""
        self.start_build().join()
        if self._built is None and self._error is None:  # started before a fork: not in this process
            self._run_build()
        if self._built is None:
            assert self._error is not None
            raise self._error
        return self._built

    @property
    def built(self) -> bool:
        """Whether calls run the C library now."""
        return self._built is not None

    @property
    def c_source(self) -> str | None:  # type: ignore[override]
        return self.wait().c_source

    @property
    def python_source(self) -> str | None:  # type: ignore[override]
        return self.wait().python_source

    @property
    def program(self):  # type: ignore[override]
        return self.wait().program

    @property
    def module(self) -> ModuleOp:  # type: ignore[override]
        return self.wait().module

    @property
    def function(self) -> func.FuncOp:  # type: ignore[override]
        return self.wait().function

    @property
    def result_types(self) -> list[Attribute]:  # type: ignore[override]
        return self.wait().result_types

    @property
    def input_types(self) -> list[Attribute]:  # type: ignore[override]
        return self.wait().input_types


_DOTTED = re.compile(r"[A-Za-z_][\w$]*(?:\.[A-Za-z_][\w$]*)+")

TEXT_NAMES = frozenset({
    "builtin.module", "func.func", "func.return",
    *(f"{dialect}.{op}" for dialect in ("bcast", "stablehlo")
      for op in ("add", "subtract", "multiply", "negate", "maximum", "minimum", "broadcast_in_dim")),
})
"""The dotted names a program of the rule can show before it is parsed: its
ops (in bcast's or StableHLO's spelling, which imports to them), func's."""


INEXACT_FLAGS = ("-ffast-math", "-Ofast", "-ffp-contract=fast", "-funsafe-math-optimizations",
                 "-fassociative-math", "-freciprocal-math", "-ffinite-math-only", "-fno-signed-zeros")
"""Compiler options (in ``$CC``) that let the C build round otherwise than
IEEE 754 says: with one of them, no program takes this route."""


def exact_compiler(cc: list[str]) -> bool:
    """Whether the C build's own flags are all ``$CC`` adds (``c_runtime``'s
    are exact, module docstring) without one of ``INEXACT_FLAGS``."""
    return not any(word.startswith(INEXACT_FLAGS) for word in cc[1:])


def may_be_eligible(text: str) -> bool:
    """A look at the text before parsing it: every dotted name in it (an op,
    a dialect attribute, a file name in a location) is in ``TEXT_NAMES``. A
    program outside the rule is then, nearly always, not parsed twice (here
    and by the full compile); ``eligible`` decides on the parsed program."""
    return all(name in TEXT_NAMES for name in set(_DOTTED.findall(text)))


def first_calls(text: str, load: Callable[[str], ModuleOp], entry: str,
                build: Callable[[], api.Compiled]) -> FirstCalls | None:
    """A ``FirstCalls`` for the program ``text``, as ``load(QUICK_PIPELINE)``
    gives it, or None when it is outside the rule (``may_be_eligible``,
    ``eligible``), does not load, or its tensors do not fit (the caller's
    full compile then reports what is wrong, as ever), or the route is off
    (``enabled``)."""
    if not enabled() or not may_be_eligible(text):
        return None
    from bcast.lowering import c_runtime

    cc = c_runtime.compiler()
    if cc is None or not exact_compiler(cc):
        return None
    try:
        module = load(QUICK_PIPELINE)
    except Exception:  # noqa: BLE001 - the full compile reports it, located
        return None
    functions = [op for op in module.ops if isinstance(op, func.FuncOp) and op.sym_name.data == entry]
    if len(functions) != 1 or not eligible(functions[0]):
        return None
    if api.needed_bytes(functions[0]) > api.available_memory():
        return None
    return FirstCalls(Plan(functions[0]), entry, build)
