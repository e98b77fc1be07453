"""The rules engine: every table game of the seeds as a pure library (no Kafka, no I/O).

Start at `api.settle_request`; game packages live beside this file, the shared core in core/.
"""
