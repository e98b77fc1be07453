"""Table-session contracts: commands in, events out. A table session is one game's table
(`TableOpened.game`); roulette is the game with a live table adapter today.

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
from contracts.upcast import upcaster

# Exactly the roulette bets the rules engine settles (services/rules/roulette/bets.py KINDS;
# tests/contracts/test_table_contracts.py keeps them equal): inside bets, dozens and columns,
# two dozens / two columns «a caballo» (seed 001), even chances, and the called bets.
RouletteBetKind = Literal["straight", "split", "street", "corner", "five_number", "six_line",
                          "dozen", "column", "two_dozens", "two_columns", "red", "black", "odd",
                          "even", "low", "high", "voisins", "tiers", "orphelins", "neighbours"]
# Exactly the craps bets the rules engine settles (services/rules/craps/bets.py KINDS; seed 000
# §3.1.5, seed 004 IV §1.5): line bets, odds, place to win / to lose, big 6/8, hardways, the
# one-roll bets, buy and lay. A craps bet's number (place, hardway, buy, lay) is `numbers[0]`.
CrapsBetKind = Literal["pass_line", "dont_pass", "come", "dont_come", "odds", "dont_odds",
                       "field", "big_6", "big_8", "any_seven", "eleven", "under_7", "over_7",
                       "hardway", "horn", "any_craps", "craps_2", "craps_3", "craps_12",
                       "place", "place_to_lose", "buy", "lay"]
BetKind = Literal[RouletteBetKind, CrapsBetKind]
Pocket = Annotated[str, Field(pattern=r"^(0|00|[1-9]|[12][0-9]|3[0-6])$")]
# A round's result as the table records it: a roulette pocket, or two dice as "3+4".
RoundResult = Annotated[str, Field(pattern=r"^(0|00|[1-9]|[12][0-9]|3[0-6]|[1-6]\+[1-6])$")]
Die = Annotated[StrictInt, Field(ge=1, le=6)]
PointNumber = Literal[4, 5, 6, 8, 9, 10]
# The wheel a camera reads (vision contracts): single or double zero.
Wheel = Literal["european", "american"]
# A roulette table's wheel: CL-ARICA also plays a one-zero table on the American layout
# (seed 004 II §1.7, `american_single` in the rules engine).
TableWheel = Literal["european", "american", "american_single"]
Game = Literal["roulette", "craps", "mini_craps", "baccarat", "blackjack", "poker",
               "trente_quarante"]
Seating = Literal["enforced", "open"]
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
    index: Annotated[StrictInt, Field(ge=1, le=9)] | None = Field(
        default=None, description="1-3 for dozen and column bets, 1-2 for two_dozens and "
                                  "two_columns (the first of the two), 1-9 neighbours on each "
                                  "side for a neighbours bet (default 2)")
    stake: Money
    chips: tuple[ChipStack, ...] = Field(default=(), description="Chips on the layout, if counted")
    zero_option: ZeroOption | None = Field(
        default=None,
        description="An even chance's choice for when zero comes out, where the profile offers "
                    "one (seed 000 §4.1.4.2 item 11): half the stake back, or «en prisión» "
                    "until the next spin. None: the profile's default.")
    on: Id | None = Field(default=None, description="Craps odds: the id of the line bet they "
                                                     "back (seed 000 §3.1.5 «Suertes asociadas»)")
    working: bool = Field(default=False, description="Craps hardway called «on» while no point "
                                                     "is set (seed 004 IV §1.5)")

    @model_validator(mode="after")
    def _chips_match_stake(self) -> BetSpec:
        if self.chips and sum(c.value for c in self.chips) != self.stake.amount:
            raise ValueError("chips: the chips' total does not equal stake.amount")
        return self


# ----- payloads -------------------------------------------------------------------------------

class BetLimits(_Data):
    """The minimum and maximum of one bet kind (AR seed 001: «Las apuestas para cada suerte o
    chance oscilarán entre un mínimo y un máximo»)."""

    min_bet: MinorUnits
    max_bet: MinorUnits


class TableOpenedDataV1(_Data):
    """TableOpened / OpenTable schema 1: roulette only. Decoded logs are upcast to schema 2."""

    game: Literal["roulette"] = "roulette"
    wheel: Wheel
    profile: Profile
    currency: Currency
    min_bet: MinorUnits
    max_bet: MinorUnits
    seats: Seat = 8


class TableOpenedData(_Data):
    """A table session of one game (schema 2). `variant` is the game's variant: for roulette
    the wheel (european | american | american_single), for baccarat the modality, for poker
    the variant. Limits: the table minimum and maximum, and optionally per bet kind
    (`bet_limits`, AR «para cada suerte o chance»); a kind not listed takes the table's.
    `seating`: "enforced" — a bet needs a seated player at its seat (SeatPlayer first);
    "open" — no seat checks (tables opened with schema 1, so old logs replay unchanged)."""

    game: Game
    variant: str | None = None
    profile: Profile
    currency: Currency
    min_bet: MinorUnits
    max_bet: MinorUnits
    bet_limits: dict[str, BetLimits] = Field(default_factory=dict)
    seats: Seat = 8
    seating: Seating = "enforced"
    switches: dict[str, str] = Field(
        default_factory=dict, description="Rule-profile switches this table sets where the "
        "profile leaves a choice to the house, e.g. craps_shooter_direction (domain.md A-28)")

    @property
    def wheel(self) -> str:
        """A roulette table's wheel (its variant)."""
        return self.variant or ""

    def limits_of(self, kind: str) -> BetLimits:
        """The limits of one bet kind: its own, else the table's."""
        return self.bet_limits.get(kind) or BetLimits(min_bet=self.min_bet, max_bet=self.max_bet)


