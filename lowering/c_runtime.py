"""Build, cache and call the C target's shared libraries.

The C target (``bcast.lowering.c_emitter``) prints one C function per
``func.func``, taking a pointer to each argument's contiguous row-major data
(``index`` arguments as ``int64_t``) and then one pointer per result, which
the function fills (destination-passing style, as the loop IR's calling
convention). This module:

- compiles the source with ``$CC`` (else ``cc``) and ``-O3 -march=native``,
  plus ``-fopenmp`` when a probe shows the compiler supports it;
- caches the library under ``$BCAST_CACHE_DIR`` (default
  ``$XDG_CACHE_HOME/bcast`` or ``~/.cache/bcast``) by a hash of the source,
  the compiler and its flags, and keeps that cache bounded (``evict``);
- saves beside it what ``bcast.compile`` needs to call a program again
  without parsing it (``ProgramEntry``, keyed on the input text and options
  by ``program_key``);
- loads it with ``ctypes`` (which releases the GIL during the call) and
  wraps each function with the argument and ``out=`` rules of docs/contracts.md
  section 7 (``numpy_runtime.argument``, ``numpy_runtime.Outs``).
Threads follow ``OMP_NUM_THREADS`` (OpenMP's own rule).
"""

from __future__ import annotations

import ctypes
import fcntl
import hashlib
import importlib.util
import os
import pickle
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
import functools
from functools import lru_cache
from pathlib import Path
from typing import TypeVar

import numpy as np

from bcast.ir import rules
from bcast.lowering import c_caller, c_gemm
from bcast.lowering import numpy_runtime as rt

T = TypeVar("T")

BASE_FLAGS = ("-O3", "-march=native", "-std=c99", "-fPIC", "-shared")


class CompilerMissing(RuntimeError):
    """No C compiler: the message says what to do instead."""


class BadCacheLimit(ValueError):
    """A cache limit variable that is not a non-negative integer."""


class BuildFailed(RuntimeError):
    """The compiler rejected generated code (a bug in bcast, not in the input)."""


def compiler() -> list[str] | None:
    """The compiler command: ``$CC`` (may hold flags) or ``cc`` on PATH."""
    cc = os.environ.get("CC")
    if cc:
        words = shlex.split(cc)
        return words if words and shutil.which(words[0]) else None
    found = shutil.which("cc")
    return [found] if found else None


def available() -> bool:
    return compiler() is not None


def require_compiler() -> list[str]:
    cc = compiler()
    if cc is None:
        raise CompilerMissing(
            "the C backend needs a C compiler, and none was found (set CC or install cc); "
            "use --backend numpy (bcast.compile(..., backend='numpy')) instead"
        )
    return cc


@lru_cache(maxsize=None)
def _openmp_works(cc: tuple[str, ...]) -> bool:
    """Whether ``cc -fopenmp`` builds and links a shared object."""
    with tempfile.TemporaryDirectory(prefix="bcast-omp-") as d:
        src = Path(d) / "probe.c"
        src.write_text("#include <omp.h>\nint bcast_probe(void) { return omp_get_max_threads(); }\n")
        done = subprocess.run([*cc, *BASE_FLAGS, "-fopenmp", str(src), "-o", str(Path(d) / "probe.so")],
                              capture_output=True)
        return done.returncode == 0


VECTOR_MATH_FLAGS = ("-DBCAST_VECTOR_MATH", "-fno-math-errno", "-lmvec")
"""glibc's vector math library: loops calling ``expf``, ``tanhf``... vectorize
(libmvec's functions are accurate to a few ulp, as NumPy's SIMD loops)."""


@lru_cache(maxsize=None)
def _vector_math_works(cc: tuple[str, ...], openmp: bool) -> bool:
    """Whether the vector math flags build a library whose ``expf`` loop
    calls libmvec (glibc on x86-64)."""
    with tempfile.TemporaryDirectory(prefix="bcast-mvec-") as d:
        src = Path(d) / "probe.c"
        src.write_text("#define __FAST_MATH__ 1\n#include <math.h>\n#undef __FAST_MATH__\n"
                       "void bcast_probe(const float *restrict x, float *restrict y) {\n"
                       "  for (int i = 0; i < 64; i++) y[i] = expf(x[i]);\n}\n")
        out = Path(d) / "probe.so"
        done = subprocess.run([*cc, *BASE_FLAGS, *(["-fopenmp"] if openmp else []), *VECTOR_MATH_FLAGS,
                               str(src), "-o", str(out)], capture_output=True)
        if done.returncode != 0:
            return False
        nm = shutil.which("nm")
        if nm is None:
            return False
        symbols = subprocess.run([nm, "-D", str(out)], capture_output=True, text=True).stdout
        return "_ZGV" in symbols


WIDE_VECTOR_FLAGS = ("-mprefer-vector-width=512",)
"""On a machine with AVX-512, 16-lane loops: GCC's default for ``-march=native``
there is 8 lanes, and the vector ``expf`` and divisions of softmax are then
compute-bound (4096x4096 f32 on one thread, best of 15 in a C harness:
18.3 -> 14.1 ms)."""


@lru_cache(maxsize=None)
def _wide_vectors_work(cc: tuple[str, ...]) -> bool:
    """Whether ``cc`` accepts ``WIDE_VECTOR_FLAGS`` and the machine has AVX-512."""
    with tempfile.TemporaryDirectory(prefix="bcast-avx512-") as d:
        src = Path(d) / "probe.c"
        src.write_text("#ifndef __AVX512F__\n#error no AVX-512\n#endif\nint bcast_probe(void) { return 0; }\n")
        done = subprocess.run([*cc, *BASE_FLAGS, *WIDE_VECTOR_FLAGS, str(src), "-o", str(Path(d) / "probe.so")],
                              capture_output=True)
        return done.returncode == 0


def flags(cc: list[str]) -> list[str]:
    """The build flags for ``cc`` on this machine: what the probes find,
    remembered on disk (``_remembered_probes``) so that a new process does
    not pay them again (three compiles, about 0.45 s of a first build's
    1.2 s on the development machine)."""
    return list(_flags(tuple(cc)))


def flags_known(cc: Sequence[str]) -> bool:
    """Whether ``flags(cc)`` answers without running a probe: this process
    asked before, or the probes' results are in the cache directory
    (``api.compile``'s first calls take the probes off the first result's
    path when they are not)."""
    return tuple(cc) in _answered or _remembered_probes(_probe_key(tuple(cc))) is not None


