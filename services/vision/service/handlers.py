"""What the vision service does with each message: plain functions of the message, the unit of
work and the service's dependencies, listed in one map per topic (wired by bootstrap.py).

- a captured frame is read (OpenCV, in a worker thread) and noted in its round's check;
- a dealer's declared result (SpinResulted, or DiceRolled at craps) is noted in the same
  check;
- the surveillance room's ResolveVerification closes a verification.
The checks (checks.py) decide; these functions only fetch, read and hand over."""
from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from contracts.envelope import Message, utcnow
from contracts.table import DiceRolled, SpinResulted
from contracts.vision import DealerResultData, FrameCaptured, ResolveVerification, ResultReadData
from services.runtime.bus import Rejected
from services.runtime.evidence import EvidenceStore
from services.runtime.store import UnitOfWork
from services.vision.service.checks import RoundCheck
from services.vision.service.readers import READER, read_frame

Checks = UnitOfWork[RoundCheck]


@dataclass(frozen=True)
class Deps:
    """What the handlers need besides the message: where evidence and calibrations are (how
    strict a check is belongs to the check itself: bootstrap's factory)."""

    evidence: EvidenceStore
    calibrations: Path | None


async def read_captured_frame(frame_event: FrameCaptured, uow: Checks, deps: Deps) -> None:
    frame = frame_event.payload
    data = await asyncio.to_thread(_load, frame.uri)
    reading, ms = await asyncio.to_thread(read_frame, data, frame, deps.calibrations)
    digest, path = deps.evidence.put(data) if data else ("0" * 64, Path(frame.uri))
    result = ResultReadData(table_id=frame.table_id, camera_id=frame.camera_id,
                            frame_uri=frame.uri, reading=reading, evidence_sha256=digest,
                            evidence_uri=str(path), reader=READER, ms=round(ms, 2))
    uow.get_or_create(frame_event.correlation_id).note_reading(result, frame_event, utcnow())


def note_dealer_result(spin: SpinResulted, uow: Checks, _deps: Deps) -> None:
    dealer = DealerResultData(table_id=spin.aggregate_id, round_id=spin.payload.round_id,
                              kind="wheel", result=spin.payload.pocket,
                              declared_at=spin.occurred_at, wheel=spin.payload.wheel)
    uow.get_or_create(spin.correlation_id).note_dealer(dealer, spin, utcnow())


def note_dealer_roll(roll: DiceRolled, uow: Checks, _deps: Deps) -> None:
    """The dice the table recorded (from the stickman or the dice service), as the readers
    write them: sorted, "3-5"."""
    a, b = sorted(roll.payload.dice)
    dealer = DealerResultData(table_id=roll.aggregate_id, round_id=roll.payload.round_id,
                              kind="dice", result=f"{a}-{b}", declared_at=roll.occurred_at)
    uow.get_or_create(roll.correlation_id).note_dealer(dealer, roll, utcnow())


def resolve_verification(command: ResolveVerification, uow: Checks, _deps: Deps) -> None:
    check = uow.get(command.target_id)
    if check is None:  # never create a check from a command: a typo would open one
        raise Rejected("unknown_aggregate",
                       f"target_id: no round check {command.target_id!r} (the round's "
                       f"correlation id) is known to the vision service")
    check.resolve(command, utcnow())


# (message, unit of work, deps) -> None, bound to the deps by bootstrap.py (runtime.bus.bind)
DepsHandlers = dict[type[Message], Callable[[Any, Any, Deps], Any]]
FRAME_HANDLERS: DepsHandlers = {FrameCaptured: read_captured_frame}
RESULT_HANDLERS: DepsHandlers = {SpinResulted: note_dealer_result,
                                 DiceRolled: note_dealer_roll}
COMMAND_HANDLERS: DepsHandlers = {ResolveVerification: resolve_verification}


def _load(uri: str) -> bytes:
    """The frame's bytes; b"" when it cannot be read (reported as a no-decision)."""
    try:
        return Path(uri).read_bytes()
    except OSError:
        return b""
