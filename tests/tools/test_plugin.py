"""bcast as an xDSL plugin: ``xdsl-opt`` reads, rewrites and emits bcast IR
(docs/contracts.md, xdsl-opt plugin).

The real ``xdsl-opt`` command (beside the Python running the tests) runs the
standard pipeline on every program of ``tests/filecheck`` and ``examples``
that both tools take, and its output must be ``bcast-opt``'s. What is not
compared, and why:

- chunks with ``expected-error``: negative tests. ``xdsl-opt`` verifies with
  the ops' verifiers only, so it accepts some programs ``bcast-opt`` rejects:
  uses before definition (bcast's dominance check), function signatures no
  backend runs (bcast's signature check), an unknown ``bcast.semantics``
  value (checked by bcast's driver);
- chunks ``xdsl-opt``'s own parser reads differently (bcast's parser extends
  it): hex bit patterns in float literals (``0x7FC00000``, a NaN: xDSL reads
  an integer and converts it), location ranges (``loc("f.py":4:7 to :67)``)
  and ``#loc`` aliases used before their definition (JAX's output).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from xdsl.universe import Universe

from bcast.ir.chlo import CHLO_OPS
from bcast.ir.stablehlo import STABLEHLO_OPS
from bcast.passes import available_passes
from bcast.passes.stablehlo_to_bcast import has_stablehlo
from bcast.tools import driver, targets
from bcast.tools.api import STANDARD_PIPELINE
from bcast.tools.opt import TARGETS
from bcast.tools.opt import main as opt_main
from bcast.tools.universe import BCAST_UNIVERSE, bcast_passes
from bcast.tests import paths
from bcast.tests.budget import thinned

ROOT = paths.ROOT
BIN = Path(sys.executable).parent
XDSL_OPT = BIN / "xdsl-opt"
BCAST_OPT = BIN / "bcast-opt"

class PrettyOpOnlyJaxlibReads:
    """A StableHLO/CHLO op bcast has no custom form for, written in its
    custom (pretty) form: bcast-opt reads such text through jaxlib
    (docs/contracts.md), xdsl-opt cannot."""

    KNOWN = frozenset(op.name for op in (*STABLEHLO_OPS, *CHLO_OPS))
    PRETTY_OP = re.compile(r'(?<!")\b((?:stablehlo|chlo)\.\w+)\b(?!")')

    def search(self, text: str) -> bool:
        return any(m.group(1) not in self.KNOWN for m in self.PRETTY_OP.finditer(text)
                   if text[m.start() - 1:m.start()] not in ("#", "!"))


NOT_XDSL_SYNTAX = {
    "a StableHLO op's pretty form only jaxlib reads": PrettyOpOnlyJaxlibReads(),
    "hex float literal (xDSL reads the bit pattern as an integer)": re.compile(r"dense<[^>]*0x[0-9a-fA-F]"),
    "location range": re.compile(r"loc\([^)\n]*\bto\b"),
    "#loc alias (JAX defines them after the module)": re.compile(r"loc\(#"),
    "func.call in an unregistered op (xDSL's verifier takes that op for a symbol table)":
        re.compile(r'"func\.call"\('),
}
COMMENT_LINE = re.compile(r"^\s*//.*\n?", re.MULTILINE)


def programs() -> tuple[list[tuple[str, str]], dict[str, str]]:
    """The compared chunks as (name, text), and the excluded ones with why."""
    files = sorted(paths.FILECHECK.rglob("*.mlir")) + sorted(paths.EXAMPLES.rglob("*.mlir"))
    compared, excluded = [], {}
    for path in files:
        for index, chunk in enumerate(driver.split_input(path.read_text(), True)):
            name = f"{path.relative_to(ROOT)}#{index}"
            if "expected-error" in chunk.text:
                continue
            # comments go: xdsl-opt splits at "// -----" anywhere in a line
            # (and a CHECK line's syntax is not the program's)
            text = COMMENT_LINE.sub("", chunk.text)
            reasons = [why for why, pattern in NOT_XDSL_SYNTAX.items() if pattern.search(text)]
            if reasons:
                excluded[name] = ", ".join(reasons)
            elif text.strip():
                compared.append((name, text))
    return compared, excluded


def has_dynamic_dims(module) -> bool:
    from bcast.passes.errors import PassError, check_static

    try:
        check_static(module, "the pipeline")
    except PassError:
        return True
    return False


def run(tool: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(tool), *argv], capture_output=True, text=True, timeout=600)


def chunks_out(text: str) -> list[str]:
    return [piece.strip() for piece in text.split("// -----\n")]


def test_universe_names_the_dialect_every_bcast_pass_and_every_target():
    multiverse = Universe.get_multiverse()
    assert multiverse.all_dialects["bcast"]().name == "bcast"
    assert multiverse.all_dialects["stablehlo"]().name == "stablehlo"
    assert multiverse.all_dialects["chlo"]().name == "chlo"
    ours = bcast_passes()
    assert ours and all(name.startswith("bcast-") or name == "convert-stablehlo-to-bcast" for name in ours)
    # every pass bcast-opt knows is either bcast's (in the plugin) or xDSL's own
    assert set(available_passes()) <= set(ours) | set(Universe.get_multiverse().all_passes)
    for name in ours:
        assert multiverse.all_passes[name]().name == name
    # every bcast-opt target but mlir, which is xDSL's own
    assert set(BCAST_UNIVERSE.all_targets) == set(TARGETS) - {"mlir"}
    for name in BCAST_UNIVERSE.all_targets:
        assert multiverse.all_targets[name]().name == name


@pytest.mark.parametrize("pipeline", ["", STANDARD_PIPELINE], ids=["parse-verify-print", "standard"])
def test_xdsl_opt_matches_bcast_opt(tmp_path, pipeline):
    compared, excluded = programs()
    assert len(compared) >= 60, "the comparison lost most of its inputs"
    # each listed with its reason (most: hex float literals, which xDSL misreads; JAX's sort comparator
    # canonicalizes NaN to a constant that only a hex literal writes, and a window's -inf start); a
    # share, not a count, so that new tests of windows and sorts do not trip it
    assert len(excluded) <= len(compared) // 20, excluded
    if pipeline:  # bcast-opt imports StableHLO before a pipeline; xdsl-opt runs the pipeline as given;
        # the pipeline refuses dynamic dims (docs/semantics.md, "Dynamic and bounded shapes")
        compared = [(name, text) for name, text in compared
                    if not has_stablehlo(module := driver.load(text, name)) and not has_dynamic_dims(module)]
    joined = tmp_path / "all.mlir"
    joined.write_text("// -----\n".join(text for _, text in compared))
    argv = [str(joined), "--split-input-file", "--allow-unregistered-dialect", "-p", pipeline]
    mine, theirs = run(BCAST_OPT, *argv), run(XDSL_OPT, *argv)
    assert mine.returncode == 0, mine.stderr
    assert theirs.returncode == 0, theirs.stderr[-3000:]
    ours, xdsl = chunks_out(mine.stdout), chunks_out(theirs.stdout)
    assert len(ours) == len(xdsl) == len(compared)
    for (name, _), a, b in zip(compared, ours, xdsl):
        assert a == b, f"{name}: xdsl-opt and bcast-opt differ"


EXAMPLE = str(ROOT / "examples" / "broadcast.mlir")


@pytest.mark.parametrize("target", sorted(set(TARGETS) - {"mlir"}))
def test_target_through_xdsl_opt_is_bcast_opts(tmp_path, target):
    """``xdsl-opt -t T`` prints what ``bcast-opt -t T`` prints, standard
    pipeline (and StableHLO import: the JAX examples) included."""
    examples = [text for name, text in programs()[0] if name.startswith("examples/")]
    assert len(examples) >= 10
    joined = tmp_path / "examples.mlir"
    joined.write_text("// -----\n".join(examples))
    theirs = run(XDSL_OPT, str(joined), "--split-input-file", "-t", f'{target}{{source_name="{joined}"}}')
    assert theirs.returncode == 0, theirs.stderr[-3000:]
    # bcast-opt --split-input-file shares one header between chunks (and
    # renames a Python module's functions apart), so each example is
    # compared with bcast-opt's output for that example alone, named as
    # xdsl-opt names it
    ours = []
    for k, text in enumerate(examples):
        single, out = tmp_path / f"example{k}.mlir", tmp_path / f"example{k}.out"
        single.write_text(text)
        assert opt_main([str(single), "-t", target, "-o", str(out)]) == 0
        ours.append(out.read_text().replace(str(single), str(joined)).strip())
    assert chunks_out(theirs.stdout) == ours


@pytest.mark.parametrize("target", sorted(set(TARGETS) - {"mlir"}))
def test_target_after_own_pipeline_is_bcast_opts(target):
    """With ``standard_pipeline=false`` the target emits what ``-p`` left,
    as ``bcast-opt -p ... -t T`` does."""
    pipeline = targets.TARGETS[target].emit_pipeline
    theirs = run(XDSL_OPT, EXAMPLE, "-p", pipeline, "-t", f"{target}{{standard_pipeline=false}}")
    mine = run(BCAST_OPT, EXAMPLE, "-p", pipeline, "-t", target)
    assert theirs.returncode == 0, theirs.stderr[-3000:]
    assert mine.returncode == 0, mine.stderr
    assert theirs.stdout.replace("<source>", EXAMPLE).strip() == mine.stdout.strip()


def test_a_pass_error_is_a_diagnostic_not_a_traceback():
    """A bcast pass given input it cannot take, run by xdsl-opt, ends with
    bcast's diagnostic (the op marked), exit 1, as a target's error does."""
    theirs = run(XDSL_OPT, EXAMPLE, "-p", "bcast-lower-to-loops")
    assert theirs.returncode == 1
    assert "Traceback" not in theirs.stderr and theirs.stdout == ""
    first, *listing = theirs.stderr.splitlines()
    assert first == ("error: 'bcast.add' op bcast-lower-to-loops needs explicit IR; "
                     "run bcast-make-explicit first")
    assert any(line.strip().startswith("^^^") for line in listing)


def test_rejected_module_is_a_diagnostic_not_a_traceback():
    """Without source positions the op is marked in the printed IR;
    --verify-diagnostics prints the diagnostic and goes on, as for xDSL's own."""
    argv = [EXAMPLE, "-t", "numpy{standard_pipeline=false}"]
    theirs = run(XDSL_OPT, *argv)
    assert theirs.returncode == 1
    assert "Traceback" not in theirs.stderr and theirs.stdout == ""
    first, *listing = theirs.stderr.splitlines()
    assert first == ("error: 'bcast.add' op the numpy target needs explicit IR; "
                     "run the bcast-make-explicit pass first")
    marked = listing.index(next(line for line in listing if line.strip().startswith("^^^")))
    assert "%sum = bcast.add %x, %row" in listing[marked - 1]
    checked = run(XDSL_OPT, *argv, "--verify-diagnostics")
    assert checked.returncode == 0 and checked.stdout.startswith(first)