_answered: set[tuple[str, ...]] = set()
"""The compilers ``_flags`` has answered for in this process."""


@lru_cache(maxsize=None)
def _flags(cc: tuple[str, ...]) -> tuple[str, ...]:
    _answered.add(cc)
    key = _probe_key(cc)
    found = _remembered_probes(key)
    if found is None:
        found = _probe(cc)
        _remember_probes(key, found)
    openmp, vector, wide = found
    return (*BASE_FLAGS, *(WIDE_VECTOR_FLAGS if wide else ()), *(["-fopenmp"] if openmp else []),
            *(VECTOR_MATH_FLAGS if vector else ()), "-lm")


def _probe(cc: tuple[str, ...]) -> tuple[bool, bool, bool]:
    """(OpenMP, vector math, wide vectors), the three probes run at once
    (each is a compiler subprocess). The vector math probe assumes OpenMP
    works and runs again without it if it does not."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=3) as pool:
        openmp = pool.submit(_openmp_works, cc)
        vector = pool.submit(_vector_math_works, cc, True)
        wide = pool.submit(_wide_vectors_work, cc)
        found = openmp.result(), vector.result(), wide.result()
    if not found[0]:
        found = (False, _vector_math_works(cc, False), found[2])
    return found


PROBES_VERSION = "1"
"""Changes whenever a probe or its flags change, so remembered results of
older probes are not used."""


def _probe_key(cc: tuple[str, ...]) -> str:
    """What the probes' results depend on: the compiler command and the
    binary it runs (path, size, modification time), the base flags, and the
    CPU (``-march=native`` and AVX-512 follow it: a cache directory shared
    between machines must not share results)."""
    parts = [PROBES_VERSION, *cc, *BASE_FLAGS]
    binary = shutil.which(cc[0])
    if binary is not None:
        stat = Path(binary).resolve().stat()
        parts += [str(Path(binary).resolve()), str(stat.st_size), str(stat.st_mtime_ns)]
    try:
        with open("/proc/cpuinfo") as info:
            parts += [line for line in info if line.startswith(("model name", "flags"))][:2]
    except OSError:
        import platform

        parts.append(platform.processor() or platform.machine())
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()[:32]


def _remembered_probes(key: str) -> tuple[bool, bool, bool] | None:
    """The probes' results saved under ``key``, or None (never saved, or
    unreadable: the probes then run again)."""
    try:
        text = (cache_dir() / f"probes-{key}.txt").read_text()
    except OSError:
        return None
    values = text.split()
    if len(values) != 3 or not set(values) <= {"0", "1"}:
        return None
    return tuple(v == "1" for v in values)  # type: ignore[return-value]


def _remember_probes(key: str, found: tuple[bool, bool, bool]) -> None:
    """Save the probes' results, atomically (a reader sees all or nothing);
    a cache directory that cannot be written only costs the probes again."""
    directory = cache_dir()
    try:
        directory.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", dir=directory, prefix="probes-", suffix=".tmp",
                                         delete=False) as f:
            f.write(" ".join("1" if v else "0" for v in found) + "\n")
        os.replace(f.name, directory / f"probes-{key}.txt")
    except OSError:
        pass


def cache_dir() -> Path:
    root = os.environ.get("BCAST_CACHE_DIR")
    if root:
        return Path(root)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "bcast"


CACHE_LIMITS = {"BCAST_CACHE_MAX_LIBRARIES": 1000, "BCAST_CACHE_MAX_MB": 256}
"""The cache's bounds and their defaults: at most this many libraries and
this many MiB (1 MiB = 2**20 bytes) of them. A library is 15-40 KiB, so the
count is the bound that usually acts (about 20 MiB); the size bound stops a
few huge modules from filling a disk. Each variable takes a non-negative
integer; 0 keeps nothing (every compile builds anew)."""

STALE_BUILD_SECONDS = 24 * 3600
"""A build directory this old belongs to a process that died while
compiling (a live compile takes seconds): eviction removes it."""


def cache_limits() -> tuple[int, int]:
    """(libraries, bytes) from ``CACHE_LIMITS``' variables."""
    values = []
    for name, default in CACHE_LIMITS.items():
        text = os.environ.get(name, "").strip()
        if not text:
            values.append(default)
        elif text.isascii() and text.isdigit():
            values.append(int(text))
        else:
            raise BadCacheLimit(f"{name}={text!r}: the C backend's cache limit must be a non-negative integer")
    return values[0], values[1] * 2**20


@contextmanager
def _locked(directory: Path, operation: int) -> Iterator[None]:
    """``flock`` on the cache directory itself (no lock file to leave
    behind): shared to load or publish a library, exclusive to evict. Each
    use opens its own descriptor, so threads of one process exclude each
    other as processes do."""
    fd = os.open(directory, os.O_RDONLY)
    try:
        fcntl.flock(fd, operation)
        yield
    finally:
        os.close(fd)  # releases the lock


_BUILD_LOCKS: dict[str, threading.Lock] = {}
_BUILD_LOCKS_LOCK = threading.Lock()


def _build_lock(key: str) -> threading.Lock:
    """The lock of one library's build: threads building the same source
    wait for one build; different sources build side by side."""
    with _BUILD_LOCKS_LOCK:
        return _BUILD_LOCKS.setdefault(key, threading.Lock())


OPENMP_SPIN = 1_000
"""How long an idle OpenMP thread spins before it sleeps, in libgomp's
``GOMP_SPINCOUNT`` units (a ``pause`` each: about 46 us in all on the
development VM's Zen 5, where a pause takes 46 ns).

Decision: libgomp's default (300,000 pauses: 14 ms there) is kept for no
program; each process's first load of a C module passes this instead
(``_open``), unless ``OMP_WAIT_POLICY`` or ``GOMP_SPINCOUNT`` is set. On a
machine whose cores other processes also use, a thread that finished its
part early spins at the region's end barrier on a core the straggler could
have moved to, and after the region it keeps spinning on a core the calling
thread then needs: the dense layer at 1024x1024 on the 2-core VM with a
third busy process took 14.4 ms with the default against 10.0 with 1,000
and 10.6 with ``OMP_WAIT_POLICY=passive``, and 9.7 for the kernel on one
thread. Between 1,000 and 10,000 the wall times were within the noise,
but the layer's CPU time per call (load average 9) was 2-3% over
jax.jit's with 1,000 and 7% over with 10,000: spinning is wasted when
cores are shared (docs/performance.md). 46 us still covers the gap between
the parallel loops of one call and between back-to-back calls from
Python, which is what spinning saves the wake-up of."""

