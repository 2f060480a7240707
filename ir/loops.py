"""The loop IR: what ``bcast-lower-to-loops`` produces and loop targets read.

A module in loop form holds only ``func.func`` and ``memref.global`` ops,
and inside them only ``builtin``, ``func``, ``scf``, ``memref``, ``arith``,
``math`` and ``cf`` (``cf.assert``) ops, printed as upstream MLIR
(``mlir-opt`` 19 parses and verifies it; ``bcast.lowering.memref_abi``
compiles it with upstream tools, ``bcast.lowering.c_emitter`` prints it as
C). The pass (``bcast.passes.lower_to_loops``) says how each bcast op
becomes loops; this module holds what both sides rely on.

Calling convention
------------------
Every ``func.func @f(T0, ..., Tn-1) -> (R0, ..., Rm-1)`` becomes
``func.func @f(memref<T0>, ..., memref<Tn-1>, memref<R0>, ..., memref<Rm-1>)``
returning nothing (destination-passing style: the caller allocates one
buffer per result and the function writes it completely):

- a tensor type becomes a ``memref`` of its flat shape (nested TML types are
  flattened, outer dims first, as every backend stores them), static sizes,
  identity layout: row-major and contiguous (callers pass views as copies);
- element types are signless, as upstream ``arith`` requires: ``ui8``..``ui64``
  are stored as ``i8``..``i64`` (the same bits; the unsigned meaning is in the
  choice of ops), ``i1`` is one byte holding 0 or 1 (NumPy's ``bool_``);
- ``index`` arguments stay ``index``; an ``index`` result is a ``memref<i64>``;
- result buffers must not overlap the argument buffers or each other (a
  result may be written before every argument has been read);
- each function carries ``llvm.emit_c_interface`` (``LOOP_FORM_ATTR``), so
  after lowering to the LLVM dialect it also has ``_mlir_ciface_f`` taking
  one pointer to a memref descriptor ``{T *allocated, T *aligned, i64
  offset, i64 sizes[r], i64 strides[r]}`` per argument.

Attributes
----------
The loop IR is upstream MLIR plus a few discardable attributes that carry
what the lowering knows and a target would have to rediscover
(``REDUCTION_ATTR``, ``PARALLEL_ATTR``, ``BOUNDS_CHECK_ATTR``, ``SIZE_CHECK_ATTR``, ``GEMM_ATTR``) or what a loop
pass decided for a target (``THREADS_ATTR``, ``VECTORIZE_ATTR``,
``INVARIANT_DIVISOR_ATTR``, ``STACK_ATTR``, ``COLLAPSE_ATTR``,
``PREFETCH_BLOCK_ATTR``, ``PREFETCH_AHEAD_ATTR``, ``DEFERRED_STREAM_ATTR``,
``SCRATCH_ATTR``; and upstream's ``nontemporal``
on ``memref.store``); upstream
tools ignore them.
"""

from __future__ import annotations

from xdsl.dialects import arith, func, memref
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Operation
from xdsl.irdl import irdl_op_definition

LOOP_FORM_ATTR = "llvm.emit_c_interface"
"""The attribute ``bcast-lower-to-loops`` puts on every function it lowers
(for upstream's C interface); with no tensor in the signature it marks a
function in loop form."""

REDUCTION_ATTR = "bcast.reduction"
"""On an ``scf.for`` that folds its one carried value with a reduction kind
(``add``, ``maximum``...): a target may reassociate it (docs/semantics.md allows
float sums in any order; the C target vectorizes ``add``)."""

PARALLEL_ATTR = "bcast.parallel"
"""A discardable unit attribute on an ``scf.for`` whose iterations write
disjoint memory and read nothing another iteration writes (per-row scratch
is allocated inside the loop): targets may run them in parallel (the C
target puts ``#pragma omp parallel for`` on the outermost such loop)."""

THREADS_ATTR = "bcast.threads"
"""A discardable unit attribute on a ``bcast.parallel`` loop whose
iterations a target should share among threads: the outermost of its nest,
which does enough work to pay for waking them (``bcast-plan-parallel``; the
C target's ``#pragma omp parallel for``). No loop inside it carries it."""

BURST_ATTR = "bcast.threads_in_bursts"
"""A discardable unit attribute beside ``THREADS_ATTR`` on a nest too small
to wake a sleeping worker for (``plan_parallel.BURST_WORK`` up to
``PARALLEL_WORK``): a target runs it on threads only when its function is
called in a burst, right after a call returned, when the workers the
previous call woke are still spinning (the C target's ``bcast_burst``)."""

