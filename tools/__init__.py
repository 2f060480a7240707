"""Command-line tools (bcast-opt, bcast-run) and the Python API."""

from importlib.metadata import PackageNotFoundError, version as _version

try:
    __version__ = _version("bcast")
except PackageNotFoundError:  # imported from a source tree that was never installed
    __version__ = "0+unknown"