_SPIN_LOCK = threading.Lock()
_spin_passed = False


FENV_BYTES = 1024
"""Room for a C ``fenv_t`` (28 bytes on x86-64 glibc, 8 on AArch64): the
buffer ``_keeping_float_environment`` saves it in."""


@contextmanager
def _keeping_float_environment() -> Iterator[None]:
    """Run the body, then put the calling thread's floating-point
    environment (rounding mode, exception flags, and on x86-64 MXCSR's
    flush-to-zero and denormals-are-zero bits) back as it was before.

    Why: a library linked by ``$CC -ffast-math`` (or ``-Ofast``,
    ``-funsafe-math-optimizations``) carries GCC's ``crtfastmath.o``, whose
    constructor turns flush-to-zero on in the thread that loads it; every
    later float operation of that thread, and of the threads it starts,
    NumPy's included, would then read and write subnormals as zeros
    (docs/contracts.md, "The process's floating-point environment").
    ``dlopen`` runs constructors in the calling thread only, so restoring
    that thread's environment right after undoes it whatever the compiler.
    ``fegetenv``/``fesetenv`` come from the C library Python is linked with."""
    saved = ctypes.create_string_buffer(FENV_BYTES)
    if ctypes.pythonapi.fegetenv(saved) != 0:
        raise RuntimeError("fegetenv failed: the floating-point environment cannot be kept across loading")
    try:
        yield
    finally:
        ctypes.pythonapi.fesetenv(saved)


_LOAD_LOCK = threading.Lock()
_shared_load: int | None = None


def share_load(library: ctypes.CDLL) -> None:
    """Point the library's ``bcast_load`` (the machine's count of other
    runnable threads, C prelude ``bcast_threads``) at the first loaded
    library's, so every library of the process takes the count in its own
    regions and reads the others' (a library's own would be taken right
    after another library's region, while that region's workers spin).
    A library without threads has none."""
    global _shared_load
    try:
        pointer = ctypes.c_void_p.in_dll(library, "bcast_load")
    except ValueError:
        return
    with _LOAD_LOCK:
        if _shared_load is None:
            _shared_load = pointer.value
        else:
            pointer.value = _shared_load


def _open(path: Path) -> ctypes.CDLL:
    """``ctypes.CDLL`` of a built library. The first one of the process
    loads libgomp (libraries built with ``-fopenmp`` link it), which reads
    its settings from the environment once, when it loads: that load sees
    ``GOMP_SPINCOUNT=OPENMP_SPIN`` unless the user set the spin or wait
    policy, and the environment is restored right after. (When something
    else loaded libgomp first, its settings stay.) Its machine count is
    the process's (``share_load``), and the calling thread's floating-point
    environment is kept (``_keeping_float_environment``)."""
    with _keeping_float_environment():
        library = _load_spinning(path)
    share_load(library)
    return library


def _load_spinning(path: Path) -> ctypes.CDLL:
    global _spin_passed
    if _spin_passed or "OMP_WAIT_POLICY" in os.environ or "GOMP_SPINCOUNT" in os.environ:
        return ctypes.CDLL(str(path))
    with _SPIN_LOCK:
        if _spin_passed:
            return ctypes.CDLL(str(path))
        os.environ["GOMP_SPINCOUNT"] = str(OPENMP_SPIN)
        try:
            library = ctypes.CDLL(str(path))
        finally:
            del os.environ["GOMP_SPINCOUNT"]
        _spin_passed = True
        return library


LONG_FUNCTION_LINES = 400
"""A source with a function longer than this (a fused kernel of some 400
ops or more) is built with ``LONG_SOURCE_FLAGS``; bcast's own GEMM and
convolution kernels are all shorter, so they build as ever."""
LONG_SOURCE_FLAGS = ("-fno-thread-jumps", "-fno-gcse")
"""GCC's jump threading in its CFG cleanup and its RTL constant propagation
(part of ``-fgcse``) take time superlinear in the branches of one
function: a fused chain of 3,000 ops with 750 ``maximum`` (each a ``||``)
compiled in 4.2-5.0 s at ``-O3``, 1.9 s without them; 1,000 ops 0.56 ->
0.42 s CPU. The loops vectorize as before and the code runs as fast (the
same bits: neither flag changes rounding; docs/performance.md, "Compile
time of big programs"). Other compilers ignore them."""


def build_flags(cc: Sequence[str], source: str) -> list[str]:
    """The flags ``cc`` builds ``source`` with: ``flags``, and
    ``LONG_SOURCE_FLAGS`` for a long one."""
    long = longest_function(source) > LONG_FUNCTION_LINES
    return [*flags(list(cc)), *(LONG_SOURCE_FLAGS if long else ())]


def longest_function(source: str) -> int:
    """Lines of the longest function body of ``source``, as the C emitter
    lays them out (a definition's line ends with ``{`` at column 0, its
    body ends at a ``}`` alone at column 0)."""
    longest, start = 0, None
    for k, line in enumerate(source.splitlines()):
        if start is None and line[:1] not in ("", " ", "#", "}", "\t") and line.endswith("{"):
            start = k
        elif start is not None and line == "}":
            longest, start = max(longest, k - start - 1), None
    return longest


def load(source: str) -> ctypes.CDLL:
    """The loaded shared library of ``source``, from the cache or built into it
    (``cached``)."""
    cc = require_compiler()
    if _own_caller.cache_info().currsize == 0:
        threading.Thread(target=own_caller, name="bcast-caller-build", daemon=True).start()
    return cached(source, cc, build_flags(cc, source), _open)


