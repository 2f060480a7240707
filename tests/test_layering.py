"""Imports run one way: ``ir`` <- ``passes`` <- ``lowering`` <- ``tools``
(docs/architecture.md).

Every module of the four layers is parsed with ``ast`` and each of its
imports of ``bcast`` (absolute or relative, at the top or inside a function)
must name its own layer or one below it. The exceptions are xDSL's:
``ir/ops.py`` finds the canonicalization patterns of its ops in
``passes.canonicalization`` lazily (``HasCanonicalizationPatternsTrait``),
and the package's ``__init__.py`` re-exports the API from ``tools``.
Inside ``ir`` the imports, lazy ones included, form no cycle.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ("ir", "passes", "lowering", "tools")
ALLOWED = {
    # module -> upward imports it may make, each lazily (inside a function)
    "bcast.ir.ops": {"bcast.passes.canonicalization"},
}
"""The pattern hook of the ops (xDSL's ``HasCanonicalizationPatternsTrait``)."""


def modules() -> list[tuple[str, Path]]:
    found = []
    for layer in LAYERS:
        for path in sorted((ROOT / layer).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found.append((".".join(("bcast", *parts)), path))
    return found


def imports(name: str, path: Path) -> list[tuple[str, int, bool]]:
    """(imported bcast module, line, lazily?) for every import in the file;
    ``from __future__`` and imports of other packages are not listed."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    lazy = {
        id(node)
        for scope in ast.walk(tree)
        if isinstance(scope, ast.FunctionDef | ast.AsyncFunctionDef)
        for node in ast.walk(scope)
    }
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: resolve against the package
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                module = ".".join([*base, *([node.module] if node.module else [])])
            else:
                module = node.module or ""
            if module == "__future__":
                continue
            # ``from bcast import tools`` / ``from bcast.ir import rules``: a name
            # may be a module, so the target is the longest dotted path given.
            targets = [f"{module}.{alias.name}" for alias in node.names]
        else:
            continue
        found.extend((t, node.lineno, id(node) in lazy) for t in targets if t.split(".")[0] == "bcast")
    return sorted(found, key=lambda f: f[1])


def layer_of(module: str) -> int | None:
    parts = module.split(".")
    return LAYERS.index(parts[1]) if len(parts) > 1 and parts[1] in LAYERS else None


def test_every_layer_has_modules():
    names = [name for name, _ in modules()]
    for layer in LAYERS:
        assert any(n.startswith(f"bcast.{layer}.") for n in names), layer


@pytest.mark.parametrize("name", [name for name, _ in modules()])
def test_imports_run_one_way(name):
    path = dict(modules())[name]
    own = layer_of(name)
    wrong = []
    for target, line, lazy in imports(name, path):
        layer = layer_of(target)
        if layer is None:  # ``bcast`` itself sits above tools: it imports them
            wrong.append(f"{path.relative_to(ROOT)}:{line}: imports the package top level ({target})")
            continue
        if layer <= own:
            continue
        if lazy and any(target == a or target.startswith(a + ".") for a in ALLOWED.get(name, ())):
            continue
        wrong.append(f"{path.relative_to(ROOT)}:{line}: {LAYERS[own]} imports {target} ({LAYERS[layer]})")
    assert not wrong, "imports against ir <- passes <- lowering <- tools:\n" + "\n".join(wrong)


def module_of(target: str, names: set[str]) -> str | None:
    """The module an import target names: itself, or the longest module
    its dotted path starts with (``bcast.ir.ops.ConstantOp`` -> ``bcast.ir.ops``)."""
    parts = target.split(".")
    for end in range(len(parts), 0, -1):
        if (prefix := ".".join(parts[:end])) in names:
            return prefix
    return None


def import_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` (module -> modules it imports), or None."""
    done: set[str] = set()
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        if node in path:
            return [*path[path.index(node) :], node]
        if node in done:
            return None
        path.append(node)
        for successor in sorted(graph[node]):
            if (cycle := visit(successor)) is not None:
                return cycle
        path.pop()
        done.add(node)
        return None

    for node in sorted(graph):
        if (cycle := visit(node)) is not None:
            return cycle
    return None


def test_no_import_cycle_inside_ir():
    """A cycle inside ``ir`` (even through a lazy import) means two modules
    each need the other: one of them holds something that belongs elsewhere."""
    inside = {name: path for name, path in modules() if layer_of(name) == LAYERS.index("ir")}
    names = set(inside)
    graph = {
        name: {m for t, _, _ in imports(name, path) if (m := module_of(t, names)) not in (None, name)}
        for name, path in inside.items()
    }
    cycle = import_cycle(graph)
    assert cycle is None, "import cycle inside ir: " + " -> ".join(cycle or [])


def test_the_cycle_finder_finds_cycles():
    assert import_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert import_cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None
    assert module_of("bcast.ir.ops.ConstantOp", {"bcast.ir", "bcast.ir.ops"}) == "bcast.ir.ops"


def test_the_package_exports_the_api_from_tools():
    """``bcast.compile`` and ``bcast.BcastError`` are the tools' own, loaded
    on first use (``bcast-opt`` and the xdsl-opt plugin never load them)."""
    import bcast
    from bcast.tools import api

    assert bcast.compile is api.compile and bcast.BcastError is api.BcastError
    targets = {t for t, _, _ in imports("bcast", ROOT / "__init__.py")}
    assert "bcast.tools.api" in targets


def test_the_checker_sees_what_it_must():
    """The checker itself: relative, lazy, ``from bcast import x`` forms."""
    import tempfile

    source = (
        "from __future__ import annotations\n"
        "from bcast import tools\n"
        "from ..lowering import reference\n"
        "import bcast.passes.fuse, bcast\n"
        "def f():\n"
        "    from bcast.passes.canonicalization import patterns_for\n"
    )
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "ops.py"
        path.write_text(source)
        found = imports("bcast.ir.ops", path)
    assert found == [
        ("bcast.tools", 2, False),
        ("bcast.lowering.reference", 3, False),
        ("bcast.passes.fuse", 4, False),
        ("bcast", 4, False),
        ("bcast.passes.canonicalization.patterns_for", 6, True),
    ]
    assert [layer_of(t) for t, _, _ in found] == [3, 2, 1, None, 1]
