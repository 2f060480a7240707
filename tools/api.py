"""The Python API: ``bcast.compile(source, backend=...)`` -> a callable."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable
from functools import cached_property

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Attribute

from bcast.ir.diagnostics import op_report
from bcast.ir.rules import element_count, plural
from bcast.ir.types import flat_type_shape, numpy_dtype
from bcast.lowering.reference import EvaluationError, Evaluator, signature
from bcast.lowering import numpy_runtime as rt
from bcast.tools import driver, targets
from bcast.passes.errors import first_dynamic
from bcast.tools.targets import EXPLICIT_PIPELINE, STANDARD_PIPELINE  # noqa: F401 (re-exported)

BACKENDS = targets.RUNNABLE
"""Backends of this build, fastest last (``c`` needs a C compiler)."""
PIPELINES = {name: targets.TARGETS[name].pipeline for name in BACKENDS}
"""The pipeline each backend runs before it, unless the caller gives one."""


default_backend = targets.default_backend

DYNAMIC_BACKENDS = tuple(name for name in BACKENDS if targets.TARGETS[name].dynamic)
"""Backends that run dynamic and bounded dims, slowest first (docs/semantics.md,
"Dynamic and bounded shapes"); the others refuse them, located, naming the backend."""


class BcastError(ValueError):
    """A program was rejected (parse, verify, pass or run-time error); the
    message holds the located diagnostics, as bcast-opt prints them."""


class TargetUnsupported(BcastError):
    """The chosen backend cannot express this program (an op the C target's
    loop lowering rejects, such as one outside the dialect); another backend
    may: ``backend=None`` falls back to numpy."""


def _error(reports) -> BcastError:
    return BcastError("\n".join(r.render() for r in reports))


# --------------------------------------------------------------------------
# Memory: a program whose tensors cannot fit is refused before it runs
# --------------------------------------------------------------------------


def nbytes_of(t: Attribute) -> int:
    """Bytes of a value of type ``t``; a dynamic dim counts as its bound, an
    unbounded one as 0 (its size is known only at run time, when NumPy's
    own allocation reports a size that does not fit)."""
    if not isinstance(t, TensorType):
        return 8
    shape = tuple(d if isinstance(d, int) else d.bound or 0 for d in flat_type_shape(t))
    return element_count(shape) * numpy_dtype(t).itemsize


def available_memory() -> int:
    """Bytes a program may use: MemAvailable, else physical memory."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return 1 << 34


def needed_bytes(function: func.FuncOp, nested: bool = True) -> int:
    """Bytes of the function's arguments and op results, all alive at once;
    ``nested=False`` counts only top-level values, not those inside fusions
    (which generated code computes block by block)."""
    total = sum(nbytes_of(t) for t in function.function_type.inputs.data)
    ops = function.walk() if nested else function.body.block.ops
    for op in ops:
        total += sum(nbytes_of(r.type) for r in op.results)
    return total


def check_memory(function: func.FuncOp, limit: int | None = None, nested: bool = True) -> None:
    """Refuse, before allocating anything, a function whose tensors (counted
    by ``needed_bytes``) would not fit: a ``BcastError`` located at the
    function."""
    limit = available_memory() if limit is None else limit
    total = needed_bytes(function, nested)
    if total > limit:
        raise _error([op_report(
            function,
            f"needs {total:,} bytes for its tensors, more than the {limit:,} bytes "
            "of memory available; refusing to run it",
        )])


def lazy_arguments(args) -> bool:
    """Whether a call of the array-api backend computes nothing now: an
    argument's library is lazy by ``array_api_compat.is_lazy_array`` (dask
    builds a graph computed chunk by chunk, elsewhere; JAX arrays count as
    lazy: traced under ``jit``, and otherwise in JAX's own allocator, which
    reports its own out-of-memory). Arguments of several libraries are an
    error the generated code reports, whatever this says."""
    import array_api_compat

    return any(array_api_compat.is_lazy_array(a) for a in args)


def native_function(function, memory_checked: bool):
    """``function`` if it is a C backend's ``c_runtime.Function``, whose fast
    path ``Compiled.__call__`` tries before anything else (it checks the
    argument count itself and misses on any call it does not take), else
    None. Only once the memory guard has run (at compile, for C)."""
    if not memory_checked or type(function).__name__ != "Function" or not hasattr(function, "fast"):
        return None
    from bcast.lowering import c_runtime

    return function if isinstance(function, c_runtime.Function) else None