VECTORIZE_ATTR = "bcast.vectorize"
"""A discardable unit attribute on an innermost loop a target should
vectorize: a ``bcast.parallel`` loop, or a float reduction whose kind may be
reassociated (``bcast-plan-parallel``; the C target's ``#pragma omp simd``,
with a ``reduction`` clause for a ``bcast.reduction`` loop)."""

INVARIANT_DIVISOR_ATTR = "bcast.invariant_divisor"
"""A discardable unit attribute on an f32/f64 ``arith.divf`` in a vectorized
loop (``VECTORIZE_ATTR``) whose divisor the loop does not change and which
may run twice with the same result (``bcast-invariant-divisions``): a
target may multiply by the divisor's reciprocal, computed once, with
corrections that make the quotient exact (the C target's ``bcast_div_*``,
which runs the loop again with plain division when an operand is outside
the range where they are)."""

COLLAPSE_ATTR = "bcast.collapse"
"""A discardable integer attribute ``n`` on the outermost of ``n`` perfectly
nested ``bcast.parallel`` loops that a target should run as one loop over
the product of their trip counts (``bcast-collapse-nests``): no access
broadcasts or transposes their dims, so every access's linear index steps
by its innermost stride."""

PREFETCH_BLOCK_ATTR = "bcast.prefetch_block"
"""A discardable integer attribute ``n`` on a phase of a row loop (an
innermost ``scf.for`` in the body of a loop over rows) that should run in
blocks of ``n`` iterations, each first prefetching the lines of the rows
ahead that the block will access of the arrays marked
``PREFETCH_AHEAD_ATTR`` in the row (``bcast-plan-prefetch``)."""

PREFETCH_AHEAD_ATTR = "bcast.prefetch_ahead"
"""A discardable integer attribute ``k`` on a ``memref.load`` (``store``)
that reads (writes) a row of an array whole in a row loop whose phase is
marked ``PREFETCH_BLOCK_ATTR``: that phase prefetches the array's row ``k``
rows ahead of the current one (for writing, a store's) (``bcast-plan-prefetch``)."""

DEFERRED_STREAM_ATTR = "bcast.deferred_stream"
"""A discardable unit attribute on a ``nontemporal`` ``memref.store`` of a
row loop's last phase: a target keeps the row in a tile and streams it out
during the next row's ``PREFETCH_BLOCK_ATTR`` phase, a block at a time (the
last row after the loop) (``bcast-plan-prefetch``)."""

STACK_ATTR = "bcast.stack"
"""A discardable unit attribute on a ``memref.alloc`` small enough to live on
the stack (``bcast-stack-allocs``): a target may make it a local array,
freed when its ``memref.dealloc`` runs or its scope ends."""

SCRATCH_ATTR = "bcast.scratch"
"""A discardable unit attribute on a heap ``memref.alloc`` (not
``STACK_ATTR``) that its loop's body makes and deallocates every iteration
(``bcast-scratch-allocs``): a target may make it once before the loop (once
per thread when the loop's iterations run on threads) and free it after."""

GEMM_ATTR = "bcast.gemm"
"""On the outermost ``scf.for`` of a contraction's nest (``bcast.dot_general``
lowered) that is a batch of BLAS matrix products: ``{batch, m, n, k,
trans_a, trans_b}`` (``trans_*``: the operand is stored transposed, K x M /
N x K); with ``?`` dims, ``batch``, ... are the products of the static
sizes and ``batch_loops``, ``m_loops``, ... list the depths (0: this loop)
of the nest's loops whose trip counts multiply in at run time. The nest's first two ``memref.load``s read the operands (``lhs``
then ``rhs``, contiguous row-major, each batch after the other) and its
``memref.store`` writes the contiguous ``batch x m x n`` result; the nest
computes exactly that. A target may call a GEMM instead (the C target's
``bcast_blas_*gemm``); the nest stays the definition."""

CONV_ATTR = "bcast.conv"
"""On the outermost ``scf.for`` of a convolution's nest (``bcast.convolution``
or ``bcast.dynamic_conv`` lowered) whose result is row-major (batch, output
places..., features): ``{geometry, rows, units, run_time, sizes}``, the
convolution's geometry an ``array<i64>`` (``conv_geometry``: sizes,
strides in elements of both operands, padding, dilations, reversal,
groups); ``rows`` the result rows (batch * output places) per iteration
of the nest's outer loop (the first dim of the result not of static size
1: a dim of size 1 has no loop), ``units`` that loop's trip count (absent
when it is read at run time; 1 when only the features are not of size
1). With sizes known only at run time (a ``?`` batch or spatial size,
``dynamic_conv``'s padding), ``run_time`` lists the positions of
``geometry`` that are 0 there and are read instead from the ``i64``
buffer allocated before the nest whose ``CONV_SIZES_ATTR`` is the same
number as ``sizes`` (its element ``j`` is position ``run_time[j]``), and
``rows`` is absent when an output size after the outer loop's dim is one
of them (the product of those output sizes). The nest's first two
``memref.load``s read the input and the kernel, its ``memref.store``
writes the result; the nest computes exactly that. A target may call a
convolution kernel instead (the C target's ``bcast_blas_*conv_*``); the
nest stays the definition."""

