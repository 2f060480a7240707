"""Run-time broadcast checks per program: bcast against CHLO's legalization.

    python benchmarks/check_count.py [--markdown]

Each program is written twice, computing the same thing: as a bcast program
with implicit (NumPy) broadcasting, and with ``chlo.broadcast_*`` ops (the
form JAX, TensorFlow and torch-mlir front ends hand to StableHLO), reductions
as ``stablehlo.reduce``. The columns count:

- ``bcast make-explicit``: ``bcast.check_broadcastable`` ops after
  ``bcast-make-explicit`` (one per op that needs a run-time check);
- ``bcast canonical``: the same after the pipeline's
  ``canonicalize,cse,canonicalize,cse`` (passes/dynamic_checks.py: proven and
  implied checks dropped, the rest hoisted to function entry);
- ``bcast from CHLO``: the CHLO program imported by bcast
  (``convert-stablehlo-to-bcast``) and run through the same pipeline as
  ``bcast canonical``;
- ``CHLO legalized``: ``shape.cstr_broadcastable`` ops left by StableHLO's
  ``chlo-legalize-to-stablehlo`` pass, run by jaxlib's bundled MLIR
  (``jaxlib.mlir``, the pass registered by ``register_stablehlo_passes``);
- ``CHLO + canonicalize,cse``: the same after upstream MLIR's
  ``canonicalize`` and ``cse`` (the shape dialect's own folds).

A check left in a program is a run-time cost and, where the sizes are
proven, a missed proof; every number is measured, none assumed.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass

import bcast

BCAST_PIPELINES = {
    "bcast make-explicit": "bcast-make-explicit",
    "bcast canonical": "bcast-make-explicit,canonicalize,cse,canonicalize,cse",
}
CHLO_PIPELINES = {
    "CHLO legalized": "builtin.module(func.func(chlo-legalize-to-stablehlo))",
    "CHLO + canonicalize,cse": "builtin.module(func.func(chlo-legalize-to-stablehlo),canonicalize,cse)",
}


@dataclass(frozen=True)
class Program:
    name: str
    what: str
    bcast: str
    chlo: str


F = "tensor<f32>"
NEG_INF = "0xFF800000"


def _reduce(out: str, x: str, kind: str, init: str, dim: int, t_in: str, t_out: str) -> str:
    return (f"  %{out}_init = stablehlo.constant dense<{init}> : {F}\n"
            f"  %{out} = stablehlo.reduce(%{x} init: %{out}_init) applies stablehlo.{kind} across "
            f"dimensions = [{dim}] : ({t_in}, {F}) -> {t_out}\n")  # fmt: skip


def _keepdims(out: str, reduced: str, like: str, kept: int, t_like: str, t_reduced: str, t_out: str) -> str:
    """``%out``: ``%reduced`` reshaped to keep its reduced (last) dim as 1, as
    JAX exports it: the kept sizes of ``%like`` read with
    ``get_dimension_size``, then ``dynamic_reshape``."""
    lines = []
    for d in range(kept):
        lines.append(f"  %{out}_n{d} = stablehlo.get_dimension_size %{like}, dim = {d} : ({t_like}) -> tensor<i32>")
        lines.append(f"  %{out}_s{d} = stablehlo.reshape %{out}_n{d} : (tensor<i32>) -> tensor<1xi32>")
    lines.append(f"  %{out}_one = stablehlo.constant dense<1> : tensor<1xi32>")
    parts = [f"%{out}_s{d}" for d in range(kept)] + [f"%{out}_one"]
    lines.append(f"  %{out}_shape = stablehlo.concatenate {', '.join(parts)}, dim = 0 : "
                 f"({', '.join(['tensor<1xi32>'] * len(parts))}) -> tensor<{len(parts)}xi32>")
    lines.append(f"  %{out} = stablehlo.dynamic_reshape %{reduced}, %{out}_shape : "
                 f"({t_reduced}, tensor<{len(parts)}xi32>) -> {t_out}")
    return "\n".join(lines) + "\n"


PROGRAMS = [
    Program(
        "bias_add", "x + b, x: ?x?, b: ?",
        """func.func @main(%x: tensor<?x?xf32>, %b: tensor<?xf32>) -> tensor<?x?xf32> {
  %r = bcast.add %x, %b : (tensor<?x?xf32>, tensor<?xf32>) -> tensor<?x?xf32>
  func.return %r : tensor<?x?xf32>
}""",
        """func.func @main(%x: tensor<?x?xf32>, %b: tensor<?xf32>) -> tensor<?x?xf32> {
  %r = chlo.broadcast_add %x, %b : (tensor<?x?xf32>, tensor<?xf32>) -> tensor<?x?xf32>
  func.return %r : tensor<?x?xf32>
}"""),
    Program(
        "dense_relu", "max(x + b, 0) * s, x: ?x?, b: ?, s: scalar",
        """func.func @main(%x: tensor<?x?xf32>, %b: tensor<?xf32>, %s: tensor<f32>) -> tensor<?x?xf32> {
  %zero = bcast.constant dense<0.0> : tensor<f32>
  %a = bcast.add %x, %b : (tensor<?x?xf32>, tensor<?xf32>) -> tensor<?x?xf32>
  %r = bcast.maximum %a, %zero : (tensor<?x?xf32>, tensor<f32>) -> tensor<?x?xf32>
  %y = bcast.multiply %r, %s : (tensor<?x?xf32>, tensor<f32>) -> tensor<?x?xf32>
  func.return %y : tensor<?x?xf32>
}""",
        """func.func @main(%x: tensor<?x?xf32>, %b: tensor<?xf32>, %s: tensor<f32>) -> tensor<?x?xf32> {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %a = chlo.broadcast_add %x, %b : (tensor<?x?xf32>, tensor<?xf32>) -> tensor<?x?xf32>
  %r = chlo.broadcast_maximum %a, %zero : (tensor<?x?xf32>, tensor<f32>) -> tensor<?x?xf32>
  %y = chlo.broadcast_multiply %r, %s : (tensor<?x?xf32>, tensor<f32>) -> tensor<?x?xf32>
  func.return %y : tensor<?x?xf32>
}"""),
    Program(
        "softmax", "rows of x: ?x?",
        """func.func @main(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %m = bcast.reduce maximum %x, dims = [1] keepdims : (tensor<?x?xf32>) -> tensor<?x1xf32>
  %s = bcast.subtract %x, %m : (tensor<?x?xf32>, tensor<?x1xf32>) -> tensor<?x?xf32>
  %e = bcast.exponential %s : tensor<?x?xf32>
  %t = bcast.reduce add %e, dims = [1] keepdims : (tensor<?x?xf32>) -> tensor<?x1xf32>
  %r = bcast.divide %e, %t : (tensor<?x?xf32>, tensor<?x1xf32>) -> tensor<?x?xf32>
  func.return %r : tensor<?x?xf32>
}""",
        "func.func @main(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {\n"
        + _reduce("m0", "x", "maximum", NEG_INF, 1, "tensor<?x?xf32>", "tensor<?xf32>")
        + _keepdims("m", "m0", "x", 1, "tensor<?x?xf32>", "tensor<?xf32>", "tensor<?x1xf32>")
        + """  %s = chlo.broadcast_subtract %x, %m : (tensor<?x?xf32>, tensor<?x1xf32>) -> tensor<?x?xf32>
  %e = stablehlo.exponential %s : tensor<?x?xf32>
