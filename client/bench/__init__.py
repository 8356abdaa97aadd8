"""Benchmarks run by ``boardroom bench``; method and results in docs/benchmarks.md."""
