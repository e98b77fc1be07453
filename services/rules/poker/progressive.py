"""Progressive side bet: qualifying hands, pay tables and the multiple-winner split.

Pure functions for the pools service (domain.md §6.4–6.6). Money is integer minor units.
BO: seed 000 §2.5.6.2 — Color 50×, Full 100×, Póker 500× the bet; Escalera de Color 10 % of
the main pool, at most 5.000 × the bet; Escalera Real 100 % of the main pool.
CL: seed 004 III §6.6 — fixed amounts «por seguro apostado» (per credit): Escalera Simple
20.000, Color 25.000, Full 40.000, Póker 100.000; Escalera de Color 10 %; Escalera Real 100 %.
The player's stake is never part of the prize («excluyendo el valor de su apuesta»).
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction

from services.rules.core.errors import RulesError
from services.rules.core.money import apply_fraction
from services.rules.core.profiles import Profile
from services.rules.core.refs import RuleRef
from services.rules.poker import switches as sw
from services.rules.poker.hands import HandClass

H = HandClass
TEN_PERCENT = Fraction(1, 10)


@dataclass(frozen=True)
class ProgressiveTable:
    profile: str
    multiples: Mapping[HandClass, int]   # BO: times the bet amount
    per_unit: Mapping[HandClass, int]    # CL: fixed minor units per credit wagered
    sf_cap_multiple: int | None          # BO: 5.000 × the bet; CL: no cap printed
    rule: RuleRef

    @property
    def fixed_classes(self) -> frozenset[HandClass]:
        return frozenset(self.multiples) | frozenset(self.per_unit)


TABLES = {
    "BO": ProgressiveTable(
        "BO", {H.FLUSH: 50, H.FULL_HOUSE: 100, H.FOUR_OF_A_KIND: 500}, {}, 5000,
        RuleRef("000", "§2.5.6.2")),
    "CL-ARICA": ProgressiveTable(
        "CL-ARICA", {}, {H.STRAIGHT: 20_000, H.FLUSH: 25_000, H.FULL_HOUSE: 40_000,
                         H.FOUR_OF_A_KIND: 100_000}, None, RuleRef("004", "III §6.6")),
}
# Seed 004 III §6.6 also prints «Carta Mágica o Jugador Afortunado 15.000. premios promocionales
# complementarios»: a random complementary prize, not a hand (domain.md A-26); the pools service
# owns complementary prizes, so it is only recorded here.
CL_COMPLEMENTARY_PRIZE = 15_000


@dataclass(frozen=True)
class Winner:
    seat: int                 # 1 = nearest the croupier's right hand
    hand_class: HandClass
    bet_units: int            # credits wagered on the progressive
    table: str = ""           # linked tables: tie-break after the seat number (see split_pool)


@dataclass(frozen=True)
class Award:
    winner: Winner
    amount: int               # minor units paid from the pool, stake excluded
    kind: str                 # "fixed" | "pool_share" | "none"
    rule: RuleRef
    detail: str


@dataclass(frozen=True)
class PoolSplit:
    awards: tuple[Award, ...]     # in payment order: lowest prizes first (rule 1)
    pool_before: int
    pool_after: int
    shortfall: int                # fixed prizes beyond the pool: who funds it is a [gap]
    steps: tuple[str, ...]

    @property
    def paid(self) -> int:
        return sum(a.amount for a in self.awards)


def table_for(profile: Profile) -> ProgressiveTable:
    if profile.id not in TABLES:
        raise RulesError("profile", f"profile {profile.id} has no card-table progressive")
    return TABLES[profile.id]


def qualifying(profile: Profile, hand_class: HandClass) -> bool:
    """Does this class win a progressive prize under the profile (seed 000 §2.5.5.1 list;
    seed 004 III §6.5.1 list plus the straight of its pay table, A-26)?"""
    table = table_for(profile)
    if hand_class == H.STRAIGHT and profile.id == "CL-ARICA":
        return profile.switch(sw.PROGRESSIVE_STRAIGHT) == "pays"
    return hand_class in table.fixed_classes or hand_class in (H.STRAIGHT_FLUSH, H.ROYAL_FLUSH)


def progressive_award(profile: Profile, hand_class: HandClass, bet_units: int,
                      pool_amount: int, unit_value: int = 1, seat: int = 1) -> Award:
    """The prize of one winner alone in the round (a split with a single winner).

    `bet_units` are progressive credits of `unit_value` minor units each (default 1: the bet
    given directly in minor units). BO multiplies the bet's value; CL pays per credit."""
    return split_pool(profile, [Winner(seat, hand_class, bet_units)], pool_amount,
                      unit_value).awards[0]


