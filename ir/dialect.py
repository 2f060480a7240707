"""The ``bcast`` dialect object: every op and attribute of bcast."""

from xdsl.ir import Dialect

from bcast.ir.control_flow import CaseOp, WhileOp
from bcast.ir.fusion import FusionOp, YieldOp
from bcast.ir.ops import (OPS, ComparisonDirectionAttr, ConvDimsAttr, GatherDimsAttr, ReductionKindAttr, ScatterDimsAttr,
                          ScatterKindAttr, TransposeAttr, FftTypeAttr)

Bcast = Dialect("bcast", [*OPS, FusionOp, YieldOp, WhileOp, CaseOp], [ComparisonDirectionAttr, ReductionKindAttr, GatherDimsAttr,
                                                      ScatterDimsAttr, ScatterKindAttr, ConvDimsAttr,
                                                      TransposeAttr, FftTypeAttr])
