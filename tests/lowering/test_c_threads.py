"""The C target's threads: a nest runs on threads from
``plan_parallel.PARALLEL_WORK`` innermost iterations (decided when
compiling for static sizes, at run time for ``?`` sizes), and starts as
many threads as have a free core (``bcast_threads`` in the prelude).
Results are the same on either side of the threshold."""

from __future__ import annotations

import ctypes
import os
import re
import subprocess

import numpy as np
import pytest

import bcast
from bcast.lowering import c_emitter, c_runtime
from bcast.passes.loops.plan_parallel import BURST_WORK, PARALLEL_WORK

COLS = 1024


def program(rows: str) -> str:
    """Workload (a) of benchmarks/run.py with ``rows`` rows of ``COLS``."""
    t = f"tensor<{rows}x{COLS}xf32>"
    return f"""
func.func @main(%x: {t}, %row: tensor<{COLS}xf32>, %col: tensor<{rows}x1xf32>) -> {t} {{
  %half = bcast.constant dense<0.5> : tensor<f32>
  %0 = bcast.add %x, %row : ({t}, tensor<{COLS}xf32>) -> {t}
  %1 = bcast.multiply %0, %col : ({t}, tensor<{rows}x1xf32>) -> {t}
  %2 = bcast.multiply %half, %x : (tensor<f32>, {t}) -> {t}
  %3 = bcast.subtract %1, %2 : ({t}, {t}) -> {t}
  func.return %3 : {t}
}}
"""


def arguments(rows: int):
    rng = np.random.default_rng(rows)
    return (rng.standard_normal((rows, COLS), dtype=np.float32), rng.standard_normal(COLS, dtype=np.float32),
            rng.standard_normal((rows, 1), dtype=np.float32))


def numpy_a(x, row, col):
    return (x + row) * col - np.float32(0.5) * x


AT = PARALLEL_WORK // COLS
"""Rows at which the nest reaches the threshold."""


BURST_AT = BURST_WORK // COLS
"""Rows at which the nest runs on threads in bursts of calls."""


@pytest.mark.parametrize("rows", [1, BURST_AT - 1, BURST_AT, AT - 1, AT, AT + 1])
def test_static_nests_use_threads_from_the_threshold_with_the_same_results(rows):
    """From ``BURST_WORK`` a nest has a region, which below ``PARALLEL_WORK``
    starts threads only in a burst of calls; the same results either way,
    called alone or back to back."""
    fn = bcast.compile(program(str(rows)), backend="c")
    assert ("#pragma omp parallel" in fn.c_source) == (rows * COLS >= BURST_WORK)
    assert ("if (bcast_in_burst)" in fn.c_source) == (BURST_WORK <= rows * COLS < PARALLEL_WORK)
    args = arguments(rows)
    for _ in range(3):
        np.testing.assert_array_equal(fn(*args), numpy_a(*args))


BURSTS = r"""
int first = bcast_burst(), next = 0;
for (int tries = 0; tries < 100 && !next; tries++) {  /* (a preemption between the two) */
    bcast_left();
    next = bcast_burst();
}
double wait = omp_get_wtime() + 3 * BCAST_BURST_SECONDS;
while (omp_get_wtime() < wait) {}
int after_a_pause = bcast_burst();
printf("%d %d %d\n", first, next, after_a_pause);
"""


def test_a_burst_is_an_entry_right_after_a_return(tmp_path):
    """``bcast_burst``: a library's first entry is alone, one right after a
    return (``bcast_left``) is in a burst, one more than
    ``BCAST_BURST_SECONDS`` after it is alone again."""
    exe = helper_program(tmp_path, BURSTS)
    (tmp_path / "loadavg").write_text("0.00 0.00 0.00 1/250 4321\n")
    assert subprocess.run([exe], capture_output=True, text=True, check=True).stdout.split() == ["0", "1", "0"]


def test_a_nest_with_run_time_sizes_decides_at_run_time_with_the_same_results():
    """One library: 0 and 1 rows, and just below, at and above the threshold."""
    fn = bcast.compile(program("?"), backend="c")
    assert f">= {PARALLEL_WORK}) num_threads(bcast_threads())" in fn.c_source
    for rows in (0, 1, AT - 1, AT, AT + 1):
        args = arguments(rows)
        np.testing.assert_array_equal(fn(*args), numpy_a(*args))


def helper_program(tmp_path, main: str = 'printf("%d\\n", bcast_threads());') -> str:
    """A program running ``main`` (by default: printing ``bcast_threads()``)
    with the prelude's thread count, its load file given by BCAST_LOADAVG,
    built with the C backend's compiler."""
    prelude = c_emitter.PRELUDE
    start = prelude.index("#if defined(_OPENMP)\n#include <omp.h>")
    end = prelude.index("\n}\n#endif\n", prelude.index("static int bcast_threads(void)")) + len("\n}\n#endif\n")
    source = tmp_path / "threads.c"
    source.write_text("#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n" + prelude[start:end]
                      + f"int main(void) {{ {main} return 0; }}\n")
    exe = tmp_path / "threads"
    subprocess.run([*c_runtime.require_compiler(), "-O1", "-fopenmp", f"-DBCAST_LOADAVG=\"{tmp_path / 'loadavg'}\"",
                    str(source), "-o", str(exe)], check=True)
    return str(exe)


