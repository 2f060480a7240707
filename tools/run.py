"""bcast-run: run a function of a bcast program on NumPy inputs."""

from __future__ import annotations

import argparse
import sys
import zipfile

import numpy as np

from bcast.ir.diagnostics import Report
from bcast.ir.rules import SEMANTICS
from bcast.lowering.reference import random_inputs
from bcast.tools import driver
from bcast.tools.api import BACKENDS, BcastError, Compiled, compile
from bcast.tools.driver import EXIT_OK, InputError, UsageError
from bcast.tools.opt import _ArgumentParser


def build_argument_parser() -> argparse.ArgumentParser:
    p = _ArgumentParser(
        prog="bcast-run",
        description="Run a function of a bcast program. Inputs come from an .npz file "
        "(keys arg0, arg1, ...) or are made from --seed; results are printed or "
        "saved to an .npz file (keys result0, result1, ...). Nested tensors are flat arrays.",
    )
    p.add_argument("file", help="input .mlir file ('-' for stdin)")
    p.add_argument("--entry", default="main", help="function to run (default: main)")
    p.add_argument("--backend", default="reference", choices=BACKENDS,
                   help="reference (op by op, the oracle) or numpy (standard pipeline + NumPy code)")
    source = p.add_mutually_exclusive_group()
    source.add_argument("--inputs", help=".npz file with arg0, arg1, ...")
    source.add_argument("--seed", type=int, help="make random inputs from this seed")
    p.add_argument("--output", help=".npz file for result0, result1, ...")
    p.add_argument("-p", "--passes", dest="pipeline", default=None,
                   help="pass pipeline to run first (default: the backend's standard one)")
    p.add_argument("--semantics", choices=SEMANTICS, default=None)
    return p


def load_inputs(path: str, count: int) -> list[object]:
    try:
        with np.load(path, allow_pickle=False) as data:
            keys = set(data.files)
            missing = [f"arg{i}" for i in range(count) if f"arg{i}" not in keys]
            if missing:
                raise InputError([Report("error", f"{path}: missing inputs {', '.join(missing)}", None)])
            return [data[f"arg{i}"] for i in range(count)]
    except (OSError, ValueError, zipfile.BadZipFile, EOFError) as e:
        raise InputError([Report("error", f"cannot read inputs from {path}: {e}", None)]) from None


def format_result(i: int, t, value: np.ndarray) -> str:
    body = np.array2string(np.asarray(value), threshold=200, max_line_width=100)
    return f"result{i}: {t}\n{body}"


def main(argv: list[str] | None = None) -> int:
    def body() -> int:
        args = build_argument_parser().parse_args(argv)
        text = driver.read_source(args.file)
        name = "<stdin>" if args.file == "-" else args.file
        try:
            program = compile(text, backend=args.backend, entry=args.entry,
                              semantics=args.semantics, pipeline=args.pipeline, filename=name)
        except BcastError as e:
            print(e, file=sys.stderr)
            return driver.EXIT_INPUT
        except ValueError as e:
            raise UsageError(str(e)) from None
        assert isinstance(program, Compiled)
        n = len(program.input_types)
        if args.inputs:
            inputs = load_inputs(args.inputs, n)
        elif args.seed is not None or n == 0:
            inputs = random_inputs(program.function, args.seed or 0)
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
            try:
                np.savez(args.output, **{f"result{i}": r for i, r in enumerate(results)})
            except OSError as e:
                raise InputError([Report("error", f"cannot write {args.output}: {e}", None)]) from None
        else:
            for i, (t, r) in enumerate(zip(program.result_types, results)):
                print(format_result(i, t, r))
        return EXIT_OK

    return driver.run_main(body)


if __name__ == "__main__":
    sys.exit(main())
