"""Service health reports: each running service instance says, every few seconds, whether it is
healthy — its consumers not stuck and not lagging past the limit, what its /health answers —
so the floor dashboard shows every service's health, and a service that stopped reporting as
stale. Records, not events: nothing is rebuilt from them, only the latest per instance counts.
"""
from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import AwareDatetime, Field

from contracts.envelope import Message, message_type, utcnow


@message_type
class ServiceHealth(Message):
    KIND: ClassVar[str] = "record"

    record_type: Literal["ServiceHealth"] = "ServiceHealth"
    schema_version: Literal[1] = 1
    service: str = Field(max_length=100, description="The service's name, e.g. table-service")
    instance: str = Field(max_length=200, description="Which process: host, pid and a "
                                                      "per-start id")
    reported_at: AwareDatetime = Field(default_factory=utcnow)
    healthy: bool = Field(description="What its /health says: false when a consumer is stuck "
                                      "or a partition lags past the limit")
    stuck_consumers: tuple[str, ...] = Field(default=(), description="Consumers whose batch "
                                                                     "keeps failing")
    lagging_partitions: dict[str, int] = Field(default_factory=dict, description="topic[p] -> "
                                               "messages behind, for those past the limit")
    every_seconds: float = Field(gt=0, description="How often it reports; no report for "
                                                   "three periods means stale")
    status_url: str | None = Field(default=None, max_length=500,
                                   description="Its /status, /health and /metrics base URL")

    @property
    def key_for_topic(self) -> str:
        return self.service
