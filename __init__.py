"""bcast: broadcasting semantics, verification and lowering for array programs.

``bcast.compile(source, backend=...)`` is the Python entry point
(``bcast.from_jax(fn, *example_args)`` imports a JAX function); the
``bcast-opt`` and ``bcast-run`` commands are in ``bcast.tools``.
"""

from bcast.tools import __version__

__all__ = ["BcastError", "__version__", "compile", "from_jax"]


def __getattr__(name: str):
    """``compile`` and ``BcastError`` load the backends on first use, so that
    ``bcast-opt`` and xdsl-opt (which imports this package for the plugin)
    do not pay for importing the reference interpreter."""
    if name in ("compile", "BcastError"):
        from bcast.tools import api

        return getattr(api, name)
    if name == "from_jax":  # jax itself is imported only when it is called
        from bcast.tools import jax_bridge

        return jax_bridge.from_jax
    raise AttributeError(f"module 'bcast' has no attribute {name!r}")
