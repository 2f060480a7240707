"""What bcast-opt and bcast-run share: reading input, splitting it, parsing
with locations, verifying with located diagnostics, and the exit codes.

Exit codes: 0 success, 1 bad input (parse, verify or runtime error in the
program), 2 usage error, 3 internal error (one ``internal error:`` line).
"""

from __future__ import annotations

import re
import struct
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import FileLineColLoc, IntAttr, ModuleOp, StringAttr
from xdsl.dialects.func import FuncOp
from xdsl.passes import PassPipeline
from xdsl.ir import Operation
from xdsl.utils.exceptions import ArgSpecParseError, ParseError

from bcast.ir.diagnostics import Report, SourceLoc, op_source_loc, verify_report
from bcast.ir.dominance import undominated_uses, use_before_definition
from bcast.ir.ops import SEMANTICS_ATTR
from bcast.ir.parser import LocatingParser, make_context
from bcast.ir.signature import check_signature
from bcast.ir.rules import SEMANTICS

EXIT_OK, EXIT_INPUT, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3

EXPLICIT_PIPELINE = "bcast-make-explicit,canonicalize,cse,bcast-sink-broadcasts,canonicalize,cse"
"""Every broadcast explicit and simplified: sinking leaves copies that the
final ``canonicalize,cse`` merge, so the pipeline is a fixed point."""
STANDARD_PIPELINE = EXPLICIT_PIPELINE + ",bcast-fuse"
PIPELINES = {"reference": "", "array-api": EXPLICIT_PIPELINE, "numpy": STANDARD_PIPELINE,
             "c": STANDARD_PIPELINE}  # the C target lowers to loops itself
"""The pipeline each backend runs before it, unless the caller gives one
(``bcast-run``, ``bcast.compile``, ``bcast-opt -t numpy`` without ``-p``)."""

COMMENT = re.compile(r"//[^\n]*")
SPLIT_MARKER = re.compile(r"^// -----[^\S\n]*$", re.MULTILINE)
"""A line holding only the marker. The match stops at the end of that line
(a trailing ``\\s*`` used to swallow the newline after it, so every marker not followed
by a blank line shifted the lines of later chunks by one)."""


class InputError(Exception):
    """Bad input: carries the located reports to print."""

    def __init__(self, reports: list[Report]):
        super().__init__("\n".join(r.message for r in reports))
        self.reports = reports


class UsageError(Exception):
    """A bad command line; ``usage`` (argparse's usage text) is printed first
    when the arguments themselves were wrong, as argparse does."""

    def __init__(self, message: str, usage: str | None = None, prog: str | None = None):
        super().__init__(message)
        self.usage = usage
        self.prog = prog


class EarlyExit(Exception):
    """``--help`` or ``--version`` has printed its text: stop with ``status``.
    (argparse would call ``sys.exit``, which escapes ``main(argv)`` callers.)"""

    def __init__(self, status: int):
        super().__init__(status)
        self.status = status


@dataclass
class Chunk:
    """One piece of an input file (the whole file without --split-input-file).

    ``line_offset`` is the number of lines of the file before the chunk, so
    that line ``n`` of the chunk is line ``n + line_offset`` of the file."""

    text: str
    line_offset: int


def split_input(text: str, split: bool) -> list[Chunk]:
    """Split at ``// -----`` lines, as mlir-opt does. A chunk starts on the
    line after its marker (the marker line belongs to no chunk), so every
    diagnostic names a line of the original file."""
    if not split:
        return [Chunk(text, 0)]
    chunks = []
    start, line = 0, 0
    for m in SPLIT_MARKER.finditer(text):
        chunks.append(Chunk(text[start : m.start()], line))
        end = min(m.end() + 1, len(text))  # past the marker line's newline
        line += text.count("\n", start, end)
        start = end
    chunks.append(Chunk(text[start:], line))
    return chunks


def read_source(path: str) -> str:
    try:
        if path == "-":
            return sys.stdin.read()
        with open(path, encoding="utf-8") as f:
            return f.read()
    except (OSError, UnicodeDecodeError) as e:
        raise InputError([Report("error", f"cannot read input file: {e}", None)]) from None


