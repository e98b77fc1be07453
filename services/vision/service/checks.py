"""The check of one round's result against the cameras (pure; no I/O).

A RoundCheck collects what the reader saw (ResultRead) and what the dealer declared
(DealerResultNoted), in either order. Once both are known it decides once:
- the reading agrees with the dealer, with enough confidence → ResultConfirmed;
- otherwise → VerificationRequested: the surveillance room looks at the evidence, and the
  round's winning payouts may be held meanwhile for at most 30 minutes from the declaration
  (seed 002 §1.3; seed 004 RG §6; domain.md A-1).
The reader never guesses: a "no decision" frame always goes to a person.

A verification stays open until the surveillance room resolves it (ResolveVerification):
UPHELD, the dealer's result stands; CORRECTED, the CCTV shows another result. Only a check
under verification can be resolved, and only once; any other attempt is refused with a
ResolutionRefused event that names the field and the reason (kept for audit).

A decision is stamped with the time the check made it (`now`), not the time of the frame or
the declaration that led to it: a check decided from a backlog after the hold's deadline says
so, and the table service then holds nothing (a review after payment). A resolution is
`within_hold` when the check decides it by the deadline, whenever the officer typed it.
"""
from __future__ import annotations

from datetime import datetime, timedelta
from functools import singledispatchmethod
from typing import Any

from contracts.envelope import Event
from contracts.permissions import authorize
from contracts.table import CommandRejectedData
from contracts.vision import (
    HOLD_LIMIT,
    CheckOutcomeData,
    DealerResultData,
    DealerResultNoted,
    Kind,
    Reading,
    ResolutionRefused,
    ResolveVerification,
    ResultConfirmed,
    ResultRead,
    ResultReadData,
    VerificationReason,
    VerificationRequested,
    VerificationRequestedData,
    VerificationResolved,
    VerificationResolvedData,
    hold_deadline,
)
from services.runtime.aggregate import Aggregate

# Below this a reading is not trusted to confirm a result. The readers' confidence is a
# margin, not a probability: on 150 settled synthetic frames every correct wheel reading had
# 0.615 or more (5th percentile 0.71), and the readers say "no decision" rather than guess.
MIN_CONFIDENCE = 0.5


def result_text(reading: Reading) -> str | None:
    """A reading as the dealer would enter it: "17" / "00", or sorted dice "3-5"."""
    if reading.no_decision:
        return None
    if reading.kind == "wheel":
        return reading.pocket
    a, b = sorted(reading.values or ())
    return f"{a}-{b}"


def normal_result(kind: Kind, text: str) -> str | None:
    """`text` as the dealer would enter it for a `kind` round ("5-3" → "3-5"); None when it
    is not a result of that kind (a pocket for dice, two dice for a wheel)."""
    if kind == "wheel":
        return None if "-" in text else text
    if "-" not in text:
        return None
    a, b = sorted(text.split("-"))
    return f"{a}-{b}"


