"""The reference evaluator: runs bcast IR op by op with NumPy.

It is the oracle every other backend and every pass is tested against. The
semantics of each op is an implementation on xDSL's interpreter
(``bcast.lowering.interpreter.BcastFunctions``, with xDSL's own ``func``
implementations for calls and returns); :class:`Evaluator` is the entry
point the tools and tests use. Values are NumPy arrays; a nested (TML)
value is stored flat (outer dims then inner dims); ``index`` values are
Python ints.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import IndexType, ModuleOp
from xdsl.ir import Attribute, Operation

from bcast.ir.types import flat_type_shape as flat_shape_of
from bcast.ir.types import numpy_dtype as dtype_of
from bcast.lowering import numpy_runtime as rt
from bcast.lowering.interpreter import BcastFunctions, EvaluationError, ReferenceInterpreter

_EMPTY_MODULE = ModuleOp([])
"""The module of an evaluator of single ops (xDSL's interpreter needs one)."""

__all__ = ["EvaluationError", "Evaluator", "signature"]


class Evaluator:
    """Evaluates the functions of one module."""

    def __init__(self, module: ModuleOp | None = None):
        """Without a module it evaluates single ops (e.g. to fold constants)."""
        self.module = module
        self.functions = {
            op.sym_name.data: op for op in (module.walk() if module else ()) if isinstance(op, func.FuncOp)
        }

    def interpreter(self) -> ReferenceInterpreter:
        """A fresh interpreter for one run: xDSL's keeps the values of the
        run in its scopes, so concurrent calls (threads sharing a compiled
        function) each need their own."""
        # Imported here: importing any of xDSL's interpreters imports all of
        # them (RISC-V's included), half a second that a program compiled
        # for another backend need not pay.
        from xdsl.interpreters.func import FuncFunctions

        interpreter = ReferenceInterpreter(self.module or _EMPTY_MODULE, functions=self.functions)
        interpreter.register_implementations(FuncFunctions())
        interpreter.register_implementations(BcastFunctions())
        return interpreter

    def function(self, name: str) -> func.FuncOp:
        if name not in self.functions:
            known = ", ".join(f"@{n}" for n in self.functions) or "none"
            raise EvaluationError(None, f"no function @{name} in the module (functions: {known})")
        return self.functions[name]

    def call(self, name: str, args: Sequence[object]) -> list[object]:
        """The results of ``@name`` on ``args``; a run-time error of the
        program (an index out of bounds, a call of a declaration) is an
        :class:`EvaluationError` located at its op."""
        function = self.function(name)
        with np.errstate(all="ignore"):  # IEEE results are the semantics
            return list(self.interpreter().call_op(function, tuple(args)))

    def evaluate(self, op: Operation, args: Sequence[object]) -> list[object]:
        """The results of one op on the values of its operands."""
        with np.errstate(all="ignore"):
            return list(self.interpreter().run_op(op, tuple(args)))


def signature(function: func.FuncOp) -> tuple[list[rt.Spec], list[rt.Spec]]:
    """The arguments and results of ``function`` as the runtime checks them
    (``numpy_runtime.argument``, ``numpy_runtime.Outs``): an argument is
    named ``arg0`` and, when the IR names it, ``arg0 (%x)``."""
    names = [a.name_hint for a in function.body.blocks[0].args] if function.body.blocks else []
    inputs = function.function_type.inputs.data
    arguments = [
        _spec(f"arg{k}" + (f" (%{names[k]})" if k < len(names) and names[k] else ""), t)
        for k, t in enumerate(inputs)
    ]
    results = [_spec(f"result{k}", t) for k, t in enumerate(function.function_type.outputs.data)]
    return arguments, results


def _spec(name: str, t: Attribute) -> rt.Spec:
    if isinstance(t, IndexType):
        return rt.Spec(name, str(t))
    return rt.Spec(name, str(t), flat_shape_of(t), dtype_of(t))
