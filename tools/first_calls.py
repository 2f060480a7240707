"""A new program's first calls on the C backend, while its library builds.

``bcast.compile`` of a new program on the C backend spends most of its time
lowering to loops, emitting C and running the C compiler (docs/performance.md,
"Time to first result"). For the programs of one rule (``eligible``)
it does not wait for that: it parses the text, makes broadcasts explicit
(``QUICK_PIPELINE``) and returns a ``FirstCalls``, whose calls run each op
with NumPy, computing the C library's bits, until the library is ready; the first
call starts that build on a thread of its own, and every call after the
build runs the library, as a compile that waited would have.

The rule (and ``$CC`` without one of ``INEXACT_FLAGS``; ``eligible``):
every value of the entry function is a tensor (static, ``?`` or bounded
dims) of ``i1``, a signed or unsigned integer type, ``f32`` or ``f64``, or
a size, and every op is a size op of ``?`` dims (``SIZE_OPS``,
``dynamic_broadcast_in_dim``), a
constant, ``broadcast_in_dim``, ``convert``, ``compare`` (not
``TOTALORDER``), ``select``, a ``reduce`` of integers or booleans, or an
elementwise op whose definition
(``bcast.ir.scalar``) on its element type is made of ``EXACT_PRIMITIVES``
only: ``+ - * /``, ``remainder``, ``negate``, ``abs``, ``sqrt``, ``rsqrt``,
``floor``, ``ceil``, both roundings, ``sign``, ``maximum``, ``minimum``,
``clamp``, and on integers also the bitwise ops, shifts, ``not``,
``popcnt`` and ``power``. Each op runs as the reference computes it
(``bcast.ir.evaluate``: the table the NumPy backend and constant folding
use too), but for ``C_OWN``. Why these give the C library's bits exactly:

- IEEE 754 defines ``+ - * /``, ``sqrt``, ``fmod``, the roundings to
  integers and the conversions between float widths and from integers as
  exactly rounded, so NumPy's loops and C's give one result: NumPy
  computes ``f32`` in ``f32``; the C build is ``-std=c99`` (GCC then does
  not contract ``a * b + c`` into an FMA: ``-ffp-contract=off``), without
  ``-ffast-math``, on x86-64's SSE arithmetic (no excess precision), and the
  emitter casts each result to its type (``c_emitter``). A division by a
  loop-invariant divisor is a multiply and two FMA corrections in C, exact
  by construction, with a plain division where it would not be
  (``bcast_div_f32``).
- Integer arithmetic wraps in both, and every edge case (division by 0,
  ``INT_MIN / -1``, shifts past the width, float to integer out of range)
  is decided by the definition before the primitive runs, in both tiers.
- ``maximum``/``minimum`` (and ``clamp``) on floats do not use ``np.maximum``
  (which zero of +0.0 and -0.0 it returns is NumPy's choice) but the C
  emitter's own expression, ``(a > b || a != a) ? a : b`` (``C_OWN``).
- Broadcasts and the passes between (canonicalization, CSE, sinking
  broadcasts, fusion) move values, never round them: canonicalization's
  only arithmetic rewrite folds constants, with the same ``evaluate``; so a
  ``C_OWN`` op on constants alone is outside the rule.
- A reduction of integers or booleans (``add``, ``multiply``, ``maximum``,
  ``minimum``, ``and``, ``or``, ``xor``) wraps around in both tiers, where
  any order of the operations gives one result.
- ``?`` dims change which elements meet, never how one is computed: the
  plan reads each call's sizes (``bcast.dim``), and broadcasts to them
  after the checks that ``bcast-make-explicit`` wrote, run by the
  reference's own functions (those the C runtime's size plan runs too).
  A check that fails does not raise the first tier's error: the library's
  checks are canonicalized, merged and run at entry, so which of several
  failures it reports is the library's to say, and the call waits for it.
- Anything else (a transcendental function, float ``power``, ``atan2``, a
  float reduction, ``bitcast_convert``, ``f16``, a call) is
  outside the rule and compiles as before: the first call runs the library.
  Transcendentals round differently in NumPy's SIMD loops and in glibc's
  scalar and vector ``libm``. A float sum is vectorized and split across
  threads in C and summed pairwise in NumPy: another order, other bits
  (and a float ``maximum`` over +0.0 and -0.0 returns whichever zero its
  order meets first).
  ``bitcast_convert`` shows a NaN's sign and payload as an ordinary value
  (below). Size ops other than those above (sizes held in tensors,
  ``dynamic_reshape``) are outside too.

One thing is not the same bit for bit, and is not on any backend: where
two NaNs meet, which one's sign and payload the result carries (IEEE 754
leaves it open, and the C compiler may swap the operands of ``+`` and
``*``); the result is a NaN on both tiers.

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

import functools
import os
import re
import threading
from collections.abc import Callable

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Attribute, Operation, SSAValue

from bcast.ir import numerics, rules, scalar
from bcast.ir.evaluate import evaluate
from bcast.ir.ops import (
    BinaryOp,
    BroadcastInDimOp,
    BroadcastSizeOp,
    CheckBroadcastableOp,
    CompareOp,
    ConstantOp,
    ConvertOp,
    DimOp,
    DynamicBroadcastInDimOp,
    ElementwiseOp,
    ReduceOp,
    SelectOp,
    TernaryOp,
    broadcast_size,
)
from bcast.ir.types import element_of, split_type
from bcast.lowering import numpy_runtime as rt
from bcast.lowering.interpreter import EvaluationError, check_broadcastable, check_expansion
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


C_OWN: dict[str, Callable[..., np.ndarray]] = {"arith.maximumf": _maximum, "arith.minimumf": _minimum}
"""The primitives whose NumPy ufunc (``numerics``' table) is not the C
emitter's expression bit for bit: which zero of +0.0 and -0.0 ``np.maximum``
returns is NumPy's choice. The first tier computes these as C does."""

EXACT_PRIMITIVES = frozenset({
    "const", "arith.select", "arith.cmpi", "arith.cmpf", "scf.for",
    "arith.addf", "arith.subf", "arith.mulf", "arith.divf", "arith.remf", "arith.negf", *C_OWN,
    "arith.addi", "arith.subi", "arith.muli", "arith.divsi", "arith.divui", "arith.remsi", "arith.remui",
    "arith.andi", "arith.ori", "arith.xori", "arith.shli", "arith.shrui", "arith.shrsi",
    "arith.maxsi", "arith.maxui", "arith.minsi", "arith.minui",
    "math.absf", "math.sqrt", "math.floor", "math.ceil", "math.roundeven", "math.round", "math.ctpop",
    "arith.trunci", "arith.extsi", "arith.extui", "arith.sitofp", "arith.uitofp", "arith.fptosi",
    "arith.fptoui", "arith.extf", "arith.truncf",
})  # fmt: skip
"""The primitives (``bcast.ir.scalar``) whose NumPy implementation
(``numerics``, with ``C_OWN``) gives the C build's bits exactly (module
docstring). Not here: the transcendental functions (NumPy's SIMD loops and
glibc's scalar and vector ``libm`` round differently), ``pow``, ``atan2``,
and ``arith.bitcast`` (it shows a NaN's sign and payload as an ordinary
value, which the two tiers may choose differently, see below)."""

EXACT_ELEMENTS = frozenset({"i1", "i8", "i16", "i32", "i64", "ui8", "ui16", "ui32", "ui64", "f32", "f64"})
"""Not ``f16``: NumPy converts halves in software, C with ``_Float16``."""


def exact_type(t: Attribute) -> bool:
    """A non-nested tensor (static, ``?`` or bounded dims) of one of ``EXACT_ELEMENTS``."""
    if not isinstance(t, TensorType):
        return False
    levels, element = split_type(t)
    return len(levels) == 1 and element in EXACT_ELEMENTS


SIZE_OPS = (DimOp, BroadcastSizeOp, CheckBroadcastableOp)
"""The size ops of ``?`` dims that ``bcast-make-explicit`` writes (docs/semantics.md,
"Dynamic and bounded shapes"): sizes as ints and the checks on them."""


@functools.cache
def primitives(definition: scalar.Definition, element: str, arity: int) -> frozenset[str]:
    """``scalar.primitives_of``, once per definition and element type (a
    program of 1,000 ops asks a few dozen times)."""
    return scalar.primitives_of(definition, element, arity)


def exact_op(op: Operation) -> bool:
    """Whether the first tier computes ``op`` as the C build does: its values
    are of ``exact_type`` and it is a constant, a broadcast, a conversion, a
    compare (not ``TOTALORDER``), a select, a reduction of integers or
    booleans, or an elementwise op whose
    definition on its element type uses ``EXACT_PRIMITIVES`` only, on
    operands of the result's type; or one of ``SIZE_OPS`` or a
    ``dynamic_broadcast_in_dim``, which move no element."""
    if isinstance(op, SIZE_OPS):
        return not op.regions and (type(op) is not DimOp or exact_type(op.operand.type))
    if type(op) is DynamicBroadcastInDimOp:
        return exact_type(op.operand.type) and exact_type(op.result.type) \
            and element_of(op.operand.type) == element_of(op.result.type)
    if len(op.results) != 1 or op.regions or not exact_type(op.results[0].type) \
            or not all(exact_type(v.type) for v in op.operands):
        return False
    result = op.results[0].type
    if isinstance(op, ConstantOp | ConvertOp):
        return True
    if type(op) is BroadcastInDimOp:  # of static shapes: the dynamic form is the op above
        return element_of(op.operand.type) == element_of(result) \
            and all(d >= 0 for t in (op.operand.type, result) for d in t.get_shape())
    if isinstance(op, CompareOp):
        return not op.is_total_order and op.lhs.type == op.rhs.type
    if isinstance(op, SelectOp):
        return op.operands[1].type == op.operands[2].type == result
    if isinstance(op, ReduceOp):  # wrapping integer arithmetic and bitwise ops: any order gives one result
        return rules.kind(element_of(result)) != "float"
    if not isinstance(op, ElementwiseOp) or getattr(op, "SCALAR", None) is None \
            or any(v.type != result for v in op.operands):
        return False
    return primitives(op.SCALAR, element_of(result), len(op.operands)) <= EXACT_PRIMITIVES


def uses_c_own(op: Operation) -> bool:
    """Whether ``op``'s definition uses a ``C_OWN`` primitive (a float
    ``maximum``, ``minimum`` or ``clamp``)."""
    if not isinstance(op, ElementwiseOp) or getattr(op, "SCALAR", None) is None:
        return False
    return bool(primitives(op.SCALAR, element_of(op.results[0].type), len(op.operands)) & C_OWN.keys())


def eligible(function: func.FuncOp) -> bool:
    """Whether ``function`` (after ``QUICK_PIPELINE``) is inside the rule of
    the module docstring, so that ``Plan`` computes the C library's bits.

    One more exclusion: a ``C_OWN`` op whose operands all come from
    constants. The library's canonicalization folds it with ``numerics``
    (``np.maximum``'s zero), where the first tier would use C's."""
    if not function.body.blocks or len(function.body.blocks) != 1:
        return False
    block = function.body.blocks[0]
    if not all(exact_type(a.type) for a in block.args):
        return False
    constant: set[SSAValue] = set()
    for op in block.ops:
        if isinstance(op, func.ReturnOp):
            continue
        if not exact_op(op):
            return False
        if op.results and all(v in constant for v in op.operands):
            if uses_c_own(op):
                return False
            constant.add(op.results[0])
    return True


class _CScalars(numerics.NumpyScalars):
    """``numerics``' primitives on arrays, but ``C_OWN``'s as C computes them."""

    def apply(self, name, *xs):
        own = C_OWN.get(name)
        return np.asarray(own(*xs)) if own is not None else super().apply(name, *xs)


_C_SCALARS = _CScalars()


def step_of(op: Operation) -> Callable[..., np.ndarray]:
    """NumPy's computation of an ``exact_op``: the reference's own
    (``bcast.ir.evaluate``, which the NumPy backend and constant folding
    share), but for an op using a ``C_OWN`` primitive, whose definition runs
    on ``_CScalars``; a constant is its value, read-only (a result that is
    a constant is then copied for the caller)."""
    if type(op) is BroadcastInDimOp:
        return _broadcast(tuple(op.dims), tuple(op.result.type.get_shape()))
    if isinstance(op, DimOp):
        dim = op.dim
        return lambda x: x.shape[dim]
    if isinstance(op, BroadcastSizeOp):
        return lambda *sizes: broadcast_size(sizes)
    if isinstance(op, CheckBroadcastableOp):
        def check(*sizes: int) -> None:
            check_broadcastable(op, [tuple(int(s) for s in shape) for shape in op.shapes(sizes)])

        return check
    if type(op) is DynamicBroadcastInDimOp:
        return _dynamic_broadcast(op)
    if isinstance(op, ConstantOp):
        value = op.numpy_value()
        value.setflags(write=False)
        return lambda: value
    if uses_c_own(op):
        definition, element = op.SCALAR, element_of(op.results[0].type)

        def c_step(*xs: np.ndarray) -> np.ndarray:
            with np.errstate(all="ignore"):
                return definition(_C_SCALARS, element, *xs)

        return c_step
    return functools.partial(evaluate, op)


class OutsideTheRule(ValueError):
    """``Plan`` of a function that ``eligible`` refuses."""


class Plan:
    """An eligible function as a list of NumPy steps over numbered values;
    each step also names the values it used last, which the call drops
    (the arrays alive at once are about those the C build's loops hold)."""

    def __init__(self, function: func.FuncOp):
        if not eligible(function):  # no plan of a program outside the rule, whoever asks
            raise OutsideTheRule(f"@{function.sym_name.data} is outside the first-call rule (bcast.tools.first_calls)")
        block = function.body.blocks[0]
        slots = {value: k for k, value in enumerate(block.args)}
        ops = [op for op in block.ops if not isinstance(op, func.ReturnOp)]
        self.returned = tuple(slots[v] if v in slots else len(slots) + ops.index(v.owner)
                              for v in block.last_op.operands)
        last_use: dict[int, int] = {}
        steps: list[tuple[Callable[..., np.ndarray], tuple[int, ...]]] = []
        for k, op in enumerate(ops):
            step = step_of(op)
            operands = tuple(slots[v] for v in op.operands)
            steps.append((step, operands))
            last_use.update((slot, k) for slot in operands)
            for result in op.results:  # one slot per op: a check's holds None
                slots[result] = len(block.args) + k
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
                value = step(*(env[k] for k in operands))
                env.append(value if value is None or type(value) is int else np.asarray(value))
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


def _dynamic_broadcast(op: DynamicBroadcastInDimOp) -> Callable[..., np.ndarray]:
    """``bcast.dynamic_broadcast_in_dim`` to the sizes of this call, checked by
    the reference's own rule (``interpreter.check_expansion``)."""
    dims = tuple(op.dims)

    def step(x: np.ndarray, *sizes: int) -> np.ndarray:
        shape = tuple(int(s) for s in op.mixed_sizes(sizes))
        check_expansion(op, x.shape, shape)
        return rt.broadcast_in_dim(x, dims, shape)

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
            except EvaluationError:
                # a size check of ``?`` dims failed: which error the program
                # reports is the library's (its checks are canonicalized,
                # merged and ordered at entry), so the call waits for it
                built = self._built_or_none()
                if built is None:
                    raise
                return built._python_function(*args, out=out)
            finally:
                self.start_build()

        return call

    def _built_or_none(self) -> api.Compiled | None:
        """The built program, or None when the build failed."""
        try:
            return self.wait()
        except Exception:  # noqa: BLE001 - the build's error is raised when what it makes is asked for
            return None

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

STRUCTURAL_NAMES = frozenset({
    "builtin.module", "func.func", "func.return",
    *(f"{dialect}.{op}" for dialect in ("bcast", "stablehlo")
      for op in ("constant", "convert", "broadcast_in_dim", "compare", "select")),
    "bcast.reduce",
    *(op.name for op in (*SIZE_OPS, DynamicBroadcastInDimOp)), "stablehlo.bounds",
})
"""The dotted names of a program of the rule that are not ``ElementwiseOp``
definitions (func's, the module's, the ops ``exact_op`` names, and the
bounds of bounded dims)."""

KIND_EXAMPLES = {"float": "f32", "signed": "i32", "unsigned": "ui32", "bool": "i1"}


@functools.cache
def text_names() -> frozenset[str]:
    """The dotted names a program of the rule can show before it is parsed:
    ``STRUCTURAL_NAMES`` and each elementwise op (in bcast's and
    StableHLO's spelling, which imports to it) whose definition is made of
    ``EXACT_PRIMITIVES`` on some element kind (``exact_op`` then decides
    per element type)."""
    names = set(STRUCTURAL_NAMES)
    pending = [ElementwiseOp]
    while pending:
        cls = pending.pop()
        pending += cls.__subclasses__()
        definition = cls.__dict__.get("SCALAR")
        if definition is None or not hasattr(cls, "name"):
            continue
        arity = 3 if issubclass(cls, TernaryOp) else 2 if issubclass(cls, BinaryOp) else 1
        kinds = getattr(cls, "ELEMENT_KINDS", KIND_EXAMPLES.keys())
        if any(primitives(definition, KIND_EXAMPLES[kind], arity) <= EXACT_PRIMITIVES
               for kind in kinds if kind in KIND_EXAMPLES):  # (complex values are outside the rule: no C)
            names |= {cls.name, cls.STABLEHLO}
    return frozenset(names)


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
    a dialect attribute, a file name in a location) is in ``text_names()``. A
    program outside the rule is then, nearly always, not parsed twice (here
    and by the full compile); ``eligible`` decides on the parsed program."""
    names = text_names()
    return all(name in names for name in set(_DOTTED.findall(text)))


def first_calls(text: str, load: Callable[[str], ModuleOp], entry: str,
                build: Callable[[ModuleOp, str], api.Compiled]) -> FirstCalls | None:
    """A ``FirstCalls`` for the program ``text``, as ``load(QUICK_PIPELINE)``
    gives it, or None when it is outside the rule (``may_be_eligible``,
    ``eligible``), does not load, or its tensors do not fit (the caller's
    full compile then reports what is wrong, as ever), or the route is off
    (``enabled``). Its library is ``build(module, QUICK_PIPELINE)``, from
    that loaded module: the build goes on from it, not from the text."""
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
    if len(functions) != 1:
        return None
    try:
        plan = Plan(functions[0])  # checks the rule (once: it walks every op)
    except OutsideTheRule:
        return None
    if api.needed_bytes(functions[0]) > api.available_memory():
        return None
    return FirstCalls(plan, entry, lambda: build(module, QUICK_PIPELINE))
