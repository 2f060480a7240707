"""What bcast-opt and bcast-run share: reading input, splitting it, parsing
with locations, verifying with located diagnostics, and the exit codes.

Exit codes: 0 success, 1 bad input (parse, verify or runtime error in the
program), 2 usage error, 3 internal error (one ``internal error:`` line).
"""

from __future__ import annotations

import difflib
import gc
import re
import struct
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from typing import IO

from xdsl.context import Context
from xdsl.dialects.builtin import FileLineColLoc, FunctionType, IntAttr, ModuleOp, StringAttr, UnregisteredOp
from xdsl.dialects.func import CallOp, FuncOp
from xdsl.passes import PassPipeline
from xdsl.ir import Operation
from xdsl.traits import SymbolTable
from xdsl.utils.exceptions import ArgSpecParseError, ParseError, VerifyException

from bcast.ir.diagnostics import UNKNOWN_DIALECTS, Note, Report, SourceLoc, op_source_loc, verify_report
from bcast.ir.dominance import undominated_uses, use_before_definition
from bcast.ir.ops import SEMANTICS_ATTR
from bcast.ir.parser import LocatingParser, has_stablehlo, make_context
from bcast.ir.signature import check_signature
from bcast.ir.rules import SEMANTICS
from bcast.tools.targets import EXPLICIT_PIPELINE, STANDARD_PIPELINE  # noqa: F401 (re-exported)

EXIT_OK, EXIT_INPUT, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3


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


def source_name(path: str) -> str:
    """How diagnostics name the input: the path, or ``<stdin>`` for ``-``."""
    return "<stdin>" if path == "-" else path


def read_source(path: str) -> str:
    """The input as text. Binary input (bytes that are not UTF-8, or a NUL,
    which no MLIR text holds) is an error at the first offending byte, as
    mlir-opt reports it, instead of parse errors quoting raw bytes."""
    try:
        if path == "-":
            data = sys.stdin.buffer.read() if hasattr(sys.stdin, "buffer") else sys.stdin.read().encode()
        else:
            with open(path, "rb") as f:
                data = f.read()
    except OSError as e:
        raise InputError([Report("error", f"cannot read input file: {e}", None)]) from None
    nul = data.find(b"\0")
    try:
        text = data[: nul if nul >= 0 else len(data)].decode("utf-8")
    except UnicodeDecodeError as e:
        raise _binary_input(path, data, e.start, f"byte 0x{data[e.start]:02x} is not UTF-8") from None
    if nul >= 0:
        raise _binary_input(path, data, nul, "NUL byte")
    return text


def _binary_input(path: str, data: bytes, offset: int, what: str) -> InputError:
    line = data.count(b"\n", 0, offset) + 1
    col = offset - (data.rfind(b"\n", 0, offset) + 1) + 1
    return InputError([Report("error", f"binary input ({what}): expected MLIR text",
                              SourceLoc(source_name(path), line, col))])


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
        message = f"unexpected '{e.span.text}'" + (f" {message}" if message else "")
    return _printable(message)


def _printable(text: str) -> str:
    """Control characters quoted from the input shown as ``\\x01``, so a
    diagnostic never writes raw control bytes to the terminal."""
    return "".join(c if c.isprintable() or c == "\n" else f"\\x{ord(c):02x}" for c in text)


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
        unknown = _UNKNOWN_OP.match(e.msg.strip())
        if not unknown:
            report = Report("error", parse_message(e), _span_loc(e.span, name, chunk.line_offset))
            op = parser._name_positions[-1].text if parser is not None and parser._name_positions else ""
            if op.split(".", 1)[0] not in UNKNOWN_DIALECTS:  # a generic op's name is quoted: never
                raise InputError([report]) from None
            # A field bcast's custom form lacks (dot_general's ``algorithm``), or a plain slip: if
            # jaxlib does not read it either, bcast's error stands.
            module = parse_pretty_stablehlo(ctx, chunk, name, op, report, jaxlib_errors=False)
        else:
            module = parse_unknown_form(ctx, chunk, name, unknown.group(1), parser, here())
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
    check_no_unknown_ops(ctx, module)
    if op_source_loc(module) is None:  # an implicit module, or one with loc(unknown)
        module.location = FileLineColLoc(StringAttr(name), IntAttr(chunk.line_offset + 1), IntAttr(1))
    return module


