"""Fuzzing bcast-opt: mutated and truncated IR never produces a traceback.

Starting from a corpus of valid programs (every op, every semantics, nested
types, generic form, the JAX StableHLO exports in tests/data/jax_exports and
the FileCheck inputs), each case applies one to three random mutations:
truncation, deleting, duplicating or swapping tokens, numbers made huge, zero
or negative, types changed, op names swapped, garbage bytes and unicode
inserted. ``bcast.tools.opt.main`` runs in process; it must exit 0 (valid) or
1 (bad input) with no ``Traceback`` and no ``internal error``. A handful of
cases also run through the real ``bcast-opt`` command. The random seed is
fixed, so the cases are the same on every run.
"""

from __future__ import annotations

import random
import re
import shutil
import signal
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

import pytest

from bcast.tests import paths
from bcast.tools import driver, opt

SEED = 20240611
N_CASES = 1000
CASE_SECONDS = 10

CORPUS = {
    "numpy_elementwise": """
func.func @main(%a: tensor<4x1xf32>, %b: tensor<3xf32>, %i: tensor<2x3xi32>, %j: tensor<3xi8>,
                %u: tensor<3xui8>, %p: tensor<4x1xi1>, %s: tensor<f32>) -> (tensor<4x3xf32>, tensor<2x3xi32>) {
  %0 = bcast.add %a, %b : (tensor<4x1xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  %1 = bcast.subtract %0, %s : (tensor<4x3xf32>, tensor<f32>) -> tensor<4x3xf32>
  %2 = bcast.multiply %1, %b : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  %3 = bcast.divide %2, %a : (tensor<4x3xf32>, tensor<4x1xf32>) -> tensor<4x3xf32>
  %4 = bcast.remainder %i, %j : (tensor<2x3xi32>, tensor<3xi8>) -> tensor<2x3xi32>
  %5 = bcast.power %3, %s : (tensor<4x3xf32>, tensor<f32>) -> tensor<4x3xf32>
  %6 = bcast.maximum %5, %b : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  %7 = bcast.minimum %6, %a : (tensor<4x3xf32>, tensor<4x1xf32>) -> tensor<4x3xf32>
  %8 = bcast.atan2 %7, %b : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  %9 = bcast.and %i, %j : (tensor<2x3xi32>, tensor<3xi8>) -> tensor<2x3xi32>
  %10 = bcast.or %9, %i : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %11 = bcast.xor %10, %j : (tensor<2x3xi32>, tensor<3xi8>) -> tensor<2x3xi32>
  %12 = bcast.shift_left %11, %j : (tensor<2x3xi32>, tensor<3xi8>) -> tensor<2x3xi32>
  %13 = bcast.shift_right_arithmetic %12, %i : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %14 = bcast.shift_right_logical %13, %j : (tensor<2x3xi32>, tensor<3xi8>) -> tensor<2x3xi32>
  %15 = bcast.add %j, %u : (tensor<3xi8>, tensor<3xui8>) -> tensor<3xi16>
  %16 = bcast.compare GT, %a, %b : (tensor<4x1xf32>, tensor<3xf32>) -> tensor<4x3xi1>
  %17 = bcast.select %p, %8, %b : (tensor<4x1xi1>, tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  %18 = bcast.and %16, %p : (tensor<4x3xi1>, tensor<4x1xi1>) -> tensor<4x3xi1>
  func.return %17, %14 : tensor<4x3xf32>, tensor<2x3xi32>
}
""",
    "unary": """
func.func @main(%x: tensor<2x3xf32>, %i: tensor<2x3xi32>, %p: tensor<2x3xi1>) -> tensor<2x3xf32> {
  %0 = bcast.negate %x : tensor<2x3xf32>
  %1 = bcast.abs %0 : tensor<2x3xf32>
  %2 = bcast.exponential %1 : tensor<2x3xf32>
  %3 = bcast.log %2 : tensor<2x3xf32>
  %4 = bcast.sqrt %3 : tensor<2x3xf32>
  %5 = bcast.rsqrt %4 : tensor<2x3xf32>
  %6 = bcast.tanh %5 : tensor<2x3xf32>
  %7 = bcast.logistic %6 : tensor<2x3xf32>
  %8 = bcast.floor %7 : tensor<2x3xf32>
  %9 = bcast.ceil %8 : tensor<2x3xf32>
  %10 = bcast.sign %9 : tensor<2x3xf32>
  %11 = bcast.not %i : tensor<2x3xi32>
  %12 = bcast.not %p : tensor<2x3xi1>
  %13 = bcast.abs %11 : tensor<2x3xi32>
  func.return %10 : tensor<2x3xf32>
}
""",
    "structural": """
func.func @main(%x: tensor<3xf32>, %m: tensor<2x1xf32>, %i: tensor<3xi32>) -> tensor<2x3xf32> {
  %c = bcast.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %s = bcast.constant dense<0.5> : tensor<2x3xf32>
  %k = bcast.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %t = bcast.constant dense<true> : tensor<i1>
  %0 = bcast.broadcast_in_dim %x, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
  %1 = bcast.broadcast_in_dim %m, dims = [0, 1] : (tensor<2x1xf32>) -> tensor<2x3xf32>
  %2 = bcast.transpose %1, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %3 = bcast.reshape %m : (tensor<2x1xf32>) -> tensor<2xf32>
  %4 = bcast.convert %i : (tensor<3xi32>) -> tensor<3xf32>
  %5 = bcast.broadcast_in_dim %c, dims = [1] : (tensor<3xf32>) -> tensor<1x3xf32>
  %6 = bcast.add %0, %1 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %7 = bcast.multiply %6, %s : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %8 = bcast.broadcast_in_dim %x, dims = [0] : (tensor<3xf32>) -> tensor<3x0xf32>
  %9 = bcast.broadcast_in_dim %5, dims = [2, 1] : (tensor<1x3xf32>) -> tensor<2x3x2xf32>
  func.return %7 : tensor<2x3xf32>
}
""",
    "xla": """
module attributes {bcast.semantics = "xla"} {
  func.func @main(%v: tensor<4xf32>, %m: tensor<4x3xf32>, %r: tensor<1x2xf32>, %s: tensor<f32>,
                  %c: tensor<2x3x4xf32>, %n: tensor<3x4xf32>) -> tensor<4x3xf32> {
    %0 = bcast.add %v, %m broadcast_dimensions = [0] : (tensor<4xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
    %1 = bcast.add %v, %r broadcast_dimensions = [0] : (tensor<4xf32>, tensor<1x2xf32>) -> tensor<4x2xf32>
    %2 = bcast.multiply %0, %s : (tensor<4x3xf32>, tensor<f32>) -> tensor<4x3xf32>
    %3 = bcast.compare LT, %v, %m broadcast_dimensions = [0] : (tensor<4xf32>, tensor<4x3xf32>) -> tensor<4x3xi1>
    %4 = bcast.select %3, %2, %0 : (tensor<4x3xi1>, tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
    %5 = bcast.subtract %c, %n broadcast_dimensions = [1, 2] : (tensor<2x3x4xf32>, tensor<3x4xf32>) -> tensor<2x3x4xf32>
    func.return %4 : tensor<4x3xf32>
  }
}
""",
    "tml": """
module attributes {bcast.semantics = "tml"} {
  func.func @main(%n: tensor<3xtensor<2xf32>>, %v: tensor<3xf32>, %u: tensor<3xui8>, %w: tensor<ui8>,
                  %p: tensor<3xi1>, %t: tensor<1x2xf32>, %d: tensor<2x3x4xf32>, %i: index,
                  %q: tensor<1x5x1xi32>, %r: tensor<1x4xf32>) -> tensor<3xtensor<2xf32>> {
    %0 = bcast.add %n, %v : (tensor<3xtensor<2xf32>>, tensor<3xf32>) -> tensor<3xtensor<2xf32>>
    %1 = bcast.and %u, %w : (tensor<3xui8>, tensor<ui8>) -> tensor<3xui8>
    %2 = bcast.shift_left %u, %u : (tensor<3xui8>, tensor<3xui8>) -> tensor<3xui8>
    %3 = bcast.compare EQ, %v, %v : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
    %4 = bcast.or %3, %p : (tensor<3xi1>, tensor<3xi1>) -> tensor<3xi1>
    %5 = bcast.extract %t[999, 1] : (tensor<1x2xf32>) -> tensor<f32>
    %6 = bcast.extract %d[%i, 0] : (tensor<2x3x4xf32>, index) -> tensor<4xf32>
    %7 = bcast.assign %d[1], %r : (tensor<2x3x4xf32>, tensor<1x4xf32>) -> tensor<2x3x4xf32>
    %8 = bcast.assign %d, %6 : (tensor<2x3x4xf32>, tensor<4xf32>) -> tensor<2x3x4xf32>
    %9 = bcast.narrow %q : (tensor<1x5x1xi32>) -> tensor<5xi32>
    %10 = bcast.select %p, %n, %v : (tensor<3xi1>, tensor<3xtensor<2xf32>>, tensor<3xf32>) -> tensor<3xtensor<2xf32>>
    %11 = bcast.not %u : tensor<3xui8>
    func.return %10 : tensor<3xtensor<2xf32>>
  }
}
""",
    "generic": """
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>, sym_name = "main"}> ({
  ^bb0(%arg0: tensor<2x3xf32>, %arg1: tensor<3xf32>):
    %0 = "bcast.add"(%arg0, %arg1) <{broadcast_dimensions = array<i64: 1>}> : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
    %1 = "bcast.broadcast_in_dim"(%arg1) <{broadcast_dimensions = array<i64: 1>}> : (tensor<3xf32>) -> tensor<2x3xf32>
    %2 = "bcast.compare"(%0, %1) <{comparison_direction = #bcast<comparison_direction GT>}> : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
    "func.return"(%0) : (tensor<2x3xf32>) -> ()
  }) : () -> ()
}) {bcast.semantics = "numpy"} : () -> ()
""",
    "split_and_diagnostics": """
// expected-error @+2 {{operands are not broadcast-compatible}}
func.func @bad(%a: tensor<2x1xf32>, %b: tensor<8x4x3xf32>) -> tensor<8x4x3xf32> {
  %0 = bcast.add %a, %b : (tensor<2x1xf32>, tensor<8x4x3xf32>) -> tensor<8x4x3xf32>
  // expected-note @-1 {{aligned from the right}}
  // expected-note @-2 {{dimension -2: 2 vs 4 (neither is 1)}}
  func.return %0 : tensor<8x4x3xf32>
}
// -----
func.func @good(%a: tensor<0x3xf32>, %b: tensor<1xf32>) -> tensor<0x3xf32> {
  %0 = bcast.add %a, %b : (tensor<0x3xf32>, tensor<1xf32>) -> tensor<0x3xf32>
  func.return %0 : tensor<0x3xf32>
}
// -----

%u = "unknown.op"() {unknown.attr = #unknown.attr<"x">} : () -> !unknown.type
""",
}

