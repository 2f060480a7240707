"""How much a test run does. The default run (the README's command) is the
quick one: tests marked ``slow`` are deselected (``tests/conftest.py`` says
so in the summary) and each property test draws a quarter of its examples.
With ``BCAST_SLOW_TESTS=1`` (CI's ``.ci/run``, before the same command)
everything runs, at full example counts."""

from __future__ import annotations

import os

import pytest

SLOW_TESTS_VARIABLE = "BCAST_SLOW_TESTS"
THOROUGH = os.environ.get(SLOW_TESTS_VARIABLE, "") not in ("", "0")

QUICK_SHARE = 4
"""The quick run draws 1/QUICK_SHARE of a property test's examples (at
least ``QUICK_MINIMUM``): Hypothesis finds most bugs in its first examples
and replays the failures it saved, the full count is for CI."""
QUICK_MINIMUM = 10


def examples(full: int) -> int:
    """A property test's ``max_examples``: ``full`` in a thorough run."""
    return full if THOROUGH else min(full, max(QUICK_MINIMUM, full // QUICK_SHARE))


def quick_size(full: int, quick: int) -> int:
    """A size a test is built around (a program's op count, a loop's
    repetitions): ``full`` in a thorough run, the smaller ``quick`` in the
    quick one, chosen to run the same code paths (a depth still above
    Python's recursion limit, a size still past every blocking)."""
    return full if THOROUGH else quick


def quick_sample(cases: list, share: int = QUICK_SHARE) -> list:
    """``cases`` (``pytest.param``s) with all but every ``share``-th marked
    ``slow``: a parametrized test too long for the quick run runs a fixed,
    spread sample of its cases there, and every case in a thorough run."""
    return [pytest.param(*case.values, id=case.id,
                         marks=[*case.marks, *([pytest.mark.slow] if k % share else [])])
            for k, case in enumerate(cases)]
