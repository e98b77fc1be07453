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

from functools import singledispatchmethod
from typing import ClassVar

from contracts.devices import (
    AcknowledgeWheelAlert,
    AnnounceLastSpins,
    AssignWheel,
    CloseWheel,
    InspectWheel,
    LastSpinsAnnounced,
    OpenWheel,
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
from contracts.table import Profile
from services.rules.roulette.layout import WHEELS
from services.runtime.device import Device
from services.wheel.stats import WheelStats
from services.wheel.validity import PROCEDURES, judge, rule_of


class Wheel(Device):
    PRODUCER: ClassVar[str] = "wheel-service"
    NOUN: ClassVar[str] = "wheel"
    REJECTED = WheelCommandRejected
    ALERT_RAISED = WheelAlertRaised
    ALERT_ACKNOWLEDGED = WheelAlertAcknowledged
    ACKNOWLEDGE = AcknowledgeWheelAlert

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

    @property
    def registered(self) -> bool:
        return self.variant is not None

    # ===== commands ============================================================================
    def precondition(self, command: Command) -> tuple[str, str] | None:
        if not self.registered and not isinstance(command, RegisterWheel):
            return "target_id", f"wheel {self.id} is not registered"
        return None

    @singledispatchmethod
    def decide(self, command: Command) -> None:
        self.not_ours(command)

    @decide.register
    def _register(self, command: RegisterWheel) -> None:
        if self.registered:
            return self.refuse(command, "target_id", f"wheel {self.id} is already registered")
        self.trigger(WheelRegistered, command.payload, command)

    @decide.register
    def _assign(self, command: AssignWheel) -> None:
        if self.in_session:
            return self.refuse(command, "command_type", f"wheel {self.id} is open at table "
                                f"{self.table_id}: close and seal it before moving it")
        self.trigger(WheelAssigned, WheelAssignedData(
            table_id=command.payload.table_id, previous_table_id=self.table_id), command)

    @decide.register
    def _open(self, command: OpenWheel) -> None:
        if self.table_id is None:
            return self.refuse(command, "command_type", "the wheel is not mounted at a table")
        if self.in_session:
            return self.refuse(command, "command_type", "the wheel is already open")
        seal = command.payload.seal_number
        self.trigger(WheelOpened, WheelOpenedData(
            seal_number=seal, seal_matches=self.seal is None or self.seal == seal), command)

    @decide.register
    def _inspect(self, command: InspectWheel) -> None:
        if not self.in_session:
            return self.refuse(command, "command_type", "open the wheel before inspecting it "
                                "(LIVE-GG Rul §3.2.1)")
        self.trigger(WheelInspected, command.payload, command)

    @decide.register
    def _announce(self, command: AnnounceLastSpins) -> None:
        if not self._playing():
            return self.refuse(command, "command_type", "the wheel is not in play")
        self.trigger(LastSpinsAnnounced, command.payload, command)

    @decide.register
    def _close(self, command: CloseWheel) -> None:
        if not self.in_session:
            return self.refuse(command, "command_type", "the wheel is not open")
        self.trigger(WheelClosed, WheelClosedData(seal_number=command.payload.seal_number),
                     command)

    @decide.register
    def _spin(self, command: RecordWheelSpin) -> None:
        spin = command.payload
        problem = self._spin_problem(command)
        if problem is not None:
            return self.refuse(command, *problem)
        assert self.profile is not None
        verdict = judge(spin, self.profile, self.previous_rotor)
        if verdict.unruled:
            return self.refuse(command, "payload.observed", f"the {self.profile} seed lists no "
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
        self.raise_alerts(self.stats.due(self.open_tests()), command)

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

    # ===== events ==============================================================================
    @singledispatchmethod
    def change(self, event: Event) -> None:
        """Events that change nothing here (refusals)."""

    @change.register
    def _registered(self, event: WheelRegistered) -> None:
        self.variant, self.profile = event.payload.variant, event.payload.profile
        self.stats = WheelStats(event.payload.variant)

    @change.register
    def _assigned(self, event: WheelAssigned) -> None:
        self.table_id = event.payload.table_id
        self.tables.append(event.payload.table_id)

    @change.register
    def _opened(self, event: WheelOpened) -> None:
        self.in_session, self.inspected, self.last_spins = True, False, None
        self.previous_rotor = None

    @change.register
    def _inspected(self, event: WheelInspected) -> None:
        self.inspected = event.payload.passed

    @change.register
    def _announced(self, event: LastSpinsAnnounced) -> None:
        self.last_spins = event.payload.spins

    @change.register
    def _closed(self, event: WheelClosed) -> None:
        self.in_session, self.inspected, self.seal = False, False, event.payload.seal_number
        self.last_spins = None

    @change.register
    def _accepted(self, event: SpinAccepted) -> None:
        p = event.payload
        repeat = self.previous_rotor is not None and p.rotor_direction == self.previous_rotor
        self.stats.record(pocket=p.pocket, valid=True, repeat=repeat, revolutions=p.revolutions)
        self.previous_rotor, self.previous_pocket = p.rotor_direction, p.pocket
        self.rounds_spun.add(p.round_id)
        self.spin_ids.add(p.spin_id)
        if self.last_spins is not None:
            self.last_spins -= 1

    @change.register
    def _voided(self, event: SpinVoided) -> None:
        p = event.payload
        self.stats.record(pocket=p.pocket, valid=False,
                          repeat="same_direction_as_previous" in p.causes or (
                              self.previous_rotor is not None
                              and p.rotor_direction == self.previous_rotor),
                          revolutions=p.revolutions, cause=p.cause)
        self.previous_rotor = p.rotor_direction
        self.spin_ids.add(p.spin_id)