HUGE_NUMBERS = ["99999999999999999999", "0", "-1", "-99999999999999999999", "4294967296",
                "9223372036854775807", "9223372036854775808", "-9223372036854775808",
                "1e308", "1e999", "nan", "0x7FFFFFFF", "18446744073709551616", "65536"]  # fmt: skip
TYPES = ["f32", "f64", "f16", "bf16", "i1", "i8", "i32", "i64", "ui8", "ui64", "si32", "i7",
         "index", "complex<f32>", "tensor<?x3xf32>", "tensor<f32>", "tensor<3xtensor<2xf32>>",
         "memref<3xf32>", "none", "tuple<f32>", "tensor<*xf32>", "vector<4xf32>", "f8E4M3FN"]  # fmt: skip
GARBAGE = ["\x00", "\x7f", "\ufeff", "é", "∑", "😀", "\u202e", "\\", '"', "'", "{", "}", "(", ")",
           "<", ">", "[", "]", ",", ":", "=", "%", "@", "#", "^", "!", "//", "/*", "-----", "\n",
           "\t", "dense<", "loc(", "#loc", "-> ", "x", "0x", "\"\\xff\"", "\ud800"]  # fmt: skip
OP_NAMES = ["bcast.add", "bcast.compare", "bcast.select", "bcast.broadcast_in_dim", "bcast.transpose",
            "bcast.reshape", "bcast.narrow", "bcast.convert", "bcast.constant", "bcast.extract",
            "bcast.assign", "bcast.not", "bcast.bogus", "func.return", "func.call", "stablehlo.add",
            "builtin.module", "func.func"]  # fmt: skip

