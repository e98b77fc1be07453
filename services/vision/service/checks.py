"""The check of one round's result against the cameras (pure; no I/O).

A RoundCheck collects what the reader saw (ResultRead) and what the dealer declared
(DealerResultNoted), in either order. Once both are known it decides once:
- the reading agrees with the dealer, with enough confidence → ResultConfirmed;
- otherwise → VerificationRequested: the surveillance room looks at the evidence, and the
  round's winning payouts may be held meanwhile for at most 30 minutes from the declaration
  (seed 002 §1.3; seed 004 RG §6; domain.md A-1).
The reader never guesses: a "no decision" frame always goes to a person.
"""
from __future__ import annotations

from functools import singledispatchmethod

from contracts.envelope import Event, Message
from contracts.vision import (
    CheckOutcomeData, DealerResultData, DealerResultNoted, Reading, ResultConfirmed, ResultRead,
    ResultReadData, VerificationRequested, VerificationRequestedData, hold_deadline,
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


class RoundCheck(Aggregate):
    PRODUCER = "vision-service"

    def __init__(self, aggregate_id: str, min_confidence: float = MIN_CONFIDENCE) -> None:
        super().__init__(aggregate_id)
        self.min_confidence = min_confidence
        self.reading: ResultReadData | None = None
        self.dealer: DealerResultData | None = None
        self.decided = False

    # ----- decisions ------------------------------------------------------------------------
    def note_reading(self, data: ResultReadData, cause: Message) -> list[Event]:
        if not self.has_handled(cause) and not self.decided:
            self.trigger(ResultRead, data, cause)
            self._decide(cause)
        return self.collect()

    def note_dealer(self, data: DealerResultData, cause: Message) -> list[Event]:
        if not self.has_handled(cause) and self.dealer is None:
            self.trigger(DealerResultNoted, data, cause)
            self._decide(cause)
        return self.collect()

    def _decide(self, cause: Message) -> None:
        if self.decided or self.reading is None or self.dealer is None:
            return
        r, d = self.reading, self.dealer
        read = result_text(r.reading)
        common = dict(table_id=d.table_id, round_id=d.round_id, kind=d.kind,
                      dealer_result=d.result, read_result=read,
                      confidence=r.reading.confidence, evidence_sha256=r.evidence_sha256,
                      evidence_uri=r.evidence_uri)
        problem = self._problem(read)
        if problem is None:
            self.trigger(ResultConfirmed, CheckOutcomeData(**common), cause)
        else:
            self.trigger(VerificationRequested, VerificationRequestedData(
                **common, reason=problem[0], detail=problem[1],
                hold_deadline=hold_deadline(d.declared_at)), cause)

    def _problem(self, read: str | None) -> tuple[str, str] | None:
        r, d = self.reading.reading, self.dealer
        if r.no_decision:
            return "NO_DECISION", f"the reader could not decide: {r.reason}"
        if read != d.result:
            return "MISMATCH", f"dealer entered {d.result}, the camera shows {read}"
        if r.confidence < self.min_confidence:
            return ("LOW_CONFIDENCE", f"the camera agrees ({read}) but with confidence "
                    f"{r.confidence:.2f} < {self.min_confidence:.2f}")
        return None

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