def _span_loc(span, name: str, line_offset: int) -> SourceLoc:
    loc = span.get_location()
    return SourceLoc(name, loc.line + line_offset, loc.col)


def parse_message(e: ParseError) -> str:
    """xDSL's message, completed where it only gives context (" in block
    definition"): say what was found instead."""
    message = e.msg.strip().replace("{first_char}", f"'{e.span.text[:1]}'")  # an xDSL slip
    if e.span.start >= len(e.span.input.content):
        return "unexpected end of input" + (f" ({message})" if message else "")
    if not message or message.startswith("in "):
        return f"unexpected '{e.span.text}'" + (f" {message}" if message else "")
    return message


def parse(ctx: Context, chunk: Chunk, name: str) -> ModuleOp:
    """Parse a chunk; any failure becomes a located InputError."""
    if not COMMENT.sub("", chunk.text).strip():  # as mlir-opt: nothing is an empty module
        module = ModuleOp([])
        module.location = FileLineColLoc(StringAttr(name), IntAttr(chunk.line_offset + 1), IntAttr(1))
        return module
    parser: LocatingParser | None = None

    def here():
        """Where the failing op's name (or else the parser) stands."""
        if parser is None:
            return SourceLoc(name, chunk.line_offset + 1, 1)
        positions = parser._name_positions
        span = positions[-1] if positions else parser._current_token.span
        return _span_loc(span, name, chunk.line_offset)

    try:
        # inside the try: the lexer reads the first token on construction
        parser = LocatingParser(ctx, chunk.text, name, chunk.line_offset)
        module = parser.parse_module()
    except ParseError as e:
        unknown = _UNKNOWN_STABLEHLO.match(e.msg.strip())
        if unknown and not ctx.allow_unregistered:
            _report_unsupported_stablehlo(ctx, chunk, name)
            from bcast.passes.stablehlo_to_bcast import supported_note

            raise InputError([Report("error", f"'{unknown.group(1)}' op is not supported by "
                                     "convert-stablehlo-to-bcast", here(), [supported_note()])]) from None
        raise InputError([Report("error", parse_message(e), _span_loc(e.span, name, chunk.line_offset))]) from None
    except RecursionError:  # regions nested hundreds deep (program depth does not recurse)
        raise InputError([Report("error", "input is nested too deeply", here())]) from None
    except (MemoryError, OverflowError) as e:
        raise InputError(
            [Report("error", f"input too large to parse here ({type(e).__name__})", here())]
        ) from None
    except Exception as e:  # xDSL raises VerifyException/ValueError from attribute constructors
        if type(e).__module__.startswith("xdsl") or isinstance(e, (ValueError, TypeError, KeyError, AssertionError, struct.error)):
            message = str(e).strip().splitlines()[-1] if str(e).strip() else type(e).__name__
            # A constraint check while building an op (e.g. a result type that is
            # not a tensor) is about that op: locate it at the op's name, as MLIR
            # does, not at whatever token the parser reached (often the next line).
            raise InputError([Report("error", message, here())]) from None
        raise
    if op_source_loc(module) is None:  # an implicit module, or one with loc(unknown)
        module.location = FileLineColLoc(StringAttr(name), IntAttr(chunk.line_offset + 1), IntAttr(1))
    return module


_UNKNOWN_STABLEHLO = re.compile(r"Operation ((?:stablehlo|chlo)\.\w+) is not registered")


def _report_unsupported_stablehlo(ctx: Context, chunk: Chunk, name: str) -> None:
    """A StableHLO or CHLO op bcast does not know is the import's located
    error (at the op's own ``loc(...)``, naming the ops it supports), not a
    parse error: read the input again accepting unknown ops, and report the
    first one. Returns if that read fails too (a pretty op the generic
    reader cannot take: the caller reports it where the parser stopped)."""
    from bcast.passes.errors import PassError
    from bcast.passes.stablehlo_to_bcast import check_supported

    lenient = ctx.clone()
    lenient.allow_unregistered = True
    try:
        module = LocatingParser(lenient, chunk.text, name, chunk.line_offset).parse_module()
        check_supported(module)
    except PassError as e:
        raise InputError([e.report]) from None
    except Exception:  # noqa: BLE001 - any other failure: the original error stands
        return