class Compiled:
    """A compiled entry function: call it with NumPy arrays (nested tensors flat).

    Returns one array, or a tuple for several results; results are new
    arrays the caller owns (never an input, a view of one, or an array a
    previous call returned). ``out=`` takes preallocated result arrays (one
    array, or a tuple or list with one per result) and fills and returns
    them; the NumPy backend then writes fused results there directly. Each
    ``out`` must have exactly the result's flat shape and dtype and be
    writeable; all are checked before anything is written. An ``out`` that
    overlaps an input or another ``out`` gets the values of computing into
    fresh arrays and copying them in result order.

    Arguments follow one rule on every backend (``numpy_runtime.argument``):
    an array of the declared dtype is used as it is, whatever its layout;
    an array or NumPy scalar of another dtype only if that dtype converts
    without loss (``np.can_cast(..., "safe")``: i8 -> i32, f32 -> f64,
    bool -> anything, but not f64 -> f32 or i64 -> i8, whatever the values);
    Python scalars and (nested) lists only if their values fit (ints in the
    integer type's range or exactly representable in the float type, floats
    to a float type without a finite value overflowing, bools anywhere);
    ``index`` arguments are Python or NumPy integers.

    Every wrong argument, whatever is wrong with it (the count, a shape, a
    dtype, a lossy value, an ``out``), is a ``BcastError`` naming it
    (``arg1 (%y)``, ``out= for result0``), as run-time errors of the program
    are; only a Python-level misuse, such as an unknown keyword, is Python's
    own ``TypeError``."""

    _native = None
    """The C backend's ``c_runtime.Function`` (``native_function``), or None."""

    def __init__(self, module: ModuleOp, entry: str, backend: str, source_name: str):
        self.module = module
        self.entry = entry
        self.backend = backend
        self._reload: Callable[[], ModuleOp] | None = None
        self._evaluator = Evaluator(module)
        try:
            self.function: func.FuncOp = self._evaluator.function(entry)
        except EvaluationError as e:
            raise _error([e.report]) from None
        if not self.function.body.blocks:  # every backend: nothing to run
            raise _error([op_report(self.function, "is a declaration without a body")])
        from bcast.passes.errors import PassError, check_runnable

        try:
            for function in targets.reachable_functions(module, entry):
                check_runnable(function, f"the {backend} backend")
        except PassError as e:
            raise _error([e.report]) from None
        self.memory_checked = False
        """Whether ``check_memory`` has run (once per compiled program)."""
        target = targets.TARGETS[backend]
        if target.memory != "eager-calls":  # those: at the first eager call
            self.check_memory()
        self.result_types = list(self.function.function_type.outputs.data)
        self.input_types = list(self.function.function_type.inputs.data)
        self.arguments, self.results = signature(self.function)
        try:
            built = target.builder(module, entry, self.arguments, self.results, source_name)
        except targets.BuildError as e:
            raise BcastError(str(e)) from None
        except PassError as e:
            if target.lowers_to_loops:  # a construct the loop lowering cannot express
                raise TargetUnsupported(str(_error([e.report]))) from None
            raise _error([e.report]) from None
        self.python_source: str | None = built.python_source
        self.c_source: str | None = built.c_source
        """The generated C the C backend built and runs (``bcast-opt -t c`` prints the same)."""
        self._python_function: Callable[..., object] | None = built.function
        self._native = native_function(built.function, self.memory_checked)
        self.program = None if built.program is None else dataclasses.replace(
            built.program, needed_bytes=needed_bytes(self.function, nested=self.counts_nested_values))
        """What ``compile`` saves for a later compile of the same text (``saved``)."""

    @classmethod
    def saved(cls, program, entry: str, backend: str, reload: Callable[[], ModuleOp]) -> Compiled:
        """The program a compile of the same text and options saved
        (``c_runtime.ProgramEntry``), loaded without parsing: its checks
        passed when it was saved, and the memory guard is the caller's.
        ``module`` and what follows from it (``function``, the types) are
        made by ``reload`` (parsing and the passes again) when first asked for."""
        from bcast.lowering import c_runtime

        library = c_runtime.Library(program.source, {entry: (program.c_name, program.arguments, program.results)},
                                    program.checks, program.fault_name)
        compiled = cls.__new__(cls)
        compiled.entry, compiled.backend, compiled._reload = entry, backend, reload
        compiled.arguments, compiled.results = list(program.arguments), list(program.results)
        compiled.memory_checked = True
        compiled.python_source, compiled.c_source = None, program.source
        compiled._python_function = library.functions[entry]
        compiled._native = native_function(compiled._python_function, True)
        compiled.program = program
        return compiled

    @cached_property
    def module(self) -> ModuleOp:  # set by __init__; made here only for a saved program
        assert self._reload is not None
        return self._reload()

    @cached_property
    def _evaluator(self) -> Evaluator:
        return Evaluator(self.module)

    @cached_property
    def function(self) -> func.FuncOp:
        return self._evaluator.function(self.entry)

    @cached_property
    def result_types(self) -> list[Attribute]:
        return list(self.function.function_type.outputs.data)

    @cached_property
    def input_types(self) -> list[Attribute]:
        return list(self.function.function_type.inputs.data)

    @property
    def counts_nested_values(self) -> bool:
        """Whether the memory guard counts values inside fusions too (the
        reference evaluator keeps them all)."""
        return targets.TARGETS[self.backend].memory == "every-value"

    def check_memory(self) -> None:
        """Refuse a program whose tensors would not fit in memory, where bcast
        allocates them: the reference evaluator keeps every value (fusion
        bodies included), generated NumPy and C code the arguments and the
        top-level values; these backends refuse when compiling. The array-api
        backend allocates through the arguments' library, so it checks at its
        first call with eager arguments (NumPy, array_api_strict, CuPy;
        measured against host memory), once, as the others check once, and
        never at a call with lazy arguments (``lazy_arguments``: dask, JAX),
        whose library decides what is held when: a dask array larger than
        any machine runs chunk by chunk."""
        check_memory(self.function, nested=self.counts_nested_values)
        self.memory_checked = True

    def __call__(self, *args, out=None):
        native = self._native
        if native is not None and native.fast is not None:  # the C backend's fast path, first
            result = native.fast(args, out)
            if result is not rt.MISS:
                return result
        try:
            if len(args) != len(self.arguments):
                self.check_count(args)
            if not self.memory_checked and not lazy_arguments(args):
                self.check_memory()
            if self._python_function is not None:
                if out is None:  # no keyword: a call with one builds a dict (a per-call cost)
                    return self._python_function(*args)
                return self._python_function(*args, out=out)
            return self._evaluate(args, out)
        except EvaluationError as e:
            raise _error([e.report]) from None
        except rt.ProgramError as e:
            raise BcastError(e.render()) from None
        except rt.ArgumentError as e:
            raise BcastError(f"error: @{self.entry}: {e}") from None

    def check_count(self, args) -> None:
        if len(args) == len(self.arguments):
            return
        names = [spec.name for spec in self.arguments]
        takes = f"takes {plural(len(names), 'argument')}"
        if len(args) < len(names):
            raise rt.ArgumentError(f"{takes}, got {len(args)}: missing {', '.join(names[len(args):])}")
        raise rt.ArgumentError(f"{takes} ({', '.join(names) or 'none'}), got {len(args)}")

    def _evaluate(self, args, out):
        """The reference backend: arguments and ``out=`` checked by the same
        runtime functions as generated code, results delivered by them."""
        values = [rt.argument(a, spec) for a, spec in zip(args, self.arguments)]
        outs = rt.Outs(out, self.results, values)
        results = [np.asarray(r) for r in self._evaluator.call(self.entry, values)]
        # The evaluator's own arrays are the caller's; an input or a view is not.
        fresh = [r.flags.owndata and r.flags.c_contiguous and r.flags.writeable
                 and not any(r is v for v in values) for r in results]
        return outs.deliver(results, fresh)


