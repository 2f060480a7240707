"""Session setup shared by every test.

- The C backend's library cache is a temporary directory of this session
  (``BCAST_CACHE_DIR``, inherited by the subprocesses tests start), removed
  at the end: a test run never reads a user's cache nor leaves libraries in
  it.
- ``BCAST_FIRST_CALLS=0``: a C-backend compile waits for its library, so
  that the C backend's tests call the library; tests/tools/test_first_calls.py
  turns the first-call route (``bcast.tools.first_calls``) back on.
- A C-backend program whose first calls ran while its library built
  (``bcast.tools.first_calls``) has that build finished when its test's
  body returns, before the test's fixtures (a monkeypatched cache
  directory, a temporary path) are undone under it.
- Tests marked ``slow`` run only in a thorough run (``bcast.tests.budget``:
  ``BCAST_SLOW_TESTS=1``, as CI sets) or when ``-m`` chooses by markers;
  otherwise they are deselected, and the summary says how many and how to
  run them (no silent skips). So are the cases a ``quick_share(n)`` mark,
  or the rule for long parametrizations, leaves out (``budget.sampled_out``).
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile

import pytest

from bcast.tests import budget

CACHE_VARIABLE = "BCAST_CACHE_DIR"
FIRST_CALLS_VARIABLE = "BCAST_FIRST_CALLS"
_deselected = pytest.StashKey[int]()
_saved_cache = pytest.StashKey[tuple[str | None, str]]()


def pytest_configure(config: pytest.Config) -> None:
    cache = tempfile.mkdtemp(prefix="bcast-test-cache-")
    config.stash[_saved_cache] = (os.environ.get(CACHE_VARIABLE), cache)
    os.environ[CACHE_VARIABLE] = cache
    os.environ[FIRST_CALLS_VARIABLE] = "0"


def pytest_unconfigure(config: pytest.Config) -> None:
    if _saved_cache not in config.stash:
        return
    previous, cache = config.stash[_saved_cache]
    shutil.rmtree(cache, ignore_errors=True)
    if previous is None:
        os.environ.pop(CACHE_VARIABLE, None)
    else:
        os.environ[CACHE_VARIABLE] = previous


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if budget.THOROUGH or config.getoption("markexpr"):
        return
    marked = {id(item) for item in items if item.get_closest_marker("slow")}
    left_out = marked | {id(item) for item in budget.sampled_out([i for i in items if id(i) not in marked])}
    slow = [item for item in items if id(item) in left_out]
    if slow:
        items[:] = [item for item in items if id(item) not in left_out]
        config.hook.pytest_deselected(items=slow)
    config.stash[_deselected] = len(slow)
    if hasattr(config, "workeroutput"):  # an xdist worker: tell the controller
        config.workeroutput["bcast_deselected"] = len(slow)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error) -> None:
    """xdist's controller collects nothing itself: each worker collected
    every test and deselected the same slow ones, so any worker's count is
    the run's."""
    count = getattr(node, "workeroutput", {}).get("bcast_deselected")
    if count is not None:
        node.config.stash[_deselected] = count


def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:
    if budget.THOROUGH:
        return
    slow = (f"{config.stash[_deselected]} slow tests deselected" if _deselected in config.stash
            else "slow tests as -m chooses")
    terminalreporter.write_line(
        f"quick run: {slow}, property tests at 1/{budget.QUICK_SHARE} of their examples; "
        f"{budget.SLOW_TESTS_VARIABLE}=1 runs everything (CI does)", yellow=True)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item: pytest.Item):
    yield
    if "bcast.tools.first_calls" in sys.modules:
        sys.modules["bcast.tools.first_calls"].wait_for_builds()