def cached(source: str, cc: Sequence[str], command_flags: Sequence[str], open_: Callable[[Path], T],
           prefix: str = "bcast-") -> T:
    """``open_`` of the library ``cc`` builds from ``source`` with
    ``command_flags``, from the cache or built into it, named ``prefix``
    and a hash (``bcast-``: a program's, which ``evict`` bounds).

    The cache is safe to share between processes: a build compiles into a
    temporary directory of the cache and renames the library into place, so
    no one sees half a file; loading (and publishing) holds a shared lock on
    the directory and eviction an exclusive one, so an entry is never
    removed between being found and being mapped (once mapped, unlinking it
    is harmless). A hit marks the entry used (its mtime), which is the order
    ``evict`` removes in."""
    limits = cache_limits()  # a bad setting is an error on a hit too
    key = hashlib.sha256("\0".join([source, *cc, *command_flags]).encode()).hexdigest()[:32]
    directory = cache_dir()
    target = directory / f"{prefix}{key}.so"
    directory.mkdir(parents=True, exist_ok=True)
    library = _load_cached(directory, target, open_)
    if library is not None:
        return library
    with _build_lock(key), tempfile.TemporaryDirectory(prefix="bcast-build-", dir=directory) as tmp:
        library = _load_cached(directory, target, open_)  # another thread built it meanwhile
        if library is not None:
            return library
        src = Path(tmp) / "module.c"
        src.write_text(source)
        partial = Path(tmp) / "module.so"
        done = subprocess.run([*cc, str(src), *command_flags, "-o", str(partial)],
                              capture_output=True, text=True)
        if done.returncode != 0:
            raise BuildFailed(f"{' '.join(cc)} rejected the generated C:\n{done.stderr[-4000:]}")
        with _locked(directory, fcntl.LOCK_SH):
            os.replace(partial, target)  # atomic: readers see all of it or nothing
            library = open_(target)
    evict(directory, *limits)
    return library


PROGRAM_FORMAT = "1"
"""Changes whenever ``ProgramEntry`` changes shape."""


CODE_PACKAGES = ("ir", "passes", "lowering", "tools")
"""bcast's subpackages, whose code turns a program's text into C."""


@lru_cache(maxsize=1)
def code_version() -> str:
    """A hash of bcast's own source files (every ``.py`` of the package) and
    of xDSL's version, computed once per process (about 2 ms): the generated
    C, and everything a ``ProgramEntry`` holds, follow from the input text
    through this code, so a changed bcast (an edit of a checkout, another
    release) never finds an entry an older one wrote."""
    import xdsl

    root = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256(f"xdsl {getattr(xdsl, '__version__', '?')}\0".encode())
    paths = [*root.glob("*.py"), *(path for package in CODE_PACKAGES for path in (root / package).rglob("*.py"))]
    for path in sorted(paths):
        digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:32]


@dataclass(frozen=True)
class ProgramEntry:
    """What calling a compiled program needs, saved beside its library so that
    ``bcast.compile`` of the same text finds it without parsing the program or
    running a pass (``remembered_program``): the generated C (its library is
    cached by its own hash, and rebuilt from it if evicted), the entry's C
    name and signature, the run-time index checks (with their located
    messages), and the bytes its tensors need (the memory guard)."""

    source: str
    c_name: str
    arguments: tuple[rt.Spec, ...]
    results: tuple[rt.Spec, ...]
    checks: tuple[BoundsCheck, ...]
    fault_name: str | None
    needed_bytes: int


def program_key(cc: Sequence[str], parts: Sequence[str]) -> str:
    """The key of a program's entry: ``parts`` (the input text and every
    option that changes what is built, as the caller lists them), bcast's
    ``code_version``, the compiler and the flags its probes chose."""
    words = [PROGRAM_FORMAT, code_version(), *cc, *flags(list(cc)), "\0", *parts]
    return hashlib.sha256("\0".join(words).encode()).hexdigest()[:32]


def _program_path(directory: Path, key: str) -> Path:
    return directory / f"program-{key}.pickle"


def remembered_program(key: str) -> ProgramEntry | None:
    """The entry saved under ``key``, marked used, or None: never saved,
    evicted, or unreadable (a damaged file is then rebuilt and replaced).

    Decision: entries are pickles. The cache directory is trusted as much as
    the libraries in it, which the process maps and runs; the key holds
    ``code_version``, so a pickle is only read by the code that wrote it."""
    path = _program_path(cache_dir(), key)
    try:
        data = path.read_bytes()
    except OSError:
        return None
    try:
        entry = pickle.loads(data)
    except Exception:  # noqa: BLE001 - any damage is a miss
        return None
    if not isinstance(entry, ProgramEntry):
        return None
    try:
        os.utime(path)  # most recently used
    except OSError:  # a cache shared read-only
        pass
    return entry


