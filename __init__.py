"""bcast: broadcasting semantics, verification and lowering for array programs.

``bcast.compile(source, backend=...)`` is the Python entry point; the
``bcast-opt`` and ``bcast-run`` commands are in ``bcast.tools``.
"""

from bcast.tools.api import compile

__all__ = ["compile"]