class RoundCheck(Aggregate):
    PRODUCER = "vision-service"

    def __init__(self, aggregate_id: str, min_confidence: float = MIN_CONFIDENCE,
                 hold_limit: timedelta = HOLD_LIMIT) -> None:
        super().__init__(aggregate_id)
        self.min_confidence, self.hold_limit = min_confidence, hold_limit
        self.reading: ResultReadData | None = None
        self.dealer: DealerResultData | None = None
        self.decided = False
        self.verification: VerificationRequestedData | None = None
        self.resolution: VerificationResolvedData | None = None

    @property
    def status(self) -> str:
        """pending, confirmed, verification or resolved (as the projection names them)."""
        if self.resolution is not None:
            return "resolved"
        if self.verification is not None:
            return "verification"
        return "confirmed" if self.decided else "pending"

    # ----- decisions ------------------------------------------------------------------------
    # Each decision triggers events; the unit of work collects and publishes them.
    def note_reading(self, data: ResultReadData, cause: Event, now: datetime) -> None:
        if not self.has_handled(cause) and not self.decided:
            self.partition_key = data.table_id  # a check lives in its table's partition
            self.trigger(ResultRead, data, cause)
            self._decide(cause, now)

    def note_dealer(self, data: DealerResultData, cause: Event, now: datetime) -> None:
        if not self.has_handled(cause) and self.dealer is None:
            self.partition_key = data.table_id
            self.trigger(DealerResultNoted, data, cause)
            self._decide(cause, now)

    def _decide(self, cause: Event, now: datetime) -> None:
        if self.decided or self.reading is None or self.dealer is None:
            return
        r, d = self.reading, self.dealer
        read = result_text(r.reading)
        common: dict[str, Any] = dict(table_id=d.table_id, round_id=d.round_id, kind=d.kind,
                      dealer_result=d.result, read_result=read,
                      confidence=r.reading.confidence, evidence_sha256=r.evidence_sha256,
                      evidence_uri=r.evidence_uri)
        problem = self._problem(read, r.reading, d)
        if problem is None:
            self.trigger(ResultConfirmed, CheckOutcomeData(**common), cause, occurred_at=now)
        else:
            self.trigger(VerificationRequested, VerificationRequestedData(
                **common, reason=problem[0], detail=problem[1],
                hold_deadline=hold_deadline(d.declared_at, self.hold_limit)), cause,
                occurred_at=now)

    def _problem(self, read: str | None, r: Reading,
                 d: DealerResultData) -> tuple[VerificationReason, str] | None:
        if r.no_decision:
            return "NO_DECISION", f"the reader could not decide: {r.reason}"
        if read != d.result:
            return "MISMATCH", f"dealer entered {d.result}, the camera shows {read}"
        if r.confidence < self.min_confidence:
            return ("LOW_CONFIDENCE", f"the camera agrees ({read}) but with confidence "
                    f"{r.confidence:.2f} < {self.min_confidence:.2f}")
        return None

    # ----- the surveillance room ---------------------------------------------------------------
    def resolve(self, command: ResolveVerification, now: datetime) -> None:
        """Close the verification as UPHELD or CORRECTED at `now`, or refuse with the field
        and why. A redelivered command (already resolved or refused) produces nothing."""
        if self.has_handled(command):
            return
        problem = self._resolution_problem(command)
        if problem is None:
            self.trigger(VerificationResolved, self._resolution(command, now), command,
                         occurred_at=now)
        else:
            self.trigger(ResolutionRefused, CommandRejectedData(
                command_id=command.command_id, command_type=command.command_type,
                field=problem[0], reason=problem[1]), command)

    def _resolution_problem(self, command: ResolveVerification) -> tuple[str, str] | None:
        """(field, reason) when the command must be refused, else None."""
        forbidden = authorize(command)  # only surveillance resolves (contracts/permissions.py)
        if forbidden is not None:
            return forbidden
        if self.resolution is not None:
            r = self.resolution
            return "target_id", (f"round check {self.id} is already resolved: {r.outcome} "
                                 f"{r.result} by {r.resolved_by}")
        if self.verification is None:
            return "target_id", (f"round check {self.id} was confirmed by camera; there is "
                                 f"nothing to resolve" if self.decided else
                                 f"round check {self.id} is not under verification: it still "
                                 f"waits for a frame or the dealer's result")
        outcome, seen = command.payload.outcome, self._seen(self.verification, command)
        dealer = self.verification.dealer_result
        if seen is None:
            return "payload.result", (f"{command.payload.result!r} is not a "
                                      f"{self.verification.kind} result")
        wheel = self.dealer.wheel if self.dealer is not None else None
        if seen == "00" and wheel in ("european", "american_single"):
            return "payload.result", (f"00 is not a pocket of this table's {wheel} wheel "
                                      "(single zero): give the pocket the CCTV shows")
        if outcome == "UPHELD" and seen != dealer:
            return "payload.result", (f"UPHELD means the dealer's {dealer} stands, but the "
                                      f"result given is {seen}; send CORRECTED")
        if outcome == "CORRECTED" and seen == dealer:
            return "payload.result", (f"CORRECTED must name a result other than the dealer's "
                                      f"{dealer}; send UPHELD")
        return None

    @staticmethod
    def _seen(v: VerificationRequestedData, command: ResolveVerification) -> str | None:
        """What surveillance saw: the result given, or (UPHELD without one) the dealer's."""
        given = command.payload.result
        return v.dealer_result if given is None else normal_result(v.kind, given)

    def _resolution(self, command: ResolveVerification,
                    at: datetime) -> VerificationResolvedData:
        v = self.verification
        # Only called when _resolution_problem found nothing: a verification is open, the
        # command comes from a surveillance officer and names a result.
        assert v is not None and command.actor is not None
        seen = self._seen(v, command)
        assert seen is not None
        return VerificationResolvedData(
            table_id=v.table_id, round_id=v.round_id, kind=v.kind,
            outcome=command.payload.outcome, dealer_result=v.dealer_result,
            result=seen, resolved_by=command.actor.employee_id,
            note=command.payload.note, resolved_at=at, hold_deadline=v.hold_deadline,
            within_hold=at <= v.hold_deadline)

    # ----- state changes --------------------------------------------------------------------
    @singledispatchmethod
    def mutate(self, event: Event) -> None:
        raise TypeError(f"RoundCheck cannot apply {event.event_type}")

    @mutate.register
    def _(self, event: ResultRead) -> None:
        self.reading = event.payload

    @mutate.register
    def _(self, event: DealerResultNoted) -> None:
        self.dealer = event.payload

    @mutate.register
    def _(self, event: ResultConfirmed) -> None:
        self.decided = True

    @mutate.register
    def _(self, event: VerificationRequested) -> None:
        self.decided = True
        self.verification = event.payload

    @mutate.register
    def _(self, event: VerificationResolved) -> None:
        self.resolution = event.payload

    @mutate.register
    def _(self, event: ResolutionRefused) -> None:
        pass  # a refusal changes nothing; it is in the log for audit
