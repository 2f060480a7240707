"""Convolutions for the C backend, which runs them on a GEMM kernel: the
loop nest of ``lower_convolution`` computes each output element as its
own sum and runs far behind a GEMM on a CNN layer.

Two forms (docs/c-backend.md, "Convolutions"). A convolution the direct
kernel takes (``direct_geometry``: f32/f64, result laid out (batch,
spatial..., feature), ``?`` batch and spatial sizes read at run time)
stays as it is: the loop
lowering marks its nest ``CONV_ATTR`` and the C target computes it from
the input in place (``lowering/c_gemm.py``), nothing materialized. Any
other ungrouped static f32/f64 one becomes im2col as bcast ops (``pad``,
strided ``slice``s, ``concatenate``, ``reshape``, ``dot_general``), the
product on the GEMM kernel (``GEMM_ATTR``), materializing the columns.
Called by ``bcast-lower-to-loops`` before it lowers a module."""

from __future__ import annotations

import itertools

import numpy as np
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import Rewriter

from bcast.ir import loops
from bcast.ir import ops as bc
from bcast.ir import rules
from bcast.ir.types import flat_type_shape, has_dynamic_types, make_type, split_type

GEMM_ELEMENTS = ("f32", "f64")
"""The element types the GEMM kernel multiplies (f16 sums in f32 and
integers wrap in the loop nest, which keeps them)."""


NARROW_OUTS = 16
"""Below this many output features per group, the C kernel computes a
grouped convolution as narrow groups (``lowering/c_gemm.py``,
``conv_narrow``: the output features innermost, summed per kernel place)
instead of on the GEMM's micro-tile, which is two vectors of output
features wide (32 at f32 with AVX-512) and would compute mostly padding
for a depthwise convolution (one per group). The C source's
``NARROW_OUTS`` is this value."""


def direct_geometry(op: bc.ConvolutionOp | bc.DynamicConvOp) -> tuple[int | None, ...] | None:
    """``CONV_ATTR``'s geometry (``loops.conv_geometry``) when the C
    target's direct convolution kernel (``lowering/c_gemm.py``, no im2col
    materialized) computes ``op``: f32/f64, no batch groups, 1 to 3
    spatial dims, any feature groups (fewer than ``NARROW_OUTS`` output
    features per group, as depthwise ones have, run as narrow groups), a
    result laid out (batch, spatial..., feature) in order, the kernel and
    the features static and non-empty. The batch and the spatial sizes of
    the input and the result may be ``?`` (a static one is non-empty: an
    empty convolution is zeros, no kernel). ``None`` entries are the ones
    known only at run time (``loops.conv_geometry``): a ``?`` size, an
    input stride with a ``?`` after it, a ``dynamic_conv``'s low padding.
    The operands may have any layout (read through their strides); the
    kernel may be reversed. None when the kernel does not take ``op``."""
    conv, (_, element) = op.conv, split_type(op.result.type)
    d, n = conv.dims, len(conv.dims.input_spatial)
    lhs, rhs, result = (flat_type_shape(v.type) for v in (op.lhs, op.rhs, op.result))
    groups = conv.feature_group_count
    if (element not in GEMM_ELEMENTS or conv.batch_group_count != 1 or not 1 <= n <= loops.MAX_SPATIAL
            or (d.output_batch, *d.output_spatial, d.output_feature) != tuple(range(n + 2))):  # fmt: skip
        return None
    static = [lhs[d.input_feature], *rhs, result[d.output_feature]]
    sizes = [lhs[i] for i in d.input_spatial] + list(result[1:-1])
    if any(not isinstance(s, int) or s == 0 for s in static) or 0 in sizes:
        return None
    outs = rhs[d.kernel_output_feature] // groups

    def strides(shape: tuple) -> list[int | None]:
        return [int(np.prod(shape[k + 1:], dtype=np.int64)) if all(isinstance(s, int) for s in shape[k + 1:])
                else None for k in range(len(shape))]  # fmt: skip

    def known(size) -> int | None:
        return size if isinstance(size, int) else None

    xs, ws = strides(lhs), strides(rhs)
    lows = [None] * n if isinstance(op, bc.DynamicConvOp) else list(conv.low)
    spatial = [(known(lhs[i]), known(result[o]), rhs[k], st, rd, ld, lo, xs[i], ws[k], int(rev))
               for i, o, k, st, rd, ld, lo, rev in zip(d.input_spatial, d.output_spatial, d.kernel_spatial, conv.strides,
                                                       conv.rhs_dilation, conv.lhs_dilation, lows, conv.reversal)]  # fmt: skip
    return loops.conv_geometry(rhs[d.kernel_input_feature], outs, groups, xs[d.input_batch], xs[d.input_feature],
                               ws[d.kernel_input_feature], ws[d.kernel_output_feature], spatial)