FLAGS = [[], [], [], ["--split-input-file"], ["--print-op-generic"],
         ["--verify-diagnostics", "--split-input-file"], ["--verify-diagnostics"],
         ["--semantics"], ["--split-input-file", "--allow-unregistered-dialect"],
         ["--print-debuginfo", "--split-input-file"],
         ["--split-input-file", "-p", "canonicalize,cse", "--print-between-passes", "--timing"],
         ["-t", "numpy", "--split-input-file"]]  # fmt: skip
"""Command lines the cases run with (``--semantics`` gets a random value)."""

TOKEN = re.compile(r"\s+|[%@#^!]?[\w.$-]+|\S")
NUMBER = re.compile(r"(?<![\w.])-?\d+(\.\d+)?(e[+-]?\d+)?")
TYPE = re.compile(r"\b(?:f16|f32|f64|i1|i8|i16|i32|i64|ui8|ui16|ui32|ui64|index)\b")
OP = re.compile(r"\b(?:bcast|func|stablehlo|chlo)\.\w+")


def corpus() -> dict[str, str]:
    texts = dict(CORPUS)
    files = sorted((paths.DATA / "jax_exports").glob("*.mlir")) + sorted(paths.FILECHECK.rglob("*.mlir"))
    assert len(files) > 40, "the corpus lost its files"
    for path in files:
        assert path.name not in texts, f"two corpus files named {path.name}"
        texts[path.name] = path.read_text(encoding="utf-8")
    return texts


