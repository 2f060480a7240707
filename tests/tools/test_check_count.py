"""``benchmarks/check_count.py``: bcast's run-time checks per program against
those CHLO's legalization leaves (docs/performance.md, "Run-time checks").
The bcast column is pinned, so a lost proof or a lost hoist shows here; the
CHLO columns are measured by jaxlib's MLIR, and bcast never needs more."""

from __future__ import annotations

import importlib.util
import sys

import pytest

from bcast.tests.paths import ROOT

CANONICAL = {"bias_add": 1, "dense_relu": 1, "softmax": 0, "layernorm": 0, "outer_product": 0,
             "outer_sum_scaled": 1, "chain_three_inputs": 2, "chain_same_shape": 1, "mse": 1,
             "masked_scores": 1}  # fmt: skip
FROM_CHLO = {"bias_add": 1, "dense_relu": 1, "softmax": 2, "layernorm": 2, "outer_product": 0,
             "outer_sum_scaled": 1, "chain_three_inputs": 2, "chain_same_shape": 1, "mse": 1,
             "masked_scores": 3}  # fmt: skip
"""The same programs written with ``chlo.broadcast_*`` and imported: the
keepdims reductions go through JAX's ``get_dimension_size``/``dynamic_reshape``
form, whose sizes canonicalize does not yet see as the operand's."""


@pytest.fixture(scope="module")
def rows():
    spec = importlib.util.spec_from_file_location("check_count", ROOT / "benchmarks" / "check_count.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return {row["program"]: row for row in module.table()}


def test_bcast_checks_after_canonicalization(rows):
    assert {name: row["bcast canonical"] for name, row in rows.items()} == CANONICAL


def test_bcast_checks_of_the_imported_chlo_programs(rows):
    assert {name: row["bcast from CHLO"] for name, row in rows.items()} == FROM_CHLO


def test_bcast_never_needs_more_checks_than_chlo(rows):
    for row in rows.values():
        assert row["bcast from CHLO"] <= row["CHLO + canonicalize,cse"]
        assert row["bcast canonical"] <= row["bcast make-explicit"]
        assert row["bcast canonical"] <= row["CHLO + canonicalize,cse"] <= row["CHLO legalized"]
    assert sum(r["bcast canonical"] for r in rows.values()) < sum(r["CHLO + canonicalize,cse"] for r in rows.values())
