"""Benchmarks for hermes-sessions (run with `make bench`; never part of the test suite)."""
