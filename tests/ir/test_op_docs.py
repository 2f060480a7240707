"""Every op of the dialect is in the op references users read (README.md
and docs/ir.md): an op class added without its documentation fails here."""

from __future__ import annotations

import re

import pytest

from bcast.ir import ops as bc
from bcast.tests.paths import ROOT


def documented_words(path) -> set[str]:
    """The words inside backticks of a Markdown file."""
    text = (ROOT / path).read_text()
    return {word for quoted in re.findall(r"`([^`]*)`", text) for word in re.findall(r"[a-z_0-9]+", quoted)}


@pytest.mark.parametrize("document", ["README.md", "docs/ir.md"])
def test_every_op_is_documented(document) -> None:
    words = documented_words(document)
    missing = [op.name for op in bc.OPS if op.name.split(".", 1)[1] not in words]
    assert not missing, f"{document} does not list {missing}"