def parse_unknown_form(ctx: Context, chunk: Chunk, name: str, op: str, parser: LocatingParser,
                       loc: SourceLoc) -> ModuleOp:
    """The chunk, when xDSL found an op in a custom form it has no parser
    for: a StableHLO/CHLO op is read through jaxlib; any other is an error."""
    if op in known_op_names(ctx):  # registered, no custom syntax
        report = Report("error", f"'{op}' op has no custom syntax; write it in generic "
                        f'form: "{op}"(...) : (...) -> (...)', loc)
    else:
        if op == "builtin.unregistered":  # an unknown op in a custom form
            op = parser._name_positions[-1].text
        report = unknown_op_report(ctx, op, loc)
    if op.split(".", 1)[0] not in UNKNOWN_DIALECTS:
        raise InputError([report])
    return parse_pretty_stablehlo(ctx, chunk, name, op, report)


def parse_pretty_stablehlo(ctx: Context, chunk: Chunk, name: str, op: str, report: Report,
                           jaxlib_errors: bool = True) -> ModuleOp:
    """A chunk holding a StableHLO/CHLO op in a custom form bcast's parser
    does not read (``op``; ``report`` is bcast's error at it): read through jaxlib's MLIR,
    which reads them all, printed in generic form with every op's location
    in the chunk, and parsed by bcast's parser (docs/contracts.md, "Ops
    bcast does not know"). Only then: bcast's own parser stays the first,
    and jaxlib's cost is paid by such text alone. Without jax, ``report``,
    with a note on the ``jax`` extra. When jaxlib does not read the text
    either, its error with a note on ``op``, or ``report`` if not
    ``jaxlib_errors``; an error bcast's parser finds in jaxlib's generic
    text is reported at ``report``'s location."""
    try:
        from bcast.tools.jax_bridge import generic_stablehlo

        generic = generic_stablehlo(chunk.text, name, chunk.line_offset)
    except ImportError:
        report.notes.append(f"bcast reads StableHLO's pretty form through jaxlib: {JAX_EXTRA}")
        raise InputError([report]) from None
    except InputError as e:  # jaxlib's own error, with what sent the text there
        if not jaxlib_errors:
            raise InputError([report]) from None
        e.reports[0].notes.append(Note(f"bcast's parser does not read the custom form of '{op}': it read the "
                                       "input through jaxlib's MLIR", report.loc))
        raise
    try:
        return LocatingParser(ctx, generic, name).parse_module()
    except Exception as e:  # noqa: BLE001 - any failure on jaxlib's text is the op's
        message = e.msg.strip() if isinstance(e, ParseError) else (str(e).strip() or type(e).__name__)
        raise InputError([Report("error", f"{message} (in jaxlib's generic form of the input)", report.loc)]) from None


JAX_EXTRA = "install bcast's jax extra (pip install 'bcast[jax]') to read it"


_UNKNOWN_OP = re.compile(r"Operation (\S+) (?:is not registered|does not have a custom format)")


def known_op_names(ctx: Context) -> list[str]:
    return [op.name for op in ctx.loaded_ops if not issubclass(op, UnregisteredOp)]


def unknown_op_report(ctx: Context, op: str, loc: SourceLoc) -> Report:
    """The error for an op the context does not hold, at the op. An op of a
    dialect bcast owns is a misspelling (answered with the closest name:
    ``bcast.ad``, did you mean ``bcast.add``?), as mlir-opt rejects unknown
    ops of its registered dialects. Any other op is one bcast keeps without
    knowing it (docs/contracts.md, "Ops bcast does not know"), which xDSL
    reads in generic form only: the error says so; for a StableHLO or CHLO op
    (most often a real op, such as ``sine``, not a misspelled ``sign``: no
    "did you mean") a note lists the ops the import takes."""
    known = known_op_names(ctx)
    dialect = op.split(".", 1)[0] if "." in op else None
    if dialect is None:  # a bare name, as ``return`` for ``func.return`` inside a function
        suggestion = did_you_mean(op, known + [n.removeprefix("func.") for n in known])
        return Report("error", f"unknown op '{op}'{suggestion}", loc)
    if dialect in owned_dialects(ctx):
        return Report("error", f"unknown op '{op}'{did_you_mean(op, known)}", loc)
    generic = f'"{op}"(...) : (...) -> (...)'
    if dialect in UNKNOWN_DIALECTS:
        from bcast.passes.stablehlo_to_bcast import supported_note

        return Report("error", f"'{op}' op is not supported by convert-stablehlo-to-bcast; bcast keeps it "
                      f"as it is in generic form only: {generic}", loc, [supported_note()])
    return Report("error", f"'{op}' op is not known to bcast; bcast keeps it as it is in generic form "
                  f"only: {generic}", loc)


