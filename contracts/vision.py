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

The surveillance room closes a verification with ResolveVerification (floor.vision.commands):
it upholds the dealer's result or corrects it, and the check records VerificationResolved.
"""
from __future__ import annotations

from datetime import datetime, timedelta
from typing import Annotated, Literal

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, StrictInt, model_validator

from contracts.envelope import Command, Event, Id, message_type
from contracts.payouts import HOLD_RULE
from contracts.table import CommandRejectedData, Pocket, TableWheel, Wheel

DieFace = Annotated[StrictInt, Field(ge=1, le=6)]
Kind = Literal["dice", "wheel"]
# A result as a dealer enters it: a wheel pocket ("17", "00") or two dice ("3-5").
ResultText = Annotated[str, Field(pattern=r"^(0|00|[1-9]|[12][0-9]|3[0-6]|[1-6]-[1-6])$")]
Outcome = Literal["UPHELD", "CORRECTED"]
VerificationReason = Literal["MISMATCH", "LOW_CONFIDENCE", "NO_DECISION"]


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
    wheel: TableWheel | None = Field(default=None, description="The table's wheel (wheel rounds): "
                                "a correction must name one of its pockets")


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
    reason: VerificationReason
    detail: str
    hold_deadline: AwareDatetime = Field(description="Winning payouts may be held until then")
    rule: str = HOLD_RULE


class VerificationResolvedData(_Data):
    """What the surveillance room decided after looking at the CCTV recording."""

    table_id: Id
    round_id: Id
    kind: Kind
    outcome: Outcome = Field(description="UPHELD: the dealer's result stands; CORRECTED: it "
                                         "was wrong, and so were the round's payouts")
    dealer_result: str
    result: str = Field(description="The result surveillance saw: the dealer's when UPHELD")
    resolved_by: Id = Field(description="Employee id of the surveillance officer")
    note: str
    resolved_at: AwareDatetime = Field(description="When the vision service decided it (not the "
                                                   "time the officer issued the command)")
    hold_deadline: AwareDatetime
    within_hold: bool = Field(description="Resolved by the hold deadline; if not, the winning "
                                          "payouts had to be paid before the review ended")


class ResolveVerificationData(_Data):
    outcome: Outcome
    result: ResultText | None = Field(
        default=None, description="What the CCTV shows. Required for CORRECTED; for UPHELD "
                                  "it may be omitted (it is the dealer's result)")
    note: str = Field(default="", max_length=1000)

    @model_validator(mode="after")
    def _corrected_names_a_result(self) -> ResolveVerificationData:
        if self.outcome == "CORRECTED" and self.result is None:
            raise ValueError("result: CORRECTED must name the result surveillance saw")
        return self


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


@message_type
class VerificationResolved(RoundCheckEvent):
    """The surveillance room upheld or corrected the dealer's result: the hold is over."""

    event_type: Literal["VerificationResolved"] = "VerificationResolved"
    schema_version: Literal[1] = 1
    payload: VerificationResolvedData


@message_type
class ResolutionRefused(RoundCheckEvent):
    """A ResolveVerification the check refused (not under verification, already resolved, a
    result that contradicts the outcome): kept for audit, like the table's CommandRejected."""

    event_type: Literal["ResolutionRefused"] = "ResolutionRefused"
    schema_version: Literal[1] = 1
    payload: CommandRejectedData


# ----- commands (target: round check, id = the round's correlation id) ------------------------

@message_type
class ResolveVerification(Command):
    """The surveillance room's decision on a round under verification. The actor is the
    surveillance officer; correlation_id should be the round's (= target_id)."""

    command_type: Literal["ResolveVerification"] = "ResolveVerification"
    schema_version: Literal[1] = 1
    payload: ResolveVerificationData


FRAME_EVENTS = (FrameCaptured, CameraStatusChanged)
CHECK_EVENTS = (ResultRead, DealerResultNoted, ResultConfirmed, VerificationRequested,
                VerificationResolved, ResolutionRefused)
CHECK_COMMANDS = (ResolveVerification,)


HOLD_LIMIT = timedelta(minutes=30)  # the longest hold the seeds allow (HOLD_RULE)


def hold_deadline(declared_at: datetime, limit: timedelta = HOLD_LIMIT) -> datetime:
    """When a payout held for a check of a result declared at `declared_at` must be paid;
    `limit` is the house's own hold, which the seeds cap at 30 minutes."""
    return declared_at + check_hold_limit(limit)


def check_hold_limit(limit: timedelta) -> timedelta:
    if not timedelta(0) < limit <= HOLD_LIMIT:
        raise ValueError(f"hold_limit: {limit} is not between 0 and 30 minutes; a winning "
                         f"payout may be held at most 30 minutes ({HOLD_RULE})")
    return limit
