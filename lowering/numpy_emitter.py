"""The NumPy target: explicit (and usually fused) bcast IR -> a Python module.

One Python function per ``func.func``. Broadcasts are views (see
``numpy_runtime.expand``), never copies. Elementwise ops are ufunc calls with
``out=`` into a few reused buffers. A ``bcast.fusion`` is evaluated block by
block over its leading dimension so that its temporaries stay in cache:

Block size. A block is ``B`` rows of the iteration shape, with
``B = max(1, BLOCK_BYTES // row_bytes)`` where ``row_bytes`` is the widest
element type times the number of elements in one row (the group's width);
``BLOCK_BYTES`` (1 MiB per buffer) keeps a block's few live buffers in
cache (1 MiB L2 per core, 32 MiB shared L3 on the development machine) while
keeping the per-block Python overhead (a few microseconds per ufunc call,
and a GIL hand-off between threads) small against the memory time. Measured
there on workload (a) at 4096x4096 with 2 threads and ``out=``: 64 KiB
blocks 33 ms, 256 KiB 18 ms, 512 KiB 12 ms, 1 MiB 11 ms, 2 MiB 12 ms.
A group whose whole iteration space fits in one block runs unblocked; one
of at most ``INLINE_BYTES`` per buffer runs inline in the function, its
temporaries fresh ``np.empty`` arrays (or a result array not yet written)
and its broadcasts plain views: at
16x16 the helper call, the block-buffer pool and the tile copies cost
several times the arithmetic (docs/performance.md, per-call cost).
Blocks are spread over worker threads (``BCAST_NUM_THREADS``, default all
cores) in contiguous runs, each thread with its own buffers: NumPy ufuncs
release the GIL inside their loops, so two cores compute two blocks at once.

Ops whose exact semantics NumPy's ufuncs do not give (integer divide,
remainder and power, shifts, float-to-int convert) and reductions call
``bcast.ir.numerics``, the same functions the reference evaluator uses (a
fused reduction reduces the rows of one block into a block buffer; its
broadcast back is a view of that buffer). The generated function runs
with every floating-point error ignored (``np.errstate(all="ignore")``,
``numpy_runtime.FP_ERRORS``) so no NumPy warning reaches the user.
"""

from __future__ import annotations

import builtins
import keyword
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, SSAValue

from bcast.ir import numerics
from bcast.ir import ops as bc
from bcast.ir.evaluate import running_scan
from bcast.ir import rules
from bcast.ir import scalar
from bcast.ir.diagnostics import op_source_loc
from bcast.ir.control_flow import CaseOp, WhileOp
from bcast.ir.fusion import VIEW_OPS, FusionOp, YieldOp, is_elementwise, is_explicit
from bcast.ir.ops import semantics_of
from bcast.ir.types import flat_type_shape, has_dynamic_types, is_dynamic_type, numpy_dtype, split_type
from bcast.lowering import numpy_runtime as rt
from bcast.lowering.reference import signature
from bcast.passes.errors import PassError, check_one_block_functions
from bcast.passes.size_tensors import refines_operand

BLOCK_BYTES = 1024 * 1024

DYNAMIC_FORM_ARRAY_OPS = (bc.DynamicBroadcastInDimOp, bc.SizeToTensorOp, bc.DynamicReshapeOp, bc.DynamicIotaOp,
                          bc.SetDimensionSizeOp)  # fmt: skip
"""The ops of the explicit dynamic form (docs/ir.md) that make arrays, of
run-time sizes: each Python target writes them its own way."""
INLINE_BYTES = 64 * 1024
"""The largest buffer of a fusion that runs inline: small enough that NumPy's
allocator hands out memory without page faults (glibc serves requests below
128 KiB from its heap), so there is no pool to save them."""

def dtype_name(t) -> str:
    return numpy_dtype(t).name


def dtype_source(name: str) -> str:
    """The generated code's expression of a dtype named ``name``: ``np.float32``,
    or ``rt.bfloat16`` for the dtypes NumPy lacks (``numpy_runtime`` holds
    ml_dtypes' ``bfloat16``)."""
    return f"np.{name}" if hasattr(np, name) else f"rt.{name}"


RESERVED = {"np", "rt", "numerics", "out", "outs", "out_flags", "fp_errors", "result", "i", "j", "FUNCTIONS",
            "CHUNKS"} | set(dir(builtins))
"""Names the generated code uses for itself (and Python's builtins)."""


class Names:
    """Readable, unique Python identifiers for SSA values."""

    def __init__(self) -> None:
        self.taken: set[str] = set()
        self.names: dict[SSAValue, str] = {}
        self.suffix: dict[str, int] = {}
        """The last suffix given to each base (every lower one is taken), so
        a hint used thousands of times does not count up from 1 each time."""

    def fresh(self, hint: str) -> str:
        base = re.sub(r"\W", "_", hint) or "v"
        if base[0].isdigit():
            base = "v" + base
        if keyword.iskeyword(base) or base in RESERVED:
            base += "_"
        name, n = base, self.suffix.get(base, 0)
        if n:
            name = f"{base}_{n}"
        while name in self.taken:
            n += 1
            name = f"{base}_{n}"
        self.suffix[base] = n
        self.taken.add(name)
        return name

    def __getitem__(self, value: SSAValue) -> str:
        if value not in self.names:
            self.names[value] = self.fresh(value.name_hint or "v")
        return self.names[value]


@dataclass
class Lines:
    lines: list[str] = field(default_factory=list)
    depth: int = 0

    def __call__(self, text: str) -> None:
        self.lines.append("    " * self.depth + text)


def elementwise_code(op: Operation, args: Sequence[str], dst: str) -> list[str]:
    """Statements computing ``op`` on operand expressions into ``dst``: the
    ufunc that is exactly the op's function for its element kind
    (``numerics.direct_ufunc``) or the definition on arrays, writing into ``dst``."""
    if isinstance(op, bc.BitcastConvertOp):
        return [f"rt.bitcast_into({dst}, {args[0]})"]
    if isinstance(op, bc.ConvertOp):
        return [f"rt.convert_into({dst}, {args[0]})"]
    if isinstance(op, bc.SelectOp):
        p, t, f = args
        return [f"np.copyto({dst}, {f})", f"np.copyto({dst}, {t}, where={p})"]
    ufunc = one_ufunc(op)
    if isinstance(op, bc.CompareOp) and ufunc is None:  # total order, or 4-bit operands (numerics widens them)
        return [f"{dst}[...] = numerics.compare({op.comparison_direction.data.value!r}, {args[0]}, {args[1]}, "
                f"total_order={op.is_total_order})"]
    if ufunc is not None:
        return [f"np.{ufunc.__name__}({', '.join(args)}, out={dst})"]
    function = scalar.name_of(op.SCALAR)  # the definition, on arrays (bcast.ir.numerics)
    return [f"{dst}[...] = numerics.{function}({', '.join(args)})"]