def split_pool(profile: Profile, winners: Iterable[Winner], pool_amount: int,
               unit_value: int = 1) -> PoolSplit:
    """Rules 1–5 of seed 000 §2.5.6.2 / seed 004 III §6.6 for one round's winners.

    Order (rule 5): fixed prizes first, then 10 % of what remains for the straight flushes,
    then the royal flushes' share of what remains after that; equal shares with the
    indivisible remainder per `progressive_remainder` (A-24)."""
    table = table_for(profile)
    winners = _validated(list(winners), pool_amount, unit_value)
    steps: list[str] = [f"main pool before prizes: {pool_amount}"]
    fixed = sorted((w for w in winners if _is_fixed(profile, table, w)),
                   key=lambda w: (w.hand_class, _seat_key(w)))
    awards = [_fixed_award(profile, table, w, unit_value) for w in fixed]
    remaining = pool_amount - sum(a.amount for a in awards)
    shortfall = max(0, -remaining)
    remaining = max(0, remaining)
    if fixed:
        steps.append(f"fixed prizes paid first (rule 5): {sum(a.amount for a in awards)}; "
                     f"pool left {remaining}" + (f"; SHORTFALL {shortfall}" if shortfall else ""))
    sf = [w for w in winners if w.hand_class == H.STRAIGHT_FLUSH]
    after_fixed = remaining
    sf_awards, remaining = _straight_flush(profile, table, sf, remaining, unit_value, steps)
    royal = [w for w in winners if w.hand_class == H.ROYAL_FLUSH]
    royal_base = remaining
    if royal and sf and profile.switch(sw.PROGRESSIVE_ROYAL_BASE) == "ninety_percent":
        # Rule 4 read literally: «el 90% del pozo acumulado principal original».
        royal_base = after_fixed - apply_fraction(after_fixed, TEN_PERCENT, profile.rounding)
    royal_awards = _shares(profile, royal, royal_base, table.rule, "100 % of the main pool "
                           "remaining (rules 4–5)", None, unit_value) if royal else []
    remaining -= sum(a.amount for a in royal_awards)
    if royal:
        steps.append(f"royal flush: {royal_base} shared by {len(royal)}; pool left {remaining}")
    others = [_no_prize(w, table) for w in winners if not qualifying(profile, w.hand_class)]
    return PoolSplit(tuple(awards + sf_awards + royal_awards + others), pool_amount, remaining,
                     shortfall, tuple(steps))


def _straight_flush(profile: Profile, table: ProgressiveTable, sf: list[Winner], remaining: int,
                    unit_value: int, steps: list[str]) -> tuple[list[Award], int]:
    if not sf:
        return [], remaining
    pot = apply_fraction(remaining, TEN_PERCENT, profile.rounding)
    awards = _shares(profile, sf, pot, table.rule, "10 % of the main pool remaining after the "
                     "fixed prizes (rules 3–5)", table.sf_cap_multiple, unit_value)
    paid = sum(a.amount for a in awards)
    steps.append(f"straight flush: 10 % of {remaining} = {pot} shared by {len(sf)}; paid {paid}"
                 + (" (capped at 5.000 × the bet, A-25)" if paid < pot else "")
                 + f"; pool left {remaining - paid}")
    return awards, remaining - paid


