"""A set of dice (juego de 5 o 6 dados, seed 000 §3.1.4.1; seed 004 IV §1) as an aggregate
keyed by the set's serial number.

Life of a set (domain.md §4.3): issued to a table → inspected by the tallador → the shooter
chooses two, the rest are the reserve (item 2) → rolls → a die damaged or off the table: the
shooter chooses again from the rest; a die off the table not found by the end of the round
withdraws the set (item 7), as does a damaged die (the set must be «en perfecto estado»,
domain.md §4.1) → withdrawn after the house's number of rolls or at the jefe de mesa's call
(«cambio de dados», item 10); a new set is a new aggregate. Each roll is valid or void
(validity.py): a valid roll is forwarded to the table session by the service, a void one
decides no bet and the same shooter throws again (nothing is forwarded).
"""
from __future__ import annotations

from functools import singledispatchmethod
from typing import ClassVar

from contracts.devices import (
    AcknowledgeDiceAlert,
    ChooseDice,
    DiceAlertAcknowledged,
    DiceAlertRaised,
    DiceChosen,
    DiceChosenData,
    DiceCommandRejected,
    DiceInspected,
    DiceSetIssued,
    DiceSetWithdrawn,
    DiceSetWithdrawnData,
    DieFound,
    DieIncidentReported,
    InspectDice,
    IssueDiceSet,
    RecordDiceRoll,
    ReportDieFound,
    ReportDieIncident,
    RollAccepted,
    RollAcceptedData,
    RollVoided,
    RollVoidedData,
    WithdrawDiceSet,
    WithdrawReason,
)
from contracts.envelope import Command, Event
from services.dice.stats import DiceStats
from services.dice.validity import CAUSES
from services.runtime.device import Device

LOST_DIE_RULE = "domain.md §4.3 item 7 (seed 000 §3.1.5): the lost die was not found"
DAMAGED_RULE = "domain.md §4.1: a set of 5 or 6 dice «en perfecto estado» (seed 000 §3.1.4.1)"
CHANGE_RULE = "domain.md §4.3 item 10 «cambio de dados» (seed 000 §3.1.5; seed 004 IV §1.5)"




