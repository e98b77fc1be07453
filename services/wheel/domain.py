"""A roulette wheel (ruleta, cilindro) as an aggregate: its own log, keyed by its serial number,
whichever table it is mounted at.

Life of a wheel: registered → assigned to a table → opened (the seal taken off, seed 000
§4.1.4.4) → inspected (LIVE-GG Rul §3.2.1-§3.2.4: level, moving parts, ball) → spins → the last
three spins announced (seed 000 §4.1.4.4; seed 004 II §1.5) → closed and sealed. Each spin is
judged by validity.py: a valid one is accepted (and forwarded to the table session by the
service), a void one is recorded with its cause, its rule and the procedure, and decides
nothing. Statistics over the wheel's history raise alerts (stats.py) that stay open until an
authorised role acknowledges them.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import singledispatchmethod
from typing import ClassVar

from contracts.devices import (
    AcknowledgeWheelAlert,
    AlertAcknowledgedData,
    AnnounceLastSpins,
    AssignWheel,
    CloseWheel,
    DeviceCommandRejectedData,
    InspectWheel,
    LastSpinsAnnounced,
    OpenWheel,
    OutcomeAlertRaisedData,
    RecordWheelSpin,
    RegisterWheel,
    SpinAccepted,
    SpinAcceptedData,
    SpinVoided,
    SpinVoidedData,
    WheelAlertAcknowledged,
    WheelAlertRaised,
    WheelAssigned,
    WheelAssignedData,
    WheelClosed,
    WheelClosedData,
    WheelCommandRejected,
    WheelInspected,
    WheelOpened,
    WheelOpenedData,
    WheelRegistered,
)
from contracts.envelope import Command, Event
from contracts.permissions import authorize
from contracts.table import Profile
from services.rules.roulette.layout import WHEELS
from services.runtime.aggregate import Aggregate
from services.wheel.stats import Finding, WheelStats
from services.wheel.validity import PROCEDURES, judge, rule_of


@dataclass
class Alert:
    alert_id: str
    test: str
    detail: str
    raised_at: str
    acknowledged_by: str | None = None
    acknowledged_at: str | None = None
    comment: str | None = None


class Wheel(Aggregate):
    PRODUCER: ClassVar[str] = "wheel-service"

    def __init__(self, aggregate_id: str) -> None:
        super().__init__(aggregate_id)
        self.variant: str | None = None
        self.profile: Profile | None = None
        self.table_id: str | None = None
        self.tables: list[str] = []
        self.in_session = False         # opened, not yet closed
        self.inspected = False          # passed inspection this session
        self.seal: str | None = None    # the seal put on at the last closing
        self.last_spins: int | None = None
        self.previous_rotor: str | None = None   # rotor of the last launch this session
        self.previous_pocket: str | None = None
        self.rounds_spun: set[str] = set()       # rounds with a valid spin (any table)
        self.spin_ids: set[str] = set()
        self.stats = WheelStats("european")
        self.alerts: dict[str, Alert] = {}

    @property
    def registered(self) -> bool:
        return self.variant is not None

    def open_tests(self) -> set[str]:
        return {a.test for a in self.alerts.values() if a.acknowledged_by is None}

    # ===== commands ============================================================================
    def handle(self, command: Command) -> None:
        if self.has_handled(command):
            return
        forbidden = authorize(command)
        if forbidden is not None:
            self._refuse(command, *forbidden, code="FORBIDDEN")
        elif not self.registered and not isinstance(command, RegisterWheel):
            self._refuse(command, "target_id", f"wheel {self.id} is not registered")
        else:
            self._decide(command)

    @singledispatchmethod
    def _decide(self, command: Command) -> None:
        self._refuse(command, "command_type", f"{command.command_type} is not a wheel command")

    @_decide.register
    def _register(self, command: RegisterWheel) -> None:
        if self.registered:
            return self._refuse(command, "target_id", f"wheel {self.id} is already registered")
        self.trigger(WheelRegistered, command.payload, command)

    @_decide.register
    def _assign(self, command: AssignWheel) -> None:
        if self.in_session:
            return self._refuse(command, "command_type", f"wheel {self.id} is open at table "
                                f"{self.table_id}: close and seal it before moving it")
        self.trigger(WheelAssigned, WheelAssignedData(
            table_id=command.payload.table_id, previous_table_id=self.table_id), command)

    @_decide.register
    def _open(self, command: OpenWheel) -> None:
        if self.table_id is None:
            return self._refuse(command, "command_type", "the wheel is not mounted at a table")
        if self.in_session:
            return self._refuse(command, "command_type", "the wheel is already open")
        seal = command.payload.seal_number
        self.trigger(WheelOpened, WheelOpenedData(
            seal_number=seal, seal_matches=self.seal is None or self.seal == seal), command)

    @_decide.register
    def _inspect(self, command: InspectWheel) -> None:
        if not self.in_session:
            return self._refuse(command, "command_type", "open the wheel before inspecting it "
                                "(LIVE-GG Rul §3.2.1)")
        self.trigger(WheelInspected, command.payload, command)

    @_decide.register
    def _announce(self, command: AnnounceLastSpins) -> None:
        if not self._playing():
            return self._refuse(command, "command_type", "the wheel is not in play")
        self.trigger(LastSpinsAnnounced, command.payload, command)

    @_decide.register
    def _close(self, command: CloseWheel) -> None:
        if not self.in_session:
            return self._refuse(command, "command_type", "the wheel is not open")
        self.trigger(WheelClosed, WheelClosedData(seal_number=command.payload.seal_number),
                     command)

    @_decide.register
    def _acknowledge(self, command: AcknowledgeWheelAlert) -> None:
        p = command.payload
        alert = self.alerts.get(p.alert_id)
        if alert is None:
            return self._refuse(command, "payload.alert_id", f"no alert {p.alert_id} on {self.id}")
        if alert.acknowledged_by is not None:
            return self._refuse(command, "payload.alert_id", f"alert {p.alert_id} was already "
                                f"acknowledged by {alert.acknowledged_by}")
        self.trigger(WheelAlertAcknowledged,
                     AlertAcknowledgedData(alert_id=p.alert_id, comment=p.comment), command)

    @_decide.register
    def _spin(self, command: RecordWheelSpin) -> None:
        spin = command.payload
        problem = self._spin_problem(command)
        if problem is not None:
            return self._refuse(command, *problem)
        assert self.profile is not None
        verdict = judge(spin, self.profile, self.previous_rotor)
        if verdict.unruled:
            return self._refuse(command, "payload.observed", f"the {self.profile} seed lists no "
                                f"rule for {', '.join(verdict.unruled)}: the jefe de mesa decides "
                                "and reports the spin again")
        if verdict.valid:
            self.trigger(SpinAccepted, SpinAcceptedData(**spin.model_dump()), command)
        else:
            cause = verdict.causes[0]
            procedure = PROCEDURES[self.profile]
            if self.previous_pocket is not None and self.profile in ("BO", "CL-ARICA"):
                procedure += f" Previous number: {self.previous_pocket}."
            self.trigger(SpinVoided, SpinVoidedData(
                **spin.model_dump(), cause=cause, causes=verdict.causes,
                rule=rule_of(cause, self.profile), procedure=procedure), command)
        for finding in self.stats.due(self.open_tests()):
            self._raise(finding, command)

    def _spin_problem(self, command: RecordWheelSpin) -> tuple[str, str] | None:
        spin = command.payload
        if not self._playing():
            return "command_type", (f"wheel {self.id} is not in play (open it and pass the "
                                    "inspection first)")
        if self.last_spins == 0:
            return "command_type", "the last three spins were announced and played: close the wheel"
        if spin.table_id != self.table_id:
            return "payload.table_id", (f"wheel {self.id} is mounted at table {self.table_id}, "
                                        f"not {spin.table_id}")
        if spin.spin_id in self.spin_ids:
            return "payload.spin_id", f"spin {spin.spin_id} was already recorded"
        if spin.round_id in self.rounds_spun:
            return "payload.round_id", (f"round {spin.round_id} already has its result: a second "
                                        "result for the same round is refused")
        if spin.pocket is not None and spin.pocket not in WHEELS[self.variant or ""].pockets:
            return "payload.pocket", f"{spin.pocket} is not a pocket of a {self.variant} wheel"
        if spin.pocket is None and not spin.observed:
            return "payload.pocket", "a spin without a pocket must say what happened (observed)"
        return None

    def _playing(self) -> bool:
        return self.in_session and self.inspected

    def _raise(self, finding: Finding, cause: Command) -> None:
        alert_id = f"{self.id}.alert.{len(self.alerts) + 1}"
        self.trigger(WheelAlertRaised, OutcomeAlertRaisedData(
            alert_id=alert_id, test=finding.test, sample=finding.sample,
            statistic=finding.statistic, p_value=finding.p_value, threshold=finding.threshold,
            detail=finding.detail), cause)

    def _refuse(self, command: Command, fld: str, reason: str, code: str = "REFUSED") -> None:
        self.trigger(WheelCommandRejected, DeviceCommandRejectedData(
            command_id=command.command_id, command_type=command.command_type, field=fld,
            reason=reason, code=code), command)  # type: ignore[arg-type]

    # ===== events ==============================================================================
    def mutate(self, event: Event) -> None:
        self._apply(event)

    @singledispatchmethod
    def _apply(self, event: Event) -> None:
        """Events that change nothing here (refusals)."""

    @_apply.register
    def _registered(self, event: WheelRegistered) -> None:
        self.variant, self.profile = event.payload.variant, event.payload.profile
        self.stats = WheelStats(event.payload.variant)

    @_apply.register
    def _assigned(self, event: WheelAssigned) -> None:
        self.table_id = event.payload.table_id
        self.tables.append(event.payload.table_id)

    @_apply.register
    def _opened(self, event: WheelOpened) -> None:
        self.in_session, self.inspected, self.last_spins = True, False, None
        self.previous_rotor = None

    @_apply.register
    def _inspected(self, event: WheelInspected) -> None:
        self.inspected = event.payload.passed

    @_apply.register
    def _announced(self, event: LastSpinsAnnounced) -> None:
        self.last_spins = event.payload.spins

    @_apply.register
    def _closed(self, event: WheelClosed) -> None:
        self.in_session, self.inspected, self.seal = False, False, event.payload.seal_number
        self.last_spins = None

    @_apply.register
    def _accepted(self, event: SpinAccepted) -> None:
        p = event.payload
        repeat = self.previous_rotor is not None and p.rotor_direction == self.previous_rotor
        self.stats.record(pocket=p.pocket, valid=True, repeat=repeat, revolutions=p.revolutions)
        self.previous_rotor, self.previous_pocket = p.rotor_direction, p.pocket
        self.rounds_spun.add(p.round_id)
        self.spin_ids.add(p.spin_id)
        if self.last_spins is not None:
            self.last_spins -= 1

    @_apply.register
    def _voided(self, event: SpinVoided) -> None:
        p = event.payload
        self.stats.record(pocket=p.pocket, valid=False,
                          repeat="same_direction_as_previous" in p.causes or (
                              self.previous_rotor is not None
                              and p.rotor_direction == self.previous_rotor),
                          revolutions=p.revolutions, cause=p.cause)
        self.previous_rotor = p.rotor_direction
        self.spin_ids.add(p.spin_id)

    @_apply.register
    def _alert(self, event: WheelAlertRaised) -> None:
        p = event.payload
        self.alerts[p.alert_id] = Alert(p.alert_id, p.test, p.detail,
                                        event.occurred_at.isoformat())

    @_apply.register
    def _cleared(self, event: WheelAlertAcknowledged) -> None:
        alert = self.alerts[event.payload.alert_id]
        alert.acknowledged_by = event.actor.employee_id if event.actor else None
        alert.acknowledged_at = event.occurred_at.isoformat()
        alert.comment = event.payload.comment
