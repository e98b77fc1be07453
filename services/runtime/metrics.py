"""A service's Prometheus metrics, on a registry of its own.

Each `ServiceMetrics` owns its `CollectorRegistry` rather than using prometheus_client's global
one: several services run in one process in the tests (and could in one `casino run`), and
the global registry would both mix their figures and refuse a second metric of the same name.
The bus calls these methods; `HttpServer` serves `render()` at /metrics.
"""
from __future__ import annotations

from collections.abc import Callable

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    Info,
    generate_latest,
)

# One consumed batch takes from about a millisecond (a few events) to seconds (a DuckDB
# transaction under load, a rebuild); past 10 s it is a stall, counted in +Inf.
BATCH_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)


class ServiceMetrics:
    """The figures every service reports, labelled so one dashboard serves them all."""

    def __init__(self, service: str) -> None:
        self.service = service
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        # Which service answered the scrape, so a mislabelled scrape target is visible.
        Info("casino_service", "The service these metrics are from.", registry=r).info(
            {"service": service})
        self._handled = Counter("casino_messages_handled", "Messages a handler accepted.",
                                ["topic", "type"], registry=r)
        self._dead = Counter("casino_dead_letters", "Messages sent to the dead-letter topic.",
                             ["topic", "code"], registry=r)
        self._failed = Counter("casino_batch_failures",
                               "Consumed batches that failed and will be redelivered.",
                               ["topic"], registry=r)
        self._batch = Histogram("casino_batch_seconds", "Time to handle one consumed batch.",
                                ["topic"], buckets=BATCH_BUCKETS, registry=r)
        self._lag = Gauge("casino_consumer_lag", "Messages behind the partition's high watermark.",
                          ["topic", "partition"], registry=r)
        self._published = Counter("casino_messages_published", "Messages published.",
                                  ["topic"], registry=r)
        self._refused = Counter("casino_commands_refused", "Commands refused by an aggregate.",
                                ["command_type", "code"], registry=r)
        # What /health judges by, per consumer: 1 when stuck (its batch failed
        # STUCK_AFTER_FAILURES times in a row) or lagging past LAG_LIMIT (runtime/bus.py).
        self._stuck = Gauge("casino_consumer_stuck", "1 when the consumer's batch keeps "
                            "failing (nothing after it is handled).", ["consumer"], registry=r)
        self._failing = Gauge("casino_consumer_failed_batches", "Batches failed in a row.",
                              ["consumer"], registry=r)
        self._max_lag = Gauge("casino_consumer_max_lag", "The consumer's largest partition lag, "
                              "messages.", ["consumer"], registry=r)
        self._lagging = Gauge("casino_consumer_lagging", "1 when a partition lags past the "
                              "limit.", ["consumer"], registry=r)
        self.before_render: list[Callable[[], None]] = []  # refresh gauges before a scrape

    def handled(self, topic: str, type_name: str, n: int = 1) -> None:
        self._handled.labels(topic=topic, type=type_name).inc(n)

    def dead_lettered(self, topic: str, code: str) -> None:
        self._dead.labels(topic=topic, code=code).inc()

    def batch(self, topic: str, seconds: float) -> None:
        self._batch.labels(topic=topic).observe(seconds)

    def batch_failed(self, topic: str) -> None:
        self._failed.labels(topic=topic).inc()

    def lag(self, topic: str, partition: int, messages: int) -> None:
        self._lag.labels(topic=topic, partition=str(partition)).set(messages)

    def published(self, topic: str, n: int = 1) -> None:
        self._published.labels(topic=topic).inc(n)

    def refused(self, command_type: str, code: str) -> None:
        self._refused.labels(command_type=command_type, code=code).inc()

    def consumer_health(self, consumer: str, *, failing: int, stuck: bool, lag: int,
                        lagging: bool) -> None:
        self._stuck.labels(consumer=consumer).set(int(stuck))
        self._failing.labels(consumer=consumer).set(failing)
        self._max_lag.labels(consumer=consumer).set(lag)
        self._lagging.labels(consumer=consumer).set(int(lagging))

    def render(self) -> bytes:
        """The Prometheus text exposition of this service's metrics only."""
        for refresh in self.before_render:
            refresh()
        return generate_latest(self.registry)
