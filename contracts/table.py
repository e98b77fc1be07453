"""Table-session contracts for roulette tables: commands in, events out.

Spanish terms from the seeds: mesa (table), pase/jugada (round, seed 002 §1.1 q),
«no más apuestas» / «no va más» (bets closed, seed 000 §4.1.4.3), pleno / semipleno / calle /
cuadro / línea (straight / split / street / corner / six-line), docena, columna, suertes
sencillas (even chances).
"""
from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, model_validator

from contracts.envelope import Command, Event, Id, message_type
from contracts.money import ChipStack, Currency, MinorUnits, Money

BetKind = Literal["straight", "split", "street", "corner", "six_line", "five_number", "trio",
                  "first_four", "basket", "dozen", "column", "red", "black", "odd", "even",
                  "low", "high"]
Pocket = Annotated[str, Field(pattern=r"^(0|00|[1-9]|[12][0-9]|3[0-6])$")]
Wheel = Literal["european", "american"]
ZeroOption = Literal["half_back", "prison"]
Profile = Literal["BO", "AR-RUL", "CL-ARICA", "LIVE-GG"]
Seat = Annotated[StrictInt, Field(ge=1, le=12)]
BetOutcome = Literal["win", "lose", "push", "half_back", "prison", "void"]


class _Data(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class BetSpec(_Data):
    """What the player bet: the kind, the numbers or index it covers, the stake and chips."""

    kind: BetKind
    numbers: tuple[Pocket, ...] = ()
    index: Annotated[StrictInt, Field(ge=1, le=3)] | None = Field(
        default=None, description="1-3 for dozen and column bets")
    stake: Money
    chips: tuple[ChipStack, ...] = Field(default=(), description="Chips on the layout, if counted")
    zero_option: ZeroOption | None = Field(
        default=None,
        description="An even chance's choice for when zero comes out, where the profile offers "
                    "one (seed 000 §4.1.4.2 item 11): half the stake back, or «en prisión» "
                    "until the next spin. None: the profile's default.")

    @model_validator(mode="after")
    def _chips_match_stake(self) -> "BetSpec":
        if self.chips and sum(c.value for c in self.chips) != self.stake.amount:
            raise ValueError("chips: the chips' total does not equal stake.amount")
        return self


# ----- payloads -------------------------------------------------------------------------------

class TableOpenedData(_Data):
    game: Literal["roulette"] = "roulette"
    wheel: Wheel
    profile: Profile
    currency: Currency
    min_bet: MinorUnits
    max_bet: MinorUnits
    seats: Seat = 8


class TableClosedData(_Data):
    reason: str = "end of session"


class RoundOpenedData(_Data):
    round_id: Id
    round_number: Annotated[StrictInt, Field(ge=1)]


class BetPlacedData(_Data):
    round_id: Id
    bet_id: Id
    seat: Seat
    player_id: Id
    bet: BetSpec


RejectCode = Literal["OVER_MAXIMUM", "UNDER_MINIMUM", "BETTING_CLOSED", "NO_OPEN_ROUND",
                     "INVALID_BET", "WRONG_CURRENCY", "DUPLICATE_BET", "TABLE_CLOSED"]


class BetRejectedData(_Data):
    """A bet the table refused, with the reason a dealer can read out to the player."""

    round_id: Id | None
    bet_id: Id
    seat: Seat
    player_id: Id
    bet: BetSpec
    code: RejectCode
    field: str
    reason: str
    rule: str = Field(default="", description="Seed and section behind the rejection")


class BetsClosedData(_Data):
    """«no más apuestas» (seed 000 §4.1.4.3; seed 004 II §1.5)."""

    round_id: Id
    bet_count: Annotated[StrictInt, Field(ge=0)]


class SpinResultedData(_Data):
    round_id: Id
    wheel: Wheel
    pocket: Pocket


class BetSettledData(_Data):
    round_id: Id
    bet_id: Id
    seat: Seat
    player_id: Id
    kind: BetKind
    stake: Money
    paid: Money = Field(description="Everything handed back: returned stake + winnings")
    net: int = Field(description="paid - stake, from the player's side")
    outcome: BetOutcome
    rule: str = Field(description="The seed and section that produced this payout")
    rule_note: str = ""
    imprisoned_from: Id | None = Field(
        default=None,
        description="Set when this spin decides a stake held «en prisión» since that round "
                    "(seed 000 §4.1.4.2 item 11): it was wagered there, so this round's "
                    "wagered total does not count it again; paid and net are the whole bet's.")


class RoundSettledData(_Data):
    round_id: Id
    round_number: Annotated[StrictInt, Field(ge=1)]
    pocket: Pocket
    bet_count: Annotated[StrictInt, Field(ge=0)]
    wagered: Money = Field(description="Stakes placed in this round (not stakes held «en prisión» "
                                        "from the round before)")
    paid: Money
    house_win: int = Field(description="wagered - paid, minor units, negative when the house lost")


class CommandRejectedData(_Data):
    command_id: Id
    command_type: str
    field: str
    reason: str


# ----- events (aggregate: table) --------------------------------------------------------------

class TableEvent(Event):
    aggregate_type: Literal["table"] = "table"


@message_type
class TableOpened(TableEvent):
    event_type: Literal["TableOpened"] = "TableOpened"
    schema_version: Literal[1] = 1
    payload: TableOpenedData


@message_type
class TableClosed(TableEvent):
    event_type: Literal["TableClosed"] = "TableClosed"
    schema_version: Literal[1] = 1
    payload: TableClosedData


@message_type
class RoundOpened(TableEvent):
    event_type: Literal["RoundOpened"] = "RoundOpened"
    schema_version: Literal[1] = 1
    payload: RoundOpenedData


@message_type
class BetPlaced(TableEvent):
    event_type: Literal["BetPlaced"] = "BetPlaced"
    schema_version: Literal[1] = 1
    payload: BetPlacedData


@message_type
class BetRejected(TableEvent):
    event_type: Literal["BetRejected"] = "BetRejected"
    schema_version: Literal[1] = 1
    payload: BetRejectedData


@message_type
class BetsClosed(TableEvent):
    event_type: Literal["BetsClosed"] = "BetsClosed"
    schema_version: Literal[1] = 1
    payload: BetsClosedData


@message_type
class SpinResulted(TableEvent):
    event_type: Literal["SpinResulted"] = "SpinResulted"
    schema_version: Literal[1] = 1
    payload: SpinResultedData


@message_type
class BetSettled(TableEvent):
    event_type: Literal["BetSettled"] = "BetSettled"
    schema_version: Literal[1] = 1
    payload: BetSettledData


@message_type
class RoundSettled(TableEvent):
    event_type: Literal["RoundSettled"] = "RoundSettled"
    schema_version: Literal[1] = 1
    payload: RoundSettledData


@message_type
class CommandRejected(TableEvent):
    """A dealer/terminal command the table refused (wrong state, bad value): kept for audit."""

    event_type: Literal["CommandRejected"] = "CommandRejected"
    schema_version: Literal[1] = 1
    payload: CommandRejectedData


# ----- commands (target: table) ---------------------------------------------------------------

class PlaceBetData(_Data):
    bet_id: Id
    seat: Seat
    player_id: Id
    bet: BetSpec


class RecordSpinData(_Data):
    pocket: Pocket


class _Empty(_Data):
    pass


@message_type
class OpenTable(Command):
    command_type: Literal["OpenTable"] = "OpenTable"
    schema_version: Literal[1] = 1
    payload: TableOpenedData


@message_type
class OpenRound(Command):
    command_type: Literal["OpenRound"] = "OpenRound"
    schema_version: Literal[1] = 1
    payload: _Empty = _Empty()


@message_type
class PlaceBet(Command):
    command_type: Literal["PlaceBet"] = "PlaceBet"
    schema_version: Literal[1] = 1
    payload: PlaceBetData


@message_type
class CloseBets(Command):
    """The dealer calls «no más apuestas»."""

    command_type: Literal["CloseBets"] = "CloseBets"
    schema_version: Literal[1] = 1
    payload: _Empty = _Empty()


@message_type
class RecordSpin(Command):
    """The dealer enters the winning pocket."""

    command_type: Literal["RecordSpin"] = "RecordSpin"
    schema_version: Literal[1] = 1
    payload: RecordSpinData


@message_type
class CloseTable(Command):
    command_type: Literal["CloseTable"] = "CloseTable"
    schema_version: Literal[1] = 1
    payload: TableClosedData = TableClosedData()


TABLE_EVENTS = (TableOpened, TableClosed, RoundOpened, BetPlaced, BetRejected, BetsClosed,
                SpinResulted, BetSettled, RoundSettled, CommandRejected)
TABLE_COMMANDS = (OpenTable, OpenRound, PlaceBet, CloseBets, RecordSpin, CloseTable)
