"""Where the test inputs live, for test modules at any depth of ``tests/``."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
"""The checkout (the folder holding ``pyproject.toml``)."""
TESTS = ROOT / "tests"
FILECHECK = TESTS / "filecheck"
"""The lit suite: ``dialects/bcast``, ``transforms`` and ``tools`` below it."""
DATA = TESTS / "data"
EXAMPLES = ROOT / "examples"