CONV_SIZES_ATTR = "bcast.conv_sizes"
"""On the ``memref.alloc`` of a ``memref<Nxi64>`` holding the run-time
entries of a convolution's geometry (``CONV_ATTR``'s ``run_time``, stored
before its nest): the number that the nest's ``CONV_ATTR`` ``sizes``
names it by (unique in its function)."""

SPATIAL_FIELDS = ("size", "out", "kernel", "stride", "rhs_dilation", "lhs_dilation", "low", "x_stride", "w_stride",
                  "reversed")
"""What ``conv_geometry`` gives per spatial dim, in this order."""

MAX_SPATIAL = 3
"""The most spatial dims ``CONV_ATTR`` describes (the C kernel's packing
keeps an origin per dim and row in a fixed array)."""


def conv_geometry(features: int, outs: int, groups: int, x_batch: int | None, x_feature: int | None, w_in: int,
                  w_out: int, spatial: list[tuple[int | None, ...]]) -> tuple[int | None, ...]:
    """The ``int64_t`` array that is ``CONV_ATTR``'s value
    (the C kernels' ``bcast_*conv_pack``/``_packed`` read it): spatial dims, input features per
    group, output features per group, groups, output features in all (the
    result's row length), the input's batch and feature strides, the
    kernel's input- and output-feature strides (in elements), then per
    spatial dim the ``SPATIAL_FIELDS``. The result is row-major (batch,
    output places..., features); the batch is the only size not in it (the
    caller gives the rows). ``None``: an entry known only at run time (a
    ``?`` size, an input stride that depends on one, a ``dynamic_conv``'s
    low padding; ``CONV_ATTR``'s ``run_time``)."""
    assert 1 <= len(spatial) <= MAX_SPATIAL and all(len(d) == len(SPATIAL_FIELDS) for d in spatial)
    return (len(spatial), features, outs, groups, groups * outs, x_batch, x_feature, w_in, w_out,
            *(None if v is None else int(v) for d in spatial for v in d))


BOUNDS_CHECK_ATTR = "bcast.bounds_check"
"""On a ``cf.assert`` that checks a dynamic index: ``{op, dim, size, iab}``,
what a target needs to report the failure as the other backends do
(``rules.runtime_index``); the assert has the indexing op's location.
Upstream lowers a failed assert to ``abort``, the C target to an error the
runtime reports."""


SIZE_CHECK_ATTR = "bcast.size_check"
"""On a ``cf.assert`` that checks run-time sizes where a control-flow region
runs (a ``check_broadcastable`` or a ``dynamic_broadcast_in_dim``'s
expansion that its carried sizes do not prove, passes/loops_control_flow.py):
``{op}``, the checking op's name; the assert has its location. Upstream
lowers a failed assert to ``abort``; the C target to an error that the
runtime reports as the reference does (it runs the reference on the call's
arguments, which stops at the same check, lowering/c_runtime.py)."""


@irdl_op_definition
class RemFOp(arith.FloatingPointLikeBinaryOperation):
    """Upstream's ``arith.remf`` (C's ``fmod``), which xDSL 0.74 lacks."""

    name = "arith.remf"


def is_loop_function(op: func.FuncOp) -> bool:
    """Whether a function is in loop form: marked, and no tensor in its signature."""
    function_type = op.function_type
    return LOOP_FORM_ATTR in op.attributes and not any(
        isinstance(t, TensorType) for t in (*function_type.inputs.data, *function_type.outputs.data))


def first_non_loop_op(module: ModuleOp) -> Operation | None:
    """The first op that keeps ``module`` out of loop form (a top-level op
    other than a function or a global, a function not in loop form, a bcast
    op inside one), or None when the module is loop IR."""
    for op in module.ops:
        if not isinstance(op, func.FuncOp | memref.GlobalOp):
            return op
        if isinstance(op, func.FuncOp) and not is_loop_function(op):
            return op
    return next((op for op in module.walk() if op.dialect_name() == "bcast"), None)


def in_loop_form(module: ModuleOp) -> bool:
    """Whether ``module`` is loop IR (what ``bcast-lower-to-loops`` produces)."""
    return first_non_loop_op(module) is None
