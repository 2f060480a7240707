# lit configuration for bcast's FileCheck tests.
#
# RUN lines use `bcast-opt` and `filecheck`, substituted by absolute path so
# tests run the same from any directory. They are looked up beside the Python
# running lit first (`.venv/bin/lit` runs the venv's python, so the venv need
# not be activated), then on PATH.

import hashlib
import os
import shutil
import sys
import tempfile

import lit.formats

config.name = "bcast"
config.test_format = lit.formats.ShTest()  # lit's internal shell
# Every .mlir file below this folder is a test (lit recurses into
# dialects/bcast/, transforms/ and tools/).
config.suffixes = [".mlir"]
config.excludes = ["Output", "lit.cfg.py"]
config.test_source_root = os.path.dirname(__file__)

# Keep lit's Output/ directory out of the source tree: one per user and
# checkout in the temp dir (keyed by a short hash of this folder's path), so
# two checkouts tested at once do not share it.
_user = os.getuid() if hasattr(os, "getuid") else "user"
_checkout = hashlib.sha256(os.path.realpath(config.test_source_root).encode()).hexdigest()[:10]
config.test_exec_root = os.path.join(tempfile.gettempdir(), f"bcast-lit-{_user}-{_checkout}")

# lit runs RUN lines with a scrubbed environment: pass PATH through, with the
# interpreter's bin folder first, so the tools' own subprocesses (and a C
# compiler, later) are found.
_BIN = os.path.dirname(sys.executable)
_PATH = os.pathsep.join(p for p in (_BIN, os.environ.get("PATH", "")) if p)
config.environment["PATH"] = _PATH
for var in ("HOME", "TMPDIR", "PYTHONPATH", "VIRTUAL_ENV"):
    if var in os.environ:
        config.environment[var] = os.environ[var]


def _tool(name: str) -> str:
    path = shutil.which(name, path=_PATH)
    if path is None:
        lit_config.fatal(f"'{name}' not found beside {sys.executable} or on PATH; "
                         "install bcast with its test extras")
    return path


# Substitute whole tool names only (not inside paths or longer names).
for tool in ("bcast-opt", "filecheck"):
    config.substitutions.append((rf"(?<![\w/.-]){tool}(?![\w.-])", _tool(tool)))