class LimitsData(_Data):
    """New table limits, from the next round on (the jefe de mesa / pit boss changes the sign
    between rounds; seed 002 §1.2.1.1: limits are posted per game)."""

    min_bet: MinorUnits
    max_bet: MinorUnits
    bet_limits: dict[str, BetLimits] = Field(default_factory=dict)


def table_opened_v1_to_v2(payload: dict) -> dict:
    """Schema 1 → 2: the wheel becomes the roulette variant; no per-kind limits; seating
    "open", as schema-1 tables never seated anyone."""
    out = {k: v for k, v in payload.items() if k != "wheel"}
    return {**out, "game": "roulette", "variant": payload.get("wheel"), "bet_limits": {},
            "seating": "open"}


class TableClosedData(_Data):
    reason: str = "end of session"


class RoundOpenedData(_Data):
    round_id: Id
    round_number: Annotated[StrictInt, Field(ge=1)]


class BetPlacedData(_Data):
    """A bet accepted on the layout. A stake over the maximum on a profile that plays the
    maximum (`over_max` return_excess, or AR noticed before the spin) is placed for the maximum
    (`bet.stake`) and the excess handed back at once (`excess_returned`, with `limit_rule`)."""

    round_id: Id
    bet_id: Id
    seat: Seat
    player_id: Id
    bet: BetSpec
    excess_returned: Money | None = Field(
        default=None, description="Stake above the maximum handed back to the player when the "
                                  "bet was placed; bet.stake is what plays")
    limit_rule: str = Field(default="", description="Seed and section behind the excess")


RejectCode = Literal["OVER_MAXIMUM", "UNDER_MINIMUM", "BETTING_CLOSED", "NO_OPEN_ROUND",
                     "INVALID_BET", "WRONG_CURRENCY", "DUPLICATE_BET", "TABLE_CLOSED",
                     "NO_SUCH_SEAT", "SEAT_EMPTY", "NOT_AT_SEAT"]


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
    wheel: TableWheel
    pocket: Pocket


ShooterReason = Literal["first", "seven_out", "left", "passed"]
ShooterDirection = Literal["clockwise", "counter_clockwise"]


class DiceRolledData(_Data):
    """A valid roll of the two dice: the round's result at a craps or mini craps table (seed 000
    §3.1.5, seed 004 IV §1.5). The ON/OFF marker («marcador de salida») before and after the
    roll, the line bets whose first roll set their point (they travel to that number), whether
    the shooter sevened out, and the dice set and roll of the dice service, when it sent them."""

    round_id: Id
    dice: tuple[Die, Die]
    result: RoundResult = Field(description="The dice as \"3+4\" (rounds.pocket)")
    point_before: PointNumber | None
    point_after: PointNumber | None
    seven_out: bool = False
    travelled: dict[str, PointNumber] = Field(
        default_factory=dict, description="bet id -> the number a come / don't come (or a line "
                                          "bet on the come-out) moved to")
    shooter_seat: Seat | None = None
    device_id: Id | None = None
    roll_id: Id | None = None


