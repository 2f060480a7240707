"""bcast-opt: parse, verify, run a pass pipeline, print (MLIR or a target)."""

from __future__ import annotations

import argparse
import sys
from io import StringIO

from xdsl.passes import PassPipeline
from xdsl.printer import Printer

from bcast.ir.diagnostics import Report
from bcast.ir.parser import make_context
from bcast.ir.rules import SEMANTICS
from bcast.passes import DESCRIPTIONS, available_passes
from bcast.tools import driver, expectations
from bcast.tools.driver import EXIT_INPUT, EXIT_OK, InputError, UsageError

TARGETS = ("mlir", "numpy")


class _ArgumentParser(argparse.ArgumentParser):
    """argparse that raises instead of exiting, so usage errors exit 2 cleanly."""

    def error(self, message: str):
        raise UsageError(message)


def _pass_help() -> str:
    lines = ["passes (use with -p, xDSL pipeline syntax, e.g. -p 'canonicalize,cse'):"]
    for name in sorted(available_passes()):
        lines.append(f"  {name:32} {DESCRIPTIONS.get(name, '')}")
    return "\n".join(lines)


def build_argument_parser() -> argparse.ArgumentParser:
    p = _ArgumentParser(
        prog="bcast-opt",
        description="Verify bcast IR, run a pass pipeline and print the result.",
        epilog=_pass_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("file", nargs="?", default="-", help="input .mlir file ('-' for stdin)")
    p.add_argument("-p", "--passes", dest="pipeline", default="", help="pass pipeline")
    p.add_argument("-t", "--target", default="mlir", choices=TARGETS, help="output format")
    p.add_argument("-o", "--output", default=None, help="output file (default stdout)")
    p.add_argument("--split-input-file", action="store_true",
                   help="process each '// -----' separated chunk on its own")
    p.add_argument("--verify-diagnostics", action="store_true",
                   help="check expected-error/-note/-warning annotations in the input")
    p.add_argument("--semantics", choices=SEMANTICS, default=None,
                   help="broadcasting semantics, overriding the module's bcast.semantics")
    p.add_argument("--print-op-generic", action="store_true", help="print ops in generic form")
    return p


def print_module(module, generic: bool) -> str:
    out = StringIO()
    Printer(stream=out, print_generic_format=generic).print_op(module)
    return out.getvalue() + "\n"


def process_chunk(ctx, chunk: driver.Chunk, name: str, args, pipeline: PassPipeline) -> str:
    module = driver.load_chunk(ctx, chunk, name, args.semantics, pipeline)
    if args.target == "numpy":
        from bcast.lowering.numpy_emitter import emit_module
        from bcast.passes.errors import PassError

        try:
            return emit_module(module, name)
        except PassError as e:
            raise e.input_error() from None
    return print_module(module, args.print_op_generic)


def main(argv: list[str] | None = None) -> int:
    def body() -> int:
        args = build_argument_parser().parse_args(argv)
        pipeline = driver.parse_pipeline(args.pipeline)
        text = driver.read_source(args.file)
        name = "<stdin>" if args.file == "-" else args.file
        chunks = driver.split_input(text, args.split_input_file)
        outputs: list[str] = []
        failures: list[str] = []
        status = EXIT_OK
        for chunk in chunks:
            ctx = make_context()
            try:
                outputs.append(process_chunk(ctx, chunk, name, args, pipeline))
                reports: list[Report] = []
            except InputError as e:
                if not args.verify_diagnostics:
                    driver.print_reports(e.reports)
                    status = EXIT_INPUT
                    continue
                reports = e.reports
            if args.verify_diagnostics:
                expected = expectations.collect(chunk.text, chunk.line_offset)
                failures += expectations.check(expected, reports, name)
        if failures:
            print("\n".join(failures), file=sys.stderr)
            return EXIT_INPUT
        if status != EXIT_OK:
            return status
        driver.write_output(args.output, "// -----\n".join(outputs))
        return EXIT_OK

    return driver.run_main(body)


if __name__ == "__main__":
    sys.exit(main())
