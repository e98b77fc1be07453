"""Vision contracts: frames from the CCTV cameras, what the readers saw, and the check of the
dealer's result against it.

A frame belongs to a round through the round's correlation id (the same id the dealer
terminal puts on its RecordSpin command, which the table service copies onto SpinResulted).
The check of one round is an aggregate of its own ("round_check", id = that correlation id),
so the vision service can rebuild every pending check from its own log.

Payout hold (seed 002 §1.3; seed 004 RG §6): the casino may withhold the winning payouts of a
round while it verifies the result on CCTV, «que no podrá exceder de 30 minutos», without
stopping the table. VerificationRequested carries that deadline, counted from the moment the
dealer declared the result (domain.md A-1, best reading).
"""
from __future__ import annotations

from datetime import datetime, timedelta
from typing import Annotated, Literal

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, StrictInt

from contracts.envelope import Event, Id, message_type
from contracts.table import Pocket, Wheel

HOLD_RULE = "seed 002 §1.3; seed 004 RG §6"
DieFace = Annotated[StrictInt, Field(ge=1, le=6)]
Kind = Literal["dice", "wheel"]


class _Data(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class FrameCapturedData(_Data):
    camera_id: Id
    table_id: Id
    kind: Kind
    variant: Wheel | None = Field(default=None, description="Wheel layout, for wheel frames")
    uri: str = Field(min_length=1, description="Where the frame is: a file path or a URL")
    captured_at: AwareDatetime


class CameraStatusData(_Data):
    camera_id: Id
    status: Literal["connected", "disconnected", "retrying", "bad_frame"]
    detail: str = ""
    attempt: Annotated[StrictInt, Field(ge=0)] = 0
    retry_in_seconds: Annotated[float, Field(ge=0)] = 0.0


class Reading(_Data):
    """What a reader saw on one frame. Exactly one of values / pocket / no_decision."""

    kind: Kind
    values: tuple[DieFace, DieFace] | None = None
    pocket: Pocket | None = None
    no_decision: bool = False
    reason: str | None = None
    confidence: Annotated[float, Field(ge=0, le=1)]


class ResultReadData(_Data):
    table_id: Id
    camera_id: Id
    frame_uri: str
    reading: Reading
    evidence_sha256: Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")]
    evidence_uri: str = Field(description="The stored evidence image (what the reader saw)")
    reader: str = Field(description="Reader name and version")
    ms: Annotated[float, Field(ge=0)]


class DealerResultData(_Data):
    table_id: Id
    round_id: Id
    kind: Kind
    result: str = Field(description='"17", "00" for a wheel; "3-5" (sorted) for dice')
    declared_at: AwareDatetime


class CheckOutcomeData(_Data):
    table_id: Id
    round_id: Id
    kind: Kind
    dealer_result: str
    read_result: str | None
    confidence: float
    evidence_sha256: str
    evidence_uri: str


class VerificationRequestedData(CheckOutcomeData):
    reason: Literal["MISMATCH", "LOW_CONFIDENCE", "NO_DECISION"]
    detail: str
    hold_deadline: AwareDatetime = Field(description="Winning payouts may be held until then")
    rule: str = HOLD_RULE


@message_type
class FrameCaptured(Event):
    """A camera gateway stored a frame of a round (dice landing area or wheel)."""

    event_type: Literal["FrameCaptured"] = "FrameCaptured"
    schema_version: Literal[1] = 1
    aggregate_type: Literal["camera"] = "camera"
    payload: FrameCapturedData


@message_type
class CameraStatusChanged(Event):
    event_type: Literal["CameraStatusChanged"] = "CameraStatusChanged"
    schema_version: Literal[1] = 1
    aggregate_type: Literal["camera"] = "camera"
    payload: CameraStatusData


class RoundCheckEvent(Event):
    aggregate_type: Literal["round_check"] = "round_check"


@message_type
class ResultRead(RoundCheckEvent):
    event_type: Literal["ResultRead"] = "ResultRead"
    schema_version: Literal[1] = 1
    payload: ResultReadData


@message_type
class DealerResultNoted(RoundCheckEvent):
    """The result the dealer entered, copied into the check so it can be rebuilt alone."""

    event_type: Literal["DealerResultNoted"] = "DealerResultNoted"
    schema_version: Literal[1] = 1
    payload: DealerResultData


@message_type
class ResultConfirmed(RoundCheckEvent):
    event_type: Literal["ResultConfirmed"] = "ResultConfirmed"
    schema_version: Literal[1] = 1
    payload: CheckOutcomeData


@message_type
class VerificationRequested(RoundCheckEvent):
    """The surveillance room must look: the round's winning payouts are held meanwhile."""

    event_type: Literal["VerificationRequested"] = "VerificationRequested"
    schema_version: Literal[1] = 1
    payload: VerificationRequestedData


FRAME_EVENTS = (FrameCaptured, CameraStatusChanged)
CHECK_EVENTS = (ResultRead, DealerResultNoted, ResultConfirmed, VerificationRequested)


HOLD_LIMIT = timedelta(minutes=30)


def hold_deadline(declared_at: datetime) -> datetime:
    return declared_at + HOLD_LIMIT
