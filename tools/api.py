"""The Python API: ``bcast.compile(source, backend=...)`` -> a callable."""

from __future__ import annotations

import builtins
from collections.abc import Callable

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp

from bcast.lowering.reference import EvaluationError, Evaluator, check_memory, coerce_argument
from bcast.lowering import numpy_runtime as rt
from bcast.tools import driver

EXPLICIT_PIPELINE = "bcast-make-explicit,canonicalize,cse,bcast-sink-broadcasts,canonicalize"
"""Every broadcast explicit and simplified (issue 3's pipeline)."""
STANDARD_PIPELINE = EXPLICIT_PIPELINE + ",bcast-fuse"
PIPELINES = {"reference": "", "numpy": STANDARD_PIPELINE}
"""The pipeline each backend runs before it, unless the caller gives one."""

BACKENDS = ("reference", "numpy")
"""Backends available in this build, fastest last."""


class BcastError(ValueError):
    """A program was rejected (parse, verify, pass or run-time error); the
    message holds the located diagnostics, as bcast-opt prints them."""


def _error(reports) -> BcastError:
    return BcastError("\n".join(r.render() for r in reports))


class Compiled:
    """A compiled entry function: call it with NumPy arrays (nested tensors flat).

    Returns one array, or a tuple for several results. ``out=`` takes
    preallocated result arrays (one array, or a sequence) and fills them;
    the NumPy backend then writes fused results there directly."""

    def __init__(self, module: ModuleOp, entry: str, backend: str, source_name: str):
        self.module = module
        self.entry = entry
        self.backend = backend
        self._evaluator = Evaluator(module)
        try:
            self.function: func.FuncOp = self._evaluator.function(entry)
            # The reference evaluator keeps every value; generated code keeps
            # only the arguments and the top-level values (not fusion bodies).
            check_memory(self.function, nested=backend == "reference")
        except EvaluationError as e:
            raise _error([e.report]) from None
        self.result_types = list(self.function.function_type.outputs.data)
        self.input_types = list(self.function.function_type.inputs.data)
        self.python_source: str | None = None
        self._python_function: Callable[..., object] | None = None
        if backend == "numpy":
            from bcast.lowering.numpy_emitter import emit_module
            from bcast.passes.errors import PassError

            try:
                self.python_source = emit_module(module, source_name)
            except PassError as e:
                raise _error(e.input_error().reports) from None
            namespace: dict[str, object] = {}
            exec(builtins.compile(self.python_source, f"<bcast numpy: {source_name}>", "exec"), namespace)
            self._python_function = namespace["FUNCTIONS"][entry]  # type: ignore[index]

    def __call__(self, *args, out=None):
        if len(args) != len(self.input_types):
            raise TypeError(
                f"@{self.entry} takes {len(self.input_types)} arguments, got {len(args)}"
            )
        if self._python_function is not None:
            try:
                return self._python_function(*args, out=out)
            except (rt.RuntimeIndexError, rt.ArgumentError) as e:
                raise BcastError(f"error: @{self.entry}: {e}") from None
        try:
            outs = rt.outs(out, len(self.result_types))
            values = [coerce_argument(a, t, i) for i, (a, t) in enumerate(zip(args, self.input_types))]
            results = [np.asarray(r) for r in self._evaluator.call(self.entry, values)]
        except EvaluationError as e:
            raise _error([e.report]) from None
        except rt.ArgumentError as e:
            raise BcastError(f"error: @{self.entry}: {e}") from None
        # Results are the caller's own: never an input or a view of one.
        results = [
            rt.deliver(r, outs, k, r.flags.owndata and r.flags.c_contiguous
                       and not any(r is v for v in values))
            for k, r in enumerate(results)
        ]
        return results[0] if len(results) == 1 else tuple(results)


def compile(  # noqa: A001 - the API's name is part of the contract
    source: str,
    *,
    backend: str | None = None,
    entry: str = "main",
    semantics: str | None = None,
    pipeline: str | None = None,
    filename: str = "<source>",
) -> Compiled:
    """Parse, verify and prepare ``source`` (bcast IR text) for running.

    ``backend=None`` picks the fastest available backend. ``pipeline`` (xDSL
    pipeline syntax) replaces the backend's standard pipeline (``PIPELINES``);
    the reference backend runs the program as written by default.
    ``filename`` names the source in diagnostics."""
    backend = backend or BACKENDS[-1]
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; available: {', '.join(BACKENDS)}")
    pipeline = PIPELINES[backend] if pipeline is None else pipeline
    try:
        module = driver.load(source, filename, semantics, pipeline=pipeline)
        return Compiled(module, entry, backend, filename)
    except driver.InputError as e:
        raise _error(e.reports) from None
    except driver.UsageError as e:
        raise ValueError(str(e)) from None
