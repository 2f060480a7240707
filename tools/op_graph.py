"""Graphviz DOT of a module's data flow, for ``bcast-opt --view-op-graph``.

The picture is of the program as a data-flow graph, laid out as mlir-opt's
``--view-op-graph`` lays out its own (one ``digraph`` per module, a region
holder a ``subgraph cluster_N``, ``compound = true``), with bcast's fusions
made readable:

- each ``func.func`` is a cluster labelled with its name; its arguments are
  ellipses, its ops boxes labelled ``%name = op`` and their result types;
- each ``bcast.fusion`` is a cluster holding the ops of its body. It is
  transparent: an edge into the body comes from the value the fusion takes
  for that block argument, and a use of the fusion's result comes from the
  value its ``bcast.yield`` gives, so the graph shows which ops were fused
  and how data flows through them, with no node for the fusion or its yield;
- any other op with regions (a StableHLO reduce, an ``scf.for`` after
  ``bcast-lower-to-loops``) is a cluster holding a node for itself, its
  block arguments and its ops;
- an edge per use of an SSA value, labelled with the operand's position
  when the op has several operands (as mlir-opt does).
"""

from __future__ import annotations

from io import StringIO

from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp
from xdsl.ir import Block, BlockArgument, Operation, SSAValue
from xdsl.printer import Printer

from bcast.ir.diagnostics import written_name
from bcast.ir.fusion import FusionOp, YieldOp

MAX_LABEL = 48
"""Attribute text longer than this (a large dense constant) is cut short."""


def _text(attr) -> str:
    out = StringIO()
    Printer(stream=out).print_attribute(attr)
    text = out.getvalue()
    return text if len(text) <= MAX_LABEL else text[: MAX_LABEL - 3] + "..."


def _quote(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'


class _Graph:
    """Assigns node ids, writes nodes and clusters in program order, and
    collects the edges, which are written last (outside every cluster, so
    that an edge does not pull a node into the cluster it is first named in)."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.edges: list[tuple[SSAValue, str, str]] = []
        self.node_of: dict[SSAValue, str] = {}
        self.next_id = 0

    def new_id(self, prefix: str) -> str:
        self.next_id += 1
        return f"{prefix}{self.next_id}"

    def node(self, depth: int, label: str, shape: str) -> str:
        name = self.new_id("v")
        self.lines.append(f"{'  ' * depth}{name} [label = {_quote(label)}, shape = {shape}];")
        return name

    def edges_into(self, target: str, operands: list[SSAValue]) -> None:
        """Edges are resolved at the end: a use may come before its
        definition in the text (a later block's value in a graph region)."""
        for i, value in enumerate(operands):
            self.edges.append((value, target, f' [label = "{i}"]' if len(operands) > 1 else ""))

    def edge_lines(self) -> list[str]:
        return [f"  {self.node_of[value]} -> {target}{label};" for value, target, label in self.edges]

    def open_cluster(self, depth: int, label: str, style: str = "") -> None:
        self.lines.append(f"{'  ' * depth}subgraph {self.new_id('cluster_')} {{")
        self.lines.append(f"{'  ' * (depth + 1)}label = {_quote(label)};{style}")

    def close_cluster(self, depth: int) -> None:
        self.lines.append(f"{'  ' * depth}}}")

    def block(self, block: Block, depth: int) -> None:
        for op in block.ops:
            self.op(op, depth)

    def op(self, op: Operation, depth: int) -> None:
        if isinstance(op, FuncOp):
            self.function(op, depth)
        elif isinstance(op, FusionOp):
            self.fusion(op, depth)
        else:
            self.plain(op, depth)

    def function(self, func: FuncOp, depth: int) -> None:
        self.open_cluster(depth, f"func.func @{func.sym_name.data}")
        for block in func.body.blocks:  # a function of other dialects may have several
            for arg in block.args:
                self.node_of[arg] = self.node(depth + 1, _value_label(arg), "ellipse")
            self.block(block, depth + 1)
        self.close_cluster(depth)

    def fusion(self, op: FusionOp, depth: int) -> None:
        self.open_cluster(depth, "bcast.fusion", ' style = "filled"; fillcolor = "lightyellow";')
        for arg, value in zip(op.block.args, op.inputs):
            self.node_of[arg] = self.node_of[value]
        for inner in op.block.ops:
            if isinstance(inner, YieldOp):
                for result, value in zip(op.outputs, inner.values):
                    self.node_of[result] = self.node_of[value]
            else:
                self.op(inner, depth + 1)
        self.close_cluster(depth)

    def plain(self, op: Operation, depth: int) -> None:
        if op.regions:
            self.open_cluster(depth, op.name)
            depth += 1
        name = self.node(depth, _op_label(op), "box")
        self.edges_into(name, list(op.operands))
        for result in op.results:
            self.node_of[result] = name
        for region in op.regions:
            for block in region.blocks:
                for arg in block.args:
                    self.node_of[arg] = self.node(depth, _value_label(arg), "ellipse")
                self.block(block, depth)
        if op.regions:
            self.close_cluster(depth - 1)


def _value_label(value: BlockArgument) -> str:
    return f"%{value.name_hint or f'arg{value.index}'}\n{_text(value.type)}"


def _op_label(op: Operation) -> str:
    names = ", ".join(f"%{r.name_hint}" for r in op.results if r.name_hint)
    op_name = written_name(op)
    lines = [f"{names} = {op_name}" if names else op_name]
    for key, attr in {**op.properties, **op.attributes}.items():
        if key != "op_name__":  # an unregistered op's name, shown as its label
            lines.append(f"{key}: {_text(attr)}")
    lines += [_text(r.type) for r in op.results]
    return "\n".join(lines)


def module_dot(module: ModuleOp, name: str = "bcast") -> str:
    """One ``digraph`` for the module (the file name as its name), with a
    cluster per function and per fusion, as described above."""
    graph = _Graph()
    graph.block(module.body.block, 1)
    header = [f"digraph {_quote(name)} {{", "  compound = true;", "  node [fontname = \"monospace\"];"]
    return "\n".join([*header, *graph.lines, *graph.edge_lines(), "}"]) + "\n"
