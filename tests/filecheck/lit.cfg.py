# lit configuration for bcast's FileCheck tests.
#
# RUN lines use `bcast-opt` and `filecheck`; both are taken from the PATH
# lit is started with (the virtualenv that has bcast installed) and
# substituted by absolute path, so tests run the same from any directory.

import os
import shutil
import tempfile

import lit.formats

config.name = "bcast"
config.test_format = lit.formats.ShTest()  # lit's internal shell
config.suffixes = [".mlir"]
config.excludes = ["Output", "lit.cfg.py"]
config.test_source_root = os.path.dirname(__file__)

# Keep lit's Output/ directory out of the source tree: one per user in the
# temp dir (lit's default, tests/filecheck/Output/, is gitignored anyway).
config.test_exec_root = os.path.join(
    tempfile.gettempdir(), f"bcast-lit-{os.getuid() if hasattr(os, 'getuid') else 'user'}"
)

# lit runs RUN lines with a scrubbed environment: pass PATH through so the
# tools' own subprocesses (and a C compiler, later) are found.
config.environment["PATH"] = os.environ.get("PATH", "")
for var in ("HOME", "TMPDIR", "PYTHONPATH", "VIRTUAL_ENV"):
    if var in os.environ:
        config.environment[var] = os.environ[var]


def _tool(name: str) -> str:
    path = shutil.which(name, path=os.environ.get("PATH", ""))
    if path is None:
        lit_config.fatal(f"'{name}' not found on PATH; install bcast with its test extras")
    return path


# Substitute whole tool names only (not inside paths or longer names).
for tool in ("bcast-opt", "filecheck"):
    config.substitutions.append((rf"(?<![\w/.-]){tool}(?![\w.-])", _tool(tool)))
