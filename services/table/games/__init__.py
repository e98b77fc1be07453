"""Per-game table adapters: what a table session needs to know about its game.

The session (services/table/domain.py) keeps what every game shares — limits, seats, rounds,
«no más apuestas», payout holds and corrections, closing — and asks the game's adapter for the
rest: which bet kinds exist and whether a bet is valid, what a round's result looks like and
which event records it, and how a round is settled and re-settled through the rules engine
(services/rules), each payout naming its rule.

A game whose bets stay on the layout across rounds (craps: one roll is one round, a pass line
is decided rolls later) keeps a `play` of its own in the session — an object the adapter folds
from the table's events (`evolve`), snapshots as JSON and decides on (`record`, `change_bet`,
the shooter hooks). `GameBase` gives the defaults of a game with no such play (roulette).

A game without a live adapter (the card games) cannot be opened at a table yet; the rules
engine settles it offline (`casino rules settle`).
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from contracts.envelope import Command, Event
from contracts.payouts import BetCorrectionData, BetReviewData
from contracts.table import (
    BetLimits,
    BetPlacedData,
    BetSettledData,
    BetSpec,
    CommandRejectCode,
    SpinResulted,
    TableOpenedData,
)

if TYPE_CHECKING:
    from services.table.rounds import Round

Problem = tuple[str, str]  # (field, reason)
# A refusal of a command: (code, field, reason, the seed rule behind it or "")
Refusal = tuple[CommandRejectCode, str, str, str]
Emit = list[tuple[type[Event], Any]]  # events for the session to trigger, in order


@dataclass(frozen=True)
class Correction:
    """A round re-settled on its corrected result: the bets whose payout changes exactly, the
    bets left to the pit manager (a game whose state runs across rounds), and what the wrong
    result changed in that state, in words."""

    fixes: list[BetCorrectionData]
    review: list[BetReviewData] = field(default_factory=list)
    note: str = ""


class SessionView(Protocol):
    """What a game adapter reads of its table session (services/table/domain.py)."""

    config: TableOpenedData | None
    seated: dict[int, str]
    play: Any
    round: Round | None
    rounds: dict[str, Round]   # the rounds remembered, oldest first


class GameAdapter(Protocol):
    game: str
    bet_kinds: tuple[str, ...]
    result_command: str          # the command that records a round's result, e.g. "RecordSpin"
    # The seed rule that frees a seat after more than three rounds not played (domain.md §7.4),
    # or None where the game's seed does not say so.
    seat_release_rule: str | None

    def config_problem(self, config: TableOpenedData) -> Problem | None:
        """Is this a table of the game the profile defines (variant, limits' bet kinds)?"""

    def limits_for(self, config: TableOpenedData, kind: str) -> BetLimits:
        """The minimum and maximum of one bet kind at this table, as the engine reads them."""

    def limit_parts(self, config: TableOpenedData, bet: BetSpec) -> list[tuple[str, int]]:
        """What the limits apply to: [(kind, stake)] — the bet itself, or the parts of a bet
        made of several (a called roulette bet's components)."""

    def bet_problem(self, config: TableOpenedData, bet: BetSpec) -> Problem | None:
        """Is this a valid bet of the game (the engine's verdict), field relative to payload?"""

    def result_of(self, config: TableOpenedData, command: Command) -> tuple[str, Problem | None]:
        """The round's result from its result command, or why it cannot be one."""

    def result_payload(self, config: TableOpenedData, round_id: str, result: str) -> object:
        """The payload of the event recording the result (the game's result event)."""

    def is_result(self, config: TableOpenedData, result: str) -> bool:
        """Whether `result` is a result of this table (a correction from CCTV must be)."""

    def settle(self, config: TableOpenedData, round_id: str, bets: Iterable[BetPlacedData],
               result: str, carried: Iterable[BetPlacedData] = ()) -> list[BetSettledData]:
        """Settle a round's bets and the stakes carried from the round before («en prisión»)."""

    def result_key(self, config: TableOpenedData, result: str) -> str:
        """A result as the table records it (craps: the CCTV's "3-4" is the table's "3+4"),
        so a corrected result is compared with and stored as the recorded one."""

    def correct(self, view: SessionView, rnd: Round, result: str) -> Correction:
        """Re-settle `rnd` on `result` (an `is_result`): the bets whose payout changes, and
        those the game cannot re-settle exactly."""

    # -- a game whose bets stay on the layout across rounds (GameBase: none) ---------------
    result_event: type[Event]     # the event recording a round's result (SpinResulted, ...)
    keeps_layout: bool            # True: `record` settles a round from the play

    def new_play(self, config: TableOpenedData) -> Any:
        """The game's own state at a new table, or None."""

    def evolve(self, play: Any, event: Event) -> None:
        """Fold one of the table's events into the play (after the session's own fold)."""

    def play_to_json(self, play: Any) -> Any: ...

    def play_from_json(self, config: TableOpenedData, data: Any) -> Any: ...

    def holds_bet(self, play: Any, bet_id: str) -> bool:
        """Whether a bet of this id is still on the layout from an earlier round."""

    def admit(self, view: SessionView, bet: BetSpec, bet_id: str) -> Problem | None:
        """Whether the bet may be made now (the point, the line bet odds back), else why."""

    def record(self, view: SessionView, command: Command) -> tuple[Emit, Refusal | None]:
        """keeps_layout games: the result and every bet it decides, or why not."""

    def change_bet(self, view: SessionView, command: Command) -> tuple[Emit, Refusal | None]:
        """Withdraw, reduce or increase a bet on the layout, or why not."""

    def round_opening(self, view: SessionView) -> Emit:
        """Events of a round's opening (e.g. the dice to a shooter)."""

    def player_seated(self, view: SessionView) -> Emit:
        """Events of a player sitting down (e.g. the dice to him when nobody holds them)."""

    def close_bets_problem(self, view: SessionView) -> Refusal | None:
        """Why «no más apuestas» cannot be called yet (e.g. the shooter has no line bet)."""

    def seat_leaving(self, view: SessionView, seat: int) -> tuple[Emit, Refusal | None]:
        """What a player leaving a seat does to the game (the shooter leaving), or why not."""

    def pass_dice(self, view: SessionView, command: Command) -> tuple[Emit, Refusal | None]:
        """The shooter declines the dice."""

    def close_problem(self, view: SessionView) -> Problem | None:
        """Why the table cannot close yet (bets still on the layout)."""


class GameBase:
    """The defaults of a game that keeps nothing across rounds but what the session keeps
    itself (roulette's stakes «en prisión»)."""

    result_event: type[Event] = SpinResulted
    keeps_layout = False

    def new_play(self, config: TableOpenedData) -> Any:
        return None

    def result_key(self, config: TableOpenedData, result: str) -> str:
        return result

    def evolve(self, play: Any, event: Event) -> None:
        return None

    def play_to_json(self, play: Any) -> Any:
        return None

    def play_from_json(self, config: TableOpenedData, data: Any) -> Any:
        return None

    def holds_bet(self, play: Any, bet_id: str) -> bool:
        return False

    def admit(self, view: SessionView, bet: BetSpec, bet_id: str) -> Problem | None:
        return None

    def record(self, view: SessionView, command: Command) -> tuple[Emit, Refusal | None]:
        raise NotImplementedError("only a game that keeps its layout records this way")

    def change_bet(self, view: SessionView, command: Command) -> tuple[Emit, Refusal | None]:
        return [], ("REFUSED", "command_type", f"{command.command_type}: a bet at this game "
                    "stays as placed until the round is settled", "")

    def round_opening(self, view: SessionView) -> Emit:
        return []

    def player_seated(self, view: SessionView) -> Emit:
        return []

    def close_bets_problem(self, view: SessionView) -> Refusal | None:
        return None

    def seat_leaving(self, view: SessionView, seat: int) -> tuple[Emit, Refusal | None]:
        return [], None

    def pass_dice(self, view: SessionView, command: Command) -> tuple[Emit, Refusal | None]:
        return [], ("REFUSED", "command_type", "PassDice: this game has no dice", "")

    def close_problem(self, view: SessionView) -> Problem | None:
        return None


ADAPTERS: dict[str, GameAdapter] = {}


def register(adapter: GameAdapter) -> GameAdapter:
    ADAPTERS[adapter.game] = adapter
    return adapter


def adapter_for(game: str) -> GameAdapter | None:
    _load()
    return ADAPTERS.get(game)


def _load() -> None:
    """Import the live adapters (each registers itself); imported late, since they import the
    rules engine and this package is imported by the session."""
    from services.table.games import craps, roulette  # noqa: F401
