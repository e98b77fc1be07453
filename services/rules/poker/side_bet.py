"""The progressive side bet of one settled round: who stays eligible, with which hand.

Eligibility (domain.md §6.4): a Draw Poker player who changes cards, a Draw/Caribbean (BO) or
ARICA (CL) player who folds, and an ARICA Plus player who buys a card all lose the side bet
(seed 000 §2.5.5.1; seed 004 III §6.5.1). The dealer's hand never matters (C-39: BO lets the
player show and claim, CL makes the dealer check — either way every eligible hand is read).
If the request carries the pool (`progressive.pool`, `progressive.unit_value`) the prizes are
split here with `progressive.split_pool`; otherwise only the hand classes are reported and the
pools service settles them.

Limits: `limits.progressive` (credits) is the side bet's own minimum and maximum (seed 000
§2.5.4.1, seed 004 III §6.4.1). Over it, the prize is computed on the maximum and the excess
credits come back, won, lost or forfeited (seed 002 §1.2.1.1, seed 004 RG §4.2); under it the
row is flagged (domain.md A-2). A void hand returns its credits whole.
"""
from __future__ import annotations

from typing import Any

from services.rules.core.limits import LimitOutcome
from services.rules.core.profiles import Profile
from services.rules.core.refs import RuleRef
from services.rules.poker.hands import HandClass
from services.rules.poker.limits import progressive_limits
from services.rules.poker.progressive import Winner, qualifying, split_pool, table_for
from services.rules.poker.request import SeatHand
from services.rules.poker.settle import RoundResult

FOLD_FORFEITS = {"draw", "caribbean", "arica", "arica_plus"}
RULES = {"BO": RuleRef("000", "§2.5.5.1"), "CL-ARICA": RuleRef("004", "III §6.5.1")}


def forfeit_reason(seat: SeatHand, variant: str) -> str | None:
    if variant == "draw" and seat.discarded:
        return "changed cards: leaves the progressive, side bet lost"
    if variant == "arica_plus" and seat.discarded:
        return "bought a card: leaves the progressive, side bet lost"
    if seat.folded and variant in FOLD_FORFEITS:
        return "«no ir»: loses the ANTE and the progressive side bet"
    return None


def progressive_report(result: RoundResult, profile: Profile) -> dict[str, Any]:
    """{"seats": [one row per seat with a side bet], "pool": split summary or None}."""
    rnd = result.round
    rows, winners = [], []
    for out in result.seats:
        seat = out.seat
        if not seat.progressive:
            continue
        row: dict[str, Any] = {"seat": seat.seat, "units": seat.progressive}
        reason = "round annulled" if rnd.void else ("hand annulled" if seat.void else None)
        forfeit = None if reason else forfeit_reason(seat, rnd.variant.name)
        units = seat.progressive
        if not reason:
            lim = progressive_limits(seat.path, seat.progressive, rnd.limits, profile)
            row.update(_limit_fields(lim))
            units = lim.playing_stake
        if reason:
            row.update(status="void", detail=f"{reason}: side bet returned")
        elif forfeit:
            row.update(status="forfeited", detail=forfeit, rule=str(RULES[profile.id]))
        else:
            assert out.value is not None  # neither void nor folded: the hand was evaluated
            cls = HandClass(out.value >> 20)
            row.update(hand_class=cls.name.lower(), hand=cls.spanish,
                       status="winner" if qualifying(profile, cls) else "no_prize")
            if qualifying(profile, cls):
                winners.append(Winner(seat.seat, cls, units))
        rows.append(row)
    pool = None
    if rnd.progressive is not None and winners:
        pool = _add_awards(rows, winners, rnd.progressive.pool, rnd.progressive.unit_value, profile)
    return {"seats": rows, "pool": pool}


def _limit_fields(lim: LimitOutcome) -> dict[str, Any]:
    out: dict[str, Any] = {}
    words = []
    if lim.excess:
        out.update(units_played=lim.playing_stake, excess_units_returned=lim.excess)
        words.append(f"{lim.excess} credit(s) over the progressive maximum returned, "
                     f"{lim.playing_stake} played")
    if lim.under_minimum:
        out["under_minimum"] = True
        words.append("under the progressive minimum: settled on the credits staked, with the "
                     "jefe de sala's authorisation (domain.md A-2)")
    if words:
        out.update(limit_rule=str(lim.rule), limit_detail="; ".join(words))
    return out


def _add_awards(rows: list[dict[str, Any]], winners: list[Winner], pool: int, unit_value: int,
                profile: Profile) -> dict[str, Any]:
    split = split_pool(profile, winners, pool, unit_value)
    by_seat = {row["seat"]: row for row in rows}
    for order, award in enumerate(split.awards, start=1):
        row = by_seat[award.winner.seat]
        row.update(award=award.amount, payment_order=order, rule=str(award.rule),
                   detail=award.detail)
        if award.rule.note:
            row["rule_note"] = award.rule.note
    return {"pool_before": split.pool_before, "pool_after": split.pool_after,
            "paid": split.paid, "shortfall": split.shortfall, "steps": list(split.steps),
            "table": str(table_for(profile).rule)}