def owned_dialects(ctx: Context) -> set[str]:
    """The dialects whose every op bcast knows: an unknown name in them is a
    misspelling, not an op to keep."""
    return {n.split(".", 1)[0] for n in known_op_names(ctx)} - set(UNKNOWN_DIALECTS)


def check_no_unknown_ops(ctx: Context, module: ModuleOp) -> None:
    """Unregistered ops are kept, except in a dialect bcast owns: a generic
    op ``"bcast.ad"(...)`` is still a misspelling."""
    dialects = owned_dialects(ctx)
    for op in module.walk():
        if isinstance(op, UnregisteredOp) and op.op_name.data.split(".", 1)[0] in dialects:
            raise InputError([unknown_op_report(ctx, op.op_name.data, op_source_loc(op))])


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
            if isinstance(op, CallOp) and _inside_unknown_op(op):
                check_callee(op)
            else:
                op.verify(verify_nested_ops=False)
            if isinstance(op, FuncOp):
                check_signature(op)
            if op in late:
                raise use_before_definition(*late[op])
        except Exception as e:  # verifiers of xDSL's own ops raise several kinds
            if isinstance(e, RecursionError):
                raise
            raise InputError([verify_report(op, e)]) from None


def _inside_unknown_op(op: Operation) -> bool:
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, FuncOp):
        if isinstance(parent, UnregisteredOp):
            return True
        parent = parent.parent_op()
    return False


def check_callee(call: CallOp) -> None:
    """xDSL's check of a ``func.call``, for a call inside an op bcast does
    not know (a kept ``stablehlo.while``'s body calls JAX's helpers): xDSL
    takes an unregistered op to have every trait, a symbol table too, and
    would look for the callee there; it is a function of the module."""
    module = call.get_toplevel_object()
    callee = SymbolTable.lookup_symbol(module, call.callee) if module.has_trait(SymbolTable) else None
    if not isinstance(callee, FuncOp):
        raise VerifyException(f"'{call.callee.string_value()}' could not be found in symbol table")
    if callee.function_type != FunctionType.from_lists(call.arguments.types, call.result_types):
        raise VerifyException(f"the types of the call differ from those of @{call.callee.string_value()}: "
                              f"{callee.function_type}")


MODULE_ANCHOR, FUNCTION_ANCHOR = "builtin.module", "func.func"


def parse_pipeline(spec: str) -> PassPipeline:
    """An xDSL pipeline spec over bcast's passes (``canonicalize,cse``), or
    the same passes nested in anchors as mlir-opt users write them:
    ``builtin.module(canonicalize,func.func(cse))``. A pass nested in
    ``func.func(...)`` must be one of ``FUNCTION_PASSES``, which rewrite each
    function on its own, so running it on the module runs it on every
    function: the nesting changes nothing else. A bad spec is a usage error
    naming what is wrong (an unknown pass with the closest known name)."""
    from bcast.passes import FUNCTION_PASSES, available_passes

    passes = available_passes()
    try:
        items = anchored_passes(spec)
        for text, anchors in items:
            _check_pass(text, anchors, passes, FUNCTION_PASSES)
        parsed = [PassPipeline.parse_spec(passes, text).passes for text, _ in items]
        return PassPipeline(tuple(p for group in parsed for p in group))
    except (Exception, ArgSpecParseError) as e:  # several kinds; ArgSpecParseError is a BaseException
        message = " ".join(str(e).split())
        raise UsageError(f"invalid pass pipeline '{spec}': {message}") from None


