"""The roulette table adapter: French/European single zero (BO, AR-RUL, LIVE-GG), American
0/00 and CL-ARICA's one-zero American table (`american_single`, seed 004 II §1.7).

A round: bets, «no más apuestas», the dealer enters the winning pocket (RecordSpin →
SpinResulted), the rules engine settles every bet (services/rules/roulette) and names its rule.
Stakes «en prisión» (seed 000 §4.1.4.2 item 11) are carried to the next spin.

No seat release: the seeds free a seat after «más de tres pases consecutivos» without playing
only for the card games (seed 002 §2.1.6.3, seed 000 §2.3.6.3, §2.4.4.2, seed 004 III §1.5.3,
§2.6.2, §3.6.3), and a roulette player on even chances «puede estar participando en dos mesas»
(seed 000 §4.1.5.2; seed 004 II §1.6.2).
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import cast

from contracts.envelope import Command
from contracts.table import (
    BetLimits,
    BetPlacedData,
    BetSettledData,
    BetSpec,
    RecordSpin,
    SpinResultedData,
    TableOpenedData,
    TableWheel,
)
from services.rules.core import RulesError, get_profile
from services.rules.core.limits import DEFAULT_KEY, TableLimits
from services.rules.roulette import KINDS, WHEELS
from services.rules.roulette.bets import CALLED_KINDS
from services.rules.roulette.called import expand
from services.rules.roulette.limits import limits_for as engine_limits_for
from services.rules.roulette.paytable import check_wheel
from services.table import corrections, settlement
from services.table.games import Correction, GameBase, Problem, SessionView, register
from services.table.rounds import Round


class Roulette(GameBase):
    game = "roulette"
    bet_kinds: tuple[str, ...] = tuple(KINDS)
    result_command = "RecordSpin"
    seat_release_rule: str | None = None

    def config_problem(self, config: TableOpenedData) -> Problem | None:
        wheel = config.variant
        if wheel is None or wheel not in WHEELS:
            return "payload.variant", (f"a roulette table names its wheel: one of "
                                       f"{', '.join(WHEELS)}; got {wheel!r}")
        try:
            check_wheel(get_profile(config.profile), wheel)
        except RulesError as err:
            return "payload.variant", err.reason
        unknown = sorted(set(config.bet_limits) - set(self.bet_kinds))
        if unknown:
            return (f"payload.bet_limits.{unknown[0]}",
                    f"{', '.join(unknown)}: not a roulette bet kind; kinds: "
                    f"{', '.join(self.bet_kinds)}")
        return None

    def limits_for(self, config: TableOpenedData, kind: str) -> BetLimits:
        """The limits of one bet kind, as the engine reads them: its own (AR «para cada suerte
        o chance»), else the table's; AR doubles a chance's maximum for a bet «a caballo» on
        two dozens or columns (seed 001, services/rules/roulette/limits.py)."""
        table = TableLimits(config.min_bet, config.max_bet)
        limits = ({k: TableLimits(v.min_bet, v.max_bet) for k, v in config.bet_limits.items()}
                  | {DEFAULT_KEY: table}) if config.bet_limits else table
        found = engine_limits_for(limits, kind, get_profile(config.profile)) or table
        return BetLimits(min_bet=found.minimum, max_bet=found.maximum)

    def limit_parts(self, config: TableOpenedData, bet: BetSpec) -> list[tuple[str, int]]:
        """A called bet (voisins, tiers, orphelins, neighbours) is limited component by
        component, each an ordinary inside bet, as the engine settles it (called.py); a called
        bet the engine cannot expand is limited whole and refused as invalid afterwards."""
        if bet.kind not in CALLED_KINDS:
            return [(bet.kind, bet.stake.amount)]
        try:
            parts = expand(settlement.engine_bet(bet), bet.stake.amount, WHEELS[config.wheel])
        except RulesError:
            return [(bet.kind, bet.stake.amount)]
        return [(p.kind, p.amount) for p in parts]

    def bet_problem(self, config: TableOpenedData, bet: BetSpec) -> Problem | None:
        return settlement.bet_problem(config, bet)

    def result_of(self, config: TableOpenedData, command: Command) -> tuple[str, Problem | None]:
        assert isinstance(command, RecordSpin), "the table checked result_command"
        pocket = command.payload.pocket
        if not self.is_result(config, pocket):
            return pocket, ("payload.pocket", f"{pocket} is not on a {config.wheel} wheel")
        return pocket, None

    def result_payload(self, config: TableOpenedData, round_id: str,
                       result: str) -> SpinResultedData:
        assert config.wheel in WHEELS, "config_problem admitted only these wheels"
        wheel = cast(TableWheel, config.wheel)
        return SpinResultedData(round_id=round_id, wheel=wheel, pocket=result)

    def is_result(self, config: TableOpenedData, result: str) -> bool:
        """A pocket of this table's wheel (a dice result, or 00 on a one-zero wheel, is not)."""
        wheel = WHEELS.get(config.wheel)
        return wheel is not None and result in wheel.pockets

    def settle(self, config: TableOpenedData, round_id: str, bets: Iterable[BetPlacedData],
               result: str, carried: Iterable[BetPlacedData] = ()) -> list[BetSettledData]:
        return settlement.settle(config, round_id, bets, result, carried)

    def correct(self, view: SessionView, rnd: Round, result: str) -> Correction:
        """Exact: a spin decides its bets, and a stake «en prisión» the next spin."""
        assert view.config is not None
        following = next((r for r in view.rounds.values() if r.number == rnd.number + 1), None)
        return Correction(corrections.correct(view.config, rnd, following, result))


ROULETTE = register(Roulette())