""" + _reduce("t0", "e", "add", "0.0", 1, "tensor<?x?xf32>", "tensor<?xf32>")
        + _keepdims("t", "t0", "e", 1, "tensor<?x?xf32>", "tensor<?xf32>", "tensor<?x1xf32>")
        + """  %r = chlo.broadcast_divide %e, %t : (tensor<?x?xf32>, tensor<?x1xf32>) -> tensor<?x?xf32>
  func.return %r : tensor<?x?xf32>
}"""),
    Program(
        "layernorm", "rows of x: ?x64, gamma, beta: 64",
        """func.func @main(%x: tensor<?x64xf32>, %g: tensor<64xf32>, %b: tensor<64xf32>) -> tensor<?x64xf32> {
  %inv = bcast.constant dense<0.015625> : tensor<f32>
  %eps = bcast.constant dense<1.0e-05> : tensor<f32>
  %sum = bcast.reduce add %x, dims = [1] keepdims : (tensor<?x64xf32>) -> tensor<?x1xf32>
  %mean = bcast.multiply %sum, %inv : (tensor<?x1xf32>, tensor<f32>) -> tensor<?x1xf32>
  %c = bcast.subtract %x, %mean : (tensor<?x64xf32>, tensor<?x1xf32>) -> tensor<?x64xf32>
  %sq = bcast.multiply %c, %c : (tensor<?x64xf32>, tensor<?x64xf32>) -> tensor<?x64xf32>
  %ss = bcast.reduce add %sq, dims = [1] keepdims : (tensor<?x64xf32>) -> tensor<?x1xf32>
  %var = bcast.multiply %ss, %inv : (tensor<?x1xf32>, tensor<f32>) -> tensor<?x1xf32>
  %ve = bcast.add %var, %eps : (tensor<?x1xf32>, tensor<f32>) -> tensor<?x1xf32>
  %rs = bcast.rsqrt %ve : tensor<?x1xf32>
  %n = bcast.multiply %c, %rs : (tensor<?x64xf32>, tensor<?x1xf32>) -> tensor<?x64xf32>
  %s = bcast.multiply %n, %g : (tensor<?x64xf32>, tensor<64xf32>) -> tensor<?x64xf32>
  %y = bcast.add %s, %b : (tensor<?x64xf32>, tensor<64xf32>) -> tensor<?x64xf32>
  func.return %y : tensor<?x64xf32>
}""",
        "func.func @main(%x: tensor<?x64xf32>, %g: tensor<64xf32>, %b: tensor<64xf32>) -> tensor<?x64xf32> {\n"
        + """  %inv = stablehlo.constant dense<0.015625> : tensor<f32>
  %eps = stablehlo.constant dense<1.0e-05> : tensor<f32>
