"""The Python API (filled in below)."""


def compile(source, *, backend=None, entry="main", semantics=None):  # noqa: A001
    raise NotImplementedError