def test_threads_are_the_free_cores_within_openmps_count(tmp_path):
    """The fourth field of the load file counts the runnable threads, the
    caller among them: the threads are the cores the others leave, at
    least one and at most OpenMP's count; a file that cannot be read or
    parsed counts no others."""
    exe = helper_program(tmp_path)
    cores = len(os.sched_getaffinity(0))

    def threads(loadavg: str | None, omp: int) -> int:
        if loadavg is None:
            (tmp_path / "loadavg").unlink(missing_ok=True)
        else:
            (tmp_path / "loadavg").write_text(loadavg)
        env = {**os.environ, "OMP_NUM_THREADS": str(omp)}
        return int(subprocess.run([exe], env=env, capture_output=True, text=True, check=True).stdout)

    assert threads("0.00 0.01 0.05 1/250 4321\n", cores + 3) == cores
    assert threads("0.00 0.01 0.05 1/250 4321\n", 1) == 1
    assert threads(f"3.10 2.00 1.00 {cores}/250 4321\n", cores + 3) == 1
    assert threads("9.99 9.99 9.99 40/250 4321\n", cores + 3) == 1
    if cores >= 2:
        assert threads("1.00 1.00 1.00 2/250 4321\n", cores + 3) == cores - 1
    assert threads(None, cores + 3) == cores
    assert threads("garbage", 2) == min(cores, 2)


RECOUNTS = r"""
printf("%d\n", bcast_threads());
for (int team = 2; team >= 1; team--) {
    double wait = omp_get_wtime() + 2 * BCAST_BUSY_SECONDS;
    while (omp_get_wtime() < wait) {}
    #pragma omp parallel num_threads(team)
    bcast_recount();
    printf("%d\n", bcast_threads());
}
"""
"""Counts at the call, then in a region of two threads and of one."""


def test_a_count_taken_in_a_region_does_not_count_its_own_team(tmp_path):
    """Two runnable threads: counted at the call (the caller alone) one is
    another program's; counted at the start of a region of two threads (its
    whole team runnable, bcast_recount) none is, so a worker of bcast's own
    pool still spinning from the last region never halves the next calls;
    in a region of one thread the other is again another program's."""
    exe = helper_program(tmp_path, RECOUNTS)
    cores = len(os.sched_getaffinity(0))
    (tmp_path / "loadavg").write_text("1.00 1.00 1.00 2/250 4321\n")
    env = {**os.environ, "OMP_NUM_THREADS": "2", "OMP_DYNAMIC": "false"}
    counts = subprocess.run([exe], env=env, capture_output=True, text=True, check=True).stdout.split()
    assert counts == [str(max(1, min(cores - 1, 2))), str(min(cores, 2)), str(max(1, min(cores - 1, 2)))]


def region_start(source: str) -> list[str]:
    """The first three lines of the function's first parallel region."""
    lines = [line.strip() for line in source.split("void bcast_main(")[-1].splitlines()]
    at = next(k for k, line in enumerate(lines) if line.startswith("#pragma omp parallel"))
    return lines[at:at + 3]


def test_the_region_of_a_nest_on_threads_recounts_when_it_runs_on_threads():
    """The static nest's region always re-takes the count; a dynamic nest's
    only when its run-time work put it on threads (a region the ``if`` kept
    on one thread runs right after larger calls, while their workers spin)."""
    static = bcast.compile(program(str(AT)), backend="c")
    assert region_start(static.c_source) == ["#pragma omp parallel num_threads(bcast_threads())", "{",
                                             "bcast_recount();"]
    dynamic = bcast.compile(program("?"), backend="c")
    work = f"(double)v2 * {COLS} >= {PARALLEL_WORK}"
    assert region_start(dynamic.c_source) == [f"#pragma omp parallel if ({work}) num_threads(bcast_threads())",
                                              "{", f"if ({work}) bcast_recount();"]


def test_every_library_of_a_process_shares_one_count(tmp_path, monkeypatch):
    """Two libraries' ``bcast_load`` point at one count (``share_load``):
    a count one library takes in its region serves the other's calls."""
    monkeypatch.setenv("BCAST_CACHE_DIR", str(tmp_path))
    libraries = [c_runtime.load(c_emitter.PRELUDE + f"int bcast_answer(void) {{ return {k}; }}\n") for k in (1, 2)]
    first, second = (ctypes.c_void_p.in_dll(library, "bcast_load").value for library in libraries)
    assert first is not None and first == second


