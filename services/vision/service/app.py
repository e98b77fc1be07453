"""Kafka wiring of the vision service.

Consumes frames (floor.vision.frames) and the dealers' results (SpinResulted on
floor.table.events); for each round, publishes what the reader saw and the check outcome on
floor.vision.checks. The surveillance room's ResolveVerification commands
(floor.vision.commands) close verifications. State (every check) is rebuilt from
floor.vision.checks at start."""
from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import Counter
from datetime import timedelta
from pathlib import Path
from typing import Any, AsyncIterator, Callable

from contracts.envelope import Event, Message
from contracts.table import SpinResulted
from contracts.topics import (
    TABLE_EVENTS_TOPIC, VISION_CHECKS_TOPIC, VISION_COMMANDS_TOPIC, VISION_FRAMES_TOPIC,
)
from contracts.vision import (
    HOLD_LIMIT, DealerResultData, FrameCaptured, ResolveVerification, ResultReadData,
    check_hold_limit,
)
from services.runtime.bus import Bus, Rejected
from services.runtime.evidence import EvidenceStore
from services.runtime.replay import replay
from services.runtime.service import run_service
from services.runtime.settings import Settings
from services.vision.memory import keep_frame_buffers
from services.vision.service.checks import MIN_CONFIDENCE, RoundCheck
from services.vision.service.readers import READER, read_frame

log = logging.getLogger(__name__)
SERVICE = "vision-service"


class VisionService:
    def __init__(self, bus: Bus, evidence: EvidenceStore,
                 min_confidence: float = MIN_CONFIDENCE, calibrations: Path | None = None,
                 hold_limit: timedelta = HOLD_LIMIT) -> None:
        self.bus, self.evidence, self.min_confidence = bus, evidence, min_confidence
        self.calibrations, self.hold_limit = calibrations, check_hold_limit(hold_limit)
        self.checks: dict[str, RoundCheck] = {}
        self._outbox: list[Event] = []
        self._lock = asyncio.Lock()
        bus.consume(VISION_FRAMES_TOPIC, group_id=SERVICE, handler=self.on_frame,
                    around_batch=self.publishing, max_records=20,
                    description="Reads each captured frame (dice or wheel) with OpenCV.")
        bus.consume(TABLE_EVENTS_TOPIC, group_id=f"{SERVICE}-results", handler=self.on_table_event,
                    around_batch=self.publishing,
                    description="Takes the result each dealer declared (SpinResulted).")
        bus.consume(VISION_COMMANDS_TOPIC, group_id=f"{SERVICE}-commands",
                    handler=self.on_command, around_batch=self.publishing,
                    description="The surveillance room upholds or corrects a result under "
                                "verification (ResolveVerification).")
        bus.declare_publisher(VISION_CHECKS_TOPIC)

    async def rebuild(self) -> None:
        checks: dict[str, RoundCheck] = {}
        async for event in replay(self.bus.settings.bootstrap, VISION_CHECKS_TOPIC.name):
            check = checks.setdefault(event.aggregate_id,
                                      RoundCheck(event.aggregate_id, self.min_confidence,
                                                 self.hold_limit))
            if event.sequence == check.version + 1:
                check.apply(event)
        self.checks = checks
        log.info("round checks rebuilt", extra={"checks": len(checks)})

    @contextlib.asynccontextmanager
    async def publishing(self) -> AsyncIterator[None]:
        async with self._lock:  # two subscriptions share the checks and the outbox
            self._outbox = []
            try:
                yield
                await self.bus.publish(self._outbox)
            except BaseException:
                await self.rebuild()  # memory may be ahead of the log
                raise
            finally:
                self._outbox = []

    def _check(self, correlation_id: str) -> RoundCheck:
        return self.checks.setdefault(
            correlation_id, RoundCheck(correlation_id, self.min_confidence, self.hold_limit))

    async def on_frame(self, message: Message) -> None:
        if not isinstance(message, FrameCaptured):
            return  # camera status changes are for the dashboard
        frame = message.payload
        data = await asyncio.to_thread(_load, frame.uri)
        reading, ms = await asyncio.to_thread(read_frame, data, frame, self.calibrations)
        digest, path = self.evidence.put(data) if data else ("0" * 64, Path(frame.uri))
        result = ResultReadData(table_id=frame.table_id, camera_id=frame.camera_id,
                                frame_uri=frame.uri, reading=reading, evidence_sha256=digest,
                                evidence_uri=str(path), reader=READER, ms=round(ms, 2))
        self._outbox += self._check(message.correlation_id).note_reading(result, message)
        self.bus.stats[f"frames.{'no_decision' if reading.no_decision else 'decided'}"] += 1

    async def on_table_event(self, message: Message) -> None:
        if not isinstance(message, SpinResulted):
            return
        dealer = DealerResultData(table_id=message.aggregate_id, round_id=message.payload.round_id,
                                  kind="wheel", result=message.payload.pocket,
                                  declared_at=message.occurred_at, wheel=message.payload.wheel)
        self._outbox += self._check(message.correlation_id).note_dealer(dealer, message)

    async def on_command(self, command: Message) -> None:
        assert isinstance(command, ResolveVerification)
        check = self.checks.get(command.target_id)
        if check is None:  # never create a check from a command: a typo would open one
            raise Rejected("unknown_aggregate",
                           f"target_id: no round check {command.target_id!r} (the round's "
                           f"correlation id) is known to the vision service")
        events = check.resolve(command)
        self.bus.stats["commands.duplicate" if not events else "commands.handled"] += 1
        self._outbox += events

    def status(self) -> dict[str, Any]:
        statuses = Counter(c.status for c in self.checks.values())
        return {**self.bus.status(), "checks": len(self.checks),
                "undecided": statuses["pending"], "under_verification": statuses["verification"],
                "resolved": statuses["resolved"]}


def _load(uri: str) -> bytes:
    """The frame's bytes; b"" when it cannot be read (reported as a no-decision)."""
    try:
        return Path(uri).read_bytes()
    except OSError:
        return b""


async def main(settings: Settings, evidence_dir: Path, *, status_port: int = 0,
               stop: asyncio.Event | None = None, min_confidence: float = MIN_CONFIDENCE,
               calibrations: Path | None = None,
               on_ready: Callable[[str], None] | None = None,
               hold_limit: timedelta = HOLD_LIMIT) -> None:
    keep_frame_buffers()
    bus = Bus(settings, SERVICE)
    service = VisionService(bus, EvidenceStore(evidence_dir), min_confidence,
                            calibrations or settings.var_dir / "calibrations", hold_limit)
    await run_service(bus, prepare=service.rebuild, status=service.status,
                      status_port=status_port, stop=stop, on_ready=on_ready)