def one_ufunc(op: Operation):
    """The ufunc ``elementwise_code`` writes ``op`` as, one call that
    broadcasts its operands by NumPy's rules (None: other code)."""
    if isinstance(op, bc.BitcastConvertOp | bc.ConvertOp | bc.SelectOp) or not is_elementwise(op):
        return None
    if isinstance(op, bc.CompareOp):
        if op.is_total_order or split_type(op.lhs.type)[1] in rules.NIBBLES:
            return None
        return numerics.COMPARE[op.comparison_direction.data.value]
    return numerics.direct_ufunc(op.SCALAR, split_type(op.results[0].type)[1], len(op.operands))


class PythonModuleEmitter:
    """A Python module with one function per ``func.func`` (a declaration
    becomes a function raising the run-time error every backend gives) and
    a ``FUNCTIONS`` table by symbol name. Subclasses name the target, the
    imports and the emitter of one function (``PythonFunctionEmitter``).

    Several programs (``bcast-opt --split-input-file``: one per chunk) make
    one module: the docstring and imports once (``header``), each chunk's
    functions (``emit_chunk``), then the tables (``footer``). Every
    module-level name is unique across the chunks, so each chunk's code
    keeps calling its own functions and reading its own constants although
    chunks reuse symbol names (every chunk may have ``@main``: the second
    becomes ``main_1``). ``CHUNKS[k]`` is the table of the k-th chunk of the
    input (empty for a chunk that failed), and ``FUNCTIONS`` holds the
    symbols that only one chunk defines, so it never names the wrong one of
    two ``@main``; with a single program there is no ``CHUNKS``."""

    TARGET = ""
    IMPORTS: tuple[str, ...] = ()
    OWN_NAMES: frozenset[str] = frozenset()
    """Module-level names the target's code uses (besides ``RESERVED``)."""
    function_emitter: type[PythonFunctionEmitter]

    def __init__(self, source_name: str = "<source>"):
        self.source_name = source_name
        self.module_names = Names()
        self.module_names.taken |= self.OWN_NAMES
        self.tables: list[dict[str, str]] = []
        """Each chunk's functions: symbol name -> Python name."""

    def emit(self, module: ModuleOp) -> str:
        """The Python module of one program."""
        return self.header() + self.emit_chunk(module) + self.footer()

    def header(self) -> str:
        """The module docstring and imports, once for every chunk."""
        lines = [f'"""Generated by bcast ({self.TARGET} target) from {self.source_name}."""', ""]
        return "\n".join(lines + list(self.IMPORTS)) + "\n"

    def failed_chunk(self) -> None:
        """A chunk that gave no code keeps its place in ``CHUNKS``."""
        self.tables.append({})

    def emit_chunk(self, module: ModuleOp) -> str:
        """The functions of one program (and their module-level constants)."""
        check_one_block_functions(module, f"the {self.TARGET} target")
        out = Lines()
        every = [op for op in module.walk() if isinstance(op, func.FuncOp)]
        python_names = {f.sym_name.data: self.module_names.fresh(f.sym_name.data) for f in every}
        for f in every:
            if not f.body.blocks:  # a declaration: an error if it is ever called
                out("")
                out("")
                out(f"def {python_names[f.sym_name.data]}(*args, out=None):")
                out(f"    raise rt.ProgramError('is a declaration without a body', (), {site(f)!r})")
        for f in every:
            if not f.body.blocks:
                continue
            body = Lines()
            emitter = self.function_emitter(f, body, python_names, self.module_names)
            emitter.emit()
            out("")
            for line in emitter.constants:
                out(line)
            for helper in emitter.helpers:
                out("")
                out.lines.extend(helper)
            out("")
            out.lines.extend(body.lines)
        self.tables.append(python_names)
        return "".join(line + "\n" for line in out.lines)

    def footer(self) -> str:
        """``FUNCTIONS`` (and ``CHUNKS`` for several chunks)."""
        out = Lines()
        out("")
        out("")
        if len(self.tables) == 1:
            functions = self.tables[0]
            doc = "Each func.func of the module by its symbol name."
        else:
            out("CHUNKS = " + python_tuple([python_dict(t) for t in self.tables]))
            out('"""Each chunk\'s functions by symbol name, in input order (empty for a failed chunk)."""')
            defined = [name for table in self.tables for name in table]
            functions = {k: v for table in self.tables for k, v in table.items() if defined.count(k) == 1}
            doc = "The functions whose symbol name only one chunk defines (the others: CHUNKS)."
        out(f"FUNCTIONS = {python_dict(functions)}")
        out(f'"""{doc}"""')
        return "".join(line + "\n" for line in out.lines)


def python_dict(names: dict[str, str]) -> str:
    """Python source of a table: symbol name -> the function of that Python name."""
    return "{" + ", ".join(f"{k!r}: {v}" for k, v in names.items()) + "}"


def slice_index(op: bc.SliceOp) -> str:
    """``1:3, 0:8:2``, the Python index of a ``slice`` (NumPy and the Array
    API alike); ``...`` for rank 0, which keeps a 0-d array (``x[()]`` would
    give NumPy a scalar)."""
    ranges = [f"{s.start}:{s.stop}" + ("" if s.step == 1 else f":{s.step}") for s in op.ranges()]
    return ", ".join(ranges) if ranges else "..."


def sliced_operand(op: bc.SliceOp, x: str) -> str:
    """The operand a ``slice`` indexes: with ``?`` dims, checked first to
    hold the ranges (``rt.in_slice_range``; NumPy and the Array API alike)."""
    return f"rt.in_slice_range({x}, {list(op.limits)}, {site(op)!r})" if has_dynamic_types(op) else x


def dot_dims_expr(op: bc.DotGeneralOp) -> str:
    """``DotDims((0,), (0,), (2,), (1,))``, a ``dot_general``'s dimension
    numbers in generated code (NumPy and the Array API alike)."""
    d = op.dims
    return f"DotDims({d.lhs_batch}, {d.rhs_batch}, {d.lhs_contract}, {d.rhs_contract})"


Expression = Callable[[Any, Any, str], str]
"""How a Python target writes an op that is one call (or one index): from
the function emitter, the op and its first operand's name, the expression
of its result."""


def expression_for(table: Mapping[type[Operation], Expression], op: Operation) -> Expression | None:
    """``op``'s entry in a target's table of expressions, looked up through
    its class's bases (``ArgReduceOp`` is ``argmax``'s and ``argmin``'s)."""
    return next((table[c] for c in type(op).__mro__ if c in table), None)


def result_shape(op: Operation) -> tuple[int, ...]:
    """The flat static shape of ``op``'s (first) result."""
    return flat_type_shape(op.results[0].type)


def starts_source(e: PythonFunctionEmitter, op: bc.DynamicSliceOp | bc.DynamicUpdateSliceOp) -> str:
    """The start indices of ``dynamic_slice``/``dynamic_update_slice``, a tuple."""
    return python_tuple([e.names[v] for v in op.start_indices])