def compile(  # noqa: A001 - the API's name is part of the contract
    source: str | ModuleOp,
    *,
    backend: str | None = None,
    entry: str = "main",
    semantics: str | None = None,
    pipeline: str | None = None,
    filename: str = "<source>",
) -> Compiled:
    """Parse, verify and prepare ``source`` (bcast IR text, or StableHLO as
    JAX prints it, imported first; or an xDSL module of either, such as
    ``from_jax`` returns, which is copied, never changed) for running.

    ``backend=None`` picks the fastest available backend. ``pipeline`` (xDSL
    pipeline syntax) replaces the backend's standard pipeline (``PIPELINES``);
    the reference backend runs the program as written by default.
    ``filename`` names the source in diagnostics."""
    chosen = backend or default_backend()
    if chosen not in BACKENDS:
        raise ValueError(f"unknown backend {chosen!r}; available: {', '.join(BACKENDS)}")
    given_pipeline = pipeline
    pipeline = PIPELINES[chosen] if pipeline is None else pipeline
    unprobed = given_pipeline is None and _unprobed(source, chosen)
    if unprobed:
        # nothing saved can match yet (a key holds the flags the probes choose):
        # the first calls need neither; their build runs the probes
        quick = _first_calls(source, filename, semantics, chosen, entry, pipeline)
        if quick is not None:
            return quick
    key = saved_program_key(source, chosen, entry, semantics, given_pipeline, filename)
    if key is not None:
        saved = _saved_program(key, entry, chosen, lambda: _load(source, filename, semantics, pipeline, chosen,
                                                                   given_pipeline is None))
        if saved is not None:
            return saved
        if given_pipeline is None and not unprobed:
            quick = _first_calls(source, filename, semantics, chosen, entry, pipeline)
            if quick is not None:
                return quick
    return _compile_new(source, backend, chosen, entry, semantics, given_pipeline, pipeline, filename, key)


