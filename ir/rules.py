"""The broadcasting rules of bcast, in one place.

Plain functions on shapes (tuples of ints) and element-type names (strings
such as ``"i32"``, ``"ui8"``, ``"f16"``, ``"i1"``), with no IR in them, so the
verifiers, the passes, the backends and the tests all call the same code.

Nested (TML) shapes are tuples of levels, outermost first:
``tensor<3xtensor<3x3xf32>>`` has levels ``((3,), (3, 3))``. A value of a nested
type is stored flat: its flat shape is the concatenation of its levels.

Failures raise :class:`RuleError` (a message and optional notes about shapes)
or :class:`IncompatibleDims` (the NumPy algorithm's failure, with the failing
dimension) so that callers can word the diagnostic with the types as written.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import ClassVar, Literal

Shape = tuple[int, ...]
Levels = tuple[Shape, ...]
Semantics = Literal["numpy", "xla", "tml"]


def plural(n: int, noun: str, plural_form: str | None = None) -> str:
    """``1 index``, ``2 indices``: counts in messages read as English."""
    return f"{n} {noun if n == 1 else (plural_form or noun + 's')}"
SEMANTICS: tuple[Semantics, ...] = ("numpy", "xla", "tml")


class RuleError(Exception):
    """A broadcasting or typing rule is violated."""

    def __init__(self, message: str, notes: Sequence[str] = ()):
        super().__init__(message)
        self.message = message
        self.notes = list(notes)


@dataclass
class IncompatibleDims(Exception):
    """The Array API algorithm failed at ``axis`` (negative, counted from the right)."""

    shapes: tuple[Shape, ...]
    axis: int
    sizes: tuple[int, ...]
    level: int | None = None
    notes: list[str] = field(default_factory=list)


def shape_str(shape: Shape) -> str:
    """``(2, 3)`` -> ``2x3``; the scalar shape prints as ``()``."""
    return "x".join(map(str, shape)) if shape else "()"


def aligned_from_the_right(shapes: Sequence[Shape]) -> list[str]:
    """Render shapes one per line, right-aligned column by column."""
    rank = max((len(s) for s in shapes), default=0)
    widths = [1] * rank
    for s in shapes:
        for i, d in enumerate(s):
            col = rank - len(s) + i
            widths[col] = max(widths[col], len(str(d)))
    lines = []
    for s in shapes:
        cells = []
        for col in range(rank):
            i = col - (rank - len(s))
            cells.append(str(s[i]).rjust(widths[col]) if i >= 0 else " " * widths[col])
        line = ""
        for col, cell in enumerate(cells):
            sep = " x " if col and (col - (rank - len(s))) > 0 else "   "
            line += (sep if col else "") + cell
        lines.append(line.rstrip() if line.strip() else "()")
    return lines


# --------------------------------------------------------------------------
# The Array API / NumPy algorithm
# --------------------------------------------------------------------------


def broadcast_shapes(*shapes: Shape) -> Shape:
    """The Array API broadcasting algorithm over any number of shapes
    (with dynamic dims: :func:`broadcast_dynamic_shapes`)."""
    if any(is_dynamic(s) for s in shapes):
        return broadcast_dynamic_shapes(*shapes)[0]
    rank = max((len(s) for s in shapes), default=0)
    result: list[int] = []
    for axis in range(-rank, 0):
        sizes = tuple(s[axis] if -axis <= len(s) else 1 for s in shapes)
        size = 1
        for d in sizes:
            if d == 1:
                continue
            if size not in (1, d):
                raise IncompatibleDims(tuple(shapes), axis, sizes)
            size = d
        result.append(size)
    return tuple(result)


def can_broadcast_to(src: Shape, dst: Shape) -> bool:
    """True when ``src`` broadcasts to ``dst`` without changing ``dst``."""
    if len(src) > len(dst):
        return False
    return all(s in (1, d) for s, d in zip(reversed(src), reversed(dst)))


def numpy_broadcast_dims(src: Shape, dst: Shape) -> tuple[int, ...]:
    """Where each dimension of ``src`` lands in ``dst`` under rank promotion."""
    return tuple(range(len(dst) - len(src), len(dst)))


# --------------------------------------------------------------------------
# Dynamic and bounded dimensions (docs/semantics.md, "Dynamic and bounded
# shapes"): each pair of aligned dims is proven, refuted or checked at run time
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Dynamic:
    """A dimension whose size is known only at run time (``?``), with an
    upper bound when the type gives one (``#stablehlo.bounds``). Two
    ``Dynamic`` dims compare equal when their bounds do: equal *types*, not
    equal sizes (only the same SSA value proves that)."""

    bound: int | None = None

    def __str__(self) -> str:
        return "?" if self.bound is None else f"?<={self.bound}"


Dim = int | Dynamic


def fits(declared: Shape, shape: Shape) -> bool:
    """Whether a run-time ``shape`` is one the ``declared`` dims allow."""
    return len(declared) == len(shape) and all(
        may_be(d, n) for d, n in zip(declared, shape)
    )
"""A dimension as the rules see it: a static size or a :class:`Dynamic` one."""

RuntimeCheck = Literal["broadcastable", "is_one", "equal"]
"""What a pair of dims leaves to run time: ``broadcastable`` (equal, or one
of them 1: NumPy's rule), ``is_one`` (a bounded ``?`` against a larger
static size can only stretch), ``equal`` (TML's strict ops, and a declared
dim more static than the inferred one)."""


def is_dynamic(shape: Sequence[Dim]) -> bool:
    return any(isinstance(d, Dynamic) for d in shape)


def levels_dynamic(levels: Levels) -> bool:
    return any(is_dynamic(level) for level in levels)


def may_be(d: Dim, n: int) -> bool:
    """Whether dim ``d`` can have size ``n`` at run time."""
    if isinstance(d, Dynamic):
        return d.bound is None or n <= d.bound
    return d == n


def may_be_at_most_one(d: Dim) -> bool:
    """Whether dim ``d`` is 0 or 1 at every run time (its elements have one order)."""
    return (d.bound is not None and d.bound <= 1) if isinstance(d, Dynamic) else d <= 1


def refuted_pair(a: Dim, b: Dim) -> bool:
    """Whether NumPy's rule fails for every run-time size of ``a`` and ``b``
    (neither can be 1 and they cannot be equal). For static dims: neither is
    1 and they differ."""
    if isinstance(a, int) and isinstance(b, int):
        return a != b and 1 not in (a, b)
    if isinstance(a, Dynamic) and isinstance(b, Dynamic):
        return False  # both may be 1 (even ``?<=0`` and ``?<=0`` may be equal: 0)
    d, n = (a, b) if isinstance(a, Dynamic) else (b, a)
    return not (may_be(d, 1) or may_be(d, n) or n == 1)


def refuted_expansion(operand: Dim, result: Dim) -> bool:
    """``broadcast_in_dim``: operand dim 1 or equal to its result dim, for
    no run-time size (static dims: neither 1 nor equal)."""
    if isinstance(operand, int) and isinstance(result, int):
        return operand != 1 and operand != result
    if isinstance(result, int):
        return not (may_be(operand, 1) or may_be(operand, result))
    if isinstance(operand, int):
        return operand != 1 and not may_be(result, operand)
    return False


def broadcast_dim(a: Dim, b: Dim, same: bool = False) -> tuple[Dim, RuntimeCheck | None]:
    """One aligned pair under NumPy's rule (the table of docs/semantics.md):
    the result dim and what is left to check at run time (None: proven).
    ``same``: both dims are of one SSA value, so equal. A refuted pair is
    the caller's to report (:func:`refuted_pair`)."""
    if same or a == 1:
        return (a if same else b), None
    if b == 1:
        return a, None
    if isinstance(a, int) and isinstance(b, int):
        return a, None  # equal (a refuted pair never gets here)
    if isinstance(a, Dynamic) and isinstance(b, Dynamic):
        bound = None if a.bound is None or b.bound is None else max(a.bound, b.bound)
        return Dynamic(bound), "broadcastable"
    d, n = (a, b) if isinstance(a, Dynamic) else (b, a)
    return n, ("broadcastable" if may_be(d, n) else "is_one")


def strict_dim(a: Dim, b: Dim, same: bool = False) -> tuple[Dim, RuntimeCheck | None] | None:
    """One aligned pair of TML's logical, relational and bitwise ops, which
    need identical shapes: a ``?`` is checked equal at run time, never
    stretched. None when no run-time size makes them equal."""
    if same:
        return a, None
    if isinstance(a, int) and isinstance(b, int):
        return (a, None) if a == b else None
    if isinstance(a, Dynamic) and isinstance(b, Dynamic):
        bounds = [x.bound for x in (a, b) if x.bound is not None]
        return Dynamic(min(bounds) if bounds else None), "equal"
    d, n = (a, b) if isinstance(a, Dynamic) else (b, a)
    return (n, "equal") if may_be(d, n) else None


def broadcast_dynamic_shapes(*shapes: Shape, same: bool = False) -> tuple[Shape, list[tuple[int, RuntimeCheck]]]:
    """The Array API algorithm over shapes with dynamic dims: the result
    shape and the run-time checks left, as ``(axis, check)`` with negative
    axes. Raises :class:`IncompatibleDims` for a refuted pair. On static
    shapes it is :func:`broadcast_shapes` with no checks."""
    if same:
        return shapes[0], []
    rank = max((len(s) for s in shapes), default=0)
    result: list[Dim] = []
    checks: list[tuple[int, RuntimeCheck]] = []
    for axis in range(-rank, 0):
        sizes = tuple(s[axis] if -axis <= len(s) else 1 for s in shapes)
        size: Dim = 1
        needed: set[RuntimeCheck] = set()
        for d in sizes:
            if refuted_pair(size, d):
                raise IncompatibleDims(tuple(shapes), axis, sizes)
            size, check = broadcast_dim(size, d, same)
            if check is not None:
                needed.add(check)
        if needed:
            checks.append((axis, "is_one" if needed == {"is_one"} else "broadcastable"))
        result.append(size)
    return tuple(result), checks


def check_strict_dynamic(shapes: Sequence[Shape], what: str, same: bool = False) -> tuple[Shape, list[tuple[int, RuntimeCheck]]]:
    """TML's strict rule on shapes with dynamic dims: the same rank, and
    every aligned pair possibly equal (checked equal at run time)."""
    first = shapes[0]
    result: list[Dim] = list(first)
    checks: list[tuple[int, RuntimeCheck]] = []
    for other in shapes[1:]:
        pairs = [strict_dim(a, b, same) for a, b in zip(result, other)] if len(other) == len(first) else [None]
        if any(p is None for p in pairs):
            raise RuleError(
                f"{what} operations under tml semantics need a scalar operand or "
                "identical shapes at every nesting level",
                [f"shapes {shape_str(first)} and {shape_str(other)} cannot be equal at run time",
                 "tml broadcasts these operations only from a scalar; broadcast "
                 "explicitly with bcast.broadcast_in_dim"],
            )
        for axis, (dim, check) in enumerate(pairs):
            result[axis] = dim
            if check is not None and (axis - len(first), check) not in checks:
                checks.append((axis - len(first), check))
    return tuple(result), checks


def compatible_dims(inferred: Dim, declared: Dim) -> bool:
    """A declared result dim may be more static than the inferred one, if
    some run-time size fits both (StableHLO's bounds: ``?<=4`` is not
    compatible with 5); a static inferred dim is declared as it is (a
    declared ``?`` would drop a fact, and static types stay exact)."""
    if isinstance(inferred, int):
        return declared == inferred
    if isinstance(declared, int):
        return may_be(inferred, declared)
    return True


def compatible_levels(inferred: Levels, declared: Levels) -> bool:
    """Same nesting, same ranks, every dim :func:`compatible_dims`."""
    return len(inferred) == len(declared) and all(
        len(i) == len(d) and all(compatible_dims(a, b) for a, b in zip(i, d))
        for i, d in zip(inferred, declared)
    )


# --------------------------------------------------------------------------
# XLA "InDim" broadcasting: broadcast_dimensions on a binary op
# --------------------------------------------------------------------------


def expand_with_broadcast_dimensions(
    low: Shape, high: Shape, broadcast_dimensions: Sequence[int]
) -> Shape:
    """Place ``low``'s dims at ``broadcast_dimensions`` of ``high``'s rank.

    The other dims become 1, so that degenerate broadcasting can finish the
    job (XLA's "broadcast composition")."""
    dims = list(broadcast_dimensions)
    if len(dims) != len(low):
        raise RuleError(
            f"broadcast_dimensions has {plural(len(dims), 'entry', 'entries')} but the lower-rank "
            f"operand has rank {len(low)}",
            ["broadcast_dimensions needs one entry per dimension of the lower-rank operand"],
        )
    for i, d in enumerate(dims):
        if not 0 <= d < len(high):
            raise RuleError(
                f"broadcast_dimensions entry {i} ({d}) is out of range for the "
                f"higher-rank operand of rank {len(high)}"
            )
    if not is_sorted(dims):
        raise RuleError(
            f"broadcast_dimensions must be strictly increasing, got {list(dims)}"
        )
    expanded = [1] * len(high)
    for i, d in enumerate(dims):
        if refuted_pair(low[i], high[d]):
            raise RuleError(
                f"broadcast_dimensions maps dimension {i} (size {low[i]}) of the "
                f"lower-rank operand to dimension {d} (size {high[d]}) of the "
                "higher-rank operand: sizes must be equal or one of them 1"
            )
        expanded[d] = low[i]
    return tuple(expanded)


def in_dim_broadcast(
    lhs: Shape, rhs: Shape, broadcast_dimensions: Sequence[int] | None, semantics: Semantics
) -> tuple[Shape, Shape, Shape]:
    """Result shape of a binary op, with ``lhs``/``rhs`` expanded to its rank.

    Returns ``(result, lhs_expanded, rhs_expanded)``; the expanded shapes have
    the result's rank and differ from it only in size-1 (degenerate) dims."""
    if broadcast_dimensions is not None:
        if len(lhs) == len(rhs):
            if list(broadcast_dimensions) not in ([], list(range(len(lhs)))):
                raise RuleError(
                    "broadcast_dimensions must either be absent or be the identity "
                    "on operands of the same rank"
                )
        else:
            low_is_lhs = len(lhs) < len(rhs)
            low, high = (lhs, rhs) if low_is_lhs else (rhs, lhs)
            expanded = expand_with_broadcast_dimensions(low, high, broadcast_dimensions)
            lhs, rhs = (expanded, rhs) if low_is_lhs else (lhs, expanded)
    elif len(lhs) != len(rhs) and semantics == "xla" and lhs and rhs:
        raise RuleError(
            "operands of different rank need broadcast_dimensions under xla semantics",
            ["only a rank-0 operand broadcasts without broadcast_dimensions"],
        )
    result = broadcast_shapes(lhs, rhs)
    pad = len(result)
    return result, (1,) * (pad - len(lhs)) + lhs, (1,) * (pad - len(rhs)) + rhs


def check_same_rank_or_scalar(shapes: Sequence[Shape]) -> None:
    """XLA mode without broadcast_dimensions: equal ranks, or rank 0."""
    ranked = {len(s) for s in shapes if s}
    if len(ranked) > 1:
        raise RuleError(
            "select operands must have the same rank or rank 0 under xla semantics",
            ["select has no broadcast_dimensions: broadcast the operands explicitly"],
        )


# --------------------------------------------------------------------------
# broadcast_in_dim (StableHLO constraints, in StableHLO's check order)
# --------------------------------------------------------------------------


def check_broadcast_in_dim(
    operand: Shape, result: Shape, dims: Sequence[int], semantics: Semantics, sizes_given: bool = False
) -> None:
    """StableHLO's broadcast_in_dim checks (after the element type check).
    ``sizes_given``: the output sizes are values (``dynamic_broadcast_in_dim``),
    so a ``?`` result dim needs no operand dim to give its size."""
    dims = list(dims)
    if len(dims) != len(operand):
        raise RuleError(
            f"broadcast_dimensions size ({len(dims)}) does not match operand rank "
            f"({len(operand)})"
        )
    if len(result) < len(operand):
        raise RuleError(
            f"result rank ({len(result)}) is less than operand rank ({len(operand)})"
        )
    if len(set(dims)) != len(dims):
        raise RuleError("broadcast_dimensions should not have duplicates")
    for i, d in enumerate(dims):
        if not 0 <= d < len(result):
            raise RuleError(
                f"broadcast_dimensions contains invalid value {d} for result with "
                f"rank {len(result)}"
            )
        if refuted_expansion(operand[i], result[d]):
            raise RuleError(
                f"size of operand dimension {i} ({operand[i]}) is not equal to 1 "
                f"or size of result dimension {d} ({result[d]})"
            )
    if is_dynamic(result) and not sizes_given:
        check_dynamic_result_dims(operand, result, dims)
    if semantics == "xla" and not is_sorted(dims):
        raise RuleError(
            f"broadcast_dimensions must be strictly increasing under xla semantics, "
            f"got {dims}",
            ["transpose first (bcast.transpose), then broadcast"],
        )


def check_dynamic_result_dims(operand: Shape, result: Shape, dims: Sequence[int]) -> None:
    """A ``?`` result dim of ``broadcast_in_dim`` takes its run-time size from
    the operand dim mapped to it, which must not be a static 1: otherwise no
    value gives the size (that broadcast needs its sizes as operands)."""
    source = {d: operand[i] for i, d in enumerate(dims)}
    for d, size in enumerate(result):
        if isinstance(size, Dynamic) and source.get(d, 1) == 1:
            raise RuleError(
                f"result dimension {d} is dynamic ({size}) but no operand dimension gives its size",
                ["a ? result dimension takes the run-time size of the operand dimension mapped "
                 "to it; a broadcast into a run-time size needs the sizes as values"],
            )


def check_transpose(operand: Shape, permutation: Sequence[int]) -> Shape:
    perm = list(permutation)
    if sorted(perm) != list(range(len(operand))):
        raise RuleError(
            f"permutation {perm} is not a permutation of the operand's "
            f"{len(operand)} dimensions"
        )
    return tuple(operand[p] for p in perm)


def check_dims(operand: Shape, dims: Sequence[int]) -> None:
    """``dims`` (of ``reduce`` or ``reverse``) are distinct dimensions of ``operand``."""
    dims = list(dims)
    if len(set(dims)) != len(dims):
        duplicated = sorted({d for d in dims if dims.count(d) > 1})
        raise RuleError(
            "dims should not have duplicates",
            [f"dims = {dims}: {', '.join(map(str, duplicated))} "
             f"{'is' if len(duplicated) == 1 else 'are'} repeated"],
        )
    for d in dims:
        if not 0 <= d < len(operand):
            raise RuleError(
                f"dims {d} is out of range",
                [f"the operand has {plural(len(operand), 'dimension')} "
                 f"({_shape_text(operand)}); dims index them from 0"],
            )


def check_iota(shape: Shape, dimension: int) -> None:
    """``iota`` counts along one dimension of a tensor of rank >= 1 (as
    StableHLO's ``0 <= iota_dimension < rank(output)``)."""
    if not shape:
        raise RuleError("iota does not support scalars", ["the result needs at least one dimension to count along"])
    if not 0 <= dimension < len(shape):
        raise RuleError(
            f"iota dimension {dimension} is out of range",
            [f"the result has {plural(len(shape), 'dimension')} "
             f"({_shape_text(shape)}); the dimension indexes them from 0"],
        )


def concatenate_shape(operands: Sequence[Shape], dimension: int) -> Shape:
    """The shape of ``concatenate`` of ``operands`` along ``dimension``: at
    least one operand, all of one rank >= 1, sizes equal except along
    ``dimension``, where they add up (as StableHLO's ``concatenate``). With
    ``?`` dims: a pair that may be equal at run time is checked there
    (``ops.check_concatenate``), the result dim is the most static of them;
    along ``dimension`` a ``?`` makes a ``?``, bounded by the sum of the
    bounds when every operand has one."""
    if not operands:
        raise RuleError("concatenate needs at least one operand")
    first = operands[0]
    if not first:
        raise RuleError("concatenate does not support scalars", ["the operands need a dimension to join along"])
    for i, shape in enumerate(operands[1:], 1):
        if len(shape) != len(first):
            raise RuleError(
                f"operand #{i} has rank {len(shape)}, operand #0 has rank {len(first)}",
                ["concatenate joins operands of one rank"],
            )
    if not 0 <= dimension < len(first):
        raise RuleError(
            f"concatenate dimension {dimension} is out of range",
            [f"the operands have {plural(len(first), 'dimension')} "
             f"({_shape_text(first)}); the dimension indexes them from 0"],
        )
    result = list(first)
    for i, shape in enumerate(operands[1:], 1):
        for d, (a, b) in enumerate(zip(first, shape)):
            joined = strict_dim(result[d], b)
            if d != dimension and joined is None:
                raise RuleError(
                    f"operand #{i} has size {b} in dimension {d}, operand #0 has size {a}",
                    [f"sizes must match in every dimension but the concatenated one ({dimension})"],
                )
            if d != dimension:
                result[d] = joined[0]
    result[dimension] = sum_of_dims([s[dimension] for s in operands])
    return tuple(result)


def sum_of_dims(dims: Sequence[Dim]) -> Dim:
    """The size of dims laid end to end: static if all are, else ``?``
    bounded by the sum of the bounds when each has one."""
    if not is_dynamic(dims):
        return sum(dims)  # type: ignore[arg-type]
    bounds = [d.bound if isinstance(d, Dynamic) else d for d in dims]
    return Dynamic(None if None in bounds else sum(bounds))  # type: ignore[arg-type]


def pad_shape(operand: Shape, low: Sequence[int], high: Sequence[int], interior: Sequence[int]) -> Shape:
    """The shape of ``pad``: per dim ``low + n + (n - 1) * interior + high``
    (``low + high`` for ``n == 0``), as StableHLO's ``pad``. ``interior`` is
    >= 0; a negative ``low``/``high`` crops, but no size may end negative.
    A ``?`` dim pads to a ``?`` (bounded by its bound's size); a size that
    may end negative is checked at run time (``ops.check_pad``), one that
    ends negative at every size, even its bound, is refused here."""
    for name, values in (("low", low), ("high", high), ("interior", interior)):
        if len(values) != len(operand):
            raise RuleError(
                f"pad {name} has {plural(len(values), 'entry', 'entries')}, the operand has "
                f"{plural(len(operand), 'dimension')}",
                ["low, high and interior give one value per operand dimension"],
            )
    result: list[Dim] = []
    for d, (n, lo, hi, gap) in enumerate(zip(operand, low, high, interior)):
        if gap < 0:
            raise RuleError(f"pad interior {gap} in dimension {d} is negative", ["interior padding is >= 0"])
        largest = n.bound if isinstance(n, Dynamic) else n
        size = None if largest is None else padded_size(largest, lo, hi, gap)
        if size is not None and size < 0:
            raise RuleError(
                f"pad makes dimension {d} of size {size}",
                [f"low {lo} and high {hi} crop more than the {largest} padded elements of the dimension"],
            )
        result.append(Dynamic(size) if isinstance(n, Dynamic) else size)
    return tuple(result)


def reduce_window_size(n: int, window: int, stride: int, base_dilation: int, window_dilation: int,
                       low: int, high: int) -> int:
    """How many windows ``reduce_window`` places along one dim of size ``n``
    (StableHLO's C15): the strided window positions inside the input
    dilated by ``base_dilation`` (``(n - 1) * base_dilation + 1``, 0 when
    empty) and padded by ``low``/``high`` (negative crops), for a window of
    ``(window - 1) * window_dilation + 1`` elements; 0 where it does not fit."""
    padded = low + high + ((n - 1) * base_dilation + 1 if n else 0)
    span = (window - 1) * window_dilation + 1
    return (padded - span) // stride + 1 if padded >= span else 0


def reduce_window_shape(operand: Shape, window: Sequence[int], strides: Sequence[int],
                        base_dilations: Sequence[int], window_dilations: Sequence[int],
                        low: Sequence[int], high: Sequence[int]) -> Shape:
    """The shape of ``reduce_window`` (``reduce_window_size`` per dim) after
    StableHLO's rules C4-C12: one value per operand dim in each list, the
    window, strides and dilations positive, the padding any integer. A
    ``?`` (or bounded) dim keeps its size when no window spans it (window 1,
    stride 1, no dilation or padding: the batch dim of a pooling); one that
    windows span is ``?``, its size ``reduce_window_size`` of the run-time
    size (the count grows with the size: a bound's count bounds it), as a
    convolution's ``?`` spatial dim (``convolution_shape``)."""
    named = {"window_dimensions": window, "window_strides": strides, "base_dilations": base_dilations,
             "window_dilations": window_dilations, "padding low": low, "padding high": high}
    for name, values in named.items():
        if len(values) != len(operand):
            raise RuleError(f"reduce_window {name} has {plural(len(values), 'entry', 'entries')}, the operand "
                            f"has {plural(len(operand), 'dimension')}",
                            ["the window, strides, dilations and padding give one value per operand dimension"])
        if not name.startswith("padding") and any(v <= 0 for v in values):
            raise RuleError(f"reduce_window {name} must be positive, got {list(values)}")
    result: list[Dim] = []
    for dim in zip(operand, window, strides, base_dilations, window_dilations, low, high):
        n, *placing = dim
        if not isinstance(n, Dynamic):
            result.append(reduce_window_size(*dim))
        elif placing == [1, 1, 1, 1, 0, 0]:
            result.append(n)
        else:
            result.append(Dynamic(None if n.bound is None else reduce_window_size(n.bound, *placing)))
    return tuple(result)


def padded_size(n: int, low: int, high: int, interior: int) -> int:
    """One dim of ``pad`` of size ``n`` (it grows with ``n``: a bound's size bounds it)."""
    return low + high + n + max(n - 1, 0) * interior


def slice_shape(operand: Shape, starts: Sequence[int], limits: Sequence[int], strides: Sequence[int]) -> Shape:
    """The shape of ``operand[start:limit:stride]`` per dim (StableHLO's
    ``slice``): one range per dim, ``0 <= start <= limit <= size``,
    ``stride >= 1``; each result dim is ``ceil((limit - start) / stride)``.
    The result is static: a ``?`` dim's ``limit <= size`` is checked at run
    time (``ops.check_slice``; its bound, if any, here)."""
    if not len(starts) == len(limits) == len(strides) == len(operand):
        raise RuleError(
            f"slice has {plural(len(starts), 'range')} for an operand of rank {len(operand)}",
            [f"the operand has {_shape_text(operand)}; write one start:limit[:stride] per dimension"],
        )
    for d, (start, limit, stride, n) in enumerate(zip(starts, limits, strides, operand)):
        if stride < 1:
            raise RuleError(f"slice stride {stride} of dimension {d} is not positive", ["strides are >= 1"])
        if not 0 <= start <= limit <= (n if isinstance(n, int) else n.bound if n.bound is not None else limit):
            raise RuleError(
                f"slice {start}:{limit} of dimension {d} is out of range",
                [f"dimension {d} has size {n}; a range needs 0 <= start <= limit <= {n}"],
            )
    return tuple(-(-(limit - start) // stride) for start, limit, stride in zip(starts, limits, strides))


def dynamic_slice_shape(operand: Shape, n_starts: int, sizes: Sequence[int]) -> Shape:
    """The shape of ``dynamic_slice`` (StableHLO's): ``sizes``, one start
    index and one size per operand dim, each ``0 <= size <= dim``, so that a
    clamped start keeps the block in bounds."""
    if not n_starts == len(sizes) == len(operand):
        raise RuleError(
            f"dynamic_slice has {plural(n_starts, 'start index', 'start indices')} and "
            f"{plural(len(sizes), 'size')} for an operand of rank {len(operand)}",
            [f"the operand has {_shape_text(operand)}; give one start index and one size per dimension"],
        )
    for d, (size, n) in enumerate(zip(sizes, operand)):
        if size < 0 or (isinstance(n, int) and size > n) or (isinstance(n, Dynamic) and not may_be_at_least(n, size)):
            raise RuleError(
                f"dynamic_slice size {size} of dimension {d} is out of range",
                [f"dimension {d} has size {n}; a size needs 0 <= size <= {n}"],
            )
    return tuple(sizes)


def may_be_at_least(d: Dim, n: int) -> bool:
    """Whether dim ``d`` can have a size of ``n`` or more at run time."""
    return d.bound is None or d.bound >= n if isinstance(d, Dynamic) else d >= n


def dynamic_slice_too_large(size: int, d: int, op: str = "dynamic_slice") -> str:
    """The run-time error of a ``dynamic_slice`` block (``gather`` slice)
    larger than a ``?`` dim of its operand (``{0}``: the dim's run-time
    size), one wording for the check make-explicit writes and the one the
    evaluators make."""
    return f"{op} size {size} of dimension {d} is larger than the operand's size {{0}}"


def check_dynamic_update(operand: Shape, update: Shape, n_starts: int) -> None:
    """``dynamic_update_slice``'s shape rule (StableHLO's): the update has the
    operand's rank and no larger size in any dim; one start index per dim."""
    if n_starts != len(operand):
        raise RuleError(
            f"dynamic_update_slice has {plural(n_starts, 'start index', 'start indices')} for an "
            f"operand of rank {len(operand)}",
            ["give one start index per dimension"],
        )
    if len(update) != len(operand):
        raise RuleError(f"dynamic_update_slice update has rank {len(update)}, the operand has rank {len(operand)}",
                        ["the update has the operand's rank (reshape it first)"])
    for d, (u, n) in enumerate(zip(update, operand)):
        if isinstance(u, int) and not may_be_at_least(n, u):
            raise RuleError(f"dynamic_update_slice update has size {u} in dimension {d}, larger than "
                            f"the operand's {n}")


def dynamic_update_too_large(d: int) -> str:
    """The run-time error of a ``dynamic_update_slice`` whose update is larger
    than its operand along dim ``d``, a ``?`` on either side (``{0}``: the
    update's run-time size, ``{1}``: the operand's): one wording for the check
    make-explicit writes and the one the evaluators make, the compile-time
    rule's words."""
    return f"dynamic_update_slice update has size {{0}} in dimension {d}, larger than the operand's {{1}}"


def clamped_start(start: int, size: int, n: int) -> int:
    """A dynamic start index moved into ``[0, n - size]``, so the block of
    ``size`` stays in bounds (StableHLO's ``clamp(0, start, n - size)``)."""
    return min(max(start, 0), n - size)


@dataclass(frozen=True)
class GatherDims:
    """The dimension numbers of ``gather`` (StableHLO's): which result dims
    are offset dims (the rest are batch dims, the start indices' dims but
    ``index_vector_dim``), which operand dims a slice drops (collapsed,
    size <= 1) or pairs with a batch dim of the indices (batching), and
    which operand dim each component of an index vector starts."""

    offset_dims: tuple[int, ...] = ()
    collapsed_slice_dims: tuple[int, ...] = ()
    operand_batching_dims: tuple[int, ...] = ()
    start_indices_batching_dims: tuple[int, ...] = ()
    start_index_map: tuple[int, ...] = ()
    index_vector_dim: int = 0

    def batch_dims(self, indices_rank: int) -> tuple[int, ...]:
        """The dims of the start indices that are the result's batch dims,
        in order (all but ``index_vector_dim``)."""
        return tuple(d for d in range(indices_rank) if d != self.index_vector_dim)

    def window_dims(self, operand_rank: int) -> tuple[int, ...]:
        """The operand dims a slice keeps, in order: the offset dims' sources."""
        dropped = {*self.collapsed_slice_dims, *self.operand_batching_dims}
        return tuple(d for d in range(operand_rank) if d not in dropped)


def _check_in_range(name: str, values: Sequence[int], bound: int, what: str) -> None:
    for v in values:
        if not 0 <= v < bound:
            raise RuleError(f"Expects each element of {name} to be in range [0, {what}) i.e. [0, {bound}). got: {v}.")


def _check_sorted(name: str, values: Sequence[int]) -> None:
    if list(values) != sorted(values):
        raise RuleError(f"expects {name} to be sorted, got: {_int_list(values)}")


def _check_unique(name: str, values: Sequence[int]) -> None:
    if len(set(values)) != len(values):
        raise RuleError(f"expects {name} to not repeat, got: {_int_list(values)}")


def _check_disjoint(first: str, a: Sequence[int], second: str, b: Sequence[int]) -> None:
    for d in a:
        if d in b:
            raise RuleError(f"has duplicated dimension from {first} and {second}: {d}")


def _int_list(values: Sequence[int]) -> str:
    return f"[{', '.join(map(str, values))}]"


def gather_shape(operand: Shape, indices: Shape, dims: GatherDims, slice_sizes: Sequence[int]) -> Shape:
    """The shape of ``gather`` after StableHLO's constraints (C1-C22 of its
    spec, in its verifier's words): the batch dims (the indices' shape but
    ``index_vector_dim``) with the kept slice sizes placed at ``offset_dims``.
    An ``index_vector_dim`` equal to the indices' rank means a trailing
    index vector of size 1."""
    rank, irank = len(operand), len(indices)
    if len(dims.offset_dims) + len(dims.collapsed_slice_dims) + len(dims.operand_batching_dims) != rank:
        raise RuleError(f"offset_dims size ({len(dims.offset_dims)}) plus collapse_slice_dims size "
                        f"({len(dims.collapsed_slice_dims)}) plus operand_batching_dims size "
                        f"({len(dims.operand_batching_dims)}) is not equal to operand rank ({rank})")
    ivd = dims.index_vector_dim
    if not 0 <= ivd <= irank:
        raise RuleError(f"Expects index_vector_dim to be in range [0, rank-of('start_indices')] i.e. "
                        f"[0, {irank}]. got: {ivd}.")
    vector = indices[ivd] if ivd < irank else 1
    if len(dims.start_index_map) != vector:
        raise RuleError(f"start_index_map size ({len(dims.start_index_map)}) is not equal to size of index "
                        f"dimension ({ivd}) of start_indices ({vector})")
    result_rank = len(dims.offset_dims) + irank - (1 if ivd < irank else 0)
    _check_sorted("offset_dims", dims.offset_dims)
    _check_unique("offset_dims", dims.offset_dims)
    _check_in_range("offset_dims", dims.offset_dims, result_rank, "implied-result-rank")
    _check_disjoint("collapsed_slice_dims", dims.collapsed_slice_dims,
                    "operand_batching_dims", dims.operand_batching_dims)
    _check_sorted("collapsed_slice_dims", dims.collapsed_slice_dims)
    _check_in_range("collapsed_slice_dims", dims.collapsed_slice_dims, rank, "rank-of('operand')")
    _check_sorted("operand_batching_dims", dims.operand_batching_dims)
    _check_unique("operand_batching_dims", dims.operand_batching_dims)
    _check_in_range("operand_batching_dims", dims.operand_batching_dims, rank, "rank-of('operand')")
    _check_unique("start_indices_batching_dims", dims.start_indices_batching_dims)
    _check_in_range("start_indices_batching_dims", dims.start_indices_batching_dims, irank,
                    "rank-of('start_indices')")
    if ivd in dims.start_indices_batching_dims:
        raise RuleError(f"expects start_indices_batching_dims not to include index_vector_dim {ivd}")
    if len(dims.operand_batching_dims) != len(dims.start_indices_batching_dims):
        raise RuleError("operand_batching_dims and start_indices_batching_dims should have the same size")
    if (ivd < irank and isinstance(indices[ivd], Dynamic)) or any(
            isinstance(operand[a], Dynamic) for a in dims.operand_batching_dims) or any(
            isinstance(indices[b], Dynamic) for b in dims.start_indices_batching_dims):
        raise RuleError("gather takes ? dims in its operand's slice dims and its start indices' batch dims only, "
                        "not yet in the index vector dim or batching dims")
    for k, (a, b) in enumerate(zip(dims.operand_batching_dims, dims.start_indices_batching_dims)):
        if operand[a] != indices[b]:
            raise RuleError(f"operand_batching_dims[{k}] and start_indices_batching_dims[{k}] must have "
                            f"compatible sizes, but got {operand[a]} and {indices[b]}")
    _check_disjoint("start_index_map", dims.start_index_map, "operand_batching_dims", dims.operand_batching_dims)
    _check_unique("start_index_map", dims.start_index_map)
    _check_in_range("start_index_map", dims.start_index_map, rank, "rank-of('operand')")
    if len(slice_sizes) != rank:
        raise RuleError(f"slice_sizes size ({len(slice_sizes)}) not equal to operand rank ({rank})")
    for d, (size, n) in enumerate(zip(slice_sizes, operand)):
        if size < 0 or not may_be_at_least(n, size):  # a ``?`` dim: checked at run time
            raise RuleError(f"slice size ({size}) is out of bounds for operand dimension ({n}) at index {d}")
    for name, dropped in (("collapsed_slice_dims", dims.collapsed_slice_dims),
                          ("operand_batching_dims", dims.operand_batching_dims)):
        for d in dropped:
            if slice_sizes[d] > 1:
                raise RuleError(f"Expects that for each dim in {name}, slice_sizes[dim] should be <= 1, "
                                f"but got {slice_sizes[d]}")
    batch = iter(indices[d] for d in dims.batch_dims(irank))
    window = iter(slice_sizes[d] for d in dims.window_dims(rank))
    return tuple(next(window) if d in dims.offset_dims else next(batch) for d in range(result_rank))


SCATTER_WORDS = (("offset_dims", "update_window_dims"), ("collapse_slice_dims", "inserted_window_dims"),
                 ("collapsed_slice_dims", "inserted_window_dims"), ("operand_batching_dims", "input_batching_dims"),
                 ("start_indices_batching_dims", "scatter_indices_batching_dims"),
                 ("start_index_map", "scatter_dims_to_operand_dims"), ("start_indices", "scatter_indices"),
                 ("implied-result-rank", "rank-of('updates')"), ("'operand'", "'inputs'"))
"""A scatter's dimension numbers are a gather's under other names (the
updates are the result of the gather at the same indices): the words
``check_scatter`` puts in ``gather_shape``'s messages."""


def check_scatter(operand: Shape, indices: Shape, updates: Shape, dims: GatherDims) -> None:
    """``scatter``'s rules (StableHLO's C2-C22), as the ``gather`` that would
    read ``updates`` back: the dimension numbers checked by ``gather_shape``
    (in scatter's words), then the updates' shape, its batch dims the
    indices' and each window no larger than its operand dim. An inserted
    dim's window is 1, or 0 in an empty dim (every update is then out of
    bounds and skipped, as the spec's per-element semantics say: JAX's
    ``x.at[i].add(u)`` of an empty ``x``). ``?`` dims: the operand's window
    and inserted dims, the updates' and the indices' batch dims; what a
    ``?`` leaves unproven is checked at run time (``scatter_size_misfits``)."""
    dropped = {*dims.collapsed_slice_dims, *dims.operand_batching_dims}
    largest = [(1 if not isinstance(n, int) else min(n, 1)) if d in dropped else 0 if isinstance(n, Dynamic) else n
               for d, n in enumerate(operand)]
    ivd = dims.index_vector_dim
    if (0 <= ivd < len(indices) and isinstance(indices[ivd], Dynamic)) or any(
            0 <= a < len(operand) and isinstance(operand[a], Dynamic) for a in dims.operand_batching_dims) or any(
            0 <= b < len(indices) and isinstance(indices[b], Dynamic) for b in dims.start_indices_batching_dims):
        raise RuleError("scatter takes ? dims in its inputs' window and inserted dims, its scatter_indices' batch "
                        "dims and its updates, not yet in the index vector dim or batching dims")
    try:
        expected = gather_shape(operand, indices, dims, largest)
    except RuleError as e:
        message = e.message
        for gather_word, scatter_word in SCATTER_WORDS:
            message = message.replace(gather_word, scatter_word)
        raise RuleError(message.replace("slice_sizes", "window sizes"), e.notes) from None
    if len(updates) != len(expected):
        raise RuleError(f"expects updates to have rank {len(expected)}, got {len(updates)}")
    window = dict(zip(dims.offset_dims, dims.window_dims(len(operand))))
    for axis, (u, n) in enumerate(zip(updates, expected)):
        if axis in window:
            n = operand[window[axis]]
            if isinstance(u, int) and not may_be_at_least(n, u):
                raise RuleError(f"expects updates dimension {axis} (window of input dimension {window[axis]}) to "
                                f"be <= {n}, got {u}")
        elif isinstance(u, int) and isinstance(n, int) and u != n:
            raise RuleError(f"expects updates dimension {axis} to be the size of its scatter_indices dimension "
                            f"({n}), got {u}")


def scatter_size_misfits(operand: Shape, indices: Shape, updates: Shape,
                         dims: GatherDims) -> list[tuple[int, str, int | None]]:
    """The pairs of a scatter that a ``?`` leaves to check at run time, per
    updates dim ``axis``: ``("window", d)``, its size no larger than operand
    dim ``d``'s; ``("count", k)``, its size equal to scatter_indices dim
    ``k``'s (``scatter_size_words`` gives each its words). Static pairs were
    checked by ``check_scatter``."""
    window = dict(zip(dims.offset_dims, dims.window_dims(len(operand))))
    batch = iter(dims.batch_dims(len(indices)))
    misfits: list[tuple[int, str, int | None]] = []
    for axis, u in enumerate(updates):
        if axis in window:
            d = window[axis]
            if (isinstance(u, Dynamic) or isinstance(operand[d], Dynamic)) and u != 0:
                misfits.append((axis, "window", d))
        else:
            k = next(batch)
            if isinstance(u, Dynamic) or isinstance(indices[k], Dynamic):
                misfits.append((axis, "count", k))
    return misfits


def scatter_size_words(axis: int, what: str, other: int) -> str:
    """The run-time error of a scatter's updates dim ``axis`` that does not
    fit (``{0}``: its run-time size, ``{1}``: the other's), one wording for
    the check make-explicit writes and the one the evaluators make (the
    compile-time rule's words)."""
    if what == "window":
        return (f"scatter updates dimension {axis} (window of input dimension {other}) has size {{0}}, larger "
                f"than the input's {{1}}")
    return (f"scatter updates dimension {axis} has size {{0}}, not the size of its scatter_indices dimension "
            f"{other} ({{1}})")


def arg_reduce_empty_words(what: str, d: int) -> str:
    """The run-time error of ``argmax``/``argmin`` (``what``) along a ``?``
    dim ``d`` that is empty (``{0}``: its size), the verifier's words for a
    static empty dim: one wording for the check make-explicit writes and
    the one the evaluators make (docs/ir.md, "argmax")."""
    return f"{what} of an empty dim (dim {d} has size {{0}})"


def arg_reduce_index_words(what: str, d: int, index: str) -> str:
    """The run-time error of ``argmax``/``argmin`` along a ``?`` dim ``d``
    whose last index (``{0}``: its size) the ``index`` type cannot hold."""
    return f"{what} of dim {d} of size {{0}}: index type {index} cannot hold its last index"


def reduce_shape(operand: Shape, dims: Sequence[int], keepdims: bool) -> Shape:
    """The shape ``operand`` reduced over ``dims`` has (size 1 there with
    ``keepdims``, the Array API's ``keepdims=True``; removed otherwise);
    dims must be distinct and in range (any order)."""
    check_dims(operand, dims)
    if keepdims:
        return tuple(1 if i in dims else n for i, n in enumerate(operand))
    return tuple(n for i, n in enumerate(operand) if i not in dims)


# --------------------------------------------------------------------------
# Contractions: dot_general and matmul
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class DotDims:
    """The dimension numbers of ``dot_general``: which dims of each operand
    are batch dims (paired in order) and which are contracted (paired)."""

    lhs_batch: tuple[int, ...] = ()
    rhs_batch: tuple[int, ...] = ()
    lhs_contract: tuple[int, ...] = ()
    rhs_contract: tuple[int, ...] = ()

    def free(self, rank: int, side: str) -> tuple[int, ...]:
        """The dims of the ``side`` operand (``lhs``/``rhs``) that are
        neither batch nor contracted, in order: they reach the result."""
        taken = {*getattr(self, f"{side}_batch"), *getattr(self, f"{side}_contract")}
        return tuple(d for d in range(rank) if d not in taken)

    def is_matmul(self, lhs_rank: int, rhs_rank: int) -> bool:
        """Whether ``np.matmul`` of the operands as they are is this
        contraction (every ``matmul_plan`` is): leading batch dims in order on
        both sides (at most two more dims each), ``lhs``'s last dim contracted
        with ``rhs``'s second-to-last (its only one when 1-D); or no batch
        dims, an ``rhs`` of rank <= 2 contracted on its first dim."""
        b = len(self.lhs_batch)
        if self.lhs_contract != (lhs_rank - 1,) or len(self.rhs_contract) != 1:
            return False
        if b == 0 and rhs_rank <= 2:
            return self.rhs_contract == (0,)
        if lhs_rank == 1:
            return b == 0 and self.rhs_contract == (rhs_rank - 2,)
        batch = tuple(range(b))
        return (self.lhs_batch == batch and self.rhs_batch == batch and lhs_rank == b + 2
                and rhs_rank == b + 2 and self.rhs_contract == (b,))  # fmt: skip


def dot_general_shape(lhs: Shape, rhs: Shape, dims: DotDims) -> Shape:
    """The result shape of ``dot_general``: the batch dims, then the free dims
    of ``lhs``, then those of ``rhs`` (StableHLO's rules C1-C10 and C12:
    paired lists of equal length, dims unique and in range per operand,
    paired sizes equal)."""
    for what, left, right in (("batching", dims.lhs_batch, dims.rhs_batch),
                              ("contracting", dims.lhs_contract, dims.rhs_contract)):  # fmt: skip
        if len(left) != len(right):
            raise RuleError(
                f"lhs and rhs should have the same number of {what} dimensions",
                [f"lhs has {plural(len(left), 'dimension')}, rhs has {plural(len(right), 'dimension')}"],
            )
    for side, shape in (("lhs", lhs), ("rhs", rhs)):
        batch, contract = getattr(dims, f"{side}_batch"), getattr(dims, f"{side}_contract")
        for name, values in (("batching", batch), ("contracting", contract)):
            for d in values:
                if not 0 <= d < len(shape):
                    raise RuleError(
                        f"{side}_{name}_dimensions value: {d} is out of range: [0, {len(shape)})",
                        [f"{side} has {plural(len(shape), 'dimension')} ({_shape_text(shape)})"],
                    )
        seen: set[int] = set()
        for d in (*batch, *contract):
            if d in seen:
                raise RuleError(
                    f"has duplicated dimension from {side}_batching_dimensions and "
                    f"{side}_contracting_dimensions: {d}",
                    ["a dimension is a batch dimension, a contracting dimension or neither, once"],
                )
            seen.add(d)
    batch: list[Dim] = []
    for what, left, right in (("batching", dims.lhs_batch, dims.rhs_batch),
                              ("contracting", dims.lhs_contract, dims.rhs_contract)):  # fmt: skip
        for a, b in zip(left, right):
            pair = strict_dim(lhs[a], rhs[b])
            if pair is None:
                raise RuleError(
                    f"{what} dimension sizes must match for lhs/rhs",
                    [f"lhs dimension {a} has size {lhs[a]}, rhs dimension {b} has size {rhs[b]}"],
                )
            if what == "batching":
                batch.append(pair[0])
    return (tuple(batch) + tuple(lhs[d] for d in dims.free(len(lhs), "lhs"))
            + tuple(rhs[d] for d in dims.free(len(rhs), "rhs")))  # fmt: skip


def unproven_dot_pairs(lhs: Sequence[Dim], rhs: Sequence[Dim], dims: DotDims) -> tuple[list[int], list[int]]:
    """The positions in ``dims``'s batch and in its contracting pairs that
    hold a ``?``: their sizes agree only if the run-time sizes do, which
    ``dot_general`` leaves to a run-time check (a static pair was compared
    by :func:`dot_general_shape`; sizes proven equal by one SSA value are
    the caller's to drop)."""
    def unproven(left: Sequence[int], right: Sequence[int]) -> list[int]:
        return [k for k, (a, b) in enumerate(zip(left, right))
                if isinstance(lhs[a], Dynamic) or isinstance(rhs[b], Dynamic)]

    return unproven(dims.lhs_batch, dims.rhs_batch), unproven(dims.lhs_contract, dims.rhs_contract)


@dataclass(frozen=True)
class MatmulPlan:
    """How ``matmul`` is one ``dot_general``: each operand broadcast to
    ``lhs_to``/``rhs_to`` (its own shape when it needs no broadcast), then
    contracted with ``dims``, which gives ``result`` directly."""

    lhs_to: Shape
    rhs_to: Shape
    dims: DotDims
    result: Shape


def matmul_plan(lhs: Shape, rhs: Shape, semantics: Semantics) -> MatmulPlan:
    """The Array API's ``matmul`` (``np.matmul``): a 1-D ``lhs`` is a row and
    a 1-D ``rhs`` a column whose unit dim leaves the result; the last two
    dims multiply as matrices and the dims before them are batch dims that
    broadcast from the right (``numpy`` and ``tml``) or must be equal, rank
    included (``xla``: StableHLO's batch dims match exactly).

    Decision: only when both operands have a matrix and ``rhs`` has batch
    dims are the operands broadcast to the common batch shape (a view on
    every backend that has views) and contracted with batch dims. Otherwise
    the contraction needs no broadcast and no reshape: an ``rhs`` of rank
    <= 2 contracts its first dim with ``lhs``'s last (``lhs``'s batch dims
    are free dims: ``x @ W`` is one contraction, as JAX lowers it), and a
    1-D ``lhs`` contracts with ``rhs``'s second-to-last dim."""
    if not lhs or not rhs:
        raise RuleError(
            "matmul operands must have at least one dimension",
            [f"lhs is {_shape_text(lhs)}, rhs is {_shape_text(rhs)}; use bcast.multiply for scalars"],
        )
    k_rhs = rhs[0] if len(rhs) == 1 else rhs[-2]
    if strict_dim(lhs[-1], k_rhs) is None:
        raise RuleError(
            f"matmul contracting dimension sizes differ: lhs has {lhs[-1]}, rhs has {k_rhs}",
            ["the last dim of lhs multiplies the second-to-last of rhs (the only dim of a 1-D operand)"],
        )
    lhs_batch, rhs_batch = lhs[:-2], rhs[:-2]
    if semantics == "xla" and len(lhs) > 1 and len(rhs) > 1 and (
            len(lhs_batch) != len(rhs_batch) or any(strict_dim(a, b) is None for a, b in zip(lhs_batch, rhs_batch))):
        raise RuleError(
            f"matmul batch dimensions differ under xla semantics: lhs {shape_str(lhs_batch)}, "
            f"rhs {shape_str(rhs_batch)}",
            ["xla requires equal batch dims (StableHLO's dot_general); broadcast them with "
             "bcast.broadcast_in_dim, or use numpy semantics"],
        )
    try:
        if semantics == "xla" and len(lhs) > 1 and len(rhs) > 1:  # equal, a ``?`` checked at run time
            batch = tuple(strict_dim(a, b)[0] for a, b in zip(lhs_batch, rhs_batch))  # type: ignore[index]
        else:
            batch = broadcast_shapes(lhs_batch, rhs_batch)
    except IncompatibleDims as e:
        raise RuleError(
            "matmul batch dimensions are not broadcast-compatible: "
            f"{shape_str(lhs_batch)} and {shape_str(rhs_batch)}",
            [f"dimension {e.axis} of the batch dims (those before the last two): "
             f"{e.sizes[0]} vs {e.sizes[1]} (neither is 1)"],
        ) from None
    if len(rhs) <= 2:
        dims = DotDims((), (), (len(lhs) - 1,), (0,))
        return MatmulPlan(lhs, rhs, dims, lhs[:-1] + rhs[1:])
    if len(lhs) == 1:
        dims = DotDims((), (), (0,), (len(rhs) - 2,))
        return MatmulPlan(lhs, rhs, dims, rhs[:-2] + rhs[-1:])
    b = len(batch)
    dims = DotDims(tuple(range(b)), tuple(range(b)), (b + 1,), (b,))
    if semantics == "xla":  # equal batch dims: nothing to broadcast (a ``?`` pair is checked equal)
        return MatmulPlan(lhs, rhs, dims, (*batch, lhs[-2], rhs[-1]))
    return MatmulPlan((*batch, *lhs[-2:]), (*batch, *rhs[-2:]), dims, (*batch, lhs[-2], rhs[-1]))

def _shape_text(shape: Shape) -> str:
    return "shape " + "x".join(map(str, shape)) if shape else "a scalar"


def check_dynamic_reshape(operand: Shape, result: Shape) -> None:
    """``reshape`` with ``?`` dims (``reshape``'s own, not ``dynamic_reshape``'s
    size operands): the result has at most one ``?``, unbounded, whose size
    is the operand's element count over the result's static dims (NumPy's
    ``-1``), so those multiply to more than 0; an element count that no
    run-time size keeps is refused here, one that some may keep is checked
    at run time (``ops.reshape_sizes``)."""
    unknown = [d for d in result if isinstance(d, Dynamic)]
    if len(unknown) > 1 or (unknown and unknown[0].bound is not None):
        raise RuleError(f"reshape to {shape_str(result)} has no size for its ? dimensions",
                        ["reshape gives one unbounded ? dimension a size (the element count over the other "
                         "dimensions); write bcast.dynamic_reshape with the sizes as operands"])
    known = element_count([d for d in result if isinstance(d, int)])
    if unknown and known == 0:
        raise RuleError(f"reshape to {shape_str(result)} has no size for its ? dimension",
                        ["beside a dimension of size 0 every size of it holds 0 elements"])
    fixed = element_count([d for d in operand if isinstance(d, int)])
    if not is_dynamic(operand) and unknown and fixed % known:
        raise RuleError(f"number of output elements ({shape_str(result)}) doesn't match expected number of "
                        f"elements ({fixed})", [f"{fixed} is not a multiple of {known}"])
    if is_dynamic(operand) and not unknown and (known % fixed if fixed else known):
        raise RuleError(f"number of output elements ({known}) doesn't match expected number of elements "
                        f"({shape_str(operand)}) at any size", [f"{known} is not a multiple of {fixed}"])


def element_count(shape: Shape) -> int:
    n = 1
    for d in shape:
        n *= d
    return n


INT64_MAX = 2**63 - 1
"""The largest size bcast accepts: every backend indexes with int64 (NumPy's
intp, C's int64_t, StableHLO's i64 dims), as MLIR's ShapedType does."""


def check_sizes_fit_int64(levels: Levels) -> None:
    """Every static dimension, and the element count (the product of the flat
    shape's dims, which indexing the flat value needs), fits int64; a
    dynamic dimension is checked when its size is known (at run time)."""
    if is_dynamic(flat_shape(levels)):
        return
    for d in flat_shape(levels):
        if d > INT64_MAX:
            raise RuleError(f"dimension size {d} does not fit in int64 (the largest is {INT64_MAX})")
    count = element_count(flat_shape(levels))
    if count > INT64_MAX:
        raise RuleError(f"{count} elements do not fit in int64 (the largest count is {INT64_MAX})",
                        [f"the element count is the product of the dimensions {shape_str(flat_shape(levels))}"])


def is_sorted(dims: Sequence[int]) -> bool:
    """Strictly increasing: the broadcast dims XLA accepts (no transposition)."""
    return all(a < b for a, b in zip(dims, dims[1:]))


def is_identity(dims: Sequence[int], rank: int) -> bool:
    """``[0, 1, ..., rank - 1]``: dims or a permutation that change nothing."""
    return list(dims) == list(range(rank))


def inverse_permutation(perm: Sequence[int]) -> list[int]:
    inverse = [0] * len(perm)
    for m, p in enumerate(perm):
        inverse[p] = m
    return inverse


def split_transposing_broadcast(
    operand: Shape, dims: Sequence[int]
) -> tuple[list[int], Shape, list[int]]:
    """``broadcast_in_dim(x, dims)`` with unsorted ``dims`` is
    ``broadcast_in_dim(transpose(x, perm), sorted(dims))``; returns ``perm``,
    the transposed operand shape and the sorted dims."""
    perm = sorted(range(len(dims)), key=lambda k: dims[k])
    return perm, tuple(operand[p] for p in perm), sorted(dims)


def is_permuting_broadcast(operand: Shape, result: Shape, dims: Sequence[int]) -> bool:
    """A same-rank broadcast that expands nothing: a transpose by the inverse
    of ``dims``."""
    return len(operand) == len(result) and all(
        operand[k] == result[d] for k, d in enumerate(dims)
    )


def moves_only_unit_dims(shape: Shape, perm: Sequence[int]) -> bool:
    """Whether ``transpose(x : shape, perm)`` keeps the dims of size other
    than 1 in their order (it moves only size-1 dims): then it is a reshape,
    the elements staying in memory order (``transpose(x : 1x4x1x3, [2, 1, 0,
    3]) : 1x4x1x3``, ``transpose(x : 4x1, [1, 0]) : 1x4``)."""
    kept = [p for p in perm if shape[p] != 1]
    return kept == sorted(kept)


def unit_dim_reshape_permutation(before: Shape, after: Shape) -> list[int] | None:
    """For a reshape of the same rank that only moves size-1 dims (what a
    transpose of size-1 dims becomes, ``moves_only_unit_dims``), where each
    dim of ``before`` stands in ``after``: the other dims in order, the
    size-1 dims in order. None for any other reshape."""
    if len(before) != len(after) or [s for s in before if s != 1] != [s for s in after if s != 1]:
        return None
    units = iter(m for m, s in enumerate(after) if s == 1)
    others = iter(m for m, s in enumerate(after) if s != 1)
    return [next(units) if s == 1 else next(others) for s in before]


def unit_dim_embedding(small: Shape, large: Shape) -> list[int] | None:
    """Where each dim of ``small`` stands in ``large`` when ``large`` is
    ``small`` with size-1 dims inserted; None otherwise."""
    positions: list[int] = []
    k = 0
    for p, size in enumerate(large):
        if k < len(small) and small[k] == size:
            positions.append(p)
            k += 1
        elif size != 1:
            return None
    return positions if k == len(small) else None


def reshape_segments(before: Shape, after: Shape) -> list[tuple[list[int], list[int]]] | None:
    """The smallest groups of non-1 dims of ``before`` and ``after`` with
    equal products (a reshape splits or merges within each group); None for
    empty shapes."""
    if 0 in before or 0 in after:
        return None
    a = [i for i, s in enumerate(before) if s != 1]
    b = [j for j, s in enumerate(after) if s != 1]
    segments: list[tuple[list[int], list[int]]] = []
    i = j = 0
    while i < len(a) and j < len(b):
        group_a, group_b = [a[i]], [b[j]]
        size_a, size_b = before[a[i]], after[b[j]]
        i, j = i + 1, j + 1
        while size_a != size_b:
            if size_a < size_b:
                if i == len(a):
                    return None
                group_a.append(a[i])
                size_a *= before[a[i]]
                i += 1
            else:
                if j == len(b):
                    return None
                group_b.append(b[j])
                size_b *= after[b[j]]
                j += 1
        segments.append((group_a, group_b))
    if i != len(a) or j != len(b):
        return None
    return segments


def reshape_of_broadcast_dims(
    operand: Shape, dims: Sequence[int], before: Shape, after: Shape
) -> list[int] | None:
    """Dims of one broadcast equal to ``reshape(bcast(x, dims) : before) : after``,
    or None. Each dim carrying operand data must stay a dim of its own; the
    expanded dims may be split, merged or dropped freely."""
    if not is_sorted(dims):
        return None
    segments = reshape_segments(before, after)
    if segments is None:
        return None
    owner = {dims[k]: k for k in range(len(operand)) if operand[k] != 1}
    new_dims: dict[int, int] = {}
    for group_before, group_after in segments:
        carried = [owner[d] for d in group_before if d in owner]
        if not carried:
            continue
        if len(group_before) != 1 or len(group_after) != 1:
            return None
        new_dims[carried[0]] = group_after[0]
    # size-1 operand dims may go to any free result dim that keeps the order
    taken = set(new_dims.values())
    result: list[int] = []
    for k in range(len(operand)):
        low = result[-1] + 1 if result else 0
        if k in new_dims:
            target = new_dims[k]
        else:
            target = next((j for j in range(low, len(after)) if j not in taken), len(after))
        if target < low or target >= len(after):
            return None
        result.append(target)
    try:
        check_broadcast_in_dim(operand, after, result, "xla")
    except RuleError:
        return None
    return result


# --------------------------------------------------------------------------
# Nested (TML) shapes
# --------------------------------------------------------------------------


def flat_shape(levels: Levels) -> Shape:
    return tuple(d for level in levels for d in level)


def is_scalar(levels: Levels) -> bool:
    """A TML scalar: a rank-0, non-nested value."""
    return len(levels) == 1 and levels[0] == ()


def broadcast_levels(*operands: Levels) -> Levels:
    """TML arithmetic broadcasting: the NumPy rule at every nesting level.

    Levels align from the outside; an operand with fewer levels is a scalar
    at the missing inner levels (a base type broadcasts to a tensor type)."""
    depth = max(len(o) for o in operands)
    result: list[Shape] = []
    for level in range(depth):
        shapes = tuple(o[level] if level < len(o) else () for o in operands)
        try:
            result.append(broadcast_shapes(*shapes))
        except IncompatibleDims as e:
            e.level = level if depth > 1 else None
            raise
    return tuple(result)


def flat_broadcast_shape(operand: Levels, result: Levels) -> Shape:
    """The flat shape of ``operand`` with size-1 dims inserted per level so that
    NumPy broadcasting of the flat value to ``flat_shape(result)`` is exactly
    the per-level broadcast."""
    out: list[int] = []
    for level, res in enumerate(result):
        own = operand[level] if level < len(operand) else ()
        out.extend((1,) * (len(res) - len(own)) + own)
    return tuple(out)


def flat_broadcast_dims(operand: Levels, result: Levels) -> tuple[int, ...]:
    """``broadcast_in_dim`` dims taking the flat ``operand`` to the flat ``result``."""
    dims: list[int] = []
    offset = 0
    for level, res in enumerate(result):
        own = operand[level] if level < len(operand) else ()
        dims.extend(range(offset + len(res) - len(own), offset + len(res)))
        offset += len(res)
    return tuple(dims)


def check_strict_levels(operands: Sequence[Levels], what: str) -> Levels:
    """TML logical, relational and bitwise rule: one operand a scalar, or the
    same nesting and the same dims at every level."""
    tensors = [o for o in operands if not is_scalar(o)]
    if not tensors:
        return operands[0]
    first = tensors[0]
    if any(levels_dynamic(o) for o in tensors):
        if any(len(o) != len(first) for o in tensors):
            check_strict_dynamic([(), (0,)], what)  # different nesting: the same error
        return tuple(check_strict_dynamic([o[k] for o in tensors], what)[0] for k in range(len(first)))
    for other in tensors[1:]:
        if other != first:
            raise RuleError(
                f"{what} operations under tml semantics need a scalar operand or "
                "identical shapes at every nesting level",
                ["tml broadcasts these operations only from a scalar; broadcast "
                 "explicitly with bcast.broadcast_in_dim"],
            )
    return first


def check_assign_levels(dst: Levels, src: Levels) -> None:
    """Assignment: ``src`` broadcasts to ``dst`` without changing ``dst``, at
    every level."""
    if len(src) > len(dst):
        raise RuleError("the source is nested deeper than the destination")
    for level, d in enumerate(dst):
        s = src[level] if level < len(src) else ()
        if len(s) > len(d):
            raise RuleError(
                f"the source has rank {len(s)}, more than the indexed destination's "
                f"{len(d)}" + (f" at nesting level {level}" if len(dst) > 1 else ""),
                [f"source shape {shape_str(s)} cannot broadcast to {shape_str(d)} "
                 "without changing the destination"],
            )
        for axis in range(-len(s), 0):
            if s[axis] not in (1, d[axis]):
                raise RuleError(
                    f"the source does not broadcast to the indexed destination: "
                    f"dimension {axis}: {s[axis]} vs {d[axis]}"
                    + (f" at nesting level {level}" if len(dst) > 1 else ""),
                    [f"source shape {shape_str(s)}, indexed destination shape "
                     f"{shape_str(d)}: a source dimension must equal the "
                     "destination's or be 1"],
                )


def narrow_levels(levels: Levels) -> Levels:
    """TML narrowcasting: drop the top level's size-1 dims; if none remain and
    the value is nested, the result is the base (inner) type."""
    top = tuple(d for d in levels[0] if d != 1)
    if not top and len(levels) > 1:
        return levels[1:]
    return (top,) + levels[1:]


@dataclass(frozen=True)
class IndexPlan:
    """How ``extract``/``assign`` indices apply to a (possibly nested) value."""

    consumed: tuple[tuple[int, int], ...]
    """(flat dim, index position) for each index that selects along a dim."""
    result: Levels
    """The levels of the selected sub-value."""
    indices: tuple[int | None, ...] = ()
    """The normalised indices (index-access broadcasting made explicit): one
    per consumed dim, surplus indices dropped, 0 on a size-1 dim for a
    literal index and, under tml, for a dynamic one; otherwise the index as
    given (``None``: a dynamic index, bounds-checked at run time)."""


def plan_indices(
    levels: Levels,
    indices: Sequence[int | None],
    semantics: Semantics,
    what: str,
) -> IndexPlan:
    """Apply literal indices (``None`` for a dynamic one) to a value.

    Indices walk the flat dims, outer levels first. Under ``tml`` semantics
    index-access broadcasting applies: an index on a size-1 dim may be any
    value (it reads element 0) and indices beyond the rank are ignored.
    Otherwise every index must be in bounds and there may be at most as many
    indices as dims."""
    flat = flat_shape(levels)
    if len(indices) > len(flat) and semantics != "tml":
        raise RuleError(
            f"{what} has {plural(len(indices), 'index', 'indices')} but the value has rank {len(flat)}",
            ["index-access broadcasting (surplus indices ignored) needs tml semantics"],
        )
    consumed = []
    normalised: list[int | None] = []
    for pos, index in enumerate(indices[: len(flat)]):
        size = flat[pos]
        iab = size == 1 and (index is not None or semantics == "tml")
        normalised.append(0 if iab else index)
        if index is not None:
            check_in_bounds(index, size, pos, iab=semantics == "tml")
        consumed.append((pos, pos))
    n = min(len(indices), len(flat))
    # Remaining levels after consuming n flat dims.
    remaining: list[Shape] = []
    offset = 0
    for level in levels:
        if offset + len(level) <= n:
            offset += len(level)
            continue
        start = max(0, n - offset)
        remaining.append(level[start:])
        offset += len(level)
    if not remaining:
        remaining = [()]
    return IndexPlan(tuple(consumed), tuple(remaining), tuple(normalised))


def runtime_index(index: int, size: int, iab: bool, position: int) -> int:
    """A dynamic index at run time, normalised as :func:`plan_indices` does
    it before run time: any value on a size-1 dim under index-access
    broadcasting reads element 0 (``bcast-make-explicit`` writes it as a
    literal 0, so no check can remain there; only a literal index is known
    to be negative at verification), else checked against the dim
    (:class:`RuleError` when negative or out of bounds)."""
    if iab and size == 1:
        return 0
    check_in_bounds(index, size, position, iab)
    return index


def check_in_bounds(index: int, size: int, position: int, iab: bool) -> None:
    """The bounds check of an index, the same for literal and run-time
    indices: never negative (an index is a position, also under index-access
    broadcasting, whose "arbitrary length" of a size-1 dim runs from 0), and
    below the dim's size unless index-access broadcasting (``iab``) lets a
    size-1 dim take any position."""
    if index < 0:
        raise RuleError(f"index {position} is negative ({index})")
    if index >= size and not (iab and size == 1):
        hint = ["index-access broadcasting on size-1 dims needs tml semantics"] if size == 1 else []
        raise RuleError(
            f"index {position} ({index}) is out of bounds for dimension {position} of size {size}",
            hint,
        )


# --------------------------------------------------------------------------
# Element types: kinds and the Array API promotion table
# --------------------------------------------------------------------------

ELEMENT_TYPES = (
    "i1", "i8", "i16", "i32", "i64",
    "ui8", "ui16", "ui32", "ui64",
    "f16", "f32", "f64",
    "bf16",
    "i4", "ui4",
    "complex<f32>", "complex<f64>",
)  # fmt: skip
"""bcast's element types. ``bf16`` (bfloat16: f32's exponent, 8 significand
bits) is JAX's mixed-precision type; NumPy holds it as ``ml_dtypes.bfloat16``
(docs/semantics.md, "bf16"). ``i4``/``ui4`` are JAX's quantized-weight
integers, ``ml_dtypes.int4``/``uint4`` (docs/semantics.md, "i4 and ui4").
``complex<f32>``/``complex<f64>`` are NumPy's and JAX's complex64/complex128,
named as MLIR writes them (docs/semantics.md, "Complex numbers")."""

COMPLEX_PARTS = {"complex<f32>": "f32", "complex<f64>": "f64"}
"""Each complex element type -> the float type of its real and imaginary
parts (what ``abs``, ``real`` and ``imag`` return)."""


def complex_of(part: str) -> str:
    """The complex type whose parts are ``part`` (a float): ``f32`` and the
    16-bit floats -> ``complex<f32>``, ``f64`` -> ``complex<f64>`` (the Array API's
    float-complex promotion and ``stablehlo.complex``'s result)."""
    return "complex<f64>" if part == "f64" else "complex<f32>"

NIBBLES = ("i4", "ui4")
"""The 4-bit integers: one per byte in memory, computed in a wider integer
and wrapped back to 4 bits after every op, on every backend (``storage``)."""


def storage(t: str) -> str:
    """The byte-wide integer a 4-bit type is computed in (``i8``/``ui8``:
    the value sign- or zero-extended); every other type is its own."""
    return {"i4": "i8", "ui4": "ui8"}.get(t, t)

HALF_FLOATS = ("f16", "bf16")
"""The 16-bit floats: every backend computes their math functions and
reductions in ``f32`` and rounds each result once (``accumulator``)."""


def accumulator(t: str) -> str:
    """The element type ``t`` is summed, multiplied and folded in: ``f32``
    for the 16-bit floats (rounded once at the end, as XLA's CPU backend
    does), else ``t`` itself (integers wrap)."""
    return "f32" if t in HALF_FLOATS else t


def kind(t: str) -> Literal["bool", "signed", "unsigned", "float", "complex"]:
    if t == "i1":
        return "bool"
    if t in COMPLEX_PARTS:
        return "complex"
    if t.startswith("ui"):
        return "unsigned"
    if t.startswith("i"):
        return "signed"
    return "float"


def bit_width(t: str) -> int:
    """Bits of one value (a complex value's two parts together)."""
    if t in COMPLEX_PARTS:
        return 2 * bit_width(COMPLEX_PARTS[t])
    return 1 if t == "i1" else int(t.lstrip("uibf"))


def promote_types(a: str, b: str) -> str:
    """The Array API promotion table; mixing kinds is an error, except a
    float with a complex, which the table promotes to the complex type
    whose parts hold both (``f64`` + ``complex<f32>`` -> ``complex<f64>``; docs/semantics.md,
    "Complex numbers")."""
    if a == b:
        return a
    ka, kb = kind(a), kind(b)
    if "complex" in (ka, kb) and {ka, kb} <= {"float", "complex"}:
        parts = [COMPLEX_PARTS.get(t, t) for t in (a, b)]
        return complex_of("f64" if "f64" in parts else "f32")
    if ka == kb:
        if ka == "bool":
            return a
        if {a, b} == set(HALF_FLOATS):
            return "f32"  # neither holds the other (JAX's lattice: f16, bf16 -> f32)
        return a if bit_width(a) >= bit_width(b) else b
    if {ka, kb} == {"signed", "unsigned"}:
        signed, unsigned = (a, b) if ka == "signed" else (b, a)
        width = max(bit_width(signed), 2 * bit_width(unsigned))
        if width > 64:
            raise RuleError(
                f"no integer type holds both {a} and {b}",
                ["convert one operand explicitly with bcast.convert"],
            )
        return f"i{width}"
    raise RuleError(
        f"element types {a} and {b} are of different kinds ({ka} and {kb}) and "
        "do not promote",
        ["insert an explicit bcast.convert to choose the common type"],
    )


def promote_all(types: Sequence[str]) -> str:
    result = types[0]
    for t in types[1:]:
        result = promote_types(result, t)
    return result


def assignable(src: str, dst: str) -> bool:
    """TML/Array API assignment: the source type promotes into the destination's."""
    try:
        return promote_types(src, dst) == dst
    except RuleError:
        return False


# --------------------------------------------------------------------------
# Convolution (StableHLO's ``convolution``: ``jax.lax.conv_general_dilated``)
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class ConvDims:
    """Which dim of each operand and of the result is what: the input's
    batch, feature and spatial dims, the kernel's input feature, output
    feature and spatial dims, the output's batch, feature and spatial dims
    (spatial dims paired in order). ``[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1,
    f]`` is ``ConvDims(0, 3, (1, 2), 2, 3, (0, 1), 0, 3, (1, 2))``."""

    input_batch: int
    input_feature: int
    input_spatial: tuple[int, ...]
    kernel_input_feature: int
    kernel_output_feature: int
    kernel_spatial: tuple[int, ...]
    output_batch: int
    output_feature: int
    output_spatial: tuple[int, ...]

    LETTERS: ClassVar[tuple[tuple[str, str], ...]] = (("b", "f"), ("i", "o"), ("b", "f"))
    """The letters of each layout's two non-spatial dims, in field order."""

    def layouts(self) -> tuple[tuple[int, int, tuple[int, ...]], ...]:
        """(first, second, spatial) for the input, the kernel and the output."""
        return ((self.input_batch, self.input_feature, self.input_spatial),
                (self.kernel_input_feature, self.kernel_output_feature, self.kernel_spatial),
                (self.output_batch, self.output_feature, self.output_spatial))  # fmt: skip

    def text(self) -> str:
        """``[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]``: each layout lists its
        dims in order, a spatial dim by its pair's number."""
        parts = []
        for (first, second, spatial), letters in zip(self.layouts(), self.LETTERS):
            names = {first: letters[0], second: letters[1], **{d: str(k) for k, d in enumerate(spatial)}}
            parts.append("[" + ", ".join(names.get(d, "?") for d in range(len(spatial) + 2)) + "]")
        return f"{parts[0]}x{parts[1]}->{parts[2]}"


@dataclass(frozen=True)
class Convolution:
    """Everything ``convolution`` needs beside its operands: the dimension
    numbers and the window (per spatial dim: stride, low/high padding of the
    dilated input, negative crops; input and kernel dilation; whether the
    kernel is reversed), and the feature and batch group counts."""

    dims: ConvDims
    strides: tuple[int, ...]
    low: tuple[int, ...]
    high: tuple[int, ...]
    lhs_dilation: tuple[int, ...]
    rhs_dilation: tuple[int, ...]
    reversal: tuple[bool, ...]
    feature_group_count: int = 1
    batch_group_count: int = 1

    @staticmethod
    def plain(dims: ConvDims, **window: Sequence[int] | int) -> Convolution:
        """Unit strides and dilations, no padding, no reversal, one group,
        except where ``window`` says otherwise."""
        n = len(dims.input_spatial)
        fields: dict = {"strides": (1,) * n, "low": (0,) * n, "high": (0,) * n, "lhs_dilation": (1,) * n,
                        "rhs_dilation": (1,) * n, "reversal": (False,) * n}  # fmt: skip
        fields.update({k: tuple(v) if isinstance(v, Sequence) else v for k, v in window.items()})
        return Convolution(dims, **fields)


def conv_window_count(n: int, k: int, stride: int, low: int, high: int, lhs_dilation: int,
                      rhs_dilation: int) -> int:
    """How many windows ``convolution`` places along one spatial dim of the
    input of size ``n`` for a kernel of size ``k`` (StableHLO's C25): the
    count ``reduce_window`` places (``reduce_window_size``), the input's
    dilation being the base dilation and the kernel's the window's."""
    return reduce_window_size(n, k, stride, lhs_dilation, rhs_dilation, low, high)


def _conv_layout_dims(what: str, layout: tuple[int, int, tuple[int, ...]], rank: int) -> None:
    """C12-C13, C17-C18, C19-C20: N-2 spatial dims, every dim named once, in range."""
    first, second, spatial = layout
    if len(spatial) != rank - 2:
        raise RuleError(f"expects convolution arguments to have {rank - 2} {what} spatial dimensions, "
                        f"got {len(spatial)}")  # fmt: skip
    named = (first, second, *spatial)
    if len(set(named)) != len(named):
        raise RuleError(f"expects {what} dimension-numbers to be unique, got {{{', '.join(map(str, named))}}}")
    for d in named:
        if not 0 <= d < rank:
            raise RuleError(f"expects {what} dimension-numbers to be in-range [0, {rank}), got {d}")


def convolution_shape(lhs: Sequence[Dim], rhs: Sequence[Dim], conv: Convolution) -> tuple[Dim, ...]:
    """The result shape of ``convolution`` (StableHLO's C25) after its rules
    C1-C23 on the shapes and attributes (worded as StableHLO's verifier
    words them). A ``?`` input batch dim gives a ``?`` result batch dim
    with one batch group; a ``?`` input spatial dim gives a ``?`` result
    spatial dim, its size ``conv_window_count`` of the run-time input size
    (bounded by that of the input's bound); the kernel and the feature dims
    are static (bcast's subset, docs/ir.md "convolution")."""
    n = len(lhs)
    if len(rhs) != n:
        raise RuleError(f"expects convolution arguments to have same number of dimensions, got: "
                        f"{n} and {len(rhs)}")  # fmt: skip
    if n < 2:
        raise RuleError(f"expects convolution arguments to have >= 2 dimensions, got: {n}")
    d = conv.dims
    for what, layout in zip(("input", "kernel", "output"), d.layouts()):
        _conv_layout_dims(what, layout, n)
    window = {"window-strides": conv.strides, "padding-entries": conv.low, "lhs-dilation": conv.lhs_dilation,
              "rhs-dilation": conv.rhs_dilation, "window-reversal": conv.reversal}
    for name, values in window.items():
        if len(values) != n - 2:
            raise RuleError(f"expects {name} to have same dimension-size as size of window dimensions "
                            f"({n - 2}), but got: {len(values)}")  # fmt: skip
    for k, w in enumerate(conv.dims.kernel_spatial):
        if rhs[w] == 0:
            raise RuleError(f"expects window to have positive value for {k}-th window dimension, but got 0")
    for name, values in (("stride", conv.strides), ("lhs dilation factor", conv.lhs_dilation),
                         ("rhs dilation factor", conv.rhs_dilation)):  # fmt: skip
        for i, v in enumerate(values):
            if v <= 0:
                raise RuleError(f"expects window to have positive {name} for {i}-th window dimension, but got {v}")
    groups, batch_groups = conv.feature_group_count, conv.batch_group_count
    if groups <= 0:
        raise RuleError(f"feature_group_count must be > 0, got {groups}")
    if batch_groups <= 0:
        raise RuleError(f"batch_group_count must be > 0, got {batch_groups}")
    if groups > 1 and batch_groups > 1:
        raise RuleError(f"expects batch_group_count and feature_group_count not to be both greater than 1, "
                        f"got {batch_groups} and {groups} resp.")  # fmt: skip
    batch, features = lhs[d.input_batch], lhs[d.input_feature]
    kernel_in, kernel_out = rhs[d.kernel_input_feature], rhs[d.kernel_output_feature]
    dynamic = [f"input dimension {i}" for i, s in enumerate(lhs) if isinstance(s, Dynamic) and i == d.input_feature]
    dynamic += [f"kernel dimension {i}" for i, s in enumerate(rhs) if isinstance(s, Dynamic)]
    if dynamic or (isinstance(batch, Dynamic) and batch_groups != 1):
        raise RuleError(f"convolution with a ? {dynamic[0] if dynamic else 'batch dimension and batch groups'} "
                        "is not supported",
                        ["bcast's convolution takes ? only in the input's batch and spatial dimensions, "
                         "with one batch group when the batch is ?"])
    if isinstance(batch, int) and batch % batch_groups:
        raise RuleError(f"expects input batch dimension ({batch}) to be divisible by batch_group_count. "
                        f"Got batch_group_count = {batch_groups}.")  # fmt: skip
    if features % groups:
        raise RuleError(f"expects input feature dimension ({features}) to be a multiple of feature_group_count. "
                        f"Got feature_group_count = {groups}.")  # fmt: skip
    if features // groups != kernel_in:
        raise RuleError(f"expects input feature dimension ({features}) / feature_group_count = kernel input "
                        f"feature dimension ({kernel_in}). Got feature_group_count = {groups}.")  # fmt: skip
    if kernel_out % batch_groups:
        raise RuleError(f"expects output feature dimension size ({kernel_out}) to be a multiple of "
                        f"batch_group_count. Got batch_group_count = {batch_groups}.")  # fmt: skip
    if kernel_out % groups:
        raise RuleError(f"expects kernel output feature dimension ({kernel_out}) to be divisible by "
                        f"feature_group_count. For feature_group_count = {groups}.")  # fmt: skip
    result: list[Dim] = [0] * n
    result[d.output_batch] = batch if isinstance(batch, Dynamic) else batch // batch_groups
    result[d.output_feature] = kernel_out
    for k, (o, i, w) in enumerate(zip(d.output_spatial, d.input_spatial, d.kernel_spatial)):
        count = functools.partial(conv_window_count, k=rhs[w], stride=conv.strides[k], low=conv.low[k],
                                  high=conv.high[k], lhs_dilation=conv.lhs_dilation[k],
                                  rhs_dilation=conv.rhs_dilation[k])  # fmt: skip
        size = lhs[i]
        if isinstance(size, Dynamic):  # the count grows with the input size: the bound's is the count's bound
            result[o] = Dynamic(None if size.bound is None else count(size.bound))
        else:
            result[o] = count(size)
    return tuple(result)


def triangular_solve_shape(a: Shape, b: Shape, left_side: bool, a_type: str, b_type: str) -> Shape:
    """The result shape of ``triangular_solve``: ``b``'s. ``a`` is a batch of
    square matrices (rank >= 2), ``b`` has ``a``'s rank and batch dims, and
    its rows (``left_side``) or columns match ``a``'s order (StableHLO's
    rules, checked in its order and words; docs/ir.md, "triangular_solve")."""
    if len(a) < 2:
        raise RuleError(f"operand 'a' must have rank >= 2, but got '{a_type}'")
    if a[-1] != a[-2]:
        raise RuleError(f"two minor dimensions of operand 'a' must be compatible, but got '{a_type}'")
    if len(a) != len(b):
        raise RuleError(f"operands must have equal rank, but got '{a_type}' and '{b_type}'")
    if a[-1] != b[-2 if left_side else -1]:
        raise RuleError(f"shared dimension of operands 'a' and 'b' must be compatible, but got '{a_type}' and "
                        f"'{b_type}'", [f"with left_side = {'true' if left_side else 'false'}, a's order is "
                                        f"b's dimension {len(b) - 2 if left_side else len(b) - 1}"])
    if tuple(a[:-2]) != tuple(b[:-2]):
        raise RuleError(f"batch dimensions of the operands must be compatible, but got '{a_type}' and '{b_type}'",
                        ["triangular_solve does not broadcast its batch dimensions"])
    return tuple(b)


FFT_TYPES = ("FFT", "IFFT", "RFFT", "IRFFT")
"""``fft``'s transforms: complex forward and inverse, real-to-complex
forward and complex-to-real inverse (docs/ir.md, "fft")."""


def fft_type(shape: Shape, element: str, kind: str, length: Sequence[int], operand_type: str) -> tuple[Shape, str]:
    """The result shape and element type of ``fft`` of ``kind`` over the
    trailing ``len(length)`` dims: StableHLO's rules, in its order and
    words, plus one of its spec's (an FFT/IFFT's transformed dims equal
    ``length`` too; docs/ir.md, "fft")."""
    rank = len(length)
    if rank > 3 or rank < 1:
        raise RuleError(f"rank must be between 1 and 3, but got {rank}.")
    if any(n < 0 for n in length):
        raise RuleError(f"fft_length must not be negative, got {list(length)}")
    if len(shape) < rank:
        raise RuleError(f"operand rank must not be less than fft rank of {rank} for operand of type '{operand_type}'")
    got = ", ".join(str(d) for d in shape)
    wanted = ", ".join(str(n) for n in length)
    result = list(shape)
    if kind == "RFFT":
        if element not in ("f32", "f64"):
            raise RuleError(f"RFFT requires f32 or f64 input type, but is given '{element}'.")
        if tuple(shape[-rank:]) != tuple(length):
            raise RuleError(f"RFFT requires innermost dimensions to be compatible with fft_length. Got: {got} but "
                            f"wanted {wanted}.")
        if length[-1] != 0:
            result[-1] = length[-1] // 2 + 1
        return tuple(result), f"complex<{element}>"
    if element not in COMPLEX_PARTS:
        raise RuleError(f"FFT/IFFT/IRFFT take a complex tensor as input, but is given '{operand_type}'")
    if kind == "IRFFT":
        for d, n in zip(shape[-rank:-1], length[:-1]):
            if d != n:
                raise RuleError(f"IRFFT requires non-final dimensions to be compatible with fft_length. Got: {got} "
                                f"but wanted {wanted}, and {d} != {n}.")
        if shape[-1] != length[-1] // 2 + 1:
            raise RuleError(f"IRFFT requires innermost dimension to be compatible with fft_length[-1]/2+1. Got: "
                            f"{shape[-1]} but fft_length is {length[-1]}.")
        if length[-1] != 0:
            result[-1] = length[-1]
        return tuple(result), COMPLEX_PARTS[element]
    if tuple(shape[-rank:]) != tuple(length):
        raise RuleError(f"{kind} requires innermost dimensions to equal fft_length. Got: {got} but wanted {wanted}.",
                        ["StableHLO's spec: a complex transform keeps its operand's shape"])
    return tuple(shape), element


def lu_shapes(a: Shape, a_type: str) -> tuple[Shape, Shape, Shape]:
    """The result shapes of ``lu`` (LAPACK's ``?getrf``): the factors in
    ``a``'s shape, ``min(m, n)`` pivots per matrix, one ``info`` per matrix.
    ``a`` is a batch of matrices (rank >= 2; docs/ir.md, "lu")."""
    if len(a) < 2:
        raise RuleError(f"operand 'a' must have rank >= 2, but got '{a_type}'")
    batch = tuple(a[:-2])
    return tuple(a), (*batch, min(a[-2], a[-1])), batch


def cholesky_shapes(a: Shape, a_type: str) -> tuple[Shape, Shape]:
    """The result shapes of ``cholesky`` (LAPACK's ``?potrf``): the factor in
    ``a``'s shape and one ``info`` per matrix. ``a`` is a batch of square
    matrices (StableHLO's ``cholesky`` rules and words; docs/ir.md, "cholesky")."""
    if len(a) < 2:
        raise RuleError(f"argument 'a' must have rank >= 2, got shape '{a_type}'")
    if a[-1] != a[-2]:
        raise RuleError(f"minor dimensions of 'a' must have equal size, got shape '{a_type}'")
    return tuple(a), tuple(a[:-2])
