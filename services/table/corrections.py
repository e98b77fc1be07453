"""Re-settling a round whose result the surveillance room corrected on CCTV. Pure: no I/O.

The original BetSettled events stay as they are (events are immutable); this computes, bet by
bet, what the wrong result paid and what the corrected one pays, through the same rules engine
seam (settlement.py), so every corrected payout names its seed rule too.

«En prisión» (seed 000 §4.1.4.2 item 11) makes a round's payouts depend on the next spin: an
even-chance stake imprisoned on zero is decided by the following spin. So "what was paid" for
a stake the wrong result imprisoned is what its later decision paid (0 while it waits), and a
stake the corrected result imprisons is decided by the next round's pocket when that round has
been spun; otherwise it waits in prison for the next spin like any other.
"""
from __future__ import annotations

from contracts.money import Money
from contracts.payouts import BetCorrectionData
from contracts.table import BetOutcome, TableOpenedData
from services.table import settlement
from services.table.rounds import Round


def correct(config: TableOpenedData, rnd: Round, next_rnd: Round | None,
            pocket: str) -> list[BetCorrectionData]:
    """The bets of `rnd` whose payout changes when its result is `pocket` instead."""
    placed, jailed = list(rnd.bets.values()), list(rnd.jailed.values())
    new = settlement.settle(config, rnd.round_id, placed, pocket, jailed)
    decided = next_rnd if next_rnd is not None and next_rnd.is_settled else None
    out = []
    for bet, after in zip(placed + jailed, new):
        outcome_before, paid_before = _before(rnd, next_rnd, bet.bet_id)
        decided_in = None
        if after.outcome == "prison" and decided is not None:
            assert decided.pocket is not None, "a settled round has its result"
            after = settlement.settle(config, decided.round_id, [], decided.pocket, [bet])[0]
            decided_in = decided.round_id
        if (after.outcome, after.paid.amount) == (outcome_before, paid_before):
            continue
        out.append(BetCorrectionData(
            bet_id=bet.bet_id, seat=bet.seat, player_id=bet.player_id, kind=bet.bet.kind,
            stake=bet.bet.stake, paid_before=Money(amount=paid_before, currency=config.currency),
            paid_after=after.paid, outcome_before=outcome_before, outcome_after=after.outcome,
            rule=after.rule, rule_note=after.rule_note, decided_in=decided_in))
    return out


def _before(rnd: Round, next_rnd: Round | None, bet_id: str) -> tuple[BetOutcome, int]:
    """What the wrong settlement came to: for a stake it imprisoned, the later decision."""
    outcome, paid = rnd.paid(bet_id)
    if outcome == "prison" and next_rnd is not None and bet_id in next_rnd.settled:
        return next_rnd.paid(bet_id)
    return outcome, paid