def _first_calls(source: str, filename: str, semantics: str | None, chosen: str, entry: str,
                 pipeline: str) -> Compiled | None:
    """A program whose first calls run while its library builds
    (``first_calls``), or None: outside that route's rule. Its build is
    the full compile of ``backend=chosen``, saved under its key."""
    from bcast.tools.first_calls import first_calls

    def build(explicit: ModuleOp, done: str) -> Compiled:
        key = saved_program_key(source, chosen, entry, semantics, None, filename)
        return _compile_new(source, chosen, chosen, entry, semantics, None, pipeline, filename, key,
                            (explicit, done))

    return first_calls(source, lambda quick_pipeline: _load(source, filename, semantics, quick_pipeline, chosen, False),
                       entry, build)


def _unprobed(source: str | ModuleOp, backend: str) -> bool:
    """Whether ``compile`` would save this program (``saved_program_key``)
    but its key needs the compiler's probes to run first (``flags_known``)."""
    if not isinstance(source, str) or not targets.TARGETS[backend].saves_programs:
        return False
    from bcast.lowering import c_runtime

    cc = c_runtime.compiler()
    try:
        c_runtime.cache_limits()
    except c_runtime.BadCacheLimit:
        return False
    return cc is not None and not c_runtime.flags_known(cc)


def _compile_new(source: str | ModuleOp, backend: str | None, chosen: str, entry: str, semantics: str | None,
                 given_pipeline: str | None, pipeline: str, filename: str, key: str | None,
                 started: tuple[ModuleOp, str] | None = None) -> Compiled:
    """``compile`` of a program not saved: the passes, the backend's build,
    and the program saved under ``key``; the fallbacks of ``backend=None``.
    ``started``: ``source`` as ``_load`` gave it after a first part of
    ``pipeline`` (the first calls' module, ``_load_rest``)."""
    keyed_backend = chosen
    try:
        try:
            module = _load_rest(*started, semantics, pipeline, chosen, given_pipeline is None) if started else None
            if module is None:
                module = _load(source, filename, semantics, pipeline, chosen, given_pipeline is None)
        except driver.StaticOnlyError:
            if backend is not None:
                raise
            # the default picks the fastest backend that runs dynamic dims
            chosen = next(name for name in reversed(DYNAMIC_BACKENDS) if targets.TARGETS[name].available())
            pipeline = PIPELINES[chosen] if given_pipeline is None else given_pipeline
            module = _load(source, filename, semantics, pipeline, chosen, given_pipeline is None)
        try:
            compiled = Compiled(module, entry, chosen, filename)
            if key is not None and compiled.program is not None and compiled.backend == keyed_backend:
                from bcast.lowering import c_runtime

                c_runtime.remember_program(key, compiled.program)
            return compiled
        except TargetUnsupported:
            fallback = targets.TARGETS[chosen].fallback
            if backend is not None or fallback is None:
                raise
            # the default picks the fastest backend that runs the program (the
            # fallback takes the same pipeline's module)
            if first_dynamic(module) is not None:
                # a dynamic construct the C loops do not lower yet: the fallback
                # (or the reference, which runs it as written) takes it through
                # its own dynamic pipeline (the C one fuses, which numpy refuses)
                if fallback not in DYNAMIC_BACKENDS:
                    fallback = DYNAMIC_BACKENDS[0]
                module = _load(source, filename, semantics,
                               PIPELINES[fallback] if given_pipeline is None else given_pipeline, fallback,
                               given_pipeline is None)
            return Compiled(module, entry, fallback, filename)
    except driver.InputError as e:
        raise _error(e.reports) from None
    except driver.UsageError as e:
        raise ValueError(str(e)) from None


