"""Does bcast crash on StableHLO's own test files? A crash sweep.

    python benchmarks/stablehlo_sweep.py DIR [--modes parse,import,explicit,target,compile]
                                         [--backends reference,numpy,c] [--timeout 60]
                                         [--files NAME ...] [-v]

DIR holds ``.mlir`` files (for example ``stablehlo/tests`` of a StableHLO
checkout, extracted with ``git archive``); every file under it is split at
``// -----`` lines and each chunk is fed to bcast in each mode:

- ``parse``: ``bcast-opt CHUNK`` (parse, verify, print back);
- ``import``: ``bcast-opt CHUNK -p convert-stablehlo-to-bcast``;
- ``explicit``: ``-p convert-stablehlo-to-bcast,bcast-make-explicit,canonicalize``;
- ``target``: ``-p convert-stablehlo-to-bcast -t stablehlo``;
- ``compile``: ``bcast.compile(CHUNK, backend=b)`` for each backend, then
  one call with random inputs (static signatures only).

Most of these files are not meant to run (verifier tests full of invalid
IR, passes bcast does not have), so what is measured is only whether bcast
answers as its contract says: exit 0, or exit 1 with located diagnostics
(``compile``: a ``BcastError``). Everything else is a bug class: exit 2 (a
usage error on a well-formed command), exit 3 (``internal error:``, a
crash the driver caught), an exception escaping ``bcast.compile`` that is
not a ``BcastError``, an exit 1 whose diagnostics carry no
``file:line:col:`` location, or a timeout.

Each chunk is run on its own, padded with blank lines so that diagnostics
name lines of the original file (one crashing chunk then hides no other).
The tools run in this process (``bcast.tools.opt.main``), one chunk after
another, a timeout enforced with ``SIGALRM``. The report gives the count
per mode and class, then each bug case (file, chunk's first line, mode,
the message's last line). The exit status is 0 whatever the counts (this
measures), 2 for a bad command line.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import re
import signal
import sys
import traceback
from collections import Counter
from pathlib import Path

OPT_MODES = {
    "parse": [],
    "import": ["-p", "convert-stablehlo-to-bcast"],
    "explicit": ["-p", "convert-stablehlo-to-bcast,bcast-make-explicit,canonicalize"],
    "target": ["-p", "convert-stablehlo-to-bcast", "-t", "stablehlo"],
}
MODES = [*OPT_MODES, "compile"]
LOCATED = re.compile(r"^[^\s:][^:]*:\d+:\d+: error:", re.M)
BUG_CLASSES = ("exit2", "exit3", "unlocated", "exception", "timeout")


class Timeout(BaseException):
    """Not an ``Exception``: the tool's catch-all would make it an exit 3."""


def _alarm(signum, frame):
    raise Timeout()


@contextlib.contextmanager
def time_limit(seconds: int):
    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)


def last_line(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1][:300] if lines else ""


def exception_line(e: BaseException) -> str:
    """The exception's type, its message's first line (xDSL's interpreter
    appends the whole module) and where it was raised."""
    frame = traceback.extract_tb(e.__traceback__)[-1] if e.__traceback__ else None
    where = f" at {Path(frame.filename).name}:{frame.lineno}" if frame else ""
    first = (str(e).strip().splitlines() or [""])[0][:200]
    return f"{type(e).__name__}: {first}{where}"


def run_opt(path: Path, mode: str, timeout: int) -> tuple[str, str]:
    """(class, message) of ``bcast-opt`` on one padded chunk."""
    from bcast.tools import opt

    out, err = io.StringIO(), io.StringIO()
    try:
        with time_limit(timeout), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = opt.main([str(path), *OPT_MODES[mode]])
    except Timeout:
        return "timeout", f"over {timeout} s"
    except SystemExit as e:
        return f"exit{e.code}", last_line(err.getvalue())
    except BaseException:  # the tool must never let one escape
        return "exception", last_line(traceback.format_exc())
    message = err.getvalue()
    if status == 1 and not LOCATED.search(message):
        return "unlocated", last_line(message)
    return f"exit{status}", last_line(message)