""" + _reduce("sum0", "x", "add", "0.0", 1, "tensor<?x64xf32>", "tensor<?xf32>")
        + _keepdims("sum", "sum0", "x", 1, "tensor<?x64xf32>", "tensor<?xf32>", "tensor<?x1xf32>")
        + """  %mean = chlo.broadcast_multiply %sum, %inv : (tensor<?x1xf32>, tensor<f32>) -> tensor<?x1xf32>
  %c = chlo.broadcast_subtract %x, %mean : (tensor<?x64xf32>, tensor<?x1xf32>) -> tensor<?x64xf32>
  %sq = chlo.broadcast_multiply %c, %c : (tensor<?x64xf32>, tensor<?x64xf32>) -> tensor<?x64xf32>
""" + _reduce("ss0", "sq", "add", "0.0", 1, "tensor<?x64xf32>", "tensor<?xf32>")
        + _keepdims("ss", "ss0", "sq", 1, "tensor<?x64xf32>", "tensor<?xf32>", "tensor<?x1xf32>")
        + """  %var = chlo.broadcast_multiply %ss, %inv : (tensor<?x1xf32>, tensor<f32>) -> tensor<?x1xf32>
  %ve = chlo.broadcast_add %var, %eps : (tensor<?x1xf32>, tensor<f32>) -> tensor<?x1xf32>
  %rs = stablehlo.rsqrt %ve : tensor<?x1xf32>
  %n = chlo.broadcast_multiply %c, %rs : (tensor<?x64xf32>, tensor<?x1xf32>) -> tensor<?x64xf32>
  %s = chlo.broadcast_multiply %n, %g : (tensor<?x64xf32>, tensor<64xf32>) -> tensor<?x64xf32>
  %y = chlo.broadcast_add %s, %b : (tensor<?x64xf32>, tensor<64xf32>) -> tensor<?x64xf32>
  func.return %y : tensor<?x64xf32>
}"""),
    Program(
        "outer_product", "a[:, None] * b, a: ?x1, b: ?",
        """func.func @main(%a: tensor<?x1xf32>, %b: tensor<?xf32>) -> tensor<?x?xf32> {
  %r = bcast.multiply %a, %b : (tensor<?x1xf32>, tensor<?xf32>) -> tensor<?x?xf32>
  func.return %r : tensor<?x?xf32>
}""",
        """func.func @main(%a: tensor<?x1xf32>, %b: tensor<?xf32>) -> tensor<?x?xf32> {
  %r = chlo.broadcast_multiply %a, %b : (tensor<?x1xf32>, tensor<?xf32>) -> tensor<?x?xf32>
  func.return %r : tensor<?x?xf32>
}"""),
    Program(
        "outer_sum_scaled", "(col + row) * x, col: ?x1, row: 1x?, x: ?x?",
        """func.func @main(%col: tensor<?x1xf32>, %row: tensor<1x?xf32>, %x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %o = bcast.add %col, %row : (tensor<?x1xf32>, tensor<1x?xf32>) -> tensor<?x?xf32>
  %r = bcast.multiply %o, %x : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  func.return %r : tensor<?x?xf32>
}""",
        """func.func @main(%col: tensor<?x1xf32>, %row: tensor<1x?xf32>, %x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %o = chlo.broadcast_add %col, %row : (tensor<?x1xf32>, tensor<1x?xf32>) -> tensor<?x?xf32>
  %r = chlo.broadcast_multiply %o, %x : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  func.return %r : tensor<?x?xf32>
}"""),
    Program(
        "chain_three_inputs", "((x + y) * z - x) / y, all ?",
        """func.func @main(%x: tensor<?xf32>, %y: tensor<?xf32>, %z: tensor<?xf32>) -> tensor<?xf32> {
  %a = bcast.add %x, %y : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  %b = bcast.multiply %a, %z : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  %c = bcast.subtract %b, %x : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  %d = bcast.divide %c, %y : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  func.return %d : tensor<?xf32>
}""",
        """func.func @main(%x: tensor<?xf32>, %y: tensor<?xf32>, %z: tensor<?xf32>) -> tensor<?xf32> {
  %a = chlo.broadcast_add %x, %y : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  %b = chlo.broadcast_multiply %a, %z : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  %c = chlo.broadcast_subtract %b, %x : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  %d = chlo.broadcast_divide %c, %y : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  func.return %d : tensor<?xf32>
}"""),
    Program(
        "chain_same_shape", "x*y + x - y, then * (x + y), x, y: ?x?",
        """func.func @main(%x: tensor<?x?xf32>, %y: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %a = bcast.multiply %x, %y : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %b = bcast.add %a, %x : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %c = bcast.subtract %b, %y : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %d = bcast.add %x, %y : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %e = bcast.multiply %c, %d : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  func.return %e : tensor<?x?xf32>
}""",
        """func.func @main(%x: tensor<?x?xf32>, %y: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %a = chlo.broadcast_multiply %x, %y : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %b = chlo.broadcast_add %a, %x : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %c = chlo.broadcast_subtract %b, %y : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %d = chlo.broadcast_add %x, %y : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %e = chlo.broadcast_multiply %c, %d : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  func.return %e : tensor<?x?xf32>
}"""),
    Program(
        "mse", "mean over rows of (p - t)^2, p, t: ?x?",
        """func.func @main(%p: tensor<?x?xf32>, %t: tensor<?x?xf32>) -> tensor<?x1xf32> {
  %d = bcast.subtract %p, %t : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %s = bcast.multiply %d, %d : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %r = bcast.reduce add %s, dims = [1] keepdims : (tensor<?x?xf32>) -> tensor<?x1xf32>
  func.return %r : tensor<?x1xf32>
}""",
        "func.func @main(%p: tensor<?x?xf32>, %t: tensor<?x?xf32>) -> tensor<?xf32> {\n"
        + """  %d = chlo.broadcast_subtract %p, %t : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %s = chlo.broadcast_multiply %d, %d : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
