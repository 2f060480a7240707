"""Passes on the loop IR (``bcast.ir.loops``), after ``bcast-lower-to-loops``:
each decides one thing a loop target does (hoisting, parallel and SIMD
loops...) and records it in the IR, so the C printer only translates."""
