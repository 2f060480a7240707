"""How much a test run does. The default run (the README's command) is the
quick one: tests marked ``slow`` are deselected (``tests/conftest.py`` says
so in the summary) and each property test draws a quarter of its examples.
With ``BCAST_SLOW_TESTS=1`` (CI's ``.ci/run``, before the same command)
everything runs, at full example counts."""

from __future__ import annotations

import hashlib
import os
from collections import Counter
from collections.abc import Iterable

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


SHARE_MARK = "quick_share"
"""``@pytest.mark.quick_share(n)`` on a parametrized test: the quick run
keeps about one case in ``n`` (``sampled_out``), a thorough run all. For
tests whose cases come from stacked ``parametrize`` decorators, where
``quick_sample`` (one list of params) does not apply."""


MANY_CASES = 12
"""A parametrized test with more cases than this in the quick run keeps
about one in ``MANY_CASES_SHARE`` there unless a ``quick_share`` mark says
otherwise: the long parametrizations (the FileCheck files, the op matrix,
the exports) are most of the quick run's time (CI's profile, 2026-11-27)."""
MANY_CASES_SHARE = 3


def sampled_out(items: list) -> list:
    """The ``items`` a ``quick_share(n)`` mark, or the ``MANY_CASES`` rule,
    leaves out of the quick run: each case stays when a hash of its node id
    is 0 modulo ``n``. A hash, not every ``n``-th case: with stacked
    parameters (program x backend x form) a stride could keep one backend
    only; the hash spreads the kept cases over every parameter, and every
    xdist worker keeps the same ones."""
    def function(item) -> str:  # the node id without the parameters
        return item.nodeid.split("[")[0]

    cases = Counter(function(item) for item in items)
    out = []
    for item in items:
        mark = item.get_closest_marker(SHARE_MARK)
        share = mark.args[0] if mark is not None else MANY_CASES_SHARE if cases[function(item)] > MANY_CASES else 1
        if int(hashlib.sha256(item.nodeid.encode()).hexdigest(), 16) % share:
            out.append(item)
    return out


def thinned(cases: Iterable, share: int = QUICK_SHARE) -> list:
    """``cases`` in a thorough run, every ``share``-th in the quick run: for
    a test that loops over cases itself."""
    return list(cases) if THOROUGH else list(cases)[::share]