class PythonFunctionEmitter:
    """What every target's function emitter shares: local and module-level names."""

    def __init__(self, function: func.FuncOp, out: Lines, python_names: dict[str, str],
                 module_names: Names):
        self.function = function
        self.out = out
        self.python_names = python_names
        self.module_names = module_names
        """Module-level names: functions and hoisted constants."""
        self.constants: list[str] = []
        self.helpers: list[list[str]] = []
        """Module-level functions (each its lines) the function calls: every
        fusion's block and buffer functions. Nested ``def``s would be
        rebuilt on every call and make CPython's compile() quadratic in the
        number of fusions of one function."""
        self.names = Names()
        self.names.taken |= module_names.taken

    def begin_function(self) -> tuple[list[str], str, str]:
        """The argument and result specs (module level) and the ``def`` line
        with its docstring; the parameter names and the two specs' names."""
        f, out = self.function, self.out
        arguments, results = signature(f)
        argument_specs = self.module_name(f"_{f.sym_name.data}_arguments")
        result_specs = self.module_name(f"_{f.sym_name.data}_results")
        self.constants.append(f"{argument_specs} = {spec_tuple(arguments)}")
        self.constants.append(f"{result_specs} = {spec_tuple(results)}")
        params = [self.names[a] for a in f.body.blocks[0].args]
        out(f"def {self.python_names[f.sym_name.data]}({', '.join(params + ['*', 'out=None'])}):")
        out.depth += 1
        out(f'"""@{f.sym_name.data}: {f.function_type}"""')
        return params, argument_specs, result_specs

    @staticmethod
    def assign_levels(op: bc.AssignOp) -> rules.Levels:
        """The levels of the indexed part of ``assign``'s destination."""
        return op.index_plan().result

    def index_parts(self, op: bc.ExtractOp | bc.AssignOp) -> list[str]:
        """The indices of ``extract``/``assign`` as Python expressions:
        ``rules.plan_indices``' normalised literal indices, and for the
        dynamic ones a run-time check (``rt.check_index``, located at ``op``)."""
        shape = flat_type_shape(op.indexed.type)
        semantics = semantics_of(op)
        given = op.mixed_indices()
        plan = op.index_plan()
        parts = []
        for pos, index in enumerate(plan.indices):
            if index is None:
                name = self.names[given[pos]]
                parts.append(f"rt.check_index({name}, {shape[pos]}, {semantics == 'tml'}, {pos}, {site(op)!r})")
            else:
                parts.append(str(index))
        return parts

    def sizes_source(self, sizes: Sequence[int | SSAValue]) -> str:
        """A tuple of literal and SSA sizes (the explicit dynamic form's size lists)."""
        return python_tuple([str(s) if isinstance(s, int) else self.names[s] for s in sizes])

    def emit_size_op(self, op: Operation) -> bool:
        """The ops of the explicit dynamic form (docs/ir.md) that compute on
        sizes, which every Python target writes alike (sizes are Python
        ints, read from the arrays' shapes): ``dim``, ``broadcast_size`` and
        ``check_broadcastable``, the check calling the reference's own
        definition (``numpy_runtime.check_broadcastable``). Whether ``op``
        was one."""
        out, n = self.out, self.names
        if isinstance(op, bc.DimOp):
            out(f"{n[op.result]} = {n[op.operands[0]]}.shape[{op.dim}]")
        elif isinstance(op, bc.BroadcastSizeOp):
            out(f"{n[op.result]} = rt.broadcast_size({self.sizes_source(list(op.sizes))})")
        elif isinstance(op, bc.CheckBroadcastableOp):
            shapes = python_tuple([self.sizes_source(shape) for shape in op.shapes()])
            landing = python_tuple([str(tuple(dims)) for dims in op.landing_dims()])
            notes = f", {tuple(op.note_templates())!r}" if op.notes is not None else ""
            out(f"rt.check_broadcastable({shapes}, {landing}, {tuple(op.checked.get_values())}, {op.is_strict}, "
                f"{op.message.data!r}, {site(op)!r}{notes})")
        elif isinstance(op, bc.SizeFromTensorOp):
            out(f"{n[op.result]} = rt.size_from_tensor({n[op.operands[0]]}, {site(op)!r})")
        elif isinstance(op, bc.ShapeAssertionOp):
            inputs = python_tuple([n[v] for v in op.inputs])
            out(f"rt.shape_assertion({n[op.predicate]}, {op.message.data!r}, {inputs}, {site(op)!r})")
        else:
            return False
        return True

    def emit_control_flow(self, op: Operation) -> bool:
        """``bcast.while`` as a Python ``while`` and ``bcast.case`` as an
        ``if``/``elif`` chain (docs/ir.md, "Control flow"), their regions'
        ops written by the target's own ``emit_op``; every Python target
        writes them alike. A loop's carried values are its ``cond`` region's
        arguments; only the branch taken runs, so a run-time check in
        another branch never fires. Whether ``op`` was one."""
        out, n = self.out, self.names
        if isinstance(op, WhileOp):
            carried = [n[a] for a in op.cond.block.args]
            out(f"{python_tuple(carried)} = {python_tuple([n[v] for v in op.inputs])}")
            out("while True:")
            out.depth += 1
            (predicate,) = self.emit_region(op.cond.block)
            out(f"if not bool({predicate}):")
            out("    break")
            out(f"{python_tuple([n[a] for a in op.body.block.args])} = {python_tuple(carried)}")
            out(f"{python_tuple(carried)} = {python_tuple(self.emit_region(op.body.block))}")
            out.depth -= 1
            out(f"{python_tuple([n[r] for r in op.outputs])} = {python_tuple(carried)}")
            return True
        if isinstance(op, CaseOp):
            index = n.fresh("branch")
            out(f"{index} = int({n[op.index]})")
            for k, region in enumerate(op.branches):
                if k == len(op.branches) - 1:  # out of range too
                    out("else:" if k else "if True:")
                else:
                    out(f"{'elif' if k else 'if'} {index} == {k}:")
                out.depth += 1
                results = self.emit_region(region.block)
                out(f"{python_tuple([n[r] for r in op.outputs])} = {python_tuple(results)}" if results else "pass")
                out.depth -= 1
            return True
        return False

    def emit_region(self, block) -> list[str]:
        """The ops of a region's block before its ``bcast.yield``; the names
        of the values it yields."""
        for inner in block.ops:
            if inner is block.last_op:
                break
            self.emit_op(inner)
        return [self.names[v] for v in block.last_op.operands]

    def window_body_function(self, op: bc.ReduceWindowBodyOp) -> str:
        """A module-level function ``(accumulators, elements) -> accumulators``
        running ``op``'s body on whole arrays (its ops are elementwise, so on
        arrays of window elements each is the body's op at every result
        element); the target writes each op (``window_body_code``)."""
        n, block = self.names, op.block
        count = len(op.inputs)
        fn = self.module_name("_window_body")
        lines = [f"{python_tuple([n[a] for a in block.args[:count]])} = accumulators",
                 f"{python_tuple([n[a] for a in block.args[count:]])} = elements"]
        for inner in block.ops:
            if inner is block.last_op:
                break
            if isinstance(inner, bc.ConstantOp):
                array = inner.numpy_value()
                name = self.module_name(f"_{self.function.sym_name.data}_{n[inner.result]}")
                self.constants.append(f"{name} = rt.constant({array.tobytes().hex()!r}, np.{array.dtype.name}, ())")
                lines.append(f"{n[inner.result]} = {self.window_constant(name, inner)}")
            elif isinstance(inner, bc.BroadcastInDimOp):  # rank 0 to rank 0: the value
                lines.append(f"{n[inner.result]} = {n[inner.operand]}")
            else:
                lines += self.window_body_code(inner)
        lines.append(f"return {python_tuple([n[v] for v in block.last_op.operands])}")
        self.helpers.append([f"def {fn}({self.WINDOW_BODY_PARAMS}accumulators, elements):", *(f"    {line}" for line in lines)])
        return fn

    WINDOW_BODY_PARAMS = ""
    """The parameters a target's window body function takes first."""

    def window_constant(self, name: str, op: bc.ConstantOp) -> str:
        return name

    def window_body_code(self, op: Operation) -> list[str]:
        raise NotImplementedError

    def dynamic_broadcast_args(self, op: bc.DynamicBroadcastInDimOp) -> str:
        """The arguments after the operand of a ``dynamic_broadcast_in_dim``
        call (``numpy_runtime.dynamic_broadcast_in_dim``)."""
        return (f"{list(op.dims)}, {self.sizes_source(op.mixed_sizes())}, {op.expanding}, {op.nonexpanding}, "
                f"{site(op)!r}")

    def module_name(self, hint: str) -> str:
        """A module-level name that no local of this function shadows."""
        name = self.module_names.fresh(hint)
        while name in self.names.taken:
            name = self.module_names.fresh(hint)
        self.names.taken.add(name)
        return name


