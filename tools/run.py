"""bcast-run: run a function of a bcast program on NumPy inputs.

``--save-inputs FILE.npz`` writes the inputs ``--seed`` made, in the layout
``--inputs`` reads (so ``--inputs FILE.npz`` reruns the same computation);
it is written before the run, so the inputs of a run that fails are kept.
With ``--inputs`` it is a usage error: nothing was generated, and the inputs
are in a file already. Every ``.npz`` is written all or nothing.
"""

from __future__ import annotations

import argparse
import sys
import zipfile
from collections.abc import Sequence

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import IndexType

from bcast.ir.diagnostics import Report
from bcast.ir.rules import SEMANTICS
from bcast.ir.types import NIBBLE_DTYPES, flat_type_shape, iinfo, is_dynamic_type, numpy_dtype, is_float_dtype
from bcast.lowering import numpy_runtime as rt
from bcast.tools import driver
from bcast.tools.api import BcastError, Compiled, compile
from bcast.tools.driver import EXIT_OK, InputError, UsageError
from bcast.tools.opt import _ArgumentParser
from bcast.tools.targets import RUNNABLE


def build_argument_parser() -> argparse.ArgumentParser:
    p = _ArgumentParser(
        prog="bcast-run",
        description="Run a function of a bcast program. Inputs come from an .npz file "
        "(keys arg0, arg1, ...) or are made from --seed; results are printed or "
        "saved to an .npz file (keys result0, result1, ...). Nested tensors are flat arrays.",
    )
    p.add_argument("file", help="input .mlir file ('-' for stdin)")
    p.add_argument("--entry", default="main", help="function to run (default: main)")
    p.add_argument("--backend", default=None, choices=RUNNABLE,
                   help="reference (op by op, the oracle), numpy (standard pipeline + NumPy code), "
                   "array-api, or c (standard pipeline + loops compiled with $CC or cc); "
                   "default: c when a C compiler is present and the program lowers to loops, "
                   "else numpy")
    source = p.add_mutually_exclusive_group()
    source.add_argument("--inputs", help=".npz file with arg0, arg1, ...")
    source.add_argument("--seed", type=seed, help="make random inputs from this seed (0 or more)")
    p.add_argument("--save-inputs", metavar="FILE.npz",
                   help="write the generated inputs (--seed) to an .npz file (keys arg0, arg1, ...) "
                   "that --inputs reads back; written before the run, so a failing run's inputs are kept")
    p.add_argument("--output", help=".npz file for result0, result1, ...")
    p.add_argument("-p", "--passes", dest="pipeline", default=None,
                   help="pass pipeline to run first (default: the backend's standard one)")
    p.add_argument("--semantics", choices=SEMANTICS, default=None)
    return p


def bits_as(value: np.ndarray, dtype) -> np.ndarray:
    """``value`` as read from an ``.npz``: NumPy writes ml_dtypes' bfloat16
    as raw 2-byte records (``V2``), read back as the declared ``bf16`` (and
    int4/uint4 as ``V1``, read back as ``i4``/``ui4``)."""
    if value.dtype.kind == "V" and dtype is not None and np.dtype(dtype).itemsize == value.dtype.itemsize \
            and (is_float_dtype(dtype) or np.dtype(dtype) in NIBBLE_DTYPES):
        return value.view(dtype)
    return value


def load_inputs(path: str, arguments: Sequence[rt.Spec]) -> list[object]:
    """The arguments from an ``.npz`` file: exactly the keys ``arg0, arg1, ...``,
    each checked and converted by the API's rule (``numpy_runtime.argument``);
    an ``index`` is stored as a 0-d integer array."""
    try:
        data = np.load(path, allow_pickle=False)
        if not isinstance(data, np.lib.npyio.NpzFile):
            raise ValueError("not an .npz archive (np.savez writes one)")
        with data:
            keys = [f"arg{i}" for i in range(len(arguments))]
            check_keys(path, data.files, keys, arguments)
            values = [bits_as(data[k], s.dtype) for k, s in zip(keys, arguments)]
    except (OSError, ValueError, zipfile.BadZipFile, EOFError) as e:
        raise InputError([Report("error", f"cannot read inputs from {path}: {e}", None)]) from None
    try:
        return [rt.argument(v[()] if s.shape is None and v.ndim == 0 else v, s)
                for v, s in zip(values, arguments)]
    except rt.ArgumentError as e:
        raise InputError([Report("error", f"{path}: {e}", None)]) from None


def seed(text: str) -> int:
    """``--seed``: a non-negative integer (what NumPy's generators take)."""
    value = int(text)
    if value < 0:
        raise ValueError(text)
    return value