def run_compile(text: str, name: str, backends: list[str], timeout: int) -> tuple[str, str]:
    """(class, message) of ``bcast.compile`` and one call on each backend."""
    import bcast
    from bcast.tools.api import BcastError
    from bcast.tools.run import random_inputs

    worst = ("exit0", "")
    for backend in backends:
        try:
            with time_limit(timeout), contextlib.redirect_stdout(io.StringIO()), \
                    contextlib.redirect_stderr(io.StringIO()):
                entry = entry_name(text)
                if entry is None:
                    return "exit1", "no function"
                program = bcast.compile(text, backend=backend, entry=entry, filename=name)
                try:
                    inputs = random_inputs(program.function, 0)
                except Exception:  # dynamic signature: compiled, not called
                    continue
                program(*inputs)
        except BcastError as e:
            if worst[0] == "exit0":
                worst = ("exit1", last_line(str(e)))
        except Timeout:
            return "timeout", f"{backend}: over {timeout} s"
        except BaseException as e:
            return "exception", f"{backend}: {exception_line(e)}"
    return worst


def entry_name(text: str) -> str | None:
    names = re.findall(r"func\.func\s+(?:public\s+|private\s+)?@([\w$.]+)", text)
    if not names:
        return None
    return "main" if "main" in names else names[0]


def chunks(path: Path):
    from bcast.tools import driver

    text = path.read_text()
    for chunk in driver.split_input(text, True):
        if chunk.text.strip():
            yield chunk.line_offset, "\n" * chunk.line_offset + chunk.text


def sweep(root: Path, files: list[str] | None, modes: list[str], backends: list[str], timeout: int,
          scratch: Path, verbose: bool):
    counts: dict[str, Counter] = {m: Counter() for m in modes}
    bugs = []
    scratch.mkdir(parents=True, exist_ok=True)
    paths = sorted(root.rglob("*.mlir"))
    if files:
        paths = [p for p in paths if p.name in files or str(p.relative_to(root)) in files]
    for path in paths:
        rel = path.relative_to(root)
        for offset, text in chunks(path):
            padded = scratch / path.name
            padded.write_text(text)
            for mode in modes:
                if mode == "compile":
                    kind, message = run_compile(text, str(rel), backends, timeout)
                else:
                    kind, message = run_opt(padded, mode, timeout)
                counts[mode][kind] += 1
                if kind in BUG_CLASSES:
                    bugs.append((str(rel), offset + 1, mode, kind, message))
                    if verbose:
                        print(f"{rel}:{offset + 1} {mode} {kind}: {message}", file=sys.stderr, flush=True)
    return counts, bugs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir", type=Path)
    parser.add_argument("--modes", default=",".join(MODES))
    parser.add_argument("--backends", default="reference,numpy,c")
    parser.add_argument("--timeout", type=int, default=60)
    parser.add_argument("--files", nargs="*")
    parser.add_argument("--scratch", type=Path, default=Path("/tmp/bcast_sweep"))
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args(argv)
    modes = args.modes.split(",")
    if unknown := [m for m in modes if m not in MODES]:
        parser.error(f"unknown modes {unknown}; known: {MODES}")
    counts, bugs = sweep(args.dir, args.files, modes, args.backends.split(","), args.timeout,
                         args.scratch, args.verbose)
    classes = ["exit0", "exit1", *BUG_CLASSES]
    print("| mode | " + " | ".join(classes) + " |")
    print("|---" * (len(classes) + 1) + "|")
    for mode in modes:
        print(f"| {mode} | " + " | ".join(str(counts[mode][c]) for c in classes) + " |")
    print(f"\n{len(bugs)} bug cases")
    for rel, line, mode, kind, message in bugs:
        print(f"{rel}:{line} {mode} {kind}: {message}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
