"""Payout holds and settlement corrections of a table (aggregate: table, on floor.table.events).

Payout hold (seed 002 §1.3; seed 004 RG §6): the casino may withhold the payment of a round's
winning bets («reteniendo el pago de las apuestas ganadoras») while it checks the result on
CCTV, «que no podrá exceder de 30 minutos», without stopping the table. The table service
holds a round's winning payouts when the vision service asks for a verification
(VerificationRequested), and releases them when the surveillance room resolves it or when the
30 minutes are up, whichever comes first.

A hold is only started while there is something to withhold and time left to withhold it: a
round with no winning payouts, or a request that reaches the table after the hold's deadline
(the vision service was behind), starts no hold. The payouts go out as settled and the check
goes on as a review after payment, which may still end in a correction (PayoutsNotHeld says
which and why). "Within the hold" means decided by the table before the payouts were
released: a correction decided after that is flagged `after_payment`.

When surveillance corrects the dealer's result, the round was settled on the wrong pocket.
Events are never changed: SettlementCorrected records, bet by bet, what was paid, what should
have been paid under the corrected pocket and the rule behind the new amount.
"""
from __future__ import annotations

from typing import Literal

from pydantic import AwareDatetime, Field

from contracts.envelope import Id, message_type
from contracts.money import Currency, Money
from contracts.table import BetKind, BetOutcome, Pocket, RoundResult, Seat, TableEvent, _Data
from contracts.upcast import upcaster

HOLD_RULE = "seed 002 §1.3; seed 004 RG §6"
ReleaseOutcome = Literal["UPHELD", "CORRECTED", "EXPIRED"]
NotHeldWhy = Literal["DEADLINE_PASSED", "NOTHING_TO_HOLD"]


class PayoutsHeldData(_Data):
    round_id: Id
    check_id: Id = Field(description="The round check under verification (the round's "
                                     "correlation id, what `casino surveillance resolve` takes)")
    reason: str = Field(description="Why surveillance must look: MISMATCH, LOW_CONFIDENCE, "
                                    "NO_DECISION")
    bet_ids: tuple[Id, ...] = Field(description="The winning bets whose payment is held")
    held: Money = Field(description="What those bets are owed (stake back + winnings)")
    deadline: AwareDatetime = Field(description="The payouts must be released by then")
    rule: str = HOLD_RULE


class PayoutsNotHeldData(_Data):
    round_id: Id
    check_id: Id = Field(description="The round check under verification")
    reason: str = Field(description="Why surveillance must look: MISMATCH, LOW_CONFIDENCE, "
                                    "NO_DECISION")
    why: NotHeldWhy = Field(description="DEADLINE_PASSED: the request reached the table after "
                                        "the hold's deadline, so the payouts were already due; "
                                        "NOTHING_TO_HOLD: the round has no winning payouts")
    bet_ids: tuple[Id, ...] = Field(description="The winning bets, paid as settled")
    paid: Money = Field(description="What those bets are paid (stake back + winnings)")
    deadline: AwareDatetime = Field(description="The hold's deadline the request carried")
    requested_at: AwareDatetime = Field(description="When the vision service asked for the "
                                                    "verification (its event's time)")
    review_after_payment: Literal[True] = Field(
        default=True, description="The check goes on as a review after payment; a correction "
                                  "it ends in is flagged after_payment")
    rule: str = HOLD_RULE


class PayoutsReleasedData(_Data):
    round_id: Id
    check_id: Id
    outcome: ReleaseOutcome = Field(description="UPHELD or CORRECTED by surveillance; EXPIRED "
                                                "when the 30 minutes ran out first")
    bet_ids: tuple[Id, ...] = Field(description="The bets to pay now")
    released: Money = Field(description="What to pay now; after a correction, the corrected "
                                        "amounts of the round's winners")
    within_hold: bool = Field(description="Released by the hold deadline (the time the table "
                                          "service released it, not the officer's command)")
    released_by: Id = Field(description="The surveillance officer, or the table service "
                                        "when the hold expired")
    rule: str = HOLD_RULE


class BetCorrectionData(_Data):
    """One bet whose payout changes under the corrected result."""

    bet_id: Id
    seat: Seat
    player_id: Id
    kind: BetKind
    stake: Money
    paid_before: Money = Field(description="What the wrong settlement paid (for a stake «en "
                                           "prisión», what its later decision paid; 0 while "
                                           "still in prison)")
    paid_after: Money = Field(description="What the corrected result pays")
    outcome_before: BetOutcome
    outcome_after: BetOutcome
    rule: str = Field(description="The seed and section that produce the corrected payout")
    rule_note: str = ""
    decided_in: Id | None = Field(
        default=None, description="When the corrected result puts or keeps a stake «en prisión» "
                                  "(seed 000 §4.1.4.2 item 11): the round whose spin decided it, "
                                  "if it has been spun; None while it waits for the next spin")


class SettlementCorrectedDataV1(_Data):
    round_id: Id
    check_id: Id
    pocket_before: Pocket = Field(description="The pocket the dealer entered")
    pocket_after: Pocket = Field(description="The pocket surveillance saw on CCTV")
    corrections: tuple[BetCorrectionData, ...]
    currency: Currency
    paid_delta: int = Field(description="Sum of paid_after - paid_before, minor units: "
                                        "positive, the players are owed more; negative, the "
                                        "house paid too much")
    house_win_delta: int = Field(description="-paid_delta: the change to the round's house win")
    corrected_by: Id = Field(description="The surveillance officer who corrected the result")
    note: str = ""
    rule: str = HOLD_RULE