def random_inputs(function: func.FuncOp, seed: int) -> list[object]:
    """Deterministic inputs for ``--seed``: small values, in range for every op.
    A dynamic dim's size is the caller's to choose (sizes decide whether a
    program broadcasts at all): ``--seed`` refuses it, as a usage error."""
    rng = np.random.default_rng(seed)
    inputs: list[object] = []
    for k, t in enumerate(function.function_type.inputs.data):
        if isinstance(t, IndexType):
            inputs.append(0)
            continue
        if is_dynamic_type(t):
            raise UsageError(f"argument {k} ({t}) has dynamic dimensions, whose sizes --seed does not choose: "
                             "give --inputs FILE.npz")
        inputs.append(random_array(rng, flat_type_shape(t), numpy_dtype(t)))
    return inputs


def random_array(rng: np.random.Generator, shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
    """Fair booleans, normal floats (both parts of a complex value), small
    integers (in range for every op)."""
    if dtype == np.bool_:
        return rng.random(shape) < 0.5
    if is_float_dtype(dtype):
        return rng.standard_normal(shape).astype(dtype)
    if dtype.kind == "c":
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)
    if dtype in NIBBLE_DTYPES:  # the whole range of i4/ui4
        info = iinfo(dtype)
        return rng.integers(int(info.min), int(info.max) + 1, shape).astype(dtype)
    if dtype.kind == "u":
        return rng.integers(0, 20, shape).astype(dtype)
    return rng.integers(-10, 10, shape).astype(dtype)


def check_keys(path: str, found: Sequence[str], keys: Sequence[str], arguments: Sequence[rt.Spec]) -> None:
    """A missing key is an error, and so is an extra one: it is most likely a
    misspelt or misnumbered argument that would otherwise be ignored."""
    missing = [k for k in keys if k not in found]
    extra = [k for k in found if k not in keys]
    problems = ([f"missing {', '.join(missing)}"] if missing else []) + (
        [f"unexpected {', '.join(extra)}"] if extra else [])
    if problems:
        takes = ", ".join(s.name for s in arguments) or "no arguments"
        raise InputError([Report("error", f"{path}: {'; '.join(problems)} (the function takes {takes})", None)])


def write_npz(path: str, prefix: str, values: Sequence[object]) -> None:
    """``values`` as ``{prefix}0, {prefix}1, ...`` in an ``.npz`` file, all or
    nothing (an index is a 0-d integer array, a nested tensor its flat array:
    what ``load_inputs`` reads)."""
    arrays = {f"{prefix}{i}": np.asarray(v) for i, v in enumerate(values)}
    driver.write_atomically(path, lambda f: np.savez(f, **arrays), path)


def format_result(i: int, t, value: np.ndarray) -> str:
    body = np.array2string(np.asarray(value), threshold=200, max_line_width=100)
    return f"result{i}: {t}\n{body}"


def main(argv: list[str] | None = None) -> int:
    def body() -> int:
        args = build_argument_parser().parse_args(argv)
        if args.save_inputs and args.inputs:
            raise UsageError("--save-inputs saves generated inputs (--seed); --inputs are already in a file")
        text = driver.read_source(args.file)
        name = driver.source_name(args.file)
        try:
            program = compile(text, backend=args.backend, entry=args.entry,
                              semantics=args.semantics, pipeline=args.pipeline, filename=name)
        except BcastError as e:
            print(e, file=sys.stderr)
            return driver.EXIT_INPUT
        except ValueError as e:
            raise UsageError(str(e)) from None
        assert isinstance(program, Compiled)
        try:
            if not program.memory_checked:  # array-api: NumPy inputs are eager; refuse before making them
                program.check_memory()
        except BcastError as e:
            print(e, file=sys.stderr)
            return driver.EXIT_INPUT
        n = len(program.input_types)
        if args.inputs:
            inputs = load_inputs(args.inputs, program.arguments)
        elif args.seed is not None or n == 0:
            inputs = random_inputs(program.function, args.seed or 0)
            if args.save_inputs:
                write_npz(args.save_inputs, "arg", inputs)
        else:
            raise UsageError(f"@{args.entry} takes {n} arguments: give --inputs FILE.npz or --seed N")
        try:
            results = program(*inputs)
        except BcastError as e:
            print(e, file=sys.stderr)
            return driver.EXIT_INPUT
        if not isinstance(results, tuple):
            results = (results,)
        if args.output:
            write_npz(args.output, "result", results)
        else:
            for i, (t, r) in enumerate(zip(program.result_types, results)):
                print(format_result(i, t, r))
        return EXIT_OK

    return driver.run_main(body)


if __name__ == "__main__":
    sys.exit(main())