class BetChangedData(_Data):
    """A craps bet on the layout reduced or increased between rolls (domain.md §4.6): `amount`
    plays from now on; `returned` is what went back to the player (the reduction, or the part
    of an increase over the maximum)."""

    round_id: Id
    bet_id: Id
    seat: Seat
    player_id: Id
    kind: BetKind
    amount_before: MinorUnits
    amount: MinorUnits
    returned: Money | None = None
    rule: str = Field(default="", description="Seed and section allowing the change")


class ShooterChangedData(_Data):
    """The dice pass to a new shooter (seed 000 §3.1.5, seed 004 IV §1.5): the first of the
    session, after a seven-out, when the shooter leaves or passes the dice; the direction is
    the table's craps_shooter_direction (domain.md A-28). `seat` None: nobody to shoot."""

    seat: Seat | None
    player_id: Id | None
    previous_seat: Seat | None = None
    reason: ShooterReason
    direction: ShooterDirection
    rule: str


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
    pocket: RoundResult = Field(description="The round's result: a pocket, or dice as \"3+4\"")
    bet_count: Annotated[StrictInt, Field(ge=0)]
    wagered: Money = Field(description="Stakes placed in this round (not stakes held «en prisión» "
                                        "from the round before)")
    paid: Money
    house_win: int = Field(description="wagered - paid, minor units, negative when the house lost")


CommandRejectCode = Literal["REFUSED", "FORBIDDEN", "NO_TABLE_ADAPTER", "NO_SUCH_SEAT",
                            "SEAT_TAKEN", "ALREADY_SEATED", "SEAT_EMPTY", "NO_SUCH_BET",
                            "BET_LOCKED", "NO_SHOOTER", "NO_LINE_BET"]


class CommandRejectedData(_Data):
    command_id: Id
    command_type: str
    field: str
    reason: str
    code: CommandRejectCode = Field(
        default="REFUSED", description="FORBIDDEN: the actor's role may not issue the command "
                                       "(contracts/permissions.py); REFUSED: wrong state or value")
    rule: str = Field(default="", description="Seed and section behind the refusal, where one "
                                              "is (e.g. a craps bet that may not be withdrawn)")


class PlayerSeatedData(_Data):
    seat: Seat
    player_id: Id


LeaveReason = Literal["left", "not_playing"]


class PlayerLeftData(_Data):
    """A seat freed: the player left, or did not play for more than three consecutive rounds
    where the game's seed says so (`rule`; e.g. seed 002 §2.1.6.3, domain.md §7.4)."""

    seat: Seat
    player_id: Id
    reason: LeaveReason = "left"
    rounds_not_played: Annotated[StrictInt, Field(ge=0)] = 0
    rule: str = ""


# ----- events (aggregate: table) --------------------------------------------------------------

class TableEvent(Event):
    aggregate_type: Literal["table"] = "table"


@message_type
class TableOpenedV1(TableEvent):
    """Schema 1 (roulette only), kept for decoding; `decode` upcasts it to TableOpened."""

    event_type: Literal["TableOpened"] = "TableOpened"
    schema_version: Literal[1] = 1
    payload: TableOpenedDataV1


@message_type
class TableOpened(TableEvent):
    event_type: Literal["TableOpened"] = "TableOpened"
    schema_version: Literal[2] = 2
    payload: TableOpenedData


@message_type
class LimitsChanged(TableEvent):
    event_type: Literal["LimitsChanged"] = "LimitsChanged"
    schema_version: Literal[1] = 1
    payload: LimitsData


@message_type
class PlayerSeated(TableEvent):
    event_type: Literal["PlayerSeated"] = "PlayerSeated"
    schema_version: Literal[1] = 1
    payload: PlayerSeatedData


@message_type
class PlayerLeft(TableEvent):
    event_type: Literal["PlayerLeft"] = "PlayerLeft"
    schema_version: Literal[1] = 1
    payload: PlayerLeftData


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
class DiceRolled(TableEvent):
    event_type: Literal["DiceRolled"] = "DiceRolled"
    schema_version: Literal[1] = 1
    payload: DiceRolledData


@message_type
class BetChanged(TableEvent):
    event_type: Literal["BetChanged"] = "BetChanged"
    schema_version: Literal[1] = 1
    payload: BetChangedData