SOFTMAX = """
func.func @main(%x: tensor<?x1024xf32>) -> tensor<?x1024xf32> {
  %m = bcast.reduce maximum %x, dims = [1] keepdims : (tensor<?x1024xf32>) -> tensor<?x1xf32>
  %d = bcast.subtract %x, %m : (tensor<?x1024xf32>, tensor<?x1xf32>) -> tensor<?x1024xf32>
  %e = bcast.exponential %d : tensor<?x1024xf32>
  %s = bcast.reduce add %e, dims = [1] keepdims : (tensor<?x1024xf32>) -> tensor<?x1xf32>
  %r = bcast.divide %e, %s : (tensor<?x1024xf32>, tensor<?x1xf32>) -> tensor<?x1024xf32>
  func.return %r : tensor<?x1024xf32>
}
"""


def test_run_time_work_counts_every_pass_over_a_row_as_a_static_nest_does():
    """A softmax row is three passes of 1024 (max, sum of exp, divide): the
    run-time test counts 3072 per row, as ``nests.work`` counts a static
    softmax; results equal the NumPy backend's on either side of it."""
    fn = bcast.compile(SOFTMAX, backend="c")
    assert f"(double)x_d0 * 3072 >= {PARALLEL_WORK})" in fn.c_source
    reference = bcast.compile(SOFTMAX, backend="numpy")
    at = -(-PARALLEL_WORK // 3072)
    for rows in (0, 1, at - 1, at, at + 1):
        x = np.random.default_rng(rows).standard_normal((rows, 1024), dtype=np.float32)
        np.testing.assert_allclose(fn(x), reference(x), rtol=2e-6, atol=0)


GEMM_SPLIT = r"""
int threads = bcast_gemm_threads();
printf("%d %lld\n", threads, (long long)bcast_gemm_rows(1024, 2e9, 4096, threads));
"""
"""The GEMM's thread count and the rows per block of a 1024-row product."""


def test_the_gemm_takes_all_of_openmps_threads_whatever_the_load(tmp_path):
    """The GEMM's row blocks run on OpenMP's count (``bcast_gemm_threads``),
    not the free-core count of the static regions: they are taken as
    threads come free, so a thread sharing its core delays one block
    (docs/c-backend.md, "Contractions"). The 1024-row product is blocks of
    at least 64 and at most 128 rows, two per thread, busy machine or not.
    The generated region asks for that count and re-takes the machine's
    at its start."""
    prelude = c_emitter.PRELUDE
    start = prelude.index("#if defined(_OPENMP)\n#include <omp.h>")
    end = prelude.index("\n}\n", prelude.index("static inline int64_t bcast_gemm_rows(")) + 3
    source = tmp_path / "gemm_threads.c"
    source.write_text("#include <stdint.h>\n#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n"
                      + prelude[start:end] + f"int main(void) {{ {GEMM_SPLIT} return 0; }}\n")
    exe = tmp_path / "gemm_threads"
    subprocess.run([*c_runtime.require_compiler(), "-O1", "-fopenmp", f"-DBCAST_LOADAVG=\"{tmp_path / 'loadavg'}\"",
                    str(source), "-o", str(exe)], check=True)
    cores = len(os.sched_getaffinity(0))
    env = {**os.environ, "OMP_NUM_THREADS": str(cores + 3)}

    def split(runnable: int) -> list[int]:
        (tmp_path / "loadavg").write_text(f"1.00 1.00 1.00 {runnable}/250 4321\n")
        return [int(v) for v in subprocess.run([exe], env=env, capture_output=True, text=True, check=True).stdout.split()]

    every = cores + 3
    rows = max(64, min(128, -(-1024 // (2 * every))))
    assert split(cores + 1) == split(1) == [every, rows]
    n = 1024
    text = c_emitter.emit_text(bcast_gemm_module(n))
    threads = re.search(r"int (n\d+) = bcast_gemm_threads\(\);", text).group(1)
    assert re.search(rf"bcast_gemm_rows\(1024, [0-9.e+]+, 4096, {threads}\);", text)
    region = re.search(rf"#pragma omp parallel if \((n\d+) > 1\) num_threads\({threads}\)\n\s*\{{\n"
                       rf"\s*if \(\1 > 1\) bcast_recount\(\);\n", text)
    assert region, text
    assert "#pragma omp for schedule(dynamic, 1) nowait" in text[region.end():]
    assert "omp_get_max_threads" not in text[text.index("void bcast_main("):]


def bcast_gemm_module(n: int):
    """``x @ W`` at n x n x n f32, lowered for the C target."""
    from bcast.tools import driver
    from bcast.tools.targets import TARGETS

    t = f"tensor<{n}x{n}xf32>"
    src = f"func.func @main(%x: {t}, %w: {t}) -> {t} {{\n  %0 = bcast.matmul %x, %w : ({t}, {t}) -> {t}\n" \
          f"  func.return %0 : {t}\n}}\n"
    return driver.load(src, "prog.mlir", pipeline=TARGETS["c"].emit_pipeline)