def _replace_match(rng: random.Random, text: str, pattern: re.Pattern, choices) -> str:
    matches = list(pattern.finditer(text))
    if not matches:
        return text
    m = rng.choice(matches)
    return text[: m.start()] + rng.choice(choices) + text[m.end():]


def mutate(rng: random.Random, text: str) -> str:
    kind = rng.randrange(10)
    if kind == 0:  # truncate
        return text[: rng.randrange(len(text) + 1)]
    tokens = TOKEN.findall(text)
    if kind in (1, 2, 3) and tokens:
        i = rng.randrange(len(tokens))
        if kind == 1:  # delete
            del tokens[i]
        elif kind == 2:  # duplicate
            tokens.insert(i, tokens[i])
        else:  # swap
            j = rng.randrange(len(tokens))
            tokens[i], tokens[j] = tokens[j], tokens[i]
        return "".join(tokens)
    if kind in (4, 5):
        return _replace_match(rng, text, NUMBER, HUGE_NUMBERS)
    if kind == 6:
        return _replace_match(rng, text, TYPE, TYPES)
    if kind == 7:
        return _replace_match(rng, text, OP, OP_NAMES)
    if kind == 8:  # garbage
        pos = rng.randrange(len(text) + 1)
        junk = "".join(rng.choice(GARBAGE) for _ in range(rng.randint(1, 3)))
        return text[:pos] + junk + text[pos:]
    # delete or duplicate a whole line
    lines = text.split("\n")
    i = rng.randrange(len(lines))
    if rng.random() < 0.5:
        del lines[i]
    else:
        lines.insert(i, lines[i])
    return "\n".join(lines)


