"""``benchmarks/stablehlo_interpret.py``, the runner of StableHLO's
interpreter test suite, on a small suite of its format written for it
(``tests/data/interpret_suite``): each chunk's function name says what the
runner must make of it (``passes_*``, ``fails_*``, ``unsupported_*``,
``skipped_*``; ``@main`` passes), on the reference backend and, with the
constants made arguments, on NumPy. Then the comparisons, which follow
StableHLO's interpreter (``check`` ops), and the reading of expected
literals, on values of their own.
"""

from __future__ import annotations

import importlib.util
import re
import sys

import numpy as np
import pytest

from bcast.tests.paths import DATA, ROOT

SUITE = DATA / "interpret_suite"


def _load_runner():
    spec = importlib.util.spec_from_file_location("stablehlo_interpret", ROOT / "benchmarks" / "stablehlo_interpret.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


runner = _load_runner()

EXPECTED_STATUS = {"passes": "passed", "fails": "failed", "unsupported": "unsupported", "skipped": "skipped"}


def _chunks():
    return [chunk for path in sorted(SUITE.glob("*.mlir")) for chunk in runner.split_chunks(path)]


def _expected(chunk) -> str:
    name = chunk.label.split("@")[1]
    return "passed" if name == "helper" else EXPECTED_STATUS[name.split("_")[0]]


@pytest.mark.parametrize("arguments", [False, True], ids=["constants", "arguments"])
@pytest.mark.parametrize("chunk", _chunks(), ids=lambda c: c.label.split(" ")[1])
def test_each_chunk_is_classified_as_its_name_says(chunk, arguments):
    backends = ["reference", "numpy"] if arguments else ["reference"]
    outcomes = runner.run_chunk(chunk, backends, arguments)
    for backend, outcome in outcomes.items():
        assert outcome.status == _expected(chunk), (backend, outcome)


def test_failures_name_the_value_and_the_element():
    chunk = next(c for c in _chunks() if "@fails_wrong_product" in c.label)
    outcome = runner.run_chunk(chunk, ["reference"])["reference"]
    assert "%p: check.expect_eq_const: 1 of 2 elements differ; at [1]" in outcome.detail
    assert "4.0" in outcome.detail and "4.5" in outcome.detail


def test_the_table_counts_per_file_and_names_the_causes(capsys):
    assert runner.main([str(SUITE), "-v"]) == 0
    out = capsys.readouterr().out
    row = lambda name: re.search(rf"^{re.escape(name)}\s+(\d+(?:\s+\d+)*)$", out, re.MULTILINE).group(1).split()
    #                                  chunks passed failed unsupported error skipped
    assert row("arithmetic.mlir") == ["5", "3", "2", "0", "0", "0"]
    assert row("refused.mlir") == ["4", "1", "0", "2", "0", "1"]
    assert row("total (2 files)") == ["9", "4", "2", "2", "0", "1"]
    assert re.search(r"^\s+1\s+stablehlo\.cholesky$", out, re.MULTILINE)
    assert re.search(r"^\s+1\s+type i2$", out, re.MULTILINE)
    assert "skipped     refused.mlir:21 @skipped_nothing_checked: no check op" in out
    lacking = out[out.index("what the unsupported chunks lack"):]
    assert re.search(r"^\s+1\s+1\s+stablehlo\.cholesky$", lacking, re.MULTILINE)
    assert re.search(r"^\s+1\s+1\s+type i2$", lacking, re.MULTILINE)


def test_the_rewritten_chunk_keeps_its_lines_and_returns_the_checked_values():
    chunk = next(c for c in _chunks() if "@passes_two_values_and_ulps" in c.label)
    program = runner.rewrite(chunk)
    assert program.text.count("\n") == chunk.text.count("\n")
    assert "check." not in program.text
    assert "func.return %m, %a, %x, %y : tensor<2xi1>, tensor<2xi1>, tensor<f32>, tensor<f32>" in program.text
    lifted = runner.rewrite(chunk, arguments=True)
    assert "@passes_two_values_and_ulps(%a: tensor<2xi1>, %x: tensor<f32>, %y: tensor<f32>)" in lifted.text
    assert [a.tolist() for a in lifted.arguments] == [[True, False], pytest.approx(0.1), pytest.approx(0.1)]


def test_almost_equal_is_stablehlos_absolute_tolerance():
    actual = np.array([1.0, np.nan, np.inf, np.inf, 0.0, 1e300, 5.0], np.float64)
    expected = np.array([1.00009, np.nan, np.inf, 1e308, 9e-5, np.inf, 5.0002], np.float64)
    assert runner.almost_equal(actual, expected, 1e-4).tolist() == [True, True, True, False, True, False, False]


def test_exact_equality_is_ieee():
    assert runner.equal(np.array([np.nan, -0.0]), np.array([np.nan, 0.0])).tolist() == [False, True]


def test_ulp_difference_counts_floats_between():
    one = np.float32(1.0)
    values = np.array([one, np.nextafter(one, np.float32(2)), -0.0, np.float32(1e-45), np.nan, np.inf], np.float32)
    others = np.array([one, one, 0.0, np.float32(-1e-45), np.nan, np.float32(3e38)], np.float32)
    distance = runner.ulp_difference(values, others)
    assert distance.tolist()[:5] == [0, 1, 0, 2, 0]
    assert distance[5] == np.iinfo(np.uint64).max


@pytest.mark.parametrize(("literal", "type_", "expected"), [
    ("dense<[0x7FC00000, 0xFF800000]>", "tensor<2xf32>", [np.nan, -np.inf]),
    ("dense<0x3C00>", "tensor<3xf16>", [1.0, 1.0, 1.0]),
    ("dense<[[true], [false]]>", "tensor<2x1xi1>", [[True], [False]]),
    ("dense<[18446744073709551615, 0]>", "tensor<2xui64>", [2**64 - 1, 0]),
    ("dense<0xFF>", "tensor<i8>", -1),
    ("dense<-2.5E-1>", "tensor<f64>", -0.25),
])  # fmt: skip
def test_parse_dense_reads_mlir_literals(literal, type_, expected):
    value = runner.parse_dense(literal, type_)
    np.testing.assert_array_equal(value, np.array(expected, value.dtype))
    assert value.dtype == np.dtype(runner.DTYPES[type_[:-1].split("x")[-1].removeprefix("tensor<")])


def test_an_unknown_backend_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exit_:
        runner.main([str(SUITE), "--backends", "reference,numpi"])
    assert exit_.value.code == 2
    assert "--backends: numpi; this build has reference" in capsys.readouterr().err
