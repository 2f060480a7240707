"""Command-line tools (bcast-opt, bcast-run) and the Python API."""
