"""bcast: broadcasting semantics, verification and lowering for array programs.

``bcast.compile(source, backend=...)`` is the Python entry point; the
``bcast-opt`` and ``bcast-run`` commands are in ``bcast.tools``.
"""

from importlib.metadata import PackageNotFoundError, version as _version

try:
    __version__ = _version("bcast")
except PackageNotFoundError:  # imported from a source tree that was never installed
    __version__ = "0+unknown"

from bcast.tools.api import BcastError, compile  # noqa: E402 (__version__ first: the tools read it)

__all__ = ["BcastError", "__version__", "compile"]
