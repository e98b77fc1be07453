"""The vision service's composition root: its store of round checks, its consumers and their
handler maps, and what run_service runs. Nothing here decides anything (checks.py does)."""
from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

from contracts.topics import (
    TABLE_EVENTS_TOPIC,
    VISION_CHECKS_TOPIC,
    VISION_COMMANDS_TOPIC,
    VISION_FRAMES_TOPIC,
)
from contracts.vision import HOLD_LIMIT, check_hold_limit
from services.runtime.bus import Bus, bind
from services.runtime.evidence import EvidenceStore
from services.runtime.service import Service, run_service
from services.runtime.settings import Settings
from services.runtime.store import AggregateStore
from services.vision.memory import keep_frame_buffers
from services.vision.service import handlers
from services.vision.service.checks import MIN_CONFIDENCE, RoundCheck

SERVICE = "vision-service"


def build(settings: Settings, evidence_dir: Path, *, min_confidence: float = MIN_CONFIDENCE,
          calibrations: Path | None = None, hold_limit: timedelta = HOLD_LIMIT) -> Service:
    """The vision service, wired and not started. One instance holds every round check: the
    checks come from frames (keyed by camera) and results (keyed by table) alike."""
    hold_limit = check_hold_limit(hold_limit)
    bus = Bus(settings, SERVICE)
    store = AggregateStore(factory=lambda cid: RoundCheck(cid, min_confidence, hold_limit),
                           aggregate_type="round_check", events=VISION_CHECKS_TOPIC, bus=bus)
    deps = handlers.Deps(EvidenceStore(evidence_dir),
                         calibrations or settings.var_dir / "calibrations")
    bus.consume([VISION_FRAMES_TOPIC], SERVICE, bind(handlers.FRAME_HANDLERS, deps),
                context=store.unit_of_work, max_records=20,
                description="Reads each captured frame (dice or wheel) with OpenCV.")
    bus.consume([TABLE_EVENTS_TOPIC], f"{SERVICE}-results", bind(handlers.RESULT_HANDLERS, deps),
                context=store.unit_of_work,
                description="Takes the result each dealer declared (SpinResulted, DiceRolled).")
    bus.consume([VISION_COMMANDS_TOPIC], f"{SERVICE}-commands",
                bind(handlers.COMMAND_HANDLERS, deps), context=store.unit_of_work,
                description="The surveillance room upholds or corrects a result under "
                            "verification (ResolveVerification).")
    bus.declare_publisher(VISION_CHECKS_TOPIC)
    return Service(bus, status=lambda: status(bus, store), prepare=[store.own_all])


def status(bus: Bus, store: AggregateStore[RoundCheck]) -> dict[str, Any]:
    statuses = Counter(c.status for c in store.aggregates.values())
    return {**bus.status(), "checks": len(store.aggregates), "undecided": statuses["pending"],
            "under_verification": statuses["verification"], "resolved": statuses["resolved"],
            "broken": sorted(store.broken)}


async def main(settings: Settings, evidence_dir: Path, *, status_port: int = 0,
               stop: asyncio.Event | None = None, min_confidence: float = MIN_CONFIDENCE,
               calibrations: Path | None = None,
               on_ready: Callable[[str], None] | None = None,
               hold_limit: timedelta = HOLD_LIMIT) -> None:
    """Run the vision service until stopped."""
    keep_frame_buffers()
    service = build(settings, evidence_dir, min_confidence=min_confidence,
                    calibrations=calibrations, hold_limit=hold_limit)
    await run_service(service, status_port=status_port, stop=stop, on_ready=on_ready)