def im2col_ops(op: bc.ConvolutionOp) -> tuple[list[Operation], SSAValue] | None:
    """The ops computing ``op`` as a product: the input moved to (batch,
    spatial, feature), dilated and padded; per kernel place (row-major),
    the strided slice of the windows' elements at that place; the slices
    joined along the features into the columns (batch * windows, places *
    features); times the kernel as a (places * features, out features)
    matrix, reversed where asked; the product moved to the result's
    layout (the value returned with the ops). None when the convolution
    has groups, a ``?`` or empty dim, or an element type the GEMM does not
    take."""
    conv, (_, element) = op.conv, split_type(op.result.type)
    shapes = [flat_type_shape(v.type) for v in (op.lhs, op.rhs, op.result)]
    if (element not in GEMM_ELEMENTS or has_dynamic_types(op) or conv.feature_group_count != 1
            or conv.batch_group_count != 1 or any(0 in s for s in shapes)):  # fmt: skip
        return None
    d, n = conv.dims, len(conv.dims.input_spatial)
    (lhs, rhs, result), new = shapes, []

    def add(o: Operation) -> SSAValue:
        new.append(o)
        return o.results[0]

    def transpose(v: SSAValue, perm: tuple[int, ...]) -> SSAValue:
        return v if perm == tuple(range(len(perm))) else add(bc.TransposeOp(v, perm))

    x = transpose(op.lhs, (d.input_batch, *d.input_spatial, d.input_feature))
    if any(conv.low) or any(conv.high) or any(k != 1 for k in conv.lhs_dilation):
        zero = add(bc.ConstantOp(np.zeros(1, np.dtype(f"float{element[1:]}")), make_type(((),), element)))
        x = add(bc.PadOp(x, zero, (0, *conv.low, 0), (0, *conv.high, 0), (0, *(k - 1 for k in conv.lhs_dilation), 0)))
    w = transpose(op.rhs, (*d.kernel_spatial, d.kernel_input_feature, d.kernel_output_feature))
    if any(conv.reversal):
        w = add(bc.ReverseOp(w, [k for k, r in enumerate(conv.reversal) if r]))
    batch, features = lhs[d.input_batch], lhs[d.input_feature]
    kernel, outs = [rhs[k] for k in d.kernel_spatial], [result[o] for o in d.output_spatial]
    slices = []
    for place in itertools.product(*map(range, kernel)):
        starts = [k * r for k, r in zip(place, conv.rhs_dilation)]
        limits = [s + (o - 1) * st + 1 for s, o, st in zip(starts, outs, conv.strides)]
        slices.append(add(bc.SliceOp(x, (0, *starts, 0), (batch, *limits, features), (1, *conv.strides, 1))))
    # contracted on its last dim, the columns stay (batch, windows..., places * features): no reshape, whose
    # view a contraction would read through index arithmetic (``reads_as_view``) instead of the GEMM
    cols = slices[0] if len(slices) == 1 else add(bc.ConcatenateOp(slices, n + 1))
    out_features = rhs[d.kernel_output_feature]
    blocks = [add(bc.ReshapeOp(add(bc.SliceOp(w, (*place, 0, 0), (*(k + 1 for k in place), features, out_features))),
                               make_type(((features, out_features),), element)))
              for place in itertools.product(*map(range, kernel))]  # fmt: skip
    matrix = blocks[0] if len(blocks) == 1 else add(bc.ConcatenateOp(blocks, 0))
    shaped = add(bc.DotGeneralOp(cols, matrix, rules.DotDims((), (), (n + 1,), (0,))))
    order = (d.output_batch, *d.output_spatial, d.output_feature)
    return new, transpose(shaped, tuple(int(i) for i in np.argsort(order)))


def convolutions_as_gemm(module: ModuleOp) -> None:
    """Each convolution of ``module`` that ``im2col_ops`` takes and the
    direct kernel does not (``direct_geometry``), replaced by them."""
    for op in [o for o in module.walk() if isinstance(o, bc.ConvolutionOp)]:
        if direct_geometry(op) is not None:
            continue
        found = im2col_ops(op)
        if found is None:
            continue
        new, result = found
        for o in new:
            o.location = op.location
        Rewriter.replace_op(op, new, [result])