def anchored_passes(spec: str) -> list[tuple[str, tuple[str, ...]]]:
    """Each pass of ``spec`` (its text, options included) with the anchors
    around it, outermost first: ``builtin.module(a,func.func(b{x=1}))`` gives
    ``[("a", ("builtin.module",)), ("b{x=1}", ("builtin.module", "func.func"))]``.
    Raises ValueError for unbalanced parentheses, a misplaced anchor, or a
    pipeline only partly wrapped in ``builtin.module(...)`` (as mlir-opt)."""
    items: list[tuple[str, tuple[str, ...]]] = []
    anchors: list[str] = []
    start, i, after_group, wrapped = 0, 0, False, False
    while i < len(spec):
        c = spec[i]
        if c in '{["':
            i = _skip_group(spec, i)
            continue
        if c in "(),":
            text = spec[start:i].strip()
            if after_group and text:
                raise ValueError(f"expected ',' or ')' before '{text}'")
            if c == "(":
                _check_anchor(text, anchors)
                anchors.append(text)
                wrapped = True
            elif text:
                items.append((text, tuple(anchors)))
            elif not after_group and not (c == ")" and spec[:i].rstrip().endswith("(")):
                raise ValueError(f"expected a pass name before '{c}'")
            if c == ")":
                if not anchors:
                    raise ValueError("unbalanced ')'")
                anchors.pop()
            after_group = c == ")"
            start = i + 1
        i += 1
    text = spec[start:].strip()
    if anchors:
        raise ValueError(f"unclosed '{anchors[-1]}('")
    if text and after_group:
        raise ValueError(f"expected ',' before '{text}'")
    if text:
        items.append((text, ()))
    if wrapped and any(not a for _, a in items):
        raise ValueError(f"expected the whole pipeline wrapped in '{MODULE_ANCHOR}(...)'")
    return items


def _skip_group(spec: str, i: int) -> int:
    """The index past the option dict, bracket or string starting at ``i``
    (strings inside an option dict are skipped whole)."""
    close = {"{": "}", "[": "]", '"': '"'}[spec[i]]
    j = i + 1
    while j < len(spec) and spec[j] != close:
        if spec[j] == "\\" and close == '"':
            j += 1
        elif spec[j] == '"' and close != '"':
            j = _skip_group(spec, j) - 1
        j += 1
    if j >= len(spec):
        raise ValueError(f"unclosed '{spec[i]}'")
    return j + 1


def _check_anchor(name: str, outer: list[str]) -> None:
    """bcast-opt runs passes on the module and, nested in it, on functions."""
    expected = [MODULE_ANCHOR, FUNCTION_ANCHOR]
    if name not in expected:
        raise ValueError(f"unknown anchor '{name}(...)': passes nest in '{MODULE_ANCHOR}(...)' "
                         f"and, inside it, '{FUNCTION_ANCHOR}(...)'")
    if len(outer) >= len(expected) or expected[len(outer)] != name:
        where = f"nested in '{outer[-1]}(...)'" if outer else "at the top of the pipeline"
        raise ValueError(f"'{name}(...)' cannot be {where}: passes nest in "
                         f"'{MODULE_ANCHOR}(...)' and, inside it, '{FUNCTION_ANCHOR}(...)'")


def _check_pass(text: str, anchors: tuple[str, ...], passes: Sequence[str],
                function_passes: frozenset[str]) -> None:
    """A known pass (else the closest known name), nested where it can run."""
    name = re.match(r"[^{\[\s]*", text).group()
    if name not in passes:
        raise ValueError(f"unknown pass '{name}'{did_you_mean(name, passes)}")
    if anchors and anchors[-1] == FUNCTION_ANCHOR and name not in function_passes:
        raise ValueError(f"'{name}' rewrites the whole module (signatures and calls): it "
                         f"cannot be nested in '{FUNCTION_ANCHOR}(...)', only in '{MODULE_ANCHOR}(...)'")


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """``"; did you mean 'x'?"`` for the known names closest to a misspelled
    one (all of them when several are as close: ``bcast.ad`` is one letter
    from both ``bcast.add`` and ``bcast.and``), or ``""`` when none is close."""
    scores: dict[str, float] = {}
    for candidate in set(known):
        scores[candidate] = difflib.SequenceMatcher(None, name, candidate).ratio()
    best = max(scores.values(), default=0.0)
    if best < 0.75:
        return ""
    closest = sorted(c for c, score in scores.items() if score == best)[:3]
    return "; did you mean " + " or ".join(f"'{c}'" for c in closest) + "?"


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
    return has_stablehlo(module)


