"""Labelled synthetic CCTV frames: shared nuisances, dice and wheel scenes, labelled sets.

A test and simulation tool (the tests, the benchmarks, the simulator's cameras), not part of
the readers of services/vision, which never import it (README.md here).
"""
