"""Per-game table adapters: what a table session needs to know about its game.

The session (services/table/domain.py) keeps what every game shares — limits, seats, rounds,
«no más apuestas», payout holds and corrections, closing — and asks the game's adapter for the
rest: which bet kinds exist and whether a bet is valid, what a round's result looks like and
which event records it, and how a round is settled and re-settled through the rules engine
(services/rules), each payout naming its rule.

A game without a live adapter (craps, mini craps, the card games) cannot be opened at a table
yet; the rules engine settles it offline (`casino rules settle`).
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Protocol

from contracts.envelope import Command
from contracts.payouts import BetCorrectionData
from contracts.table import BetLimits, BetPlacedData, BetSettledData, BetSpec, TableOpenedData

if TYPE_CHECKING:
    from services.table.rounds import Round

Problem = tuple[str, str]  # (field, reason)


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

    def correct(self, config: TableOpenedData, rnd: Round, next_rnd: Round | None,
                result: str) -> list[BetCorrectionData]:
        """The bets of `rnd` whose payout changes when its result is `result` instead."""


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
    from services.table.games import roulette  # noqa: F401