def apply_semantics(module: ModuleOp, semantics: str | None) -> None:
    """``--semantics`` overrides the module attribute; an unknown value is an error."""
    if semantics is not None:
        module.attributes[SEMANTICS_ATTR] = StringAttr(semantics)
    attr = module.attributes.get(SEMANTICS_ATTR)
    if attr is not None and not (isinstance(attr, StringAttr) and attr.data in SEMANTICS):
        raise InputError([verify_report(
            module, ValueError(f"{SEMANTICS_ATTR} must be one of "
                               + ", ".join(f'"{s}"' for s in SEMANTICS) + f", got {attr}"))])


def verify(module: Operation) -> None:
    """Verify op by op in program order; the first failure is reported at its
    op. Functions must also have a signature the backends run (xDSL's
    ``func.func`` accepts any types) and values must be defined before they
    are used (xDSL checks no dominance)."""
    late = undominated_uses(module)
    for op in module.walk():
        try:
            op.verify(verify_nested_ops=False)
            if isinstance(op, FuncOp):
                check_signature(op)
            if op in late:
                raise use_before_definition(*late[op])
        except Exception as e:  # verifiers of xDSL's own ops raise several kinds
            if isinstance(e, RecursionError):
                raise
            raise InputError([verify_report(op, e)]) from None


def parse_pipeline(spec: str) -> PassPipeline:
    """An xDSL pipeline spec over bcast's passes; a bad spec is a usage error."""
    from bcast.passes import available_passes

    try:
        return PassPipeline.parse_spec(available_passes(), spec)
    except (Exception, ArgSpecParseError) as e:  # several kinds; ArgSpecParseError is a BaseException
        message = " ".join(str(e).split())
        raise UsageError(f"invalid pass pipeline '{spec}': {message}") from None


IMPORT_PASS = "convert-stablehlo-to-bcast"


def needs_import(module: ModuleOp, pipeline: PassPipeline | None, import_stablehlo: bool) -> bool:
    """The one auto-import rule: a module holding StableHLO or CHLO ops is
    imported (``convert-stablehlo-to-bcast``) before anything else when the
    caller runs it (``bcast-run``, ``bcast.compile``: ``import_stablehlo``)
    or asks for any pipeline (``bcast-opt -p ...``, or a target's standard
    one) that does not start with the import itself. ``bcast-opt`` with no
    pipeline prints StableHLO back as it read it."""
    runs_passes = pipeline is not None and bool(pipeline.passes)
    if not (import_stablehlo or runs_passes):
        return False
    if runs_passes and pipeline.passes[0].name == IMPORT_PASS:
        return False
    from bcast.passes.stablehlo_to_bcast import has_stablehlo

    return has_stablehlo(module)


def import_stablehlo_module(ctx: Context, module: ModuleOp) -> None:
    """Run ``convert-stablehlo-to-bcast`` on ``module`` (a PassError becomes a
    located input error)."""
    from bcast.passes.stablehlo_to_bcast import ConvertStablehloToBcastPass

    run_pipeline(PassPipeline((ConvertStablehloToBcastPass(),)), ctx, module)


def load_chunk(ctx: Context, chunk: Chunk, name: str, semantics: str | None = None,
               pipeline: PassPipeline | None = None, timings: Timings | None = None,
               import_stablehlo: bool = False) -> ModuleOp:
    """Parse and verify a program, import StableHLO if ``needs_import`` says
    so, then run ``pipeline`` and verify again. ``timings`` (``--timing``)
    gets the parse and verify times; the passes time themselves through the
    pipeline's callback."""
    with timed(timings, "Parse"):
        module = parse(ctx, chunk, name)
    with timed(timings, "Verify"):
        apply_semantics(module, semantics)
        verify(module)
    if needs_import(module, pipeline, import_stablehlo):
        import_stablehlo_module(ctx, module)
        with timed(timings, "Verify"):
            verify(module)
    if pipeline is not None and pipeline.passes:
        run_pipeline(pipeline, ctx, module)
        with timed(timings, "Verify"):
            verify(module)
    return module


