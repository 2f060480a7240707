"""Compile ``bcast-lower-to-loops`` output with upstream MLIR and call it.

The loop IR (``bcast.ir.loops``, whose docstring states the
calling convention) is compiled by upstream tools::

    mlir-opt  MLIR_TO_LLVM (below)          loop IR -> LLVM dialect
    mlir-translate --mlir-to-llvmir         -> LLVM IR
    llc -O2 -filetype=obj -relocation-model=pic
    cc -shared ... -lm                      -> a shared object

and each function is called through its ``_mlir_ciface_<name>`` wrapper
(``llvm.emit_c_interface``): one pointer to a memref descriptor per argument
and per result, ``{T *allocated, T *aligned, i64 offset, i64 sizes[r],
i64 strides[r]}`` (strides in elements). The caller allocates the results.

The tools are looked up as ``mlir-opt-19`` etc. on ``PATH``, then in
``/usr/lib/llvm-19/bin`` (Debian's ``mlir-19-tools`` and ``llvm-19``).
"""

from __future__ import annotations

import ctypes
import os
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

import numpy as np

LLVM_VERSION = 19
LLVM_BIN = Path(f"/usr/lib/llvm-{LLVM_VERSION}/bin")

MLIR_TO_LLVM = (
    "--convert-math-to-llvm",  # exp, log, sqrt, floor, ceil, absf, powf: LLVM intrinsics
    "--convert-math-to-libm",  # tanh, atan2: calls to libm (f32/f64; f16 math runs in f32)
    # bf16 arith ops computed in f32 and rounded back, and the conversions as
    # integer ops (LLVM would call __truncsfbf2, which GCC 12's libgcc lacks)
    "--arith-emulate-unsupported-floats=source-types=bf16 target-type=f32",
    "--arith-expand=include-bf16=true",  # (also maximumf/minimumf as compare and select: zeros as NumPy's)
    "--convert-scf-to-cf",
    "--expand-strided-metadata",
    "--finalize-memref-to-llvm",
    "--convert-arith-to-llvm",
    "--convert-func-to-llvm",
    "--convert-cf-to-llvm",
    "--reconcile-unrealized-casts",
)
"""The ``mlir-opt`` 19 pipeline from loop IR to the LLVM dialect."""


class ToolMissing(RuntimeError):
    """An upstream tool (``mlir-opt``, ``mlir-translate``, ``llc``, ``cc``) is not installed."""


def find_tool(name: str) -> str | None:
    """``name-19`` on PATH, then ``/usr/lib/llvm-19/bin/name`` (``cc`` on PATH)."""
    if name == "cc":
        return shutil.which("cc")
    found = shutil.which(f"{name}-{LLVM_VERSION}")
    if found:
        return found
    path = LLVM_BIN / name
    return str(path) if path.exists() else None


def tools_available() -> bool:
    return all(find_tool(t) for t in ("mlir-opt", "mlir-translate", "llc", "cc"))


def _run(tool: str, args: Sequence[str], stdin: str | None = None) -> str:
    path = find_tool(tool)
    if path is None:
        raise ToolMissing(f"{tool} (LLVM {LLVM_VERSION}) is not installed")
    done = subprocess.run([path, *args], input=stdin, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{tool} failed:\n{done.stderr}")
    return done.stdout


def verify(mlir_text: str) -> str:
    """``mlir-opt`` parses and verifies the text; its canonical print."""
    return _run("mlir-opt", ["-"], mlir_text)


def build_shared_object(mlir_text: str, directory: str | os.PathLike) -> Path:
    """Compile loop IR text to ``directory/module.so`` (pipeline above)."""
    d = Path(directory)
    (d / "module.mlir").write_text(mlir_text)
    _run("mlir-opt", [str(d / "module.mlir"), *MLIR_TO_LLVM, "-o", str(d / "llvm.mlir")])
    _run("mlir-translate", ["--mlir-to-llvmir", str(d / "llvm.mlir"), "-o", str(d / "module.ll")])
    _run("llc", ["-O2", "-filetype=obj", "-relocation-model=pic", str(d / "module.ll"),
                 "-o", str(d / "module.o")])
    _run("cc", ["-shared", str(d / "module.o"), "-o", str(d / "module.so"), "-lm"])
    return d / "module.so"


@lru_cache(maxsize=None)
def descriptor_type(rank: int) -> type[ctypes.Structure]:
    """The C struct of a ranked memref descriptor."""
    fields = [("allocated", ctypes.c_void_p), ("aligned", ctypes.c_void_p), ("offset", ctypes.c_int64)]
    if rank:
        fields += [("sizes", ctypes.c_int64 * rank), ("strides", ctypes.c_int64 * rank)]
    return type(f"MemRef{rank}D", (ctypes.Structure,), {"_fields_": fields})


def descriptor(array: np.ndarray) -> ctypes.Structure:
    """A descriptor of a C-contiguous array (the identity layout the
    convention asks for); the array must outlive the call."""
    assert array.flags.c_contiguous, "memref arguments are row-major and contiguous"
    d = descriptor_type(array.ndim)()
    d.allocated = d.aligned = array.ctypes.data
    d.offset = 0
    if array.ndim:
        d.sizes[:] = list(array.shape)
        strides = [s // array.itemsize if array.size else 1 for s in array.strides]
        d.strides[:] = strides
    return d


class LoopLibrary:
    """A compiled loop module: ``call(name, args, result_specs)``."""

    def __init__(self, mlir_text: str):
        self._dir = tempfile.TemporaryDirectory(prefix="bcast-loops-")
        self.path = build_shared_object(mlir_text, self._dir.name)
        self.lib = ctypes.CDLL(str(self.path))

    def call(self, name: str, args: Sequence[np.ndarray],
             results: Sequence[tuple[tuple[int, ...], np.dtype]]) -> list[np.ndarray]:
        """Run ``@name`` on ``args`` (arrays of the declared flat shapes and
        dtypes; Python ints for ``index`` arguments, passed as int64) into
        fresh arrays of ``results`` (shape, dtype) pairs."""
        inputs = [a if isinstance(a, int) else np.ascontiguousarray(a) for a in args]
        outputs = [np.zeros(shape, dtype) for shape, dtype in results]
        values = [ctypes.c_int64(a) if isinstance(a, int) else descriptor(a) for a in (*inputs, *outputs)]
        fn = getattr(self.lib, f"_mlir_ciface_{name}")
        fn.restype = None
        fn.argtypes = [type(v) if isinstance(v, ctypes.c_int64) else ctypes.POINTER(type(v)) for v in values]
        fn(*[v if isinstance(v, ctypes.c_int64) else ctypes.byref(v) for v in values])
        return outputs
