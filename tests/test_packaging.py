"""What ``pip install .`` (the README's first command, not editable)
installs: every package of the repository. A package missing from
``pyproject.toml``'s list installs without its modules, and the installed
``bcast-run`` then fails at its first import of one (``bcast.passes.loops``
was missing so)."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def repository_packages() -> set[str]:
    found = set()
    for init in ROOT.rglob("__init__.py"):
        folder = init.parent.relative_to(ROOT)
        if folder.parts and (folder.parts[0].startswith(".") or "build" in folder.parts):
            continue  # a virtual environment or a build tree inside the checkout
        found.add(".".join(("bcast", *folder.parts)))
    return found


def test_every_package_is_installed():
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = set(setuptools["packages"])
    assert repository_packages() - listed == set(), "packages pip install . would leave out"
    assert listed - repository_packages() == set(), "listed packages that do not exist"
