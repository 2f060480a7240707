"""How much a test run does. The default run (the README's command) is the
quick one: tests marked ``slow`` are deselected (``tests/conftest.py`` says
so in the summary) and each property test draws a quarter of its examples.
With ``BCAST_SLOW_TESTS=1`` (CI's ``.ci/run``, before the same command)
everything runs, at full example counts."""

from __future__ import annotations

import hashlib
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


SHARE_MARK = "quick_share"
"""``@pytest.mark.quick_share(n)`` on a parametrized test: the quick run
keeps about one case in ``n`` (``sampled_out``), a thorough run all. For
tests whose cases come from stacked ``parametrize`` decorators, where
``quick_sample`` (one list of params) does not apply."""


def sampled_out(items: list) -> list:
    """The ``items`` a ``quick_share(n)`` mark leaves out of the quick run:
    each case stays when a hash of its node id is 0 modulo ``n``. A hash,
    not every ``n``-th case: with stacked parameters (program x backend x
    form) a stride could keep one backend only; the hash spreads the kept
    cases over every parameter, and every xdist worker keeps the same ones."""
    out = []
    for item in items:
        mark = item.get_closest_marker(SHARE_MARK)
        if mark is not None and int(hashlib.sha256(item.nodeid.encode()).hexdigest(), 16) % mark.args[0]:
            out.append(item)
    return out


def thinned(cases: list, share: int = QUICK_SHARE) -> list:
    """``cases`` in a thorough run, every ``share``-th in the quick run: for
    a test that loops over cases itself."""
    return cases if THOROUGH else cases[::share]