class FunctionEmitter(PythonFunctionEmitter):
    def __init__(self, function: func.FuncOp, out: Lines, python_names: dict[str, str],
                 module_names: Names):
        super().__init__(function, out, python_names, module_names)
        self.owned: set[SSAValue] = set()
        """Values held in arrays this function allocated (not inputs or views)."""
        self.fusion_count = 0
        self.result_slots: dict[SSAValue, list[int]] = {}
        self.direct: SSAValue | None = None
        """The result the common ``out=`` takes straight (``direct_result``)."""

    def emit(self) -> None:
        f, out = self.function, self.out
        block = f.body.blocks[0]
        params, argument_specs, result_specs = self.begin_function()
        arguments, _ = signature(f)
        for i, (name, spec) in enumerate(zip(params, arguments)):
            spec_source = f"{argument_specs}[{i}]"
            if spec.shape is None or rules.is_dynamic(spec.shape):
                out(f"{name} = rt.argument({name}, {spec_source})")
                continue
            # the common case, tested inline against the spec's shape and dtype
            # (module constants): rt.argument's own first test, without its call
            shape = self.module_name(f"_{f.sym_name.data}_shape{i}")
            dtype = self.module_name(f"_{f.sym_name.data}_dtype{i}")
            self.constants.append(f"{shape}, {dtype} = {spec_source}.shape, {spec_source}.dtype")
            out(f"{name} = {name} if type({name}) is np.ndarray and {name}.shape == {shape} "
                f"and {name}.dtype == {dtype} else rt.argument({name}, {spec_source})")
        ret = block.last_op
        assert isinstance(ret, func.ReturnOp)
        for k, v in enumerate(ret.arguments):
            self.result_slots.setdefault(v, []).append(k)
        may_fail = any(
            isinstance(o, func.CallOp | bc.CheckBroadcastableOp | bc.DynamicBroadcastInDimOp)
            or (isinstance(o, bc.ExtractOp | bc.AssignOp) and o.index_values)
            for o in f.walk()
        )
        # no out=: an Outs made once (it then holds nothing of a call)
        no_outs = self.module_name(f"_{f.sym_name.data}_no_outs")
        self.constants.append(f"{no_outs} = rt.Outs(None, {result_specs}, ())")
        make_outs = f"rt.Outs(out, {result_specs}, {python_tuple(params)}" + (", may_fail=True)" if may_fail else ")")
        self.direct = self.direct_result(ret, may_fail)
        if self.direct is None:
            out(f"outs = {no_outs} if out is None else {make_outs}")
        else:
            # the common out= (rt.direct_out_test, inline) takes the result
            # straight, no Outs (outs None); any other out= is Outs' to check
            name = f.sym_name.data
            shape, dtype = self.module_name(f"_{name}_result_shape"), self.module_name(f"_{name}_result_dtype")
            self.constants.append(f"{shape}, {dtype} = {result_specs}[0].shape, {result_specs}[0].dtype")
            arrays = [p for p, spec in zip(params, arguments) if spec.shape is not None]
            for test, value in (("if out is None", no_outs), (f"elif {rt.direct_out_test('out', shape, dtype, arrays)}",
                                "None"), ("else", make_outs)):
                out(f"{test}:")
                out(f"    outs = {value}")
        # np.errstate(all="ignore"), set on NumPy's context variable directly
        # (rt.FP_ERRORS says why)
        out("fp_errors = rt.FP_ERRORS.set(rt.IGNORE_ALL)")
        out("try:")
        out.depth += 1
        for op in block.ops:
            if op is ret:
                break
            self.emit_op(op)
        values = python_tuple([self.names[v] for v in ret.arguments])
        fresh = python_tuple([str(v in self.owned) for v in ret.arguments])
        if self.direct is None:
            out(f"return outs.deliver({values}, {fresh})")
        else:
            out(f"return {self.names[self.direct]} if outs is None else outs.deliver({values}, {fresh})")
        out.depth -= 1
        out("finally:")
        out("    rt.FP_ERRORS.reset(fp_errors)")
        out.depth -= 1

    def direct_result(self, ret: func.ReturnOp, may_fail: bool) -> SSAValue | None:
        """The one result a call with the common ``out=`` (``rt.direct_out_test``)
        computes straight into that array, without an ``rt.Outs``: a
        function of one static tensor result, a fusion's output (which
        takes its array from ``outs.target``), that cannot fail at run time
        (an error must leave ``out`` untouched). None for any other function."""
        results = signature(self.function)[1]
        if may_fail or len(results) != 1 or results[0].shape is None or rules.is_dynamic(results[0].shape):
            return None
        value = ret.arguments[0]
        return value if isinstance(value.owner, FusionOp) else None

    # ------------------------------------------------------------------
    def emit_op(self, op: Operation) -> None:
        out, n = self.out, self.names
        if self.emit_control_flow(op):
            return
        if isinstance(op, FusionOp):
            check_static_or_explicit(op, "the numpy target")
            self.emit_fusion(op)
            return
        if isinstance(op, bc.ConstantOp):
            self.emit_constant(op)
            return
        if isinstance(op, func.CallOp):
            call = f"{self.python_names[op.callee.root_reference.data]}({', '.join(n[a] for a in op.arguments)})"
            out(f"{', '.join(n[r] for r in op.results)} = {call}" if op.results else call)
            self.owned.update(op.results)
            return
        if self.emit_size_op(op):
            return
        if isinstance(op, bc.ReduceWindowOp | bc.ReduceWindowBodyOp) \
                and (declared := op.run_time_check()) is not None:  # sizes only known when it runs
            inputs = op.inputs if isinstance(op, bc.ReduceWindowBodyOp) else [op.operand]
            out(f"rt.window_result({site(op)!r}, {python_tuple([f'{n[v]}.shape' for v in inputs])}, {op.window!r}, "
                f"{declared!r}, {op.name!r}, {str(op.results[0].type)!r})")
        if isinstance(op, bc.ReduceWindowBodyOp) and (dim := running_scan(op)) is not None:  # a scan: n steps
            fn = self.window_body_function(op)
            out(f"{python_tuple([n[r] for r in op.outputs])} = numerics.window_scan({fn}, "
                f"{python_tuple([n[v] for v in op.inputs])}, {python_tuple([n[v] for v in op.init_values])}, {dim})")
            self.owned.update(op.outputs)
            return
        if isinstance(op, bc.ReduceWindowBodyOp):  # NumPy's slices run on any size: no check
            fn = self.window_body_function(op)
            out(f"{python_tuple([n[r] for r in op.outputs])} = numerics.reduce_window_body({fn}, "
                f"{python_tuple([n[v] for v in op.inputs])}, {python_tuple([n[v] for v in op.init_values])}, "
                f"*{op.window!r})")
            self.owned.update(op.outputs)
            return
        check_static_or_explicit(op, "the numpy target")
        x = n[op.operands[0]] if op.operands else ""
        r = op.results[0]
        if (expression := expression_for(EXPRESSIONS, op)) is not None:
            out(f"{results_target(n, op)} = {expression(self, op, x)}")
            if isinstance(op, FRESH_RESULTS):
                self.owned.update(op.results)
        elif is_elementwise(op):
            if not is_explicit(op):
                raise PassError(op, "the numpy target needs explicit IR; run the "
                                "bcast-make-explicit pass first")
            shape = flat_type_shape(r.type)
            shape_source = f"np.shape({x})" if rules.is_dynamic(shape) else str(shape)  # explicit: one shape
            out(f"{n[r]} = np.empty({shape_source}, dtype={dtype_source(dtype_name(r.type))})")
            for line in elementwise_code(op, [n[v] for v in op.operands], n[r]):
                out(line)
            self.owned.add(r)
        else:
            raise PassError(op, "is not supported by the numpy target")

    def window_body_code(self, op: Operation) -> list[str]:
        """An elementwise op of a window body on arrays of window elements
        (or 0-d constants): ``elementwise_code`` into an array of the
        operands' broadcast shape."""
        n, r = self.names, op.results[0]
        args = [n[v] for v in op.operands]
        shape = f"np.broadcast_shapes({', '.join(f'np.shape({a})' for a in args)})"
        return [f"{n[r]} = np.empty({shape}, dtype=np.{dtype_name(r.type)})",
                *elementwise_code(op, args, n[r])]

    def index_expr(self, op: bc.ExtractOp | bc.AssignOp) -> str:
        """A NumPy index (a tuple expression) for ``index_parts``."""
        parts = self.index_parts(op)
        return ", ".join(parts) + ("," if len(parts) == 1 else "") if parts else "()"

    def emit_constant(self, op: bc.ConstantOp) -> None:
        """Constants are built once, at import, from their exact bytes (so NaN,
        infinities and -0.0 survive); a splat keeps one element."""
        r = op.result
        array = op.numpy_value()
        if op.splat_value() is not None:
            array = array.reshape(-1)[:1]
        name = self.module_name(f"_{self.function.sym_name.data}_{self.names[r]}")
        self.constants.append(
            f"{name} = rt.constant({array.tobytes().hex()!r}, {dtype_source(array.dtype.name)}, {flat_type_shape(r.type)})"
        )
        self.out(f"{self.names[r]} = {name}")

    # ------------------------------------------------------------------
    def emit_fusion(self, op: FusionOp) -> None:
        """A fusion as one module-level function over a block of rows
        ``[i, j)`` (``bcast.ir.fusion``: every value's dimension 0 is the
        rows), run by ``rt.run_blocks`` with the arrays it reads and writes
        (``outer``: inputs, input views, results) as arguments; temporaries
        live in per-thread block buffers, reductions reduce each block's rows,
        inner broadcasts are views."""
        out, n = self.out, self.names
        block = op.block
        body = [o for o in block.ops if not isinstance(o, YieldOp)]
        yielded = list(block.last_op.operands)
        shapes = op.value_shapes()
        itemsize = max(np.dtype(dtype_name(r.type)).itemsize for o in body for r in o.results) if body else 1
        row = max(rules.element_count(s[1:]) for s in shapes)
        rows = op.rows()
        block_rows = max(1, BLOCK_BYTES // max(1, row * itemsize))
        blocked = rows is not None and block_rows < rows
        inline = not blocked and max(rules.element_count(s) for s in shapes) * itemsize <= INLINE_BYTES
        index = n.fresh(f"fusion{self.fusion_count}")
        self.fusion_count += 1
        out(f"# {index}: iteration shape {op.iteration_shape()}"
            + (f", blocks of {block_rows} rows" if blocked else ", inline" if inline else ", one block"))
        sl = "[i:j]" if blocked else ""

        def block_shape(value: SSAValue) -> tuple[int, ...]:
            shape = flat_type_shape(value.type)
            return (block_rows, *shape[1:]) if blocked else shape

        # Results: returned ones go where rt.Outs says (the caller's out= when
        # nothing the function reads overlaps it), the others to new arrays.
        result_names = []
        for r in op.outputs:
            name = n[r]
            result_names.append(name)
            slots = self.result_slots.get(r)
            if slots and r is self.direct:
                out(f"{name} = out if outs is None else outs.target(0)")
            elif slots:
                out(f"{name} = outs.target({slots[0]})")
            else:
                out(f"{name} = rt.output({flat_type_shape(r.type)}, {dtype_source(dtype_name(r.type))})")
            self.owned.add(r)

        # Inputs: arrays read directly are sliced per block (their dimension 0
        # is the rows); input views are made once and sliced when their rows
        # come from the input.
        arg_expr = {arg: n[value] for arg, value in zip(block.args, op.inputs)}
        value_expr: dict[SSAValue, str] = {arg: e + sl for arg, e in arg_expr.items()}
        outer_name: dict[SSAValue, str] = dict(arg_expr)
        """The function's array behind each value read from outside the block."""
        outer: dict[str, None] = dict.fromkeys(result_names)
        """The block function's arguments after ``i, j``: results, then what it reads."""

        def use(value: SSAValue) -> str:
            if value in outer_name:
                outer.setdefault(outer_name[value])
            return value_expr[value]
        tiles: list[tuple[str, str, tuple[int, ...]]] = []  # (tile parameter, view, shape)
        compute: list[Operation] = []
        for o in body:
            r = o.results[0]
            if not (isinstance(o, VIEW_OPS) and o.operands[0] in arg_expr):
                compute.append(o)
                continue
            view = n.fresh(n[r] + "_view")
            result_shape = flat_type_shape(r.type)
            value_expr[r] = view + sl
            outer_name[r] = view
            if isinstance(o, bc.BroadcastInDimOp):
                dims = list(o.dims)
                src = flat_type_shape(o.operand.type)
                if inline and numpy_aligned(src, dims, len(result_shape)) \
                        and all(one_ufunc(use.operation) is not None for use in r.uses):
                    # NumPy's own broadcasting (leading size-1 dims) in the ufuncs
                    # that read it: no view at all (a per-call cost)
                    value_expr[r] = outer_name[r] = arg_expr[o.operand]
                    continue
                out(f"{view} = {static_expand(arg_expr[o.operand], src, dims, len(result_shape))}")
                leading = any(d == 0 and src[k] != 1 for k, d in enumerate(dims))
                if not leading:
                    value_expr[r] = view
                    if not inline and self.wants_tile(o, src, dims, result_shape):
                        tile = n.fresh(n[r] + "_tile")
                        tiles.append((tile, view, block_shape(r)))
                        value_expr[r] = tile
                        del outer_name[r]  # read from the tile, a buffer
            elif isinstance(o, bc.TransposeOp):
                out(f"{view} = np.transpose({arg_expr[o.operand]}, {list(o.permutation.get_values())})")
            elif isinstance(o, bc.ReverseOp):
                out(f"{view} = np.flip({arg_expr[o.operand]}, {list(o.dims)})")
            elif isinstance(o, bc.SliceOp):
                out(f"{view} = {arg_expr[o.operand]}[{slice_index(o)}]")
            else:
                out(f"{view} = {arg_expr[o.operand]}.reshape({result_shape})")  # the method: np.reshape dispatches first

        # Liveness inside the body, for buffer reuse: an inner broadcast is a
        # view of its operand's buffer, so a use of it is a use of that.
        source: dict[SSAValue, SSAValue] = {}
        for o in compute:
            if isinstance(o, bc.BroadcastInDimOp):
                source[o.result] = source.get(o.operand, o.operand)
        last_use: dict[SSAValue, int] = {}
        for i, o in enumerate(compute):
            for v in o.operands:
                last_use[source.get(v, v)] = i
        for v in yielded:
            last_use[source.get(v, v)] = len(compute)
        yield_slot = {}
        for k, v in enumerate(yielded):
            yield_slot.setdefault(v, k)

        buffers: list[tuple[str, str, tuple[int, ...]]] = []  # (name, dtype, block shape)
        free: dict[tuple[str, tuple[int, ...]], list[str]] = {}
        holder: dict[SSAValue, tuple[str, tuple[str, tuple[int, ...]]]] = {}
        statements: list[str] = []
        written: set[SSAValue] = set()

        # An inline fusion's result arrays are fresh or an out= that overlaps
        # nothing the function reads (rt.Outs), so before a result is
        # written its array can hold a temporary that dies by then, in place
        # of a new np.empty (a per-call cost at small sizes).
        written_at: dict[str, tuple[int, tuple[str, tuple[int, ...]], bool]] = {}
        if inline:
            for i, o in enumerate(compute):
                r = o.results[0]
                if r in yield_slot and not isinstance(o, bc.BroadcastInDimOp):
                    in_place = not isinstance(o, bc.SelectOp | bc.ReduceOp)
                    written_at[result_names[yield_slot[r]]] = (i, (dtype_name(r.type), block_shape(r)), in_place)
        lent: set[str] = set()
        """Result arrays holding a temporary now."""

        def result_array(r: SSAValue, i: int, key) -> str | None:
            """A result array not yet written that can hold ``r`` (computed
            at ``i``) for all of its life, or None."""
            end = last_use.get(r, i)
            for name, (at, wanted, in_place) in written_at.items():
                if name not in lent and wanted == key and i < at and (end < at or end == at and in_place):
                    return name
            return None

        def release(values) -> None:
            for v in dict.fromkeys(values):
                if v in holder:
                    name, key = holder.pop(v)
                    if name in lent:
                        lent.discard(name)
                    else:
                        free.setdefault(key, []).append(name)

        for i, o in enumerate(compute):
            r = o.results[0]
            args = [use(v) for v in o.operands]
            if isinstance(o, bc.BroadcastInDimOp):  # an inner broadcast: a view
                dims = list(o.dims)
                if dims == list(range(len(dims))) and len(dims) == len(flat_type_shape(r.type)):
                    value_expr[r] = args[0]  # same rank: NumPy broadcasts the size-1 dims
                else:
                    view = n.fresh(n[r] + "_view")
                    statements.append(f"{view} = rt.expand({args[0]}, {dims}, {len(dims) and len(flat_type_shape(r.type))})")
                    value_expr[r] = view
                continue
            if not isinstance(o, bc.ReduceOp) and not is_explicit(o):
                raise PassError(o, "inside a fusion must have explicit operands")
            # Operands dying here release their buffers first (in-place reuse),
            # except where the op would read an operand after writing dst.
            dying = [source.get(v, v) for v in o.operands if last_use.get(source.get(v, v)) == i]
            reusable = not isinstance(o, bc.SelectOp)
            if reusable:
                release(dying)
            if r in yield_slot:
                dst = result_names[yield_slot[r]] + sl
            else:
                key = (dtype_name(r.type), block_shape(r))
                pool = free.get(key, [])
                if pool:
                    buf = pool.pop()
                elif (borrowed := result_array(r, i, key)) is not None:
                    buf = borrowed
                    lent.add(buf)
                else:
                    buf = n.fresh(f"buf{len(buffers)}")
                    buffers.append((buf, *key))
                holder[r] = (buf, key)
                dst = buf
            if isinstance(o, bc.ReduceOp):
                if isinstance(o.operands[0].owner, bc.BroadcastInDimOp):
                    # a view keeps its size-1 dims (rt.expand), which a reduction must see stretched
                    args[0] = f"np.broadcast_to({args[0]}, {block_shape(o.operands[0])})"
                statements.append(f"numerics.reduce({o.kind_name!r}, {args[0]}, "
                                  f"{o.reduced_dims}, {o.keeps_dims}, out={dst})")
            else:
                statements += elementwise_code(o, args, dst)
            value_expr[r] = dst
            written.add(r)
            if not reusable:
                release(dying)
        for k, v in enumerate(yielded):
            if yield_slot[v] != k or v not in written:
                statements.append(f"np.copyto({result_names[k]}{sl}, {use(v)})")

        if inline:
            for buf, dtype, shape in buffers:
                out(f"{buf} = np.empty({shape}, {dtype_source(dtype)})")
            for statement in statements:
                out(statement)
            return
        name = self.function.sym_name.data
        make = self.module_name(f"_{name}_{index}_buffers")
        views = [view for _, view, _ in tiles]
        allocs = [f"rt.scratch({shape}, {dtype_source(dtype)})" for _, dtype, shape in buffers]
        allocs += [f"rt.tile({view}, {shape})" for _, view, shape in tiles]
        self.helpers.append([f"def {make}({', '.join(views)}):", f"    return {python_tuple(allocs)}"])
        fn = self.module_name(f"_{name}_{index}_block")
        params = ["i", "j", *outer, *(b for b, _, _ in buffers), *(t for t, _, _ in tiles)]
        self.helpers.append([f"def {fn}({', '.join(params)}):", *(f"    {s}" for s in statements or ["pass"])])
        total = rows if rows is not None else 1
        out(f"rt.run_blocks({fn}, {total}, {block_rows if blocked else max(total, 1)}, {make}, "
            f"{python_tuple(list(outer))}, {python_tuple(views)})")

    @staticmethod
    def wants_tile(view: bc.BroadcastInDimOp, src, dims, shape) -> bool:
        """Whether a block-invariant broadcast is worth copying into one
        block-sized tile per thread (at most ``BLOCK_BYTES``, reused by every
        block; a fusion small enough to run as one block tiles its whole,
        small, iteration shape): NumPy's loops over
        two contiguous arrays beat its row-broadcast loops (measured ~1.7x), and
        maximum/minimum have no fast loop for a scalar operand at all (~5x)."""
        if len(shape) < 2:
            return False
        row_like = any(src[k] != 1 for k in range(len(dims)))
        for use in view.results[0].uses:
            if isinstance(use.operation, bc.MaximumOp | bc.MinimumOp):
                return True
        return row_like

    @staticmethod
    def _buffer_dtype(buffers: list[tuple[str, str]], name: str) -> str:
        return next(d for b, d in buffers if b == name)


EXPRESSIONS: dict[type[Operation], Expression] = {
    # the explicit dynamic form's arrays: sizes are Python ints, so every
    # size computation is exact; a bad size fails at the op as the reference
    # reports it
    bc.DynamicBroadcastInDimOp: lambda e, op, x: f"rt.dynamic_broadcast_in_dim({x}, {e.dynamic_broadcast_args(op)})",
    bc.SizeToTensorOp: lambda e, op, x: (
        f"rt.size_to_tensor({x}, {dtype_source(dtype_name(op.result.type))}, {str(op.result.type)!r}, {site(op)!r})"),
    bc.DynamicReshapeOp: lambda e, op, x: (
        f"rt.dynamic_reshape({x}, {e.sizes_source(op.mixed_sizes())}, {site(op)!r})"),
    bc.DynamicIotaOp: lambda e, op, x: (
        f"numerics.iota({e.sizes_source(op.mixed_sizes())}, {op.dim}, {dtype_source(dtype_name(op.result.type))})"),
    bc.SetDimensionSizeOp: lambda e, op, x: f"rt.set_dimension_size({x}, {op.dim}, {e.names[op.size]}, {site(op)!r})",
    # static shapes
    bc.BroadcastInDimOp: lambda e, op, x: f"rt.broadcast_in_dim({x}, {list(op.dims)}, {result_shape(op)})",
    bc.TransposeOp: lambda e, op, x: f"np.transpose({x}, {list(op.permutation.get_values())})",
    bc.ReverseOp: lambda e, op, x: f"np.flip({x}, {list(op.dims)})",
    bc.SliceOp: lambda e, op, x: f"{sliced_operand(op, x)}[{slice_index(op)}]",
    bc.IotaOp: lambda e, op, x: f"numerics.iota({result_shape(op)}, {op.dim}, {dtype_source(dtype_name(op.result.type))})",
    bc.ConcatenateOp: lambda e, op, x: (
        f"rt.concatenate([{', '.join(e.names[v] for v in op.inputs)}], {op.dim}, {site(op)!r})"
        if has_dynamic_types(op) else f"np.concatenate([{', '.join(e.names[v] for v in op.inputs)}], {op.dim})"),
    bc.PadOp: lambda e, op, x: (
        f"{'rt' if has_dynamic_types(op) else 'numerics'}.pad({x}, {e.names[op.padding_value]}, {list(op.low)}, "
        f"{list(op.high)}, {list(op.interior)}{f', {site(op)!r}' if has_dynamic_types(op) else ''})"),
    # np.matmul (BLAS for floats) on the operands, broadcast views included
    bc.DotGeneralOp: lambda e, op, x: f"numerics.dot_general({x}, {e.names[op.rhs]}, {dot_dims_expr(op)})",
    # a view, as slice's
    bc.DynamicSliceOp: lambda e, op, x: f"numerics.dynamic_slice({x}, {starts_source(e, op)}, {list(op.sizes)})",
    bc.DynamicUpdateSliceOp: lambda e, op, x: (
        f"numerics.dynamic_update_slice({x}, {starts_source(e, op)}, {e.names[op.update]})"),
    # a copy: one advanced-indexing write (np.add.at for add)
    bc.ScatterOp: lambda e, op, x: (
        f"numerics.scatter({op.kind_name!r}, {x}, {e.names[op.scatter_indices]}, {e.names[op.updates]}, {op.dims!r})"),
    # one advanced-indexing read
    bc.GatherOp: lambda e, op, x: (
        f"numerics.gather({x}, {e.names[op.start_indices]}, {op.dims!r}, {list(op.sizes)})"),
    bc.ReshapeOp: lambda e, op, x: (f"rt.reshape({x}, {op.declared_sizes()}, {site(op)!r})" if has_dynamic_types(op)
                                    else f"np.reshape({x}, {result_shape(op)})"),
    bc.NarrowOp: lambda e, op, x: f"np.reshape({x}, {result_shape(op)})",
    bc.ExtractOp: lambda e, op, x: f"np.array({x}[{e.index_expr(op)}]).reshape({result_shape(op)})",
    bc.AssignOp: lambda e, op, x: (
        f"rt.assign({x}, ({e.index_expr(op)}), {e.names[op.source]}.reshape("
        f"{rules.flat_broadcast_shape(split_type(op.source.type)[0], e.assign_levels(op))}))"),
    # never fused (yet): one call of the reference's function, whose result
    # is a new array of the result type
    bc.ReduceOp: lambda e, op, x: f"numerics.reduce({op.kind_name!r}, {x}, {op.reduced_dims}, {op.keeps_dims})",
    bc.ArgReduceOp: lambda e, op, x: (
        f"numerics.arg_reduce({op.short_name!r}, {x}, {op.dim}, {dtype_source(dtype_name(op.result.type))})"),
    # np.add/multiply/maximum/minimum.accumulate in the element type
    bc.CumulativeOp: lambda e, op, x: f"numerics.cumulative({op.kind_name!r}, {x}, {op.dim}, {op.is_reverse})",
    # np.argsort(kind="stable") of the key (np.lexsort of several), then np.take_along_axis
    bc.SortOp: lambda e, op, x: (
        f"rt.sort({x}, [{', '.join(e.names[k] for k in op.keys)}], {op.dim}, {op.orders!r}, {site(op)!r})"
        if has_dynamic_types(op) else
        f"numerics.sort({x}, [{', '.join(e.names[k] for k in op.keys)}], {op.dim}, {op.orders!r})"),
    # a padded copy seen through a strided window view, reduced
    bc.ReduceWindowOp: lambda e, op, x: (
        f"numerics.reduce_window({op.kind_name!r}, {x}, {e.names[op.init]}, *{op.window!r})"),
    # im2col through a strided window view, one np.matmul per group
    bc.ConvolutionOp: lambda e, op, x: f"numerics.convolution({x}, {e.names[op.rhs]}, {op.conv!r})",
    # the same, on the padding read when it runs (its error at the op)
    bc.DynamicConvOp: lambda e, op, x: (
        f"rt.dynamic_conv({x}, {e.names[op.rhs]}, {e.names[op.d_padding]}, {op.conv!r}, {site(op)!r}, "
        f"{op.declared_sizes()!r})"),
    # one substitution step per row, vectorized over the batch and right-hand sides
    bc.TriangularSolveOp: lambda e, op, x: f"numerics.triangular_solve({x}, {e.names[op.b]}, *{op.flags!r})",
    # NumPy's pocketfft in double precision, rounded once to the result's
    bc.FftOp: lambda e, op, x: f"numerics.fft({x}, {op.kind!r}, {op.lengths!r})",
    # LAPACK's factorizations, one step per column, vectorized over the batch (every result, as a tuple)
    bc.LuOp: lambda e, op, x: f"numerics.lu({x})",
    bc.CholeskyOp: lambda e, op, x: f"numerics.cholesky({x}, {op.is_lower})",
}
"""The NumPy target's ops that are one call (or one index), by op class."""

FRESH_RESULTS = (bc.SizeToTensorOp, bc.DynamicIotaOp, bc.SetDimensionSizeOp, bc.IotaOp, bc.ConcatenateOp, bc.PadOp,
                 bc.DynamicUpdateSliceOp, bc.ScatterOp, bc.GatherOp, bc.ExtractOp, bc.AssignOp, bc.ReduceOp,
                 bc.ArgReduceOp, bc.CumulativeOp, bc.SortOp, bc.ReduceWindowOp, bc.ConvolutionOp,
                 bc.DynamicConvOp, bc.TriangularSolveOp, bc.LuOp, bc.CholeskyOp, bc.FftOp)  # fmt: skip
"""The ``EXPRESSIONS`` whose result is an array the function allocates
(``owned``, returned without a copy); the others give views (``slice``,
``reshape``, ``dynamic_slice``, a broadcast) or, for ``dot_general``,
whatever ``np.matmul`` returns, which the caller gets a copy of."""


def numpy_aligned(source_shape: Sequence[rules.Dim], dims: Sequence[int], rank: int) -> bool:
    """Whether a broadcast_in_dim to ``rank`` dims is one NumPy's
    broadcasting does by itself: the operand's dims are the result's last,
    in order (only leading size-1 dims are added)."""
    return list(dims) == list(range(rank - len(source_shape), rank))


def static_expand(operand: str, source_shape: Sequence[rules.Dim], dims: Sequence[int], rank: int) -> str:
    """``rt.expand(operand, dims, rank)`` as Python source: for a static
    operand shape its transpose and reshape are decided here, once, not at
    every call (``rt.expand`` looks them up in a cache, about three times
    the cost of the reshape)."""
    if rules.is_dynamic(source_shape):
        return f"rt.expand({operand}, {list(dims)}, {rank})"
    perm, shape = rt.expansion(tuple(source_shape), tuple(dims), rank)
    if perm is not None:
        operand = f"np.transpose({operand}, {list(perm)})"
        source_shape = [source_shape[p] for p in perm]
    if tuple(shape) == tuple(source_shape):
        return operand
    # The reshape only adds size-1 dims: an index with None there (``row[None]``)
    # makes the same view at under half a reshape's cost (a per-call cost).
    parts, k = [], 0
    for n in shape:
        if k < len(source_shape) and n == source_shape[k]:
            parts.append(":")
            k += 1
        else:
            parts.append("None")
    while parts[-1] == ":":
        parts.pop()
    return f"{operand}[{', '.join(parts)}]"


def spec_tuple(specs: Sequence[rt.Spec]) -> str:
    """Python source building ``specs`` (``numpy_runtime.Spec``)."""
    items = [
        f"rt.Spec({s.name!r}, {s.type!r})" if s.shape is None
        else f"rt.Spec({s.name!r}, {s.type!r}, {shape_source(s.shape)}, {dtype_source(s.dtype.name)})"
        for s in specs
    ]
    return python_tuple(items)


def shape_source(shape: Sequence[rules.Dim]) -> str:
    """Python source of a declared flat shape, a ``?`` dim as ``rt.dynamic()``."""
    if not rules.is_dynamic(shape):
        return str(tuple(shape))
    return python_tuple([f"rt.dynamic({d.bound if d.bound is not None else ''})" if isinstance(d, rules.Dynamic)
                         else str(d) for d in shape])


def check_static_or_explicit(op: Operation, target: str) -> None:
    """Dynamic dims reach a Python target in the explicit dynamic form only
    (docs/ir.md): sizes read by ``dim``, broadcasts to run-time sizes by
    ``dynamic_broadcast_in_dim`` and the other ops that make arrays of
    run-time sizes (``DYNAMIC_FORM_ARRAY_OPS``), elementwise ops on operands
    of one shape, reductions, argmax/argmin, reverse and cumulative (NumPy's
    own run on any shape), contractions (their pairs checked before by
    make-explicit), dynamic_slice, dynamic_update_slice and gather (their
    sizes checked before, their starts clamped to the run-time size),
    scatter (its sizes checked before, out-of-bounds updates skipped), concatenate, pad, slice,
    reshape and sort (their run-time sizes checked first), reduce_window (NumPy's loops
    run on any size; a static declared size of a ``?`` its windows span is
    checked first, ``rt.window_result``). A transpose permutes run-time sizes; one that declares a static size
    for a ``?`` dim of its operand (checked by the reference and the C
    runtime) is refused. Another op with a dynamic dim (an implicit
    broadcast, a fusion, which the targets block by static sizes) is
    refused, located."""
    types = [*op.operand_types, *op.result_types]
    if isinstance(op, FusionOp):
        types += [v.type for inner in op.walk() for v in (*inner.operands, *inner.results)]
    dynamic = next((t for t in types if is_dynamic_type(t)), None)
    computes_on_any_shape = (isinstance(op, (*DYNAMIC_FORM_ARRAY_OPS, bc.ReduceOp, bc.ArgReduceOp, bc.ReverseOp,
                                             bc.CumulativeOp, bc.DotGeneralOp, bc.ConvolutionOp, bc.DynamicConvOp,
                                             bc.DynamicSliceOp, bc.DynamicUpdateSliceOp, bc.GatherOp,
                                             bc.ScatterOp, bc.ConcatenateOp, bc.PadOp,
                                             bc.SliceOp, bc.ReshapeOp, bc.ReduceWindowOp, bc.SortOp))
                             or (is_elementwise(op) and is_explicit(op))
                             or (isinstance(op, bc.TransposeOp) and not refines_operand(op)))
    if dynamic is not None and not computes_on_any_shape:
        raise PassError(op, f"has dynamic dimensions ({dynamic}), which {target} takes only in the explicit "
                            "dynamic form, unfused (run bcast-make-explicit, and not bcast-fuse)")


def site(op: Operation) -> rt.Site | None:
    """Where run-time errors of ``op`` are reported (``rt.ProgramError``)."""
    loc = op_source_loc(op)
    return None if loc is None else (loc.file, loc.line, loc.col, op.name)


def python_tuple(items: Sequence[str]) -> str:
    return f"({', '.join(items)}{',' if len(items) == 1 else ''})"


def results_target(names, op: Operation) -> str:
    """The assignment target of an op written as one expression: its result's
    name, or a tuple of its results' names (``lu``, ``cholesky``)."""
    return names[op.results[0]] if len(op.results) == 1 else python_tuple([names[r] for r in op.results])



class NumpyEmitter(PythonModuleEmitter):
    TARGET = "NumPy"
    IMPORTS = ("import numpy as np", "", "from bcast.ir import numerics",
               "from bcast.ir.rules import ConvDims, Convolution, DotDims, GatherDims",
               "from bcast.lowering import numpy_runtime as rt")
    function_emitter = FunctionEmitter


def emit_module(module: ModuleOp, source_name: str = "<source>") -> str:
    return NumpyEmitter(source_name).emit(module)
