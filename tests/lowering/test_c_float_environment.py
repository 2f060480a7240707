"""Loading a C library leaves the process's floating-point environment as
it was (``c_runtime._open``; docs/contracts.md, "The process's
floating-point environment"): a ``$CC`` that asks for ``-ffast-math``,
``-Ofast`` or ``-funsafe-math-optimizations`` makes GCC link
``crtfastmath.o``, whose constructor turns on flush-to-zero and
denormals-are-zero when the library is loaded, which would change every
later float result of the user's process, NumPy's included.

Each case runs in a process of its own: were the mode to leak, it would
leak into this test process and change the results of later tests."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from bcast.lowering import c_runtime

pytestmark = pytest.mark.skipif(not c_runtime.available(), reason="no C compiler")

CHILD = r"""
import json, threading
import numpy as np
import bcast

def subnormals_survive():
    '''Whether NumPy's arithmetic keeps subnormal operands and results
    (flush-to-zero and denormals-are-zero both make these 0).'''
    f32 = np.array([np.finfo(np.float32).smallest_subnormal], np.float32)
    f64 = np.array([np.finfo(np.float64).smallest_subnormal], np.float64)
    tiny = np.array([np.finfo(np.float32).tiny], np.float32)
    return bool((f32 * np.float32(1))[0] != 0 and (f64 + 0.0)[0] != 0 and (tiny / np.float32(2))[0] != 0)

before = subnormals_survive()
f = bcast.compile('''func.func @main(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %z = bcast.add %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  func.return %z : tensor<4xf32>
}''', backend="c")
got = f(np.arange(4, dtype=np.float32), np.ones(4, np.float32))
assert got.tolist() == [1, 2, 3, 4], got
after = subnormals_survive()
in_a_new_thread = []
thread = threading.Thread(target=lambda: in_a_new_thread.append(subnormals_survive()))
thread.start()
thread.join()
print(json.dumps({"before": before, "after": after, "thread": in_a_new_thread[0]}))
"""


@pytest.mark.parametrize("flag", ["-ffast-math", "-Ofast", "-funsafe-math-optimizations"])
def test_a_library_built_with_fast_math_leaves_subnormals_to_numpy(tmp_path, flag):
    cc = c_runtime.compiler()
    env = dict(os.environ, CC=f"{' '.join(cc)} {flag}", BCAST_CACHE_DIR=str(tmp_path), BCAST_FIRST_CALLS="0")
    done = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    assert list(tmp_path.glob("bcast-*.so")), "the library was built with the flag"
    assert json.loads(done.stdout.strip().splitlines()[-1]) == {"before": True, "after": True, "thread": True}