def _shares(profile: Profile, winners: list[Winner], pot: int, rule: RuleRef, why: str,
            cap_multiple: int | None, unit_value: int) -> list[Award]:
    """Equal shares of `pot`; the indivisible units go per A-24 (seat 1 side first)."""
    ordered = sorted(winners, key=_seat_key)
    base, rest = divmod(pot, len(ordered))
    one_each = profile.switch(sw.PROGRESSIVE_REMAINDER) == "one_each_from_seat_1"
    out = []
    for i, w in enumerate(ordered):
        extra = (1 if i < rest else 0) if one_each else (rest if i == 0 else 0)
        amount, note = base + extra, ""
        if cap_multiple is not None and amount > cap_multiple * w.bet_units * unit_value:
            amount = cap_multiple * w.bet_units * unit_value
            note = f"; capped at {cap_multiple} × the bet"
        share = f"1/{len(ordered)} of {pot}" + (f" + {extra} indivisible (A-24)" if extra else "")
        out.append(Award(w, amount, "pool_share", _noted(rule, extra, note),
                         f"{w.hand_class.spanish}: {why}: {share}{note}"))
    return out


def _noted(rule: RuleRef, extra: int, cap_note: str) -> RuleRef:
    notes = [n for n in (
        "A-24: indivisible remainder to the winner nearest seat 1" if extra else "",
        "A-25: straight flush capped at 5.000 × the bet" if cap_note else "") if n]
    return RuleRef(rule.seed, rule.section, note="; ".join(notes) or None)


def _fixed_award(profile: Profile, table: ProgressiveTable, w: Winner, unit_value: int) -> Award:
    if w.hand_class in table.multiples:
        times = table.multiples[w.hand_class]
        amount = times * w.bet_units * unit_value
        how = f"{times} × the bet of {w.bet_units * unit_value}"
    else:
        each = table.per_unit[w.hand_class]
        amount, how = each * w.bet_units, f"{each} per credit («seguro») × {w.bet_units}"
    note = "A-26: straight pays (best reading)" if w.hand_class == H.STRAIGHT else None
    return Award(w, amount, "fixed", RuleRef(table.rule.seed, table.rule.section, note=note),
                 f"{w.hand_class.spanish}: {how}")


def _no_prize(w: Winner, table: ProgressiveTable) -> Award:
    return Award(w, 0, "none", table.rule,
                 f"{w.hand_class.spanish} does not win a progressive prize")


def _is_fixed(profile: Profile, table: ProgressiveTable, w: Winner) -> bool:
    return w.hand_class in table.fixed_classes and qualifying(profile, w.hand_class)


def _seat_key(w: Winner) -> tuple[int, str]:
    # Seat 1 is «la posición más cercana a la mano derecha del croupier». Linked tables are not
    # addressed by the seeds: equal seat numbers fall back to the table id (documented gap).
    return (w.seat, w.table)


def _validated(winners: list[Winner], pool: int, unit_value: int) -> list[Winner]:
    if isinstance(pool, bool) or not isinstance(pool, int) or pool < 0:
        raise RulesError("pool", "must be a non-negative integer amount in minor units")
    if isinstance(unit_value, bool) or not isinstance(unit_value, int) or unit_value <= 0:
        raise RulesError("unit_value", "must be a positive integer amount in minor units")
    seen = set()
    for i, w in enumerate(winners):
        if not isinstance(w.hand_class, HandClass):
            raise RulesError(f"winners[{i}].hand_class", "must be a HandClass")
        if isinstance(w.bet_units, bool) or not isinstance(w.bet_units, int) or w.bet_units <= 0:
            raise RulesError(f"winners[{i}].bet_units", "must be a positive number of credits")
        if (w.seat, w.table) in seen:
            raise RulesError(f"winners[{i}].seat", f"seat {w.seat} of table {w.table!r} twice")
        seen.add((w.seat, w.table))
    return winners