def test_located_module_error_is_bcast_opts(tmp_path):
    """bcast's checks run before a target (xDSL's verifiers take any function
    signature): the diagnostic is bcast-opt's, at the op's loc(...)."""
    path = tmp_path / "dynamic.mlir"
    path.write_text('func.func @main(%x: tensor<?x3xf32>) -> tensor<?x3xf32> {\n'
                    '  func.return %x : tensor<?x3xf32>\n'
                    '} loc("model.py":7:3)\n')
    for target in sorted(set(TARGETS) - {"mlir"}):
        theirs, mine = run(XDSL_OPT, str(path), "-t", target), run(BCAST_OPT, str(path), "-t", target)
        if targets.TARGETS[target].dynamic:  # the same module (its docstring aside: xdsl-opt names no file)
            assert theirs.returncode == mine.returncode == 0, target
            assert theirs.stdout.split("\n", 1)[1] == mine.stdout.split("\n", 1)[1], target
            continue
        assert theirs.returncode == mine.returncode == 1
        assert theirs.stderr == mine.stderr
        assert theirs.stderr.startswith("model.py:7:3: error: 'func.func' op has dynamic dimensions "
                                        f"(tensor<?x3xf32>), which the {target} target does not support yet")


def test_excluded_inputs_are_still_read_differently(tmp_path):
    """The exclusions stay justified: on each excluded chunk xdsl-opt fails or
    prints something else. (When xDSL learns the syntax, compare it.)"""
    _, excluded = programs()
    for name in thinned(excluded):  # each chunk starts two processes
        file, index = name.rsplit("#", 1)
        chunk = driver.split_input((ROOT / file).read_text(), True)[int(index)]
        path = tmp_path / "excluded.mlir"
        path.write_text(chunk.text)
        mine, theirs = run(BCAST_OPT, str(path)), run(XDSL_OPT, str(path))
        assert mine.returncode == 0, mine.stderr
        assert theirs.returncode != 0 or theirs.stdout.strip() != mine.stdout.strip(), name