def saved_program_key(source: str | ModuleOp, backend: str, entry: str, semantics: str | None,
                      pipeline: str | None, filename: str) -> str | None:
    """The key a compile saves its program under, from the text and every
    option that changes what is built (``c_runtime.program_key`` adds
    bcast's code, the compiler and its flags); None when nothing is saved:
    a module given (not text), a backend that does not save
    (``Target.saves_programs``), or no compiler or a bad cache setting (the
    build then reports it). ``backend=None`` keys as the backend it chose:
    a saved program is one that backend built, so the choice was the same."""
    if not isinstance(source, str) or not targets.TARGETS[backend].saves_programs:
        return None
    from bcast.lowering import c_runtime

    cc = c_runtime.compiler()
    try:
        c_runtime.cache_limits()
    except c_runtime.BadCacheLimit:
        return None
    if cc is None:
        return None
    return c_runtime.program_key(cc, ["bcast.compile", source, filename, entry, repr(semantics),
                                      repr(pipeline), backend])


def _saved_program(key: str, entry: str, backend: str, reload: Callable[[], ModuleOp]) -> Compiled | None:
    """The program saved under ``key`` (``Compiled.saved``), or None: none
    saved, or its tensors do not fit the memory now available (the full
    compile then refuses it, located)."""
    from bcast.lowering import c_runtime

    program = c_runtime.remembered_program(key)
    if program is None or program.needed_bytes > available_memory():
        return None
    return Compiled.saved(program, entry, backend, reload)


def _load_rest(started: ModuleOp, done: str, semantics: str | None, pipeline: str, backend: str,
               standard: bool) -> ModuleOp | None:
    """What ``_load`` of the text gives, from ``started``: the text as
    ``_load`` gave it with ``done`` as its pipeline, when ``pipeline`` begins
    with ``done`` (the passes are deterministic, so the rest of ``pipeline``
    on a copy of it gives the same module, without parsing, verifying and
    running ``done`` a second time; docs/performance.md, "Compile time of
    big programs"); None when it does not begin so (the caller loads the
    text). ``started`` is copied: the first calls still read it."""
    target = targets.TARGETS[backend]
    dynamic = target.dynamic_pipeline if standard and target.dynamic_pipeline else None
    if dynamic is not None and driver.is_dynamic_module(started):
        pipeline = dynamic
    if not pipeline.startswith(done + ","):
        return None
    return driver.prepare(driver.make_context(), started.clone(), semantics,
                          driver.parse_pipeline(pipeline[len(done) + 1:]), import_stablehlo=True,
                          static_runner=target.static_runner("backend"), verified=True)


def _load(source: str | ModuleOp, filename: str, semantics: str | None, pipeline: str, backend: str,
          standard: bool) -> ModuleOp:
    """``source`` verified, imported and transformed; a module given is
    cloned first (semantics and passes change the module they run on).
    Dynamic dims are refused, before any pass, by the backends outside
    ``DYNAMIC_BACKENDS``; the others run their ``dynamic_pipeline`` on them
    when ``pipeline`` is their ``standard`` one."""
    target = targets.TARGETS[backend]
    static_runner = target.static_runner("backend")
    dynamic = target.dynamic_pipeline if standard and target.dynamic_pipeline else None
    if isinstance(source, ModuleOp):
        passes = driver.parse_pipeline(pipeline) if pipeline else None
        return driver.prepare(driver.make_context(), source.clone(), semantics, passes, import_stablehlo=True,
                              static_runner=static_runner,
                              dynamic_pipeline=driver.parse_pipeline(dynamic) if dynamic else None)
    if not isinstance(source, str):
        raise TypeError(f"bcast.compile takes IR text or an xDSL ModuleOp, got {type(source).__name__}")
    return driver.load(source, filename, semantics, pipeline=pipeline, import_stablehlo=True,
                       static_runner=static_runner, dynamic_pipeline=dynamic)
