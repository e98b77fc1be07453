"""The seam between the table and the rules engine: validate a bet, settle a round.

The table never computes a payout itself; it asks the engine (services/rules/roulette), which
answers with the amount and the seed rule behind it.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import cast

from contracts.money import Money
from contracts.table import BetOutcome, BetPlacedData, BetSettledData, BetSpec, TableOpenedData
from services.rules.core import RulesError, get_profile
from services.rules.roulette import RouletteBet, settle_bets


def engine_bet(spec: BetSpec, imprisoned: bool = False) -> RouletteBet:
    """The engine's view of a bet; a stake already «en prisión» has no zero option left."""
    return RouletteBet(kind=spec.kind, amount=spec.stake.amount, numbers=tuple(spec.numbers),
                       index=spec.index, zero_option=None if imprisoned else spec.zero_option,
                       imprisoned=imprisoned)


def bet_problem(config: TableOpenedData, spec: BetSpec) -> tuple[str, str] | None:
    """(field, reason) when the engine says the bet is not a valid bet on this wheel."""
    try:
        settle_bets(get_profile(config.profile), config.wheel, [engine_bet(spec)],
                    pocket="1")
    except RulesError as err:
        # the engine names the field within its batch of one ("bets[0].numbers")
        return f"payload.bet.{err.field.removeprefix('bets[0].')}", err.reason
    return None


def settle(config: TableOpenedData, round_id: str, bets: Iterable[BetPlacedData],
           pocket: str, prisoners: Iterable[BetPlacedData] = ()) -> list[BetSettledData]:
    """Settle this round's bets and the stakes held «en prisión» from the round before
    (`prisoners`, decided by this spin: seed 000 §4.1.4.2 item 11, «2da Jugada»)."""
    placed, jailed = list(bets), list(prisoners)
    results = settle_bets(get_profile(config.profile), config.wheel,
                          [engine_bet(b.bet) for b in placed]
                          + [engine_bet(b.bet, imprisoned=True) for b in jailed], pocket)
    return [
        BetSettledData(
            round_id=round_id, bet_id=b.bet_id, seat=b.seat, player_id=b.player_id,
            kind=b.bet.kind, stake=b.bet.stake,
            paid=Money(amount=r.paid, currency=config.currency), net=r.net,
            # roulette leaves no bet pending, the one engine outcome that is no BetOutcome
            outcome=cast(BetOutcome, r.outcome.value),
            rule=str(r.rule), rule_note=r.rule.note or "",
            imprisoned_from=b.round_id if i >= len(placed) else None,
        )
        for i, (b, r) in enumerate(zip(placed + jailed, results))
    ]
