"""Run a bcast program on a dask.distributed cluster, over an array larger
than one worker's memory.

The program (below, bcast IR in numpy semantics) normalizes each row of a
``ROWS x COLS`` f32 matrix (layernorm) and returns the per-column mean of the
result. bcast compiles it for the Array API target; called with a dask array
it builds a lazy graph, which the cluster computes chunk by chunk: no worker
ever holds the whole matrix. The input is generated lazily by dask too.

Run it on a local cluster of 2 worker processes with 512 MiB each, over a
1 GiB matrix (the defaults)::

    python examples/dask_cluster.py

Point it at a real cluster by giving the scheduler's address (the workers
need bcast installed)::

    python examples/dask_cluster.py --scheduler tcp://10.0.0.5:8786 --rows 1048576

It prints a progress bar, the result's checksum against NumPy on a sample of
rows, and each worker's peak resident memory.
"""

from __future__ import annotations

import argparse
import resource
import time

import numpy as np

import bcast

PROGRAM = """
func.func @main(%x: tensor<{r}x{c}xf32>) -> tensor<{c}xf32> {{
  %inv_c = bcast.constant dense<{inv_c}> : tensor<f32>
  %inv_r = bcast.constant dense<{inv_r}> : tensor<f32>
  %eps = bcast.constant dense<1.0e-05> : tensor<f32>
  %s = bcast.reduce add %x, dims = [1] keepdims : (tensor<{r}x{c}xf32>) -> tensor<{r}x1xf32>
  %mean = bcast.multiply %s, %inv_c : (tensor<{r}x1xf32>, tensor<f32>) -> tensor<{r}x1xf32>
  %d = bcast.subtract %x, %mean : (tensor<{r}x{c}xf32>, tensor<{r}x1xf32>) -> tensor<{r}x{c}xf32>
  %sq = bcast.multiply %d, %d : (tensor<{r}x{c}xf32>, tensor<{r}x{c}xf32>) -> tensor<{r}x{c}xf32>
  %ss = bcast.reduce add %sq, dims = [1] keepdims : (tensor<{r}x{c}xf32>) -> tensor<{r}x1xf32>
  %var = bcast.multiply %ss, %inv_c : (tensor<{r}x1xf32>, tensor<f32>) -> tensor<{r}x1xf32>
  %ve = bcast.add %var, %eps : (tensor<{r}x1xf32>, tensor<f32>) -> tensor<{r}x1xf32>
  %rs = bcast.rsqrt %ve : tensor<{r}x1xf32>
  %n = bcast.multiply %d, %rs : (tensor<{r}x{c}xf32>, tensor<{r}x1xf32>) -> tensor<{r}x{c}xf32>
  %cs = bcast.reduce add %n, dims = [0] : (tensor<{r}x{c}xf32>) -> tensor<{c}xf32>
  %m = bcast.multiply %cs, %inv_r : (tensor<{c}xf32>, tensor<f32>) -> tensor<{c}xf32>
  func.return %m : tensor<{c}xf32>
}}
"""


def program(rows: int, cols: int) -> str:
    return PROGRAM.format(r=rows, c=cols, inv_c=repr(1.0 / cols), inv_r=repr(1.0 / rows))


def numpy_version(x: np.ndarray) -> np.ndarray:
    d = x - x.mean(axis=1, keepdims=True)
    return (d / np.sqrt((d * d).mean(axis=1, keepdims=True) + np.float32(1e-5))).mean(axis=0)


def peak_rss_bytes() -> int:
    """This process's peak resident memory (run on each worker)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rows", type=int, default=65536)
    p.add_argument("--cols", type=int, default=4096)
    p.add_argument("--chunk-rows", type=int, default=2048)
    p.add_argument("--scheduler", help="address of a running scheduler (default: a local cluster)")
    p.add_argument("--workers", type=int, default=2, help="local cluster: worker processes")
    p.add_argument("--memory-limit", default="512MiB", help="local cluster: memory per worker")
    args = p.parse_args(argv)

    import dask.array as da
    from distributed import Client, LocalCluster, progress

    if args.scheduler:
        client = Client(args.scheduler)
    else:
        cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                               memory_limit=args.memory_limit, dashboard_address=None)
        client = Client(cluster)
    nbytes = args.rows * args.cols * 4
    print(f"input: {args.rows}x{args.cols} f32 = {nbytes / 2**20:.0f} MiB in chunks of "
          f"{args.chunk_rows} rows; workers: {len(client.scheduler_info()['workers'])}, "
          f"memory limit {args.memory_limit} each")

    f = bcast.compile(program(args.rows, args.cols), backend="array-api")
    x = da.random.default_rng(0).standard_normal((args.rows, args.cols), dtype=np.float32,
                                                 chunks=(args.chunk_rows, args.cols))
    lazy = f(x)  # a dask array: nothing computed yet
    start = time.perf_counter()
    future = client.compute(lazy)
    progress(future)
    result = future.result()
    seconds = time.perf_counter() - start
    print(f"\ncomputed {result.shape} {result.dtype} in {seconds:.1f} s")

    sample = x[: args.chunk_rows].compute()  # one chunk: the column means of its rows
    check = bcast.compile(program(args.chunk_rows, args.cols), backend="array-api")(sample)
    error = float(np.max(np.abs(np.asarray(check) - numpy_version(sample))))
    print(f"check on the first {args.chunk_rows} rows against NumPy: max abs difference {error:.2e}")
    for address, peak in sorted(client.run(peak_rss_bytes).items()):
        print(f"worker {address}: peak resident memory {peak / 2**20:.0f} MiB")
    client.close()
    return 0 if error < 1e-4 else 1


if __name__ == "__main__":
    raise SystemExit(main())
