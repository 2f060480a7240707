"""bcast-opt: parse, verify, run a pass pipeline, print (MLIR or a target).

The command line follows mlir-opt and xdsl-opt:

- ``--split-input-file``: each ``// -----`` chunk is processed on its own;
  diagnostics name lines of the original file; every chunk's output is
  printed, separated by ``// -----`` (``# -----`` for ``-t numpy`` and
  ``-t array-api``, so the output stays one Python module), a failed chunk's
  output being empty as in mlir-opt; the exit status is 1 if any chunk
  failed. What the chunks share is printed once (``TargetOutput``): the C
  runtime helpers, a Python module's imports and its function tables.
- ``--print-between-passes``: after each pass, the IR on stderr under a
  ``// -----// IR Dump After <pass> //----- //`` header, as mlir-opt's
  ``--mlir-print-ir-after-all``.
- ``--timing``: after the run, a table on stderr laid out like mlir-opt's
  ``--mlir-timing``: wall time of parsing, verifying (before and after the
  passes), each pass in pipeline order and output, summed over chunks.
- ``--version``: ``bcast-opt <version> (xDSL <version>)``.
- ``--view-op-graph``: after the pipeline, each chunk's data-flow graph as
  Graphviz DOT (``bcast.tools.op_graph``) on stderr, where mlir-opt 19 writes
  its own; stdout keeps the IR (or target), so ``2>&1 >/dev/null | dot -Tsvg``
  draws it.
- mlir-opt's spellings are accepted too: ``--mlir-timing``,
  ``--mlir-print-debuginfo``, ``--mlir-print-ir-after-all``,
  ``--mlir-print-op-generic``, ``--pass-pipeline``, and pipelines nested in
  ``builtin.module(...)`` and ``func.func(...)`` (``driver.parse_pipeline``).
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time

from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass, PassPipeline, PassPipelineCallbackType
from xdsl.xdsl_opt_main import VersionAction

from bcast.tools import __version__
from bcast.ir.parser import make_context
from bcast.ir.rules import SEMANTICS
from bcast.passes import DESCRIPTIONS, FUNCTION_PASSES, available_passes
from bcast.tools import driver, expectations
from bcast.tools.op_graph import module_dot
from bcast.tools.driver import EXIT_INPUT, EXIT_OK, EarlyExit, InputError, Timings, UsageError
from bcast.tools import targets
from bcast.tools.targets import print_module

TARGETS = targets.EMITTED
"""What ``-t`` prints (``bcast.tools.targets``)."""


class _Once(argparse.Action):
    """An option that may be given once (as mlir-opt's ``--pass-pipeline``):
    a second pipeline is a usage error, not a silent replacement."""

    def __call__(self, parser, namespace, values, option_string=None):
        if getattr(namespace, self.dest) is not None:
            parser.error(f"{option_string}: a pipeline was already given; give one pipeline")
        setattr(namespace, self.dest, values)


class _ArgumentParser(argparse.ArgumentParser):
    """argparse that raises instead of exiting, so that ``main(argv)`` returns
    its exit status (2 for usage errors) instead of calling ``sys.exit``."""

    def error(self, message: str):
        raise UsageError(message, usage=self.format_usage(), prog=self.prog)

    def exit(self, status: int = 0, message: str | None = None):
        if message:
            sys.stderr.write(message)
        raise EarlyExit(status)


def _pass_help() -> str:
    lines = ["passes (use with -p, in xDSL's syntax, -p 'canonicalize,cse', or mlir-opt's,",
             "-p 'builtin.module(bcast-make-explicit,func.func(canonicalize,cse))'; those not",
             "marked [module only] rewrite each function on its own and may be nested in func.func(...)):"]
    for name in sorted(available_passes()):
        nested = "" if name in FUNCTION_PASSES else " [module only]"
        lines.append(f"  {name:32} {DESCRIPTIONS.get(name, '')}{nested}")
    return "\n".join(lines)


def build_argument_parser() -> argparse.ArgumentParser:
    p = _ArgumentParser(
        prog="bcast-opt",
        description="Verify bcast IR, run a pass pipeline and print the result.\n\n"
        "Exit status: 0 success, 1 bad input (in any chunk), 2 usage error, 3 internal error.\n"
        "--print-between-passes: after each pass, '// -----// IR Dump After <pass> //----- //'\n"
        "  and the IR, on stderr. --timing: after the run, a wall-time table (parse, verify,\n"
        "  each pass, output, the rest, total) on stderr, laid out as mlir-opt's --mlir-timing.\n"
        "--view-op-graph: the graph as DOT on stderr, as mlir-opt; render it with\n"
        "  bcast-opt FILE -p PIPELINE --view-op-graph 2>&1 >/dev/null | dot -Tsvg -o graph.svg",
        epilog=_pass_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("file", nargs="?", default="-", help="input .mlir file ('-' for stdin)")
    p.add_argument("-p", "--passes", "--pass-pipeline", dest="pipeline", default=None, action=_Once,
                   help="pass pipeline, as xDSL ('canonicalize,cse') or mlir-opt "
                   "('builtin.module(canonicalize,func.func(cse))') write it (default: none; "
                   "the standard one for -t numpy, the explicit one for -t stablehlo)")
    p.add_argument("-t", "--target", default="mlir", choices=TARGETS, help="output format")
    p.add_argument("-o", "--output", default=None,
                   help="output file (default stdout); written only if every chunk succeeds")
    p.add_argument("--split-input-file", action="store_true",
                   help="process each '// -----' separated chunk on its own")
    p.add_argument("--verify-diagnostics", action="store_true",
                   help="check expected-error/-warning/-remark/-note annotations in the input")
    p.add_argument("--semantics", choices=SEMANTICS, default=None,
                   help="broadcasting semantics, overriding the module's bcast.semantics")
    p.add_argument("--print-op-generic", "--mlir-print-op-generic", action="store_true",
                   help="print ops in generic form")
    p.add_argument("--print-debuginfo", "--mlir-print-debuginfo", action="store_true",
                   help="print each op's location, loc(...)")
    p.add_argument("--print-between-passes", "--mlir-print-ir-after-all", action="store_true",
                   help="print the IR after each pass, on stderr")
    p.add_argument("--timing", "--mlir-timing", action="store_true",
                   help="print the time of parsing, verifying, each pass and output, on stderr")
    p.add_argument("--view-op-graph", action="store_true",
                   help="print the data-flow graph of each chunk after the pipeline as Graphviz DOT, "
                   "on stderr as mlir-opt does (the IR still goes to stdout): a cluster per function "
                   "and per bcast.fusion; e.g. 2>&1 >/dev/null | dot -Tsvg -o graph.svg")
    p.add_argument("--allow-unregistered-dialect", action="store_true",
                   help="accepted for mlir-opt's command lines; bcast always keeps ops it does not "
                   "know (in generic form)")
    p.add_argument("--version", action=VersionAction,
                   version_format=f"bcast-opt {__version__} (xDSL {{xdsl_version}})",
                   help="print the versions of bcast and xDSL")
    return p


def pipeline_callback(args: argparse.Namespace,
                      timings: Timings | None) -> PassPipelineCallbackType:
    """xDSL's hook, called before, between and after the passes: times each
    pass and dumps the IR after it. The dump is not counted in the pass's time."""
    index, started = 0, time.perf_counter()

    def callback(previous: ModulePass | None, module: ModuleOp, _next: ModulePass | None) -> None:
        nonlocal index, started
        if previous is None:  # a new chunk starts the pipeline
            index = 0
        else:
            if timings is not None:
                timings.add_pass(index, time.perf_counter() - started)
            index += 1
            if args.print_between_passes:
                ir = print_module(module, args.print_op_generic, args.print_debuginfo)
                sys.stderr.write(f"// -----// IR Dump After {previous.name} //----- //\n{ir}\n")
        started = time.perf_counter()

    return callback


class TargetOutput:
    """The output of a run in one target format: a shared beginning (the C
    runtime helpers; a Python module's docstring and imports), each chunk's
    own text, and a shared end (a Python module's function tables), so that
    --split-input-file prints the helpers once and keeps every chunk's
    functions reachable (``numpy_emitter.PythonModuleEmitter``). The C
    chunks keep their exported names (``bcast_main`` in several chunks):
    the multi-chunk C output is a listing of programs, each of which
    compiles with the helpers before it."""

    def __init__(self, args: argparse.Namespace, name: str):
        self.target = targets.TARGETS[args.target]
        self.emitter = self.target.emitter(name, args.print_op_generic, args.print_debuginfo)
        self.emitted = 0
        """Chunks that passed: with none, the output has no header or tables."""

    def chunk(self, module: ModuleOp) -> str:
        """The chunk's text; a module the target cannot take is an input
        error located at the offending op."""
        from bcast.passes.errors import PassError

        try:
            text = self.emitter.chunk(module)
        except PassError as e:
            raise InputError([e.report]) from None
        self.emitted += 1
        return text

    def failed_chunk(self) -> None:
        self.emitter.failed_chunk()

    def join(self, chunks: list[str]) -> str:
        """The whole output; when every chunk failed there is nothing to share,
        so no header or tables either (a failed run prints no half module).
        An empty module that passed is a module with no functions."""
        body = self.target.separator.join(chunks)
        if not self.emitted:
            return body
        return self.emitter.header() + body + self.emitter.footer()


def make_pipeline(args: argparse.Namespace) -> tuple[PassPipeline, Timings | None]:
    """The pipeline to run: ``-p`` exactly as given, else the target's
    standard one (``Target.emit_pipeline``)."""
    spec = args.pipeline
    if spec is None:
        spec = targets.TARGETS[args.target].emit_pipeline
    pipeline = driver.parse_pipeline(spec)
    timings = Timings([p.name for p in pipeline.passes]) if args.timing else None
    if args.timing or args.print_between_passes:
        pipeline = dataclasses.replace(pipeline, callback=pipeline_callback(args, timings))
    return pipeline, timings


def emit_target(target: str, module: ModuleOp, name: str) -> str:
    """``module`` alone in a target other than ``mlir`` (``name``, the source,
    is named in the generated code), as ``bcast-opt -t TARGET`` prints one
    chunk; the xdsl-opt plugin's targets call it. A module the target cannot
    take is an input error located at the offending op."""
    output = TargetOutput(argparse.Namespace(target=target, print_op_generic=False,
                                             print_debuginfo=False), name)
    return output.join([output.chunk(module)])


@driver.cyclic_gc_paused()  # printing too: the IR is still all alive
def process_chunk(chunk: driver.Chunk, name: str, args: argparse.Namespace,
                  pipeline: PassPipeline, timings: Timings | None,
                  target: TargetOutput) -> tuple[str, bool]:
    """The chunk's output ('' if it failed) and whether it passed. Its
    diagnostics, or with --verify-diagnostics the mismatches, go to stderr."""
    ctx = make_context()  # open: --allow-unregistered-dialect is accepted, and changes nothing
    output, reports = "", []
    try:
        runs = targets.TARGETS[args.target].runs
        module = driver.load_chunk(ctx, chunk, name, args.semantics, pipeline, timings,
                                   import_stablehlo=runs, runner=f"the {args.target} target" if runs else None,
                                   static_runner=None if args.target in ("mlir", "stablehlo") else f"the {args.target} target")
        with driver.timed(timings, "Output"):
            if args.view_op_graph:
                sys.stderr.write(module_dot(module, name))
            output = target.chunk(module)
    except InputError as e:
        reports = e.reports
        target.failed_chunk()
    if not args.verify_diagnostics:
        driver.print_reports(reports)
        return output, not reports
    expected = expectations.collect(chunk.text, chunk.line_offset, name)
    failures = expectations.check(expected, reports, name)
    if failures:
        print("\n".join(failures), file=sys.stderr)
    return output, not failures


def run(args: argparse.Namespace) -> int:
    """Every chunk is processed even after one fails, and the output holds
    one piece per chunk (empty for a failed one), as mlir-opt's does."""
    pipeline, timings = make_pipeline(args)
    text = driver.read_source(args.file)
    name = driver.source_name(args.file)
    outputs, ok = [], True
    target = TargetOutput(args, name)
    for chunk in driver.split_input(text, args.split_input_file):
        output, passed = process_chunk(chunk, name, args, pipeline, timings, target)
        outputs.append(output)
        ok = ok and passed
    if ok or args.output in (None, "-"):  # as mlir-opt: no output file from a failed run
        with driver.timed(timings, "Output"):
            driver.write_output(args.output, target.join(outputs))
    if timings is not None:
        sys.stdout.flush()
        sys.stderr.write(timings.render())
    return EXIT_OK if ok else EXIT_INPUT


def main(argv: list[str] | None = None) -> int:
    return driver.run_main(lambda: run(build_argument_parser().parse_args(argv)))


if __name__ == "__main__":
    sys.exit(main())