class DiceSet(Device):
    PRODUCER: ClassVar[str] = "dice-service"
    NOUN: ClassVar[str] = "dice"
    REJECTED = DiceCommandRejected
    ALERT_RAISED = DiceAlertRaised
    ALERT_ACKNOWLEDGED = DiceAlertAcknowledged
    ACKNOWLEDGE = AcknowledgeDiceAlert

    def __init__(self, aggregate_id: str) -> None:
        super().__init__(aggregate_id)
        self.table_id: str | None = None
        self.dice: tuple[str, ...] = ()
        self.change_after: int | None = None
        self.inspected = False
        self.in_play: tuple[str, ...] = ()
        self.lost: set[str] = set()
        self.withdrawn: str | None = None
        self.rounds_rolled: set[str] = set()
        self.roll_ids: set[str] = set()
        self.stats = DiceStats()

    @property
    def issued(self) -> bool:
        return self.table_id is not None

    @property
    def reserve(self) -> tuple[str, ...]:
        return tuple(d for d in self.dice if d not in self.in_play and d not in self.lost)

    # ===== commands ============================================================================
    def precondition(self, command: Command) -> tuple[str, str] | None:
        if not self.issued and not isinstance(command, IssueDiceSet):
            return "target_id", f"dice set {self.id} was never issued"
        if self.withdrawn and not isinstance(command, AcknowledgeDiceAlert):
            return "target_id", (f"dice set {self.id} was withdrawn ({self.withdrawn}): issue "
                                 "a new set")
        return None

    @singledispatchmethod
    def decide(self, command: Command) -> None:
        self.not_ours(command)

    @decide.register
    def _issue(self, command: IssueDiceSet) -> None:
        if self.issued:
            return self.refuse(command, "target_id", f"dice set {self.id} was already issued")
        if len(set(command.payload.dice)) != len(command.payload.dice):
            return self.refuse(command, "payload.dice", "a die's serial appears twice")
        self.trigger(DiceSetIssued, command.payload, command)

    @decide.register
    def _inspect(self, command: InspectDice) -> None:
        self.trigger(DiceInspected, command.payload, command)

    @decide.register
    def _choose(self, command: ChooseDice) -> None:
        chosen = command.payload.in_play
        if not self.inspected:
            return self.refuse(command, "command_type", "the tallador has not passed the dice "
                                "(InspectDice)")
        usable = set(self.dice) - self.lost
        if chosen[0] == chosen[1] or not set(chosen) <= usable:
            return self.refuse(command, "payload.in_play", f"choose two different dice of the "
                                f"set still on the table: {', '.join(sorted(usable))}")
        reserve = tuple(d for d in self.dice if d not in chosen and d not in self.lost)
        self.trigger(DiceChosen, DiceChosenData(in_play=chosen, reserve=reserve), command)

    @decide.register
    def _incident(self, command: ReportDieIncident) -> None:
        p = command.payload
        if p.die not in self.dice or p.die in self.lost:
            return self.refuse(command, "payload.die", f"{p.die} is not a die of this set on "
                                "the table")
        self.trigger(DieIncidentReported, p, command)
        if p.incident == "damaged":
            self._withdraw("die_damaged", DAMAGED_RULE, command)

    @decide.register
    def _found(self, command: ReportDieFound) -> None:
        p = command.payload
        if p.die not in self.lost:
            return self.refuse(command, "payload.die", f"{p.die} was not reported off the table")
        self.trigger(DieFound, p, command)
        if not p.found:
            self._withdraw("die_not_found", LOST_DIE_RULE, command)

    @decide.register
    def _withdraw_cmd(self, command: WithdrawDiceSet) -> None:
        self._withdraw("supervisor", CHANGE_RULE, command)

    @decide.register
    def _roll(self, command: RecordDiceRoll) -> None:
        problem = self._roll_problem(command)
        if problem is not None:
            return self.refuse(command, *problem)
        p = command.payload
        if p.void_cause is None:
            self.trigger(RollAccepted, RollAcceptedData(
                roll_id=p.roll_id, table_id=p.table_id, round_id=p.round_id, dice=p.dice),
                command)
        else:
            kind, rule = CAUSES[p.void_cause]
            self.trigger(RollVoided, RollVoidedData(
                roll_id=p.roll_id, table_id=p.table_id, round_id=p.round_id, dice=p.dice,
                cause=p.void_cause, kind=kind, rule=rule), command)
        self.raise_alerts(self.stats.due(self.open_tests()), command)
        if self.change_after is not None and self.stats.valid >= self.change_after:
            self._withdraw("rolls_limit", CHANGE_RULE, command)

    def _roll_problem(self, command: RecordDiceRoll) -> tuple[str, str] | None:
        p = command.payload
        if p.table_id != self.table_id:
            return "payload.table_id", (f"dice set {self.id} is at table {self.table_id}, not "
                                        f"{p.table_id}")
        if len(self.in_play) != 2:
            return "command_type", "the shooter has not chosen two dice (ChooseDice)"
        if p.roll_id in self.roll_ids:
            return "payload.roll_id", f"roll {p.roll_id} was already recorded"
        if p.round_id in self.rounds_rolled:
            return "payload.round_id", (f"round {p.round_id} already has its roll: a second "
                                        "result for the same round is refused")
        return None

    def _withdraw(self, reason: WithdrawReason, rule: str, cause: Command) -> None:
        self.trigger(DiceSetWithdrawn, DiceSetWithdrawnData(reason=reason, rule=rule), cause)

    # ===== events ==============================================================================
    @singledispatchmethod
    def change(self, event: Event) -> None:
        """Events that change nothing here (refusals)."""

    @change.register
    def _issued(self, event: DiceSetIssued) -> None:
        p = event.payload
        self.table_id, self.dice, self.change_after = p.table_id, p.dice, p.change_after_rolls

    @change.register
    def _inspected(self, event: DiceInspected) -> None:
        self.inspected = event.payload.passed

    @change.register
    def _chosen(self, event: DiceChosen) -> None:
        self.in_play = event.payload.in_play

    @change.register
    def _incident_applied(self, event: DieIncidentReported) -> None:
        """A die off the table (or damaged) leaves play: the shooter chooses again."""
        die = event.payload.die
        self.in_play = tuple(d for d in self.in_play if d != die)
        if event.payload.incident == "off_table":
            self.lost.add(die)

    @change.register
    def _found_applied(self, event: DieFound) -> None:
        if event.payload.found:
            self.lost.discard(event.payload.die)

    @change.register
    def _withdrawn(self, event: DiceSetWithdrawn) -> None:
        self.withdrawn = event.payload.reason
        self.in_play = ()

    @change.register
    def _accepted(self, event: RollAccepted) -> None:
        p = event.payload
        self.stats.record(p.dice, valid=True)
        self.rounds_rolled.add(p.round_id)
        self.roll_ids.add(p.roll_id)

    @change.register
    def _voided(self, event: RollVoided) -> None:
        self.stats.record(event.payload.dice, valid=False, cause=event.payload.cause)
        self.roll_ids.add(event.payload.roll_id)