def cases(n: int = N_CASES):
    rng = random.Random(SEED)
    texts = corpus()
    names = sorted(texts)
    for k in range(n):
        name = names[k % len(names)]
        text = texts[name]
        for _ in range(rng.choice([1, 1, 1, 2, 3])):
            text = mutate(rng, text)
        flags = rng.choice(FLAGS)
        if flags and flags[0] == "--semantics":
            flags = [*flags, rng.choice(["numpy", "xla", "tml"])]
        yield k, name, text, flags


class CaseTimeout(BaseException):
    """Raised by the alarm; a BaseException so that the driver cannot catch it."""


@contextmanager
def time_limit(seconds: int):
    if not hasattr(signal, "SIGALRM"):
        yield
        return

    def fire(signum, frame):
        raise CaseTimeout(f"a case ran for more than {seconds} s (a hang?)")

    old = signal.signal(signal.SIGALRM, fire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def write(path: Path, text: str) -> None:
    # surrogates cannot be encoded: write them as replacement bytes (still invalid-ish input)
    path.write_bytes(text.encode("utf-8", errors="replace"))


def test_corpus_is_valid(tmp_path, capsys):
    """Every hand-written corpus program is accepted unmutated."""
    for name, text in CORPUS.items():
        path = tmp_path / f"{name}.mlir"
        write(path, text)
        flags = (["--split-input-file", "--verify-diagnostics", "--allow-unregistered-dialect"]
                 if "split" in name else [])
        code = opt.main([str(path), *flags])
        out, err = capsys.readouterr()
        assert code == 0, f"{name}: exit {code}\n{err}"


@pytest.mark.slow
def test_fuzz_bcast_opt_in_process(tmp_path, capsys):
    failures = []
    seen_codes = {0: 0, 1: 0}
    for k, name, text, flags in cases():
        path = tmp_path / f"case{k}.mlir"
        write(path, text)
        with time_limit(CASE_SECONDS):
            code = opt.main([str(path), *flags])
        out, err = capsys.readouterr()
        if code not in (0, 1) or "Traceback" in err or "internal error" in err:
            failures.append(f"case {k} (from {name}, flags {flags}): exit {code}\n{err[-2000:]}\n"
                            f"--- input ---\n{text}")
            shutil.copy(path, tmp_path / f"failing{k}.mlir")
        else:
            seen_codes[code] += 1
            if code == 1:
                assert err.strip(), f"case {k}: exit 1 with nothing on stderr"
    assert not failures, f"{len(failures)} failing cases; first:\n" + failures[0]
    # the mutations produce both valid and invalid inputs
    assert seen_codes[0] > 50 and seen_codes[1] > 300, seen_codes


def test_fuzz_bcast_opt_command(tmp_path):
    """A handful of cases through the real command (a fresh interpreter)."""
    command = shutil.which("bcast-opt")
    prefix = [command] if command else [sys.executable, "-m", "bcast.tools.opt"]
    selected = [c for c in cases(200)][::40]
    for k, name, text, flags in selected:
        path = tmp_path / f"case{k}.mlir"
        write(path, text)
        proc = subprocess.run([*prefix, str(path), *flags], capture_output=True, text=True,
                              timeout=120)
        assert proc.returncode in (0, 1), f"case {k}: exit {proc.returncode}\n{proc.stderr}"
        assert "Traceback" not in proc.stderr, proc.stderr
    # stdin input, and a missing file
    proc = subprocess.run([*prefix, "-"], input="func.func @f(", capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    proc = subprocess.run([*prefix, str(tmp_path / "missing.mlir")], capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr


@pytest.mark.parametrize(
    "text",
    [
        "",
        "\x00\x01\x02",
        "func.func @main(%a: tensor<99999999999999999999xf32>) { func.return }",
        "func.func @main() -> tensor<99999999999x99999999999xf32> {\n"
        "  %c = bcast.constant dense<1.0> : tensor<99999999999x99999999999xf32>\n"
        "  func.return %c : tensor<99999999999x99999999999xf32>\n}",
        "func.func @main(%a: tensor<3xf32>) -> tensor<3xf32> {\n"
        "  %0 = bcast.broadcast_in_dim %a, dims = [99999999999999999999] : (tensor<3xf32>) -> tensor<3xf32>\n"
        "  func.return %0 : tensor<3xf32>\n}",
        "func.func @main(%a: tensor<3xf32>) -> tensor<f32> {\n"
        "  %0 = bcast.extract %a[99999999999999999999] : (tensor<3xf32>) -> tensor<f32>\n"
        "  func.return %0 : tensor<f32>\n}",
        "func.func @main(%a: tensor<3xf32>) -> tensor<3xf32> {\n"
        "  %0 = bcast.transpose %a, dims = [-9223372036854775808] : (tensor<3xf32>) -> tensor<3xf32>\n"
        "  func.return %0 : tensor<3xf32>\n}",
        "func.func @main(%a: tensor<3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {\n"
        "  %0 = bcast.add %a, %b broadcast_dimensions = [-1] : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>\n"
        "  func.return %0 : tensor<2x3xf32>\n}",
        "func.func @main(%a: tensor<3xf32>) -> tensor<3xf32> {\n"
        "  %0 = bcast.add %a, %a {broadcast_dimensions = array<i64: 0>} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>\n"
        "  func.return %0 : tensor<3xf32>\n}",
        "module attributes {bcast.semantics = 7} {}",
        "module attributes {bcast.semantics = \"fortran\"} {}",
        "func.func @main() -> tensor<4294967296x4294967296x4294967296xf32> {\n"
        "  %c = bcast.constant dense<0.0> : tensor<4294967296x4294967296x4294967296xf32>\n"
        "  %0 = bcast.reshape %c : (tensor<4294967296x4294967296x4294967296xf32>) -> tensor<4294967296x4294967296x4294967296xf32>\n"
        "  func.return %0 : tensor<4294967296x4294967296x4294967296xf32>\n}",
        "(" * 5000,
        "module {" * 3000,
    ],
)
def test_nasty_inputs(tmp_path, capsys, text):
    path = tmp_path / "nasty.mlir"
    write(path, text)
    with time_limit(30):
        code = opt.main([str(path)])
    out, err = capsys.readouterr()
    assert code in (0, 1), err
    assert "Traceback" not in err and "internal error" not in err, err


PIPELINES = ["canonicalize,cse", "bcast-make-explicit",
             "bcast-make-explicit{degenerate=reshape},canonicalize",
             "bcast-make-explicit,bcast-sink-broadcasts,bcast-fuse"]  # fmt: skip


def test_fuzz_pipelines_parse():
    """Every fuzzed pipeline names passes bcast-opt knows (an unknown name
    would make every case a usage error, and the fuzzing a no-op)."""
    for spec in PIPELINES:
        driver.parse_pipeline(spec)


@pytest.mark.slow
def test_fuzz_bcast_opt_with_pipelines(tmp_path, capsys):
    """Mutated inputs that still verify go through the pass pipelines: a pass
    never crashes on them either."""
    rng = random.Random(SEED + 1)
    failures = []
    for k, name, text, flags in cases(300):
        path = tmp_path / f"case{k}.mlir"
        write(path, text)
        if "-p" in flags:  # one pipeline per run: the fuzzed one replaces the case's
            at = flags.index("-p")
            flags = flags[:at] + flags[at + 2:]
        argv = [str(path), *flags, "-p", rng.choice(PIPELINES)]
        with time_limit(CASE_SECONDS):
            code = opt.main(argv)
        out, err = capsys.readouterr()
        if code not in (0, 1) or "Traceback" in err or "internal error" in err:
            failures.append(f"case {k} (from {name}, {argv[1:]}): exit {code}\n{err[-2000:]}\n"
                            f"--- input ---\n{text}")
    assert not failures, f"{len(failures)} failing cases; first:\n" + failures[0]