def run_pipeline(pipeline: PassPipeline, ctx: Context, module: ModuleOp) -> None:
    """Apply ``pipeline``; a pass's PassError becomes a located input error."""
    from bcast.passes.errors import PassError

    try:
        pipeline.apply(ctx, module)
    except PassError as e:
        raise InputError([e.report]) from None


def load(text: str, name: str, semantics: str | None = None, ctx: Context | None = None,
         pipeline: str | None = None, import_stablehlo: bool = False) -> ModuleOp:
    """A whole program, verified (and transformed by ``pipeline``, if given;
    StableHLO imported as ``needs_import`` says)."""
    passes = parse_pipeline(pipeline) if pipeline else None
    return load_chunk(ctx or make_context(), Chunk(text, 0), name, semantics, passes,
                      import_stablehlo=import_stablehlo)


class Timings:
    """Wall-clock time per phase of a run, summed over the chunks, for
    ``--timing``. The rows are fixed up front (parse, verify, each pass in
    pipeline order, output) so the table has the same shape whatever fails;
    it is laid out like mlir-opt's ``--mlir-timing`` report."""

    def __init__(self, pass_names: Sequence[str]):
        self.started = time.perf_counter()
        self.labels = ["Parse", "Verify", *pass_names, "Output"]
        self.seconds = [0.0] * len(self.labels)

    def add_pass(self, index: int, seconds: float) -> None:
        self.seconds[2 + index] += seconds

    @contextmanager
    def phase(self, label: str) -> Iterator[None]:
        start = time.perf_counter()
        try:
            yield
        finally:
            self.seconds[self.labels.index(label)] += time.perf_counter() - start

    def render(self) -> str:
        total = time.perf_counter() - self.started
        rule = "===" + "-" * 73 + "==="
        lines = [rule, "... Execution time report ...".center(len(rule)).rstrip(), rule,
                 f"  Total Execution Time: {total:.4f} seconds", "",
                 "  ----Wall Time----  ----Name----"]
        for label, seconds in [*zip(self.labels, self.seconds), ("Total", total)]:
            share = 100 * seconds / total if total else 0.0
            lines.append(f"  {seconds:8.4f} ({share:5.1f}%)  {label}")
        return "\n".join(lines) + "\n"


def timed(timings: Timings | None, label: str):
    """``timings.phase(label)``, or nothing when not timing."""
    return nullcontext() if timings is None else timings.phase(label)


def print_reports(reports: list[Report]) -> None:
    for r in reports:
        print(r.render(), file=sys.stderr)


def run_main(body: Callable[[], int]) -> int:
    """Run a tool body and map every failure onto the exit-code contract."""
    try:
        return body()
    except InputError as e:
        print_reports(e.reports)
        return EXIT_INPUT
    except UsageError as e:
        if e.usage is not None:  # as argparse: the usage, then "prog: error: ..."
            print(f"{e.usage.rstrip()}\n{e.prog}: error: {e}", file=sys.stderr)
        else:
            print(f"error: {e}", file=sys.stderr)
        return EXIT_USAGE
    except EarlyExit as e:
        return e.status
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # e.g. piped into `head`: stop quietly
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    except RecursionError:
        print("error: input is nested too deeply", file=sys.stderr)
        return EXIT_INPUT
    except MemoryError:
        print("error: out of memory", file=sys.stderr)
        return EXIT_INPUT
    except Exception as e:  # the contract: one line, no traceback
        message = " ".join(str(e).split()) or type(e).__name__
        print(f"internal error: {type(e).__name__}: {message}", file=sys.stderr)
        return EXIT_INTERNAL


def write_output(path: str | None, text: str) -> None:
    """Write all or nothing: the file appears only once the text is complete."""
    if path is None or path == "-":
        sys.stdout.write(text)
        return
    import os
    import tempfile

    directory = os.path.dirname(os.path.abspath(path))
    try:
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=".bcast-")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except OSError as e:
        raise InputError([Report("error", f"cannot write output file: {e}", None)]) from None
