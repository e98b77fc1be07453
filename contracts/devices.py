"""Device contracts: roulette wheels (ruleta, cilindro) and dice sets (juego de dados), each an
aggregate with its own stream keyed by the device's serial number.

A device service records every spin or roll with what makes it valid or not, forwards only the
valid ones to the table session (RecordSpin / RecordRoll on floor.table.commands, actor role
`device`), and keeps the outcome statistics of the device's own history, raising alerts that
stay open until an authorised role acknowledges them.

Spanish terms from the seeds: cilindro (wheel rotor), bolita (ball), «tirada nula» (no spin /
void roll), «No Va Esta Bola» (AR no spin), dados (dice), tirador (shooter), «cambio de dados».
"""
from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt

from contracts.envelope import Command, Event, Id, message_type
from contracts.table import Pocket, Profile, TableWheel

Direction = Literal["clockwise", "counterclockwise"]
Die = Annotated[StrictInt, Field(ge=1, le=6, description="One die's face, 1 to 6")]

# Why a spin is void: each code is one row of domain.md §5.5 (which profiles apply it is in
# services/wheel/validity.py, with the seed section).
SpinVoidCause = Literal[
    "same_direction_as_previous",   # the rotor must turn opposite to the previous spin
    "ball_with_wheel",              # the ball launched in the rotor's direction
    "too_few_revolutions",          # fewer than 3 revolutions before dropping
    "ball_out_of_wheel",            # the ball jumped out of the wheel
    "object_in_wheel",              # a chip or other object fell in while the ball spun
    "ball_stuck_on_rim",            # the ball stayed suspended on the rim
    "wheel_stopped",                # the wheel stopped turning while the ball spun
    "wheel_fault",                  # a mechanical fault prevented normal rotation
    "ball_slipped_from_hand",       # the ball slipped from the tallador's hand into the wheel
]
# What the dealer or the jefe de mesa saw and reports with the spin (the other causes the
# wheel service works out from the directions and revolutions).
SpinObservation = Literal["ball_out_of_wheel", "object_in_wheel", "ball_stuck_on_rim",
                          "wheel_stopped", "wheel_fault", "ball_slipped_from_hand"]

# Why a roll is void, exactly as domain.md §4.4 lists them (seed 000 §3.1.5; seed 004 IV §1.5):
# «tirada nula» and the invalid throws that are repeated.
RollVoidCause = Literal[
    # «tirada nula»
    "die_broke",                    # a die breaks
    "dice_overlap",                 # «se superponen»: the dice overlap or stack
    "die_on_chip",                  # a die lands on a chip
    "die_off_table",                # a die falls off the table
    "die_on_rail",                  # «encima del borde»: on top of the rail
    "die_in_reserve_basket",        # in the reserve-dice basket
    "incorrect_throw",              # «si el lanzamiento no ha sido correcto»
    # invalid throw, repeated
    "far_wall_not_touched",         # one or both dice did not touch the far wall
    "die_resting_on_object",        # on chips, money, the rack, leaning, or one on the other
    "dice_handled_improperly",      # taken off the table or handled improperly
    "dice_slid",                    # slid instead of rolling
]
AlertTest = Literal["pocket_frequency", "sector_frequency", "direction_alternation",
                    "revolutions", "face_frequency", "total_frequency"]
DeviceKind = Literal["wheel", "dice"]