def import_stablehlo_module(ctx: Context, module: ModuleOp, strict: bool = False) -> None:
    """Run ``convert-stablehlo-to-bcast`` on ``module`` (a PassError becomes a
    located input error): ``strict`` when the program is to run, so an op
    the import cannot take is reported with its reason where it is met;
    else such ops are kept (the open world)."""
    from bcast.passes.stablehlo_to_bcast import ConvertStablehloToBcastPass

    run_pipeline(PassPipeline((ConvertStablehloToBcastPass(strict=strict),)), ctx, module)


@contextmanager
def cyclic_gc_paused() -> Iterator[None]:
    """Python's cyclic garbage collector off while IR is built and rewritten,
    and back as it was afterwards. An IR holds hundreds of thousands of
    container objects that all live until the compile ends; the collector
    would traverse them again and again (a fifth of the CPU time of a
    10,000-op compile, and more per op as the module grows) to find little.
    The cycles the passes drop meanwhile are bounded by the compile's own
    work, and the collector frees them once it runs again: a process that
    compiles many times does not grow."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


@cyclic_gc_paused()
def load_chunk(ctx: Context, chunk: Chunk, name: str, semantics: str | None = None,
               pipeline: PassPipeline | None = None, timings: Timings | None = None,
               import_stablehlo: bool = False, runner: str | None = None,
               static_runner: str | None = None, dynamic_pipeline: PassPipeline | None = None) -> ModuleOp:
    """Parse and verify a program, import StableHLO if ``needs_import`` says
    so, then run ``pipeline`` and verify again. ``timings`` (``--timing``)
    gets the parse and verify times; the passes time themselves through the
    pipeline's callback. ``runner``: see ``prepare``."""
    with timed(timings, "Parse"):
        module = parse(ctx, chunk, name)
    return prepare(ctx, module, semantics, pipeline, timings, import_stablehlo, runner, static_runner,
                   dynamic_pipeline)


@cyclic_gc_paused()
def prepare(ctx: Context, module: ModuleOp, semantics: str | None = None,
            pipeline: PassPipeline | None = None, timings: Timings | None = None,
            import_stablehlo: bool = False, runner: str | None = None,
            static_runner: str | None = None, dynamic_pipeline: PassPipeline | None = None,
            verified: bool = False) -> ModuleOp:
    """``load_chunk`` after parsing, to ``module`` in place (returned): verify,
    import, run ``pipeline``, verify again. The xdsl-opt plugin's targets
    start here (xDSL has parsed). ``runner`` names what will run the whole
    module (``the c target``): an op bcast does not know, left after the
    import, is then refused before any pass, naming ``runner``.
    ``static_runner`` names what runs the module that takes static shapes
    only (``Target.static_runner``): a dynamic dim is refused before any
    pass, naming it. ``dynamic_pipeline`` replaces ``pipeline`` on a module
    with a dynamic dim (``Target.dynamic_pipeline``). ``verified``: ``module``
    is a copy of one this function returned, so its first verify is skipped
    (``api``'s build after the first calls: the passes' work is not done twice)."""
    with timed(timings, "Verify"):
        apply_semantics(module, semantics)
        if not verified:
            verify(module)
    if needs_import(module, pipeline, import_stablehlo):
        import_stablehlo_module(ctx, module, strict=import_stablehlo)
        with timed(timings, "Verify"):
            verify(module)
    if runner is not None:
        check_runnable_module(module, runner)
    if static_runner is not None:
        check_static_module(module, static_runner)
    if dynamic_pipeline is not None and is_dynamic_module(module):
        pipeline = dynamic_pipeline
    if pipeline is not None and pipeline.passes:
        run_pipeline(pipeline, ctx, module)
        with timed(timings, "Verify"):
            verify(module)
    return module


def is_dynamic_module(module: ModuleOp) -> bool:
    """Whether any op of ``module`` has a dynamic or bounded dim."""
    from bcast.passes.errors import first_dynamic

    return first_dynamic(module) is not None


