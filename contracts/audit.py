"""Audit of the log: a supervisor's resolution of a forked or broken event stream.

When the projector finds a table's stream forked (a second, different event at a sequence it
had already applied) or its hash chain broken (contracts/chain.py), it quarantines the event,
raises a StreamForked alarm and marks the table's figures unreliable. Someone allowed to
(contracts/permissions.py: `ResolveStreamFork`) looks at both versions — `casino report forks`,
`casino audit verify` — and records what was decided: `casino audit resolve-fork`, which
publishes a `StreamForkResolved` (each resolution an aggregate of its own, sequence 1, keyed by
the table). The projector then clears the flag for the alarms raised before it.
"""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from contracts.envelope import Event, Id, message_type


class StreamForkResolvedData(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    table_id: Id
    note: str = Field(min_length=1, max_length=2000,
                      description="What was found and decided (which version is the true one)")


@message_type
class StreamForkResolved(Event):
    """The alarms of a table's stream raised before this event are resolved; its figures are
    reliable again."""

    event_type: Literal["StreamForkResolved"] = "StreamForkResolved"
    schema_version: Literal[1] = 1
    aggregate_type: Literal["fork_resolution"] = "fork_resolution"
    payload: StreamForkResolvedData


AUDIT_EVENTS = (StreamForkResolved,)