""" + _reduce("r", "s", "add", "0.0", 1, "tensor<?x?xf32>", "tensor<?xf32>")
        + """  func.return %r : tensor<?xf32>
}"""),
    Program(
        "masked_scores", "softmax over k of s * scale + mask, s: ?x?x?, mask: ?x1x?",
        """func.func @main(%s: tensor<?x?x?xf32>, %mask: tensor<?x1x?xf32>, %scale: tensor<f32>) -> tensor<?x?x?xf32> {
  %a = bcast.multiply %s, %scale : (tensor<?x?x?xf32>, tensor<f32>) -> tensor<?x?x?xf32>
  %b = bcast.add %a, %mask : (tensor<?x?x?xf32>, tensor<?x1x?xf32>) -> tensor<?x?x?xf32>
  %m = bcast.reduce maximum %b, dims = [2] keepdims : (tensor<?x?x?xf32>) -> tensor<?x?x1xf32>
  %c = bcast.subtract %b, %m : (tensor<?x?x?xf32>, tensor<?x?x1xf32>) -> tensor<?x?x?xf32>
  %e = bcast.exponential %c : tensor<?x?x?xf32>
  %t = bcast.reduce add %e, dims = [2] keepdims : (tensor<?x?x?xf32>) -> tensor<?x?x1xf32>
  %r = bcast.divide %e, %t : (tensor<?x?x?xf32>, tensor<?x?x1xf32>) -> tensor<?x?x?xf32>
  func.return %r : tensor<?x?x?xf32>
}""",
        """func.func @main(%s: tensor<?x?x?xf32>, %mask: tensor<?x1x?xf32>, %scale: tensor<f32>) -> tensor<?x?x?xf32> {
  %a = chlo.broadcast_multiply %s, %scale : (tensor<?x?x?xf32>, tensor<f32>) -> tensor<?x?x?xf32>
  %b = chlo.broadcast_add %a, %mask : (tensor<?x?x?xf32>, tensor<?x1x?xf32>) -> tensor<?x?x?xf32>
""" + _reduce("m0", "b", "maximum", NEG_INF, 2, "tensor<?x?x?xf32>", "tensor<?x?xf32>")
        + _keepdims("m", "m0", "b", 2, "tensor<?x?x?xf32>", "tensor<?x?xf32>", "tensor<?x?x1xf32>")
        + """  %c = chlo.broadcast_subtract %b, %m : (tensor<?x?x?xf32>, tensor<?x?x1xf32>) -> tensor<?x?x?xf32>
  %e = stablehlo.exponential %c : tensor<?x?x?xf32>
""" + _reduce("t0", "e", "add", "0.0", 2, "tensor<?x?x?xf32>", "tensor<?x?xf32>")
        + _keepdims("t", "t0", "e", 2, "tensor<?x?x?xf32>", "tensor<?x?xf32>", "tensor<?x?x1xf32>")
        + """  %r = chlo.broadcast_divide %e, %t : (tensor<?x?x?xf32>, tensor<?x?x1xf32>) -> tensor<?x?x?xf32>
  func.return %r : tensor<?x?x?xf32>
}"""),
]


def bcast_checks(text: str, pipeline: str) -> int:
    compiled = bcast.compile(text, backend="reference", pipeline=pipeline, filename="program.mlir")
    return str(compiled.module).count("bcast.check_broadcastable")


def chlo_checks(text: str, pipeline: str) -> int:
    """``shape.cstr_broadcastable`` ops after ``pipeline``, run by jaxlib's MLIR."""
    from jax._src.interpreters import mlir as jax_mlir
    from jax._src.lib.mlir import ir, passmanager
    from jaxlib.mlir._mlir_libs import _stablehlo

    _stablehlo.register_stablehlo_passes()
    with jax_mlir.make_ir_context():
        module = ir.Module.parse(text)
        passmanager.PassManager.parse(pipeline).run(module.operation)
        return str(module).count("shape.cstr_broadcastable")


def table() -> list[dict[str, object]]:
    rows = []
    for program in PROGRAMS:
        row: dict[str, object] = {"program": program.name, "what": program.what}
        row.update({name: bcast_checks(program.bcast, p) for name, p in BCAST_PIPELINES.items()})
        row["bcast from CHLO"] = bcast_checks(program.chlo, BCAST_PIPELINES["bcast canonical"])
        row.update({name: chlo_checks(program.chlo, p) for name, p in CHLO_PIPELINES.items()})
        rows.append(row)
    return rows


def markdown(rows: list[dict[str, object]]) -> str:
    columns = list(rows[0])
    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    lines += ["| " + " | ".join(str(r[c]) for c in columns) + " |" for r in rows]
    totals = {c: sum(r[c] for r in rows) for c in columns[2:]}
    lines.append("| **total** | | " + " | ".join(f"**{totals[c]}**" for c in columns[2:]) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.parse_args()
    print(markdown(table()))


if __name__ == "__main__":
    main()