class SettlementCorrectedDataV2(SettlementCorrectedDataV1):
    after_payment: bool | None = Field(
        description="True: decided after the round's payouts had gone out (the hold was "
                    "already released, or none was started), so the players are paid or "
                    "recovered afterwards; False: decided while they were held. None: recorded "
                    "under schema 1, which did not say")


class BetReviewData(_Data):
    """A bet a corrected craps roll changes but cannot re-settle exactly, left to the pit
    manager (jefe de sala): the wrong call decided it and the true roll leaves it working, or
    the other way round, or the two move it to different numbers. The state the wrong call
    left (its point, the bet still up) was played on by later rolls, so no amount is paid or
    recovered for it automatically."""

    bet_id: Id
    seat: Seat
    player_id: Id
    kind: BetKind
    stake: Money
    outcome_called: BetOutcome | None = Field(
        description="What the wrong call did to it: its outcome, or None (it stayed working)")
    paid_called: Money = Field(description="What the wrong call paid for it (0 if it stayed up)")
    outcome_true: BetOutcome | None = Field(
        description="What the true roll does to it: its outcome, or None (it stays working)")
    paid_true: Money | None = Field(
        description="What the true roll pays for it, when the true roll decides it")
    later_round: Id | None = Field(
        default=None, description="It stayed working under the wrong call: the later round "
                                  "that decided it, or None while it is still up")
    later_paid: Money | None = Field(default=None, description="What that later decision paid")
    rule: str = Field(description="The seed and section of the true roll's decision")
    reason: str = Field(description="Why it cannot be re-settled exactly, in words")


class SettlementCorrectedData(SettlementCorrectedDataV2):
    pocket_before: RoundResult = Field(description="The result the dealer entered: a pocket, "
                                                   "or the dice called as \"3+4\"")
    pocket_after: RoundResult = Field(description="The result surveillance saw on CCTV (dice "
                                                  "sorted, \"3+4\")")
    for_pit_manager: tuple[BetReviewData, ...] = Field(
        default=(), description="Bets the correction cannot re-settle exactly (craps: the "
                                "state the wrong call left for later rolls); not in paid_delta, "
                                "the pit manager decides each")
    game_note: str = Field(default="", description="What the wrong result changed in the "
                                                   "game's state (craps: the point, the shooter)")


@message_type
class PayoutsHeld(TableEvent):
    """The round's winning payouts are held while surveillance checks the result on CCTV."""

    event_type: Literal["PayoutsHeld"] = "PayoutsHeld"
    schema_version: Literal[1] = 1
    payload: PayoutsHeldData


@message_type
class PayoutsReleased(TableEvent):
    """The hold is over: pay the listed bets now."""

    event_type: Literal["PayoutsReleased"] = "PayoutsReleased"
    schema_version: Literal[1] = 1
    payload: PayoutsReleasedData


@message_type
class PayoutsNotHeld(TableEvent):
    """No hold for this round under verification: nothing to withhold, or the request came
    after the deadline. Its payouts go out as settled; the check is a review after payment."""

    event_type: Literal["PayoutsNotHeld"] = "PayoutsNotHeld"
    schema_version: Literal[1] = 1
    payload: PayoutsNotHeldData


@message_type
class SettlementCorrectedV1(TableEvent):
    """Schema 1 (no after_payment), kept for decoding; `decode` upcasts it."""

    event_type: Literal["SettlementCorrected"] = "SettlementCorrected"
    schema_version: Literal[1] = 1
    payload: SettlementCorrectedDataV1


@message_type
class SettlementCorrectedV2(TableEvent):
    """Schema 2 (a roulette pocket only, nothing for the pit manager), kept for decoding;
    `decode` upcasts it."""

    event_type: Literal["SettlementCorrected"] = "SettlementCorrected"
    schema_version: Literal[2] = 2
    payload: SettlementCorrectedDataV2


@message_type
class SettlementCorrected(TableEvent):
    """The round was settled on a wrong result; these are the bets whose payouts change, and
    (schema 3) the bets left to the pit manager's decision."""

    event_type: Literal["SettlementCorrected"] = "SettlementCorrected"
    schema_version: Literal[3] = 3
    payload: SettlementCorrectedData


@upcaster("SettlementCorrected", 1)
def _upcast_corrected(message: dict) -> dict:
    """Schema 1 did not record whether the correction came after payment: None."""
    return {**message, "schema_version": 2,
            "payload": {**(message.get("payload") or {}), "after_payment": None}}


@upcaster("SettlementCorrected", 2)
def _upcast_corrected_v2(message: dict) -> dict:
    """Schema 2 re-settled roulette rounds exactly: nothing was left to the pit manager."""
    return {**message, "schema_version": 3,
            "payload": {**(message.get("payload") or {}), "for_pit_manager": [],
                        "game_note": ""}}


PAYOUT_EVENTS = (PayoutsHeld, PayoutsNotHeld, PayoutsReleased, SettlementCorrected)
