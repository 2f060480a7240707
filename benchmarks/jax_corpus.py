"""Which of the JAX corpus's programs bcast runs, on which backends.

    python benchmarks/jax_corpus.py

For each program of ``bcast.tests.jax_corpus`` (exported by ``jax.jit`` on
the spot): the StableHLO/CHLO ops bcast's import keeps (what it cannot run
yet), the backends whose results equal ``jax.jit``'s, and the seconds the
runs took (C builds included, cached by content in the usual cache). The
last line counts the programs that run on every backend.
``tests/tools/test_jax_corpus.py`` checks the same table.
"""

from __future__ import annotations

import sys

from bcast.tests.jax_corpus import corpus_table


def main() -> int:
    print(corpus_table())
    return 0


if __name__ == "__main__":
    sys.exit(main())
