"""The bcast dialect: types, ops, verifiers and the broadcasting rules."""

from bcast.ir import lazy_formats

lazy_formats.install()  # before any op class below (and the dialects they import) is defined

from bcast.ir.dialect import Bcast
from bcast.ir.ops import semantics_of
from bcast.ir.parser import LocatingParser, make_context

__all__ = ["Bcast", "LocatingParser", "make_context", "semantics_of"]