class _Data(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


# ----- wheel payloads -------------------------------------------------------------------------

class WheelRegisteredData(_Data):
    """A wheel enters the floor's inventory under its serial number (the aggregate id)."""

    variant: TableWheel
    profile: Profile = Field(description="The rule profile whose spin rules apply")


class WheelAssignedData(_Data):
    """The wheel is mounted at a table; its history stays the wheel's when it moves."""

    table_id: Id
    previous_table_id: Id | None = None


class WheelOpenedData(_Data):
    """The lid or seal taken off before the session (seed 000 §4.1.4.4; seed 004 II §1.5)."""

    seal_number: Id
    seal_matches: StrictBool = Field(description="The seal found is the one put on at the last "
                                                 "closing (always true for a first opening)")


class WheelInspectedData(_Data):
    """LIVE-GG Rul §3.2.1-§3.2.4: level, moving parts turning freely, the ball smooth and round."""

    level_ok: StrictBool
    moving_parts_ok: StrictBool
    ball_ok: StrictBool
    note: str = ""

    @property
    def passed(self) -> bool:
        return self.level_ok and self.moving_parts_ok and self.ball_ok


class LastSpinsAnnouncedData(_Data):
    """«las tres (3) últimas lanzadas de la bolita» (seed 000 §4.1.4.4; seed 004 II §1.5)."""

    spins: Annotated[StrictInt, Field(ge=1, le=3)] = 3


class WheelClosedData(_Data):
    """Closed with a locked lid or a sealed tag at the session's end (seed 000 §4.1.4.4)."""

    seal_number: Id


class SpinData(_Data):
    """One launch of the ball as the dealer terminal (or the wheel's sensors) reports it."""

    spin_id: Id
    table_id: Id
    round_id: Id
    rotor_direction: Direction
    ball_direction: Direction
    revolutions: Annotated[StrictInt, Field(ge=0, le=200)]
    pocket: Pocket | None = Field(default=None, description="None when the ball found no pocket")
    observed: tuple[SpinObservation, ...] = ()


class SpinAcceptedData(SpinData):
    """A valid spin: forwarded to the table session as RecordSpin."""


class SpinVoidedData(SpinData):
    """A «tirada nula»: no bet is decided by it; the procedure says what happens next."""

    cause: SpinVoidCause
    causes: tuple[SpinVoidCause, ...] = Field(description="Every cause found, the first is `cause`")
    rule: str = Field(description="The seed and section that void it")
    procedure: str


# ----- dice payloads --------------------------------------------------------------------------

class DiceSetIssuedData(_Data):
    """A set of 5 or 6 dice in perfect condition issued to a table (seed 000 §3.1.4.1; seed 004
    IV §1)."""

    table_id: Id
    dice: tuple[Id, ...] = Field(min_length=5, max_length=6, description="The dice's serials")
    change_after_rolls: Annotated[StrictInt, Field(ge=1)] | None = Field(
        default=None, description="The house's number of rolls after which the dice are changed "
                                  "(«cambio de dados», domain.md §4.3 item 10)")


class DiceInspectedData(_Data):
    passed: StrictBool
    note: str = ""


class DiceChosenData(_Data):
    """The shooter chooses two; the rest go to the reserve (domain.md §4.3 item 2)."""

    in_play: tuple[Id, Id]
    reserve: tuple[Id, ...]


DieIncident = Literal["damaged", "off_table"]


class DieIncidentData(_Data):
    die: Id
    incident: DieIncident


class DieFoundData(_Data):
    die: Id
    found: StrictBool = Field(description="false: not found by the end of the round, the set is "
                                          "withdrawn (domain.md §4.3 item 7)")


WithdrawReason = Literal["die_not_found", "die_damaged", "rolls_limit", "supervisor"]


class DiceSetWithdrawnData(_Data):
    reason: WithdrawReason
    rule: str


class RollData(_Data):
    """One throw of the two dice at a craps or mini craps table."""

    roll_id: Id
    table_id: Id
    round_id: Id
    dice: tuple[Die, Die]
    void_cause: RollVoidCause | None = Field(
        default=None, description="The tallador's call: «tirada nula» or an invalid throw")


class RollAcceptedData(_Data):
    roll_id: Id
    table_id: Id
    round_id: Id
    dice: tuple[Die, Die]


class RollVoidedData(_Data):
    """A void roll decides no bet; the same shooter throws again."""

    roll_id: Id
    table_id: Id
    round_id: Id
    dice: tuple[Die, Die] | None
    cause: RollVoidCause
    kind: Literal["tirada_nula", "invalid_throw"]
    rule: str


# ----- both -----------------------------------------------------------------------------------

class DeviceCommandRejectedData(_Data):
    command_id: Id
    command_type: str
    field: str
    reason: str
    code: Literal["REFUSED", "FORBIDDEN"] = "REFUSED"


class OutcomeAlertRaisedData(_Data):
    """A statistical test of the device's history failed: it stays open until acknowledged."""

    alert_id: Id
    test: AlertTest
    sample: Annotated[StrictInt, Field(ge=0)]
    statistic: str = Field(description="The test statistic, as text (exact decimal)")
    p_value: str | None = Field(default=None, description="As text; None for count rules")
    threshold: str
    detail: str


class AlertAcknowledgedData(_Data):
    alert_id: Id
    comment: Annotated[str, Field(min_length=1, max_length=2000)]


class AcknowledgeData(_Data):
    alert_id: Id
    comment: Annotated[str, Field(min_length=1, max_length=2000)]


# ----- events ---------------------------------------------------------------------------------

class WheelEvent(Event):
    aggregate_type: Literal["wheel"] = "wheel"


class DiceEvent(Event):
    aggregate_type: Literal["dice_set"] = "dice_set"


@message_type
class WheelRegistered(WheelEvent):
    event_type: Literal["WheelRegistered"] = "WheelRegistered"
    schema_version: Literal[1] = 1
    payload: WheelRegisteredData


@message_type
class WheelAssigned(WheelEvent):
    event_type: Literal["WheelAssigned"] = "WheelAssigned"
    schema_version: Literal[1] = 1
    payload: WheelAssignedData


@message_type
class WheelOpened(WheelEvent):
    event_type: Literal["WheelOpened"] = "WheelOpened"
    schema_version: Literal[1] = 1
    payload: WheelOpenedData


@message_type
class WheelInspected(WheelEvent):
    event_type: Literal["WheelInspected"] = "WheelInspected"
    schema_version: Literal[1] = 1
    payload: WheelInspectedData


@message_type
class LastSpinsAnnounced(WheelEvent):
    event_type: Literal["LastSpinsAnnounced"] = "LastSpinsAnnounced"
    schema_version: Literal[1] = 1
    payload: LastSpinsAnnouncedData


@message_type
class WheelClosed(WheelEvent):
    event_type: Literal["WheelClosed"] = "WheelClosed"
    schema_version: Literal[1] = 1
    payload: WheelClosedData


@message_type
class SpinAccepted(WheelEvent):
    event_type: Literal["SpinAccepted"] = "SpinAccepted"
    schema_version: Literal[1] = 1
    payload: SpinAcceptedData


@message_type
class SpinVoided(WheelEvent):
    event_type: Literal["SpinVoided"] = "SpinVoided"
    schema_version: Literal[1] = 1
    payload: SpinVoidedData


@message_type
class WheelCommandRejected(WheelEvent):
    """A wheel command refused (wrong state, wrong table, a second result for a round)."""

    event_type: Literal["WheelCommandRejected"] = "WheelCommandRejected"
    schema_version: Literal[1] = 1
    payload: DeviceCommandRejectedData


@message_type
class WheelAlertRaised(WheelEvent):
    event_type: Literal["WheelAlertRaised"] = "WheelAlertRaised"
    schema_version: Literal[1] = 1
    payload: OutcomeAlertRaisedData


@message_type
class WheelAlertAcknowledged(WheelEvent):
    """Who cleared the alert (the actor), when (occurred_at) and with what comment."""

    event_type: Literal["WheelAlertAcknowledged"] = "WheelAlertAcknowledged"
    schema_version: Literal[1] = 1
    payload: AlertAcknowledgedData


@message_type
class DiceSetIssued(DiceEvent):
    event_type: Literal["DiceSetIssued"] = "DiceSetIssued"
    schema_version: Literal[1] = 1
    payload: DiceSetIssuedData


@message_type
class DiceInspected(DiceEvent):
    event_type: Literal["DiceInspected"] = "DiceInspected"
    schema_version: Literal[1] = 1
    payload: DiceInspectedData


@message_type
class DiceChosen(DiceEvent):
    event_type: Literal["DiceChosen"] = "DiceChosen"
    schema_version: Literal[1] = 1
    payload: DiceChosenData


@message_type
class DieIncidentReported(DiceEvent):
    event_type: Literal["DieIncidentReported"] = "DieIncidentReported"
    schema_version: Literal[1] = 1
    payload: DieIncidentData


@message_type
class DieFound(DiceEvent):
    event_type: Literal["DieFound"] = "DieFound"
    schema_version: Literal[1] = 1
    payload: DieFoundData


@message_type
class DiceSetWithdrawn(DiceEvent):
    event_type: Literal["DiceSetWithdrawn"] = "DiceSetWithdrawn"
    schema_version: Literal[1] = 1
    payload: DiceSetWithdrawnData


@message_type
class RollAccepted(DiceEvent):
    event_type: Literal["RollAccepted"] = "RollAccepted"
    schema_version: Literal[1] = 1
    payload: RollAcceptedData


@message_type
class RollVoided(DiceEvent):
    event_type: Literal["RollVoided"] = "RollVoided"
    schema_version: Literal[1] = 1
    payload: RollVoidedData


@message_type
class DiceCommandRejected(DiceEvent):
    event_type: Literal["DiceCommandRejected"] = "DiceCommandRejected"
    schema_version: Literal[1] = 1
    payload: DeviceCommandRejectedData


@message_type
class DiceAlertRaised(DiceEvent):
    event_type: Literal["DiceAlertRaised"] = "DiceAlertRaised"
    schema_version: Literal[1] = 1
    payload: OutcomeAlertRaisedData


@message_type
class DiceAlertAcknowledged(DiceEvent):
    event_type: Literal["DiceAlertAcknowledged"] = "DiceAlertAcknowledged"
    schema_version: Literal[1] = 1
    payload: AlertAcknowledgedData


# ----- commands (target: the device's serial) -------------------------------------------------

class AssignData(_Data):
    table_id: Id


class SealData(_Data):
    seal_number: Id


class DiceChoiceData(_Data):
    in_play: tuple[Id, Id]


class WithdrawData(_Data):
    reason: Literal["supervisor"] = "supervisor"


# ----- commands (target: the device's serial) -------------------------------------------------

@message_type
class RegisterWheel(Command):
    """A wheel enters the inventory under its serial (target_id)."""

    command_type: Literal["RegisterWheel"] = "RegisterWheel"
    schema_version: Literal[1] = 1
    payload: WheelRegisteredData


@message_type
class AssignWheel(Command):
    """Mount the wheel at a table (between sessions)."""

    command_type: Literal["AssignWheel"] = "AssignWheel"
    schema_version: Literal[1] = 1
    payload: AssignData


@message_type
class OpenWheel(Command):
    """Take the lid or seal off before the session, naming the seal found."""

    command_type: Literal["OpenWheel"] = "OpenWheel"
    schema_version: Literal[1] = 1
    payload: SealData


@message_type
class InspectWheel(Command):
    """The jefe de mesa's inspection before play (LIVE-GG Rul §3.2)."""

    command_type: Literal["InspectWheel"] = "InspectWheel"
    schema_version: Literal[1] = 1
    payload: WheelInspectedData


@message_type
class AnnounceLastSpins(Command):
    """«las tres últimas lanzadas» before closing."""

    command_type: Literal["AnnounceLastSpins"] = "AnnounceLastSpins"
    schema_version: Literal[1] = 1
    payload: LastSpinsAnnouncedData


@message_type
class CloseWheel(Command):
    """Close and seal the wheel at the session's end."""

    command_type: Literal["CloseWheel"] = "CloseWheel"
    schema_version: Literal[1] = 1
    payload: SealData


@message_type
class RecordWheelSpin(Command):
    """One launch of the ball, valid or not (the wheel service decides)."""

    command_type: Literal["RecordWheelSpin"] = "RecordWheelSpin"
    schema_version: Literal[1] = 1
    payload: SpinData


@message_type
class AcknowledgeWheelAlert(Command):
    """An authorised role clears an open alert, with a comment."""

    command_type: Literal["AcknowledgeWheelAlert"] = "AcknowledgeWheelAlert"
    schema_version: Literal[1] = 1
    payload: AcknowledgeData


@message_type
class IssueDiceSet(Command):
    """A new set of 5 or 6 dice (target_id: the set's serial) to a table."""

    command_type: Literal["IssueDiceSet"] = "IssueDiceSet"
    schema_version: Literal[1] = 1
    payload: DiceSetIssuedData


@message_type
class InspectDice(Command):
    """The tallador checks the dice before play."""

    command_type: Literal["InspectDice"] = "InspectDice"
    schema_version: Literal[1] = 1
    payload: DiceInspectedData


@message_type
class ChooseDice(Command):
    """The shooter chooses two dice; the rest are the reserve."""

    command_type: Literal["ChooseDice"] = "ChooseDice"
    schema_version: Literal[1] = 1
    payload: DiceChoiceData


@message_type
class ReportDieIncident(Command):
    """A die damaged, or off the table."""

    command_type: Literal["ReportDieIncident"] = "ReportDieIncident"
    schema_version: Literal[1] = 1
    payload: DieIncidentData


@message_type
class ReportDieFound(Command):
    """Whether a die that left the table was found by the round's end."""

    command_type: Literal["ReportDieFound"] = "ReportDieFound"
    schema_version: Literal[1] = 1
    payload: DieFoundData


@message_type
class WithdrawDiceSet(Command):
    """«cambio de dados» at the jefe de mesa's call."""

    command_type: Literal["WithdrawDiceSet"] = "WithdrawDiceSet"
    schema_version: Literal[1] = 1
    payload: WithdrawData


@message_type
class RecordDiceRoll(Command):
    """One throw of two dice, with the tallador's call if void."""

    command_type: Literal["RecordDiceRoll"] = "RecordDiceRoll"
    schema_version: Literal[1] = 1
    payload: RollData


@message_type
class AcknowledgeDiceAlert(Command):
    """An authorised role clears an open alert, with a comment."""

    command_type: Literal["AcknowledgeDiceAlert"] = "AcknowledgeDiceAlert"
    schema_version: Literal[1] = 1
    payload: AcknowledgeData


WHEEL_EVENTS = (WheelRegistered, WheelAssigned, WheelOpened, WheelInspected, LastSpinsAnnounced,
                WheelClosed, SpinAccepted, SpinVoided, WheelCommandRejected, WheelAlertRaised,
                WheelAlertAcknowledged)
WHEEL_COMMANDS = (RegisterWheel, AssignWheel, OpenWheel, InspectWheel, AnnounceLastSpins,
                  CloseWheel, RecordWheelSpin, AcknowledgeWheelAlert)
DICE_EVENTS = (DiceSetIssued, DiceInspected, DiceChosen, DieIncidentReported, DieFound,
               DiceSetWithdrawn, RollAccepted, RollVoided, DiceCommandRejected, DiceAlertRaised,
               DiceAlertAcknowledged)
DICE_COMMANDS = (IssueDiceSet, InspectDice, ChooseDice, ReportDieIncident, ReportDieFound,
                 WithdrawDiceSet, RecordDiceRoll, AcknowledgeDiceAlert)
