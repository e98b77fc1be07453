"""A device of the floor (a roulette wheel, a set of dice) as an aggregate: the part every device
shares, so that services/wheel and services/dice keep only what their device does.

A device is an aggregate keyed by its serial number. It refuses, with a `…CommandRejected`
event naming the field and the reason, a command its actor's role may not issue (`FORBIDDEN`,
contracts/permissions.py) and any command before the device exists; its outcome statistics
raise alerts (`…AlertRaised`) that stay open until an authorised role acknowledges them with a
comment (`…AlertAcknowledged`: who, when, why). Each device names its own event and command
types in the class variables below; its domain decides the rest (`decide`, `change`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from contracts.devices import (
    AlertAcknowledgedData,
    AlertTest,
    DeviceCommandRejectedData,
    OutcomeAlertRaisedData,
)
from contracts.envelope import Command, Event
from contracts.permissions import authorize
from services.runtime.aggregate import Aggregate


@dataclass(frozen=True)
class Finding:
    """A statistical test of a device's history that failed (its stats.py decides which)."""

    test: AlertTest
    sample: int
    statistic: str
    p_value: str | None
    threshold: str
    detail: str


@dataclass
class Alert:
    alert_id: str
    test: str
    detail: str
    raised_at: str
    acknowledged_by: str | None = None
    acknowledged_at: str | None = None
    comment: str | None = None


class Device(Aggregate):
    NOUN: ClassVar[str] = "device"                    # in refusals: "wheel", "dice set"
    REJECTED: ClassVar[type[Event]]                    # payload DeviceCommandRejectedData
    ALERT_RAISED: ClassVar[type[Event]]                # payload OutcomeAlertRaisedData
    ALERT_ACKNOWLEDGED: ClassVar[type[Event]]          # payload AlertAcknowledgedData
    ACKNOWLEDGE: ClassVar[type[Command]]               # payload AcknowledgeData

    def __init__(self, aggregate_id: str) -> None:
        super().__init__(aggregate_id)
        self.alerts: dict[str, Alert] = {}

    def open_tests(self) -> set[str]:
        """The tests with an alert not yet acknowledged (not raised again meanwhile)."""
        return {a.test for a in self.alerts.values() if a.acknowledged_by is None}

    # ===== commands ============================================================================
    def handle(self, command: Command) -> None:
        if self.has_handled(command):
            return
        forbidden = authorize(command)
        problem = self.precondition(command) if forbidden is None else None
        if forbidden is not None:
            self.refuse(command, *forbidden, code="FORBIDDEN")
        elif problem is not None:
            self.refuse(command, *problem)
        elif isinstance(command, self.ACKNOWLEDGE):
            self._acknowledge(command)
        else:
            self.decide(command)

    def precondition(self, command: Command) -> tuple[str, str] | None:
        """(field, reason) when the device takes no such command in its state (not yet
        registered or issued, withdrawn)."""
        return None

    def decide(self, command: Command) -> None:
        """The device's own commands: trigger their events or refuse them."""
        raise NotImplementedError

    def _acknowledge(self, command: Command) -> None:
        p: Any = command.payload  # type: ignore[attr-defined]
        alert = self.alerts.get(p.alert_id)
        if alert is None:
            return self.refuse(command, "payload.alert_id", f"no alert {p.alert_id} on {self.id}")
        if alert.acknowledged_by is not None:
            return self.refuse(command, "payload.alert_id", f"alert {p.alert_id} was already "
                               f"acknowledged by {alert.acknowledged_by}")
        self.trigger(self.ALERT_ACKNOWLEDGED,
                     AlertAcknowledgedData(alert_id=p.alert_id, comment=p.comment), command)

    def raise_alerts(self, findings: list[Finding], cause: Command) -> None:
        for finding in findings:
            self.trigger(self.ALERT_RAISED, OutcomeAlertRaisedData(
                alert_id=f"{self.id}.alert.{len(self.alerts) + 1}", test=finding.test,
                sample=finding.sample, statistic=finding.statistic, p_value=finding.p_value,
                threshold=finding.threshold, detail=finding.detail), cause)

    def refuse(self, command: Command, fld: str, reason: str, code: str = "REFUSED") -> None:
        self.trigger(self.REJECTED, DeviceCommandRejectedData(
            command_id=command.command_id, command_type=command.command_type, field=fld,
            reason=reason, code=code), command)  # type: ignore[arg-type]

    def not_ours(self, command: Command) -> None:
        self.refuse(command, "command_type",
                    f"{command.command_type} is not a {self.NOUN} command")

    # ===== events ==============================================================================
    def mutate(self, event: Event) -> None:
        p: Any = event.payload  # type: ignore[attr-defined]
        if isinstance(event, self.ALERT_RAISED):
            self.alerts[p.alert_id] = Alert(p.alert_id, p.test, p.detail,
                                            event.occurred_at.isoformat())
        elif isinstance(event, self.ALERT_ACKNOWLEDGED):
            alert = self.alerts[p.alert_id]
            alert.acknowledged_by = event.actor.employee_id if event.actor else None
            alert.acknowledged_at = event.occurred_at.isoformat()
            alert.comment = p.comment
        else:
            self.change(event)

    def change(self, event: Event) -> None:
        """The device's own events: change its state (refusals change nothing)."""
        raise NotImplementedError