def remember_program(key: str, entry: ProgramEntry) -> None:
    """Save ``entry`` under ``key`` atomically (a reader sees all of it or
    nothing; of two processes saving one key, the last rename wins, and both
    wrote the same), then keep the cache within its bounds. A cache that
    cannot be written only costs the next compile its passes."""
    directory = cache_dir()
    try:
        directory.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("wb", dir=directory, prefix="program-", suffix=".tmp",
                                         delete=False) as f:
            pickle.dump(entry, f, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(f.name, _program_path(directory, key))
        evict(directory, *cache_limits())
    except OSError:
        pass


def _load_cached(directory: Path, target: Path, open_: Callable[[Path], T]) -> T | None:
    with _locked(directory, fcntl.LOCK_SH):
        try:
            os.utime(target)  # most recently used
        except FileNotFoundError:
            return None
        except OSError:  # a cache shared read-only: use it without the refresh
            if not target.is_file():
                return None
        return open_(target)


def evict(directory: Path, max_libraries: int, max_bytes: int) -> None:
    """Keep the most recently used libraries of ``directory`` within the
    bounds (``cache_limits()``): the newest are kept while both hold, the
    first that would break one and every older one are removed. Also
    removes build directories (and program entries half saved) left by a
    process that died meanwhile. The program entries (``ProgramEntry``) are bounded the same way, apart:
    an entry whose library was evicted still rebuilds it from its source."""
    with _locked(directory, fcntl.LOCK_EX):
        for pattern in ("bcast-*.so", "program-*.pickle"):
            _evict_oldest(directory.glob(pattern), max_libraries, max_bytes)
        for left in (*directory.glob("bcast-build-*"), *directory.glob("program-*.tmp")):
            try:
                stale = time.time() - left.stat().st_mtime > STALE_BUILD_SECONDS
            except FileNotFoundError:
                continue
            if stale and left.is_dir():
                shutil.rmtree(left, ignore_errors=True)
            elif stale:
                left.unlink(missing_ok=True)


def _evict_oldest(paths: Iterator[Path], max_files: int, max_bytes: int) -> None:
    """Remove the least recently used of ``paths`` beyond the bounds."""
    entries = []
    for path in paths:
        try:
            stat = path.stat()
        except FileNotFoundError:  # removed outside this protocol (by hand)
            continue
        entries.append((stat.st_mtime_ns, stat.st_size, path))
    entries.sort(key=lambda entry: entry[0], reverse=True)
    kept, total, full = 0, 0, False
    for _, size, path in entries:
        full = full or kept + 1 > max_files or total + size > max_bytes
        if full:
            path.unlink(missing_ok=True)
        else:
            kept, total = kept + 1, total + size


CTYPES = {
    "bool": ctypes.c_uint8, "int8": ctypes.c_int8, "int16": ctypes.c_int16, "int32": ctypes.c_int32,
    "int64": ctypes.c_int64, "uint8": ctypes.c_uint8, "uint16": ctypes.c_uint16,
    "uint32": ctypes.c_uint32, "uint64": ctypes.c_uint64, "float16": ctypes.c_uint16,
    "float32": ctypes.c_float, "float64": ctypes.c_double,
}  # fmt: skip


@dataclass(frozen=True)
class BoundsCheck:
    """What a failed dynamic index check of the C code reports: the index's
    position and dim size, whether index-access broadcasting applies, and
    where the indexing op stands (``bcast.ir.loops.BOUNDS_CHECK_ATTR``)."""

    dim: int
    size: int
    iab: bool
    site: rt.Site | None


@dataclass(frozen=True)
class SizeCheck:
    """What a failed size check of a control-flow region reports
    (``bcast.ir.loops.SIZE_CHECK_ATTR``): where the checking op stands.
    The runtime reports the reference's own error: it runs the reference
    on the call's arguments (``Function.replay``), which takes the same
    branches and stops at the same check, so the message has its sizes."""

    site: rt.Site | None


class Function:
    """One C function with docs/contracts.md's argument and ``out=`` rules:
    results go straight into ``out`` when it overlaps no input and no other
    ``out`` (``numpy_runtime.Outs``), else into fresh arrays that are copied.
    In a module with dynamic index checks (``checks``), a failed check is the
    ``ProgramError`` the other backends raise, and no ``out`` is written
    before the call has succeeded. An ``index`` result is a 0-d int64 array,
    as on the other backends."""

    def __init__(self, library: ctypes.CDLL, name: str, arguments, results,
                 checks: Sequence[BoundsCheck | SizeCheck] = (), fault_name: str | None = None, sizes=None,
                 replay: Callable[[list], object] | None = None):
        self.replay = replay
        """Runs the reference on a call's arguments (``SizeCheck``), or None."""
        self.arguments: tuple[rt.Spec, ...] = tuple(arguments)
        self.results: tuple[rt.Spec, ...] = tuple(results)
        self.checks = tuple(checks)
        self.sizes = sizes
        """A dynamic function's ``c_sizes.SizePlan`` (None for a static one): its
        checks run, and its results' shapes are computed, before the call."""
        self.c_function = getattr(library, name)
        self.c_function.restype = None
        self.c_function.argtypes = [
            t for spec in (*self.arguments, *self.results)
            for t in ([ctypes.c_int64] if spec.shape is None
                      else [ctypes.c_void_p] + [ctypes.c_int64] * len(dynamic_dims(spec)))
        ]
        self.take_fault = None
        if self.checks:
            self.take_fault = getattr(library, fault_name)
            self.take_fault.restype, self.take_fault.argtypes = None, [ctypes.c_void_p]
        plan = fast_plan(self.arguments, self.results, self.checks)
        self.fast = None if plan is None else native_fast(plan, self.c_function) or fast_call(plan, self.c_function)
        if sizes is not None and not self.checks and DATA_OFFSET is not None and self.results \
                and all(spec.shape is not None for spec in self.results):
            self.fast = dynamic_fast_call(self.arguments, self.results, sizes, self.c_function)
        """The generated fast path (``fast_call``), or None."""

    def __call__(self, *args, out=None):
        """The common case (``fast_plan``) through the generated ``fast``,
        checked with attribute comparisons and called directly; anything
        else (and every error) goes through ``checked_call``, so messages
        are the same."""
        if self.fast is not None:
            result = self.fast(args, out)
            if result is not MISS:
                return result
        return self.checked_call(args, out)

    def sized_target(self, outs: rt.Outs, k: int, shape: tuple[int, ...]) -> np.ndarray:
        """Where result ``k`` of run-time ``shape`` is computed: the caller's
        ``out`` when ``Outs`` lets it be written directly and it has that
        shape, else a fresh array (``deliver`` then refuses an ``out`` of
        another shape before anything is written)."""
        if outs.arrays is not None and outs.direct[k] and outs.arrays[k].shape == shape:
            return outs.arrays[k]
        return rt.output(shape, self.results[k].dtype)

    def checked_call(self, args, out):
        """Any call: every argument through ``numpy_runtime.argument``,
        ``out=`` through ``numpy_runtime.Outs``."""
        values = [rt.argument(a, spec) for a, spec in zip(args, self.arguments, strict=True)]
        dynamic = self.sizes is not None
        # (a dynamic function's checks run before the call: it then cannot fail)
        outs = rt.Outs(out, self.results, values, may_fail=bool(self.checks))
        shapes = self.sizes([v if spec.shape is None or k in self.sizes.values_read else np.shape(v)
                             for k, (v, spec) in enumerate(zip(values, self.arguments))]) if dynamic else None
        pointers: list[object] = []
        keep = []
        for value, spec in zip(values, self.arguments):
            if spec.shape is None:
                pointers.append(int(value))
                continue
            data = np.require(value, requirements="CA")  # contiguous and aligned: what C code may assume
            keep.append(data)
            pointers.append(data.ctypes.data)
            pointers += [data.shape[d] for d in dynamic_dims(spec)]
        targets = [np.zeros((), np.int64) if spec.shape is None
                   else self.sized_target(outs, k, shapes[k]) if dynamic and dynamic_dims(spec) else outs.target(k)
                   for k, spec in enumerate(self.results)]
        targets = [t if t.flags.c_contiguous and t.flags.aligned else rt.output(t.shape, t.dtype)
                   for t in targets]  # C writes rows, and may assume aligned pointers
        for t, spec in zip(targets, self.results):
            pointers.append(t.ctypes.data)
            if spec.shape is not None:
                pointers += [t.shape[d] for d in dynamic_dims(spec)]
        self.c_function(*pointers)  # ctypes releases the GIL for the call
        if self.take_fault is not None:
            fault = np.zeros(2, np.int64)
            self.take_fault(fault.ctypes.data)  # the calling thread's own record
            if fault[0]:
                check = self.checks[fault[0] - 1]
                if isinstance(check, SizeCheck):
                    self.size_check_failed(check, values)
                rt.check_index(int(fault[1]), check.size, check.iab, check.dim, check.site)
                raise AssertionError(f"the C code's check {fault[0]} failed on index {fault[1]}, "
                                     f"which is in bounds")  # pragma: no cover - a bcast bug
        return outs.deliver(targets, [True] * len(targets))


    def size_check_failed(self, check: SizeCheck, values: list) -> None:
        """Raise the reference's error for a failed size check: its run of
        the same arguments raises it (nothing was written to ``out``)."""
        if self.replay is not None:
            self.replay(values)
        raise rt.ShapeFailure("a run-time check of the program failed (in the C code; the reference, run on "
                              "the same arguments, passed it)", (), check.site)  # pragma: no cover - a bcast bug


def dynamic_dims(spec: rt.Spec) -> list[int]:
    """The dims of an array argument or result whose sizes the C function
    takes as ``int64_t`` parameters after its pointer (``c_emitter``)."""
    return [d for d, n in enumerate(spec.shape) if isinstance(n, rules.Dynamic)]


SMALL_RESULT_BYTES = 1 << 16
"""Results up to this size are plain ``np.empty`` arrays on the fast path:
the allocator serves them from memory already mapped, so recycling buffers
(``numpy_runtime.output``, which saves the page faults of large results)
would only add its cost."""


@dataclass(frozen=True)
class FastPlan:
    """What the fast path compares a call against, computed once per
    function: each argument's (shape, dtype), None for an ``index``, and
    each result's (shape, dtype, bytes)."""

    arguments: tuple[tuple[tuple[int, ...], np.dtype] | None, ...]
    results: tuple[tuple[tuple[int, ...], np.dtype, int], ...]


def fast_plan(arguments: Sequence[rt.Spec], results: Sequence[rt.Spec],
              checks: Sequence[BoundsCheck]) -> FastPlan | None:
    """The fast path of a function, or None where it has none.

    It takes the call where docs/contracts.md's rules change nothing: every
    array argument a C-contiguous ``np.ndarray`` of exactly the declared
    shape and dtype (used as it is, as ``numpy_runtime.argument`` would),
    every ``index`` a Python int in range, and each ``out`` an ``np.ndarray``
    of the result's shape and dtype, writeable, C-contiguous and apart from
    the inputs and the other ``out`` arrays (contiguous arrays share memory
    exactly when their byte ranges meet, so it is written directly, as
    ``numpy_runtime.Outs`` would). Anything else, errors included, takes the
    checked path. Not for functions with dynamic dims, no results, ``index``
    results or run-time index checks (those never write an ``out`` directly), nor when
    ``DATA_OFFSET`` could not be verified."""
    if checks or DATA_OFFSET is None or not results:
        return None
    if any(spec.shape is None or rules.is_dynamic(spec.shape) for spec in results):
        return None
    if any(spec.shape is not None and rules.is_dynamic(spec.shape) for spec in arguments):
        return None
    return FastPlan(
        tuple(None if spec.shape is None else (tuple(spec.shape), spec.dtype) for spec in arguments),
        tuple((tuple(spec.shape), spec.dtype, rules.element_count(spec.shape) * spec.dtype.itemsize)
              for spec in results),
    )


MISS = rt.MISS
"""What the fast path returns when it does not apply to a call."""


def native_fast(plan: FastPlan, c_function) -> Callable | None:
    """``plan``'s fast path run in C by ``bcast_call.fast`` (c_caller):
    the same tests as ``fast_call``'s (and alignment, which C code may
    assume), the results allocated and the function called in one call
    from Python, about a third of the Python fast path's cost. None where
    ``bcast_call`` is not built (``fast_call`` then writes it in Python)."""
    call = own_caller()
    if call is None or len(c_function.argtypes) > c_caller.MAX_ARGUMENTS:
        return None
    module = call.__self__
    capsule = module.plan(ctypes.cast(c_function, ctypes.c_void_p).value,
                          tuple(None if a is None else (a[1], a[0]) for a in plan.arguments),
                          tuple((dtype, shape) for shape, dtype, _ in plan.results),
                          MISS, rt.output, SMALL_RESULT_BYTES)
    return functools.partial(module.fast, capsule)


def fast_call(plan: FastPlan, c_function):
    """``plan``'s fast path as a Python function of ``(args, out)``, written
    out for the function's arity (a loop over the arguments cost as much
    again as the checks themselves): it checks each argument and ``out``
    with attribute comparisons, allocates the results
    (``SMALL_RESULT_BYTES``) and calls the C function (``Entry``); ``MISS``
    when the call is not the common case. Contiguous arrays share memory
    exactly when their byte ranges meet, which is the overlap test of
    ``out``."""
    entry = Entry(c_function)
    arity, count = len(plan.arguments), len(plan.results)
    tests, passed, arrays = [], [], []
    constants: dict[str, object] = {}
    for k, expected in enumerate(plan.arguments):
        if expected is None:
            tests.append(f"type(a{k}) is int and {rt.INDEX_MIN} <= a{k} <= {rt.INDEX_MAX}")
            passed.append(f"a{k}")
            continue
        constants[f"S{k}"], constants[f"D{k}"] = expected
        tests.append(f"type(a{k}) is ndarray and a{k}.shape == S{k} and a{k}.dtype == D{k} "
                     f"and a{k}.flags.c_contiguous")
        passed.append(entry.array(f"a{k}"))
        arrays.append(k)
    out_tests, overlaps = [], []
    for k, (shape, dtype, nbytes) in enumerate(plan.results):
        constants[f"RS{k}"], constants[f"RD{k}"] = shape, dtype
        out_tests.append(f"type(o{k}) is ndarray and o{k}.shape == RS{k} and o{k}.dtype == RD{k} "
                         f"and o{k}.flags.writeable and o{k}.flags.c_contiguous")
        others = [(f"p{i}", f"n{i}") for i in arrays] + [(f"q{j}", f"m{j}") for j in range(k)]
        if others:
            meets = " or ".join(f"{start} < q{k} + m{k} and q{k} < {start} + {size}" for start, size in others)
            overlaps.append(f"m{k} and ({meets})")
    lines = [
        "def fast(args, out):",
        f"    if len(args) != {arity}:",
        "        return MISS",
        *([f"    {_listed(f'a{k}' for k in range(arity))}= args"] if arity else []),
        f"    if not ({' and '.join(tests) or 'True'}):",
        "        return MISS",
        "    if out is None:",
        *(f"        r{k} = {'empty' if nbytes <= SMALL_RESULT_BYTES else 'output'}(RS{k}, RD{k})"
          for k, (_, _, nbytes) in enumerate(plan.results)),
        f"        {entry.call([*passed, *(entry.array(f'r{k}') for k in range(count))])}",
        "        return r0" if count == 1 else f"        return ({_listed(f'r{k}' for k in range(count))})",
        "    outs = (out,) if type(out) is ndarray else out",
        f"    if type(outs) not in (tuple, list) or len(outs) != {count}:",
        "        return MISS",
        f"    {_listed(f'o{k}' for k in range(count))}= outs",
        f"    if not ({' and '.join(out_tests)}):",
        "        return MISS",
        *(f"    p{k} = {entry.address(f'a{k}')}\n    n{k} = a{k}.nbytes" for k in arrays),
        *(f"    q{k} = {entry.address(f'o{k}')}\n    m{k} = o{k}.nbytes" for k in range(count)),
        *([f"    if {' or '.join(f'({o})' for o in overlaps)}:", "        return MISS"] if overlaps else []),
        f"    {entry.call([*passed, *(entry.array(f'o{k}') for k in range(count))])}",
        "    return o0" if count == 1 else f"    return ({_listed(f'o{k}' for k in range(count))})",
    ]
    namespace = {"MISS": MISS, "ndarray": np.ndarray, "empty": np.empty, "output": rt.output,
                 **entry.namespace, **constants}
    exec(compile("\n".join(lines) + "\n", "<bcast c fast path>", "exec"), namespace)
    return namespace["fast"]


def _listed(items) -> str:
    return "".join(f"{item}, " for item in items)


class Entry:
    """How a generated fast path calls its C function: through ``own_caller``
    (arrays passed as they are, their data pointers read in C) where it is
    built and takes the function's parameters, else through the ctypes
    function (each array's data pointer read at ``DATA_OFFSET`` first)."""

    def __init__(self, c_function):
        call = own_caller() if len(c_function.argtypes) <= c_caller.MAX_ARGUMENTS else None
        self.native = call is not None
        self.namespace = {"at": ctypes.c_void_p.from_address, "OFFSET": DATA_OFFSET}
        if self.native:
            self.namespace.update(call=call, data=call.__self__.data,
                                  ADDRESS=ctypes.cast(c_function, ctypes.c_void_p).value)
        else:
            self.namespace["c_function"] = c_function

    def array(self, name: str) -> str:
        """The expression passing ndarray ``name``."""
        return name if self.native else f"(at(id({name}) + OFFSET).value or 0)"

    def address(self, name: str) -> str:
        """The expression of ndarray ``name``'s data pointer, an int."""
        return f"data({name})" if self.native else f"(at(id({name}) + OFFSET).value or 0)"

    def call(self, passed: Sequence[str]) -> str:
        """The statement calling the function with ``passed``."""
        return f"call(ADDRESS, {_listed(passed)})" if self.native else f"c_function({_listed(passed)})"


def dynamic_fast_call(arguments: Sequence[rt.Spec], results: Sequence[rt.Spec], sizes, c_function):
    """The fast path of a function with dynamic dims, for calls without
    ``out=``: each array argument a C-contiguous ``np.ndarray`` of the
    declared dtype and rank whose static dims are the declared ones and
    whose bounded dims are within their bounds (``rt.check_shape``'s rule),
    each ``index`` a Python int in range; then ``sizes`` (the function's
    ``c_sizes.SizePlan``) checks them and gives the results' shapes, which
    are allocated, and the C function is called with each dynamic size
    after its pointer. Anything else, a failed check included, is ``MISS``:
    the checked path then raises the error, so messages are the same."""
    entry = Entry(c_function)
    tests, pointers, shapes, constants = [], [], [], {}
    for k, spec in enumerate(arguments):
        if spec.shape is None:
            tests.append(f"type(a{k}) is int and {rt.INDEX_MIN} <= a{k} <= {rt.INDEX_MAX}")
            pointers.append(f"a{k}")
            shapes.append("None")
            continue
        constants[f"D{k}"] = spec.dtype
        test = [f"type(a{k}) is ndarray and a{k}.dtype == D{k} and a{k}.flags.c_contiguous",
                f"len(a{k}.shape) == {len(spec.shape)}"]
        for d, n in enumerate(spec.shape):
            if isinstance(n, int):
                test.append(f"a{k}.shape[{d}] == {n}")
            elif n.bound is not None:
                test.append(f"a{k}.shape[{d}] <= {n.bound}")
        tests.append(" and ".join(test))
        pointers += [entry.array(f"a{k}"), *(f"a{k}.shape[{d}]" for d in dynamic_dims(spec))]
        shapes.append(f"a{k}" if k in sizes.values_read else f"a{k}.shape")  # a size in a tensor: its value
    for k, spec in enumerate(results):
        constants[f"RD{k}"] = spec.dtype
        pointers += [entry.array(f"r{k}"), *(f"r{k}.shape[{d}]" for d in dynamic_dims(spec))]
    arity, count = len(arguments), len(results)
    lines = [
        "def fast(args, out):",
        f"    if out is not None or len(args) != {arity}:",
        "        return MISS",
        *([f"    {''.join(f'a{k}, ' for k in range(arity))}= args"] if arity else []),
        f"    if not ({' and '.join(tests) or 'True'}):",
        "        return MISS",
        "    try:",
        f"        shapes = sizes([{', '.join(shapes)}])",
        "    except Exception:",
        "        return MISS",
        *(f"    r{k} = output(shapes[{k}], RD{k})" for k in range(count)),
        f"    {entry.call(pointers)}",
        "    return r0" if count == 1 else f"    return ({''.join(f'r{k}, ' for k in range(count))})",
    ]
    namespace = {"MISS": MISS, "ndarray": np.ndarray, "output": rt.output, "sizes": sizes,
                 **entry.namespace, **constants}
    exec(compile("\n".join(lines) + "\n", "<bcast c dynamic fast path>", "exec"), namespace)
    return namespace["fast"]


def _data_offset() -> int | None:
    """Where an ndarray object holds its data pointer: NumPy's array struct
    starts with the pointer right after the object header
    (``PyArrayObject_fields.data``). Verified against ``.ctypes.data`` on
    a few arrays; None (no fast path) if it does not hold. Reading it there
    costs a tenth of ``array.ctypes.data`` (nearly a microsecond, most of a
    small call); the caller holds the array alive meanwhile."""
    offset = object.__basicsize__
    base = np.arange(24, dtype=np.float64)
    probes = (base, base[5:], base.reshape(4, 6)[1:, 2:], np.empty(0, np.int8), np.zeros((), np.float32))
    for probe in probes:
        if ctypes.c_void_p.from_address(id(probe) + offset).value != probe.ctypes.data:
            return None
    return offset


DATA_OFFSET = _data_offset()


@lru_cache(maxsize=1)
def own_gemm() -> tuple[int, ...]:
    """The addresses of bcast's own GEMM entry points (``c_gemm.SYMBOLS``,
    in ``BLAS_POINTERS``' order), built once per process (and cached on disk
    like a module); the library stays loaded (ctypes never unloads one).

    Decision: the C target multiplies matrices with its own kernel, not the
    OpenBLAS NumPy bundles (``scipy_cblas_sgemm64_`` in numpy.libs, which
    could be resolved and called the same way): OpenBLAS picks its kernels
    by the CPU it detects when NumPy loads it, and runs AVX2 kernels on CPUs
    it does not know (Zen 5 with AVX-512), half the machine's speed per
    core, while ``c_gemm`` is compiled ``-march=native`` like the generated
    code (docs/c-backend.md, "Contractions"; the measurements are in
    docs/performance.md)."""
    library = load(c_gemm.SOURCE)
    return tuple(ctypes.cast(getattr(library, symbol), ctypes.c_void_p).value for symbol in c_gemm.SYMBOLS)


def own_caller() -> Callable[..., None] | None:
    """``c_caller``'s ``call``, built once per machine and Python (cached on
    disk like a module) and loaded once per process; None where it cannot
    be (no compiler, no ``Python.h``, pointers not 8 bytes, no verified
    ``DATA_OFFSET``, or ``BCAST_CTYPES_CALLS=1`` in the environment): the
    fast paths then call through ctypes, as every other call does. ``load``
    starts it on a thread of its own, so on a fresh machine it builds
    beside the first library, not after it."""
    with _CALLER_LOCK:
        return _own_caller()


_CALLER_LOCK = threading.Lock()

CALLER_PREFIX = "bcast_call-"
"""The cache's name for ``bcast_call`` builds (one per Python and
compiler): apart from the programs' ``bcast-*.so``, which the cache
bounds count and tests count per program."""


@lru_cache(maxsize=1)
def _own_caller() -> Callable[..., None] | None:
    cc = compiler()
    include = sysconfig.get_paths().get("include")
    if (cc is None or DATA_OFFSET is None or ctypes.sizeof(ctypes.c_void_p) != 8 or not include
            or not (Path(include) / "Python.h").is_file() or os.environ.get("BCAST_CTYPES_CALLS") == "1"):
        return None
    # NumPy's headers too (``fast`` reads arrays through its C API): its version is part of the key
    source = (f"/* {sys.version} {sysconfig.get_config_var('EXT_SUFFIX')} numpy {np.__version__} */\n"
              f"{c_caller.SOURCE}")
    try:
        module = cached(source, cc, (*BASE_FLAGS, f"-I{include}", f"-I{np.get_include()}"), _import_caller,
                        prefix=CALLER_PREFIX)
    except (BuildFailed, OSError, ImportError):
        return None
    module.setup(np.ndarray, DATA_OFFSET)
    return module.call


def _import_caller(path: Path):
    """The extension at ``path``, imported with the calling thread's
    floating-point environment kept (a ``$CC`` with ``-ffast-math`` links
    code that changes it on load, as for every library ``_open`` loads)."""
    spec = importlib.util.spec_from_file_location(c_caller.MODULE, path)
    module = importlib.util.module_from_spec(spec)
    with _keeping_float_environment():
        spec.loader.exec_module(module)
    return module


BLAS_POINTERS = ("bcast_blas_sgemm", "bcast_blas_dgemm", "bcast_blas_sgemm_pack", "bcast_blas_dgemm_pack",
                 "bcast_blas_sgemm_packed", "bcast_blas_dgemm_packed", "bcast_blas_gemm_release",
                 "bcast_blas_sgemm_pack_buffer", "bcast_blas_dgemm_pack_buffer", "bcast_blas_sgemm_pack_rows",
                 "bcast_blas_dgemm_pack_rows", "bcast_blas_sconv_pack", "bcast_blas_dconv_pack",
                 "bcast_blas_sconv_packed", "bcast_blas_dconv_packed")
"""The generated code's pointers ``link_blas`` sets, in ``own_gemm()``'s
(``c_gemm.SYMBOLS``') order."""


def calls_gemm(source: str) -> bool:
    """Whether generated ``source`` calls a matrix-product kernel (a
    ``BLAS_POINTERS`` name followed by its arguments, not only declared)."""
    return any(f"{name}(" in source for name in BLAS_POINTERS)


def link_blas(library: ctypes.CDLL) -> None:
    """Point the generated code's ``BLAS_POINTERS`` at bcast's own kernels."""
    for name, address in zip(BLAS_POINTERS, own_gemm(), strict=True):
        ctypes.c_void_p.in_dll(library, name).value = address


class Library:
    """A built C module: its functions by symbol name."""

    def __init__(self, source: str, signatures: dict[str, tuple], checks: Sequence[BoundsCheck | SizeCheck] = (),
                 fault_name: str | None = None, sizes: dict | None = None, replay: dict | None = None):
        self.library = load(source)
        if calls_gemm(source):  # the kernels are built (once) only for programs with a product
            link_blas(self.library)
        self.functions = {
            name: Function(self.library, c_name, arguments, results, checks, fault_name, (sizes or {}).get(name),
                           (replay or {}).get(name))
            for name, (c_name, arguments, results) in signatures.items()
        }