def check_runnable_module(module: ModuleOp, runner: str) -> None:
    """``passes.errors.check_runnable`` as a located input error."""
    from bcast.passes.errors import PassError, check_runnable

    try:
        check_runnable(module, runner)
    except PassError as e:
        raise InputError([e.report]) from None


class StaticOnlyError(InputError):
    """A dynamic dim where the runner takes static shapes only
    (``check_static_module``): ``bcast.compile`` without a backend then
    takes one that runs it."""


def check_static_module(module: ModuleOp, runner: str) -> None:
    """``passes.errors.check_static`` as a located input error."""
    from bcast.passes.errors import PassError, check_static

    try:
        check_static(module, runner)
    except PassError as e:
        raise StaticOnlyError([e.report]) from None


def run_pipeline(pipeline: PassPipeline, ctx: Context, module: ModuleOp) -> None:
    """Apply ``pipeline``; a pass's PassError becomes a located input error."""
    from bcast.passes.errors import PassError

    try:
        pipeline.apply(ctx, module)
    except PassError as e:
        raise InputError([e.report]) from None


def load(text: str, name: str, semantics: str | None = None, ctx: Context | None = None,
         pipeline: str | None = None, import_stablehlo: bool = False,
         static_runner: str | None = None, dynamic_pipeline: str | None = None) -> ModuleOp:
    """A whole program, verified (and transformed by ``pipeline``, if given;
    StableHLO imported as ``needs_import`` says); ``static_runner`` and
    ``dynamic_pipeline``: see ``prepare``."""
    passes = parse_pipeline(pipeline) if pipeline else None
    dynamic = parse_pipeline(dynamic_pipeline) if dynamic_pipeline is not None else None
    return load_chunk(ctx or make_context(), Chunk(text, 0), name, semantics, passes,
                      import_stablehlo=import_stablehlo, static_runner=static_runner, dynamic_pipeline=dynamic)


class Timings:
    """Wall-clock time per phase of a run, summed over the chunks, for
    ``--timing``. The rows are fixed up front (parse, verify, each pass in
    pipeline order, output) so the table has the same shape whatever fails;
    it is laid out like mlir-opt's ``--mlir-timing`` report, whose ``Rest``
    row holds the time no other row measured (reading the input, splitting
    it, the pass manager between passes), so the rows add up to the total."""

    UNIT = 1e-4
    """Rows are printed to this many seconds; the sum is taken on the printed values."""

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

    def rows(self) -> list[tuple[str, int]]:
        """``(label, time in UNITs)`` for every row, ``Rest`` and ``Total``
        last; the rows before ``Total`` sum to it exactly (rounding a row
        could otherwise make the printed total differ from their sum)."""
        measured = [round(s / self.UNIT) for s in self.seconds]
        total = max(round((time.perf_counter() - self.started) / self.UNIT), sum(measured))
        return [*zip(self.labels, measured), ("Rest", total - sum(measured)), ("Total", total)]

    def render(self) -> str:
        rows = self.rows()
        total = rows[-1][1]
        rule = "===" + "-" * 73 + "==="
        lines = [rule, "... Execution time report ...".center(len(rule)).rstrip(), rule,
                 f"  Total Execution Time: {total * self.UNIT:.4f} seconds", "",
                 "  ----Wall Time----  ----Name----"]
        for label, units in rows:
            share = 100 * units / total if total else 0.0
            lines.append(f"  {units * self.UNIT:8.4f} ({share:5.1f}%)  {label}")
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
    write_atomically(path, lambda f: f.write(text.encode("utf-8")))


def write_atomically(path: str, write: Callable[[IO[bytes]], object], what: str = "output file") -> None:
    """Let ``write`` fill a temporary file beside ``path``, then rename it to
    ``path``: a reader (or a failed run) never sees a half-written file, and
    an existing file is replaced only by a complete one."""
    import os
    import tempfile

    directory = os.path.dirname(os.path.abspath(path))
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=".bcast-")
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(tmp, 0o666 & ~mask)  # as open() would create it (mkstemp: 0600)
        with os.fdopen(fd, "wb") as f:
            write(f)
        os.replace(tmp, path)
        tmp = None
    except OSError as e:
        raise InputError([Report("error", f"cannot write {what}: {e}", None)]) from None
    finally:
        if tmp is not None:
            os.unlink(tmp)
