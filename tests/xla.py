"""XLA as a test oracle: a bcast program written back to StableHLO by
``-t stablehlo``'s pipeline, checked by jaxlib's verifier, and run by XLA.
Tests that use it are skipped without jax (the ``jax`` extra)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest


def written_back(text: str, filename: str = "prog.mlir") -> str:
    """``text`` through the explicit pipeline and the StableHLO emitter,
    verified by jaxlib."""
    pytest.importorskip("jax")
    from bcast.lowering.stablehlo_emitter import emit_text
    from bcast.tools import driver
    from bcast.tools.jax_bridge import verify_stablehlo

    exported = emit_text(driver.load(text, filename, pipeline=driver.EXPLICIT_PIPELINE))
    verify_stablehlo(exported)
    return exported


def run_on_xla(exported: str, args: Sequence) -> list[np.ndarray]:
    """XLA's results of StableHLO text (``written_back``'s) on ``args``."""
    from bcast.tools.jax_bridge import run_stablehlo

    return [np.asarray(r) for r in run_stablehlo(exported, args)]