@message_type
class ShooterChanged(TableEvent):
    event_type: Literal["ShooterChanged"] = "ShooterChanged"
    schema_version: Literal[1] = 1
    payload: ShooterChangedData


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
    device_id: Id | None = Field(default=None, description="The wheel's serial, when the wheel "
                                                            "service forwarded the spin")
    spin_id: Id | None = Field(default=None, description="The wheel's spin id (SpinAccepted)")


class RecordRollData(_Data):
    """Two dice of a valid roll for a craps round (the dice service sends valid rolls only;
    a voided roll never reaches the table)."""

    round_id: Id
    dice: tuple[Die, Die]
    device_id: Id | None = None     # the dice set's serial, when the dice service sent it
    roll_id: Id | None = None       # the dice service's roll id (traceability)


class ChangeBetData(_Data):
    bet_id: Id
    amount: MinorUnits = Field(description="The bet's new amount; 0 withdraws it")


class RemoveBetData(_Data):
    bet_id: Id


class _Empty(_Data):
    pass


@message_type
class OpenTableV1(Command):
    """Schema 1 (roulette only), kept for decoding; `decode` upcasts it to OpenTable."""

    command_type: Literal["OpenTable"] = "OpenTable"
    schema_version: Literal[1] = 1
    payload: TableOpenedDataV1


@message_type
class OpenTable(Command):
    command_type: Literal["OpenTable"] = "OpenTable"
    schema_version: Literal[2] = 2
    payload: TableOpenedData


@message_type
class ChangeLimits(Command):
    """The table's minimum, maximum and per-kind limits, from the next round on."""

    command_type: Literal["ChangeLimits"] = "ChangeLimits"
    schema_version: Literal[1] = 1
    payload: LimitsData


class SeatData(_Data):
    seat: Seat
    player_id: Id


@message_type
class SeatPlayer(Command):
    """Seat a player (needed before a bet on a table opened with seating "enforced")."""

    command_type: Literal["SeatPlayer"] = "SeatPlayer"
    schema_version: Literal[1] = 1
    payload: SeatData


@message_type
class LeaveSeat(Command):
    command_type: Literal["LeaveSeat"] = "LeaveSeat"
    schema_version: Literal[1] = 1
    payload: SeatData


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
class RecordRoll(Command):
    """The two dice of a craps round (from the dice service, or a dealer terminal)."""

    command_type: Literal["RecordRoll"] = "RecordRoll"
    schema_version: Literal[1] = 1
    payload: RecordRollData


@message_type
class ChangeBet(Command):
    """Reduce or increase a craps bet on the layout before the next roll (0 withdraws it)."""

    command_type: Literal["ChangeBet"] = "ChangeBet"
    schema_version: Literal[1] = 1
    payload: ChangeBetData


@message_type
class RemoveBet(Command):
    """Withdraw a craps bet from the layout before the next roll."""

    command_type: Literal["RemoveBet"] = "RemoveBet"
    schema_version: Literal[1] = 1
    payload: RemoveBetData


@message_type
class PassDice(Command):
    """The shooter declines the dice; they pass to the next player (seed 000 §3.1.5 «Si un
    jugador rehúsa lanzar los dados pasan al jugador siguiente»)."""

    command_type: Literal["PassDice"] = "PassDice"
    schema_version: Literal[1] = 1
    payload: _Empty = _Empty()


@message_type
class CloseTable(Command):
    command_type: Literal["CloseTable"] = "CloseTable"
    schema_version: Literal[1] = 1
    payload: TableClosedData = TableClosedData()


def _upcast_opened(message: dict) -> dict:
    return {**message, "schema_version": 2,
            "payload": table_opened_v1_to_v2(message.get("payload") or {})}


upcaster("TableOpened", 1)(_upcast_opened)
upcaster("OpenTable", 1)(_upcast_opened)

TABLE_EVENTS = (TableOpened, TableClosed, RoundOpened, BetPlaced, BetRejected, BetsClosed,
                SpinResulted, BetSettled, RoundSettled, CommandRejected, PlayerSeated,
                PlayerLeft, LimitsChanged, DiceRolled, BetChanged, ShooterChanged)
TABLE_COMMANDS = (OpenTable, OpenRound, PlaceBet, CloseBets, RecordSpin, CloseTable,
                  SeatPlayer, LeaveSeat, ChangeLimits, RecordRoll, ChangeBet, RemoveBet,
                  PassDice)
