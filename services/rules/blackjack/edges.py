"""House edge of every blackjack bet of a profile (registry.EdgeRow).

Main bet: simulated with basic strategy for the profile's rules (simulate.py), with the 95 %
confidence interval and the number of hands in `method`. Perfect Pairs, insurance, even
money and the CL insurance against a 10: exact, as Fractions, by combinatorics over the shoe.
"""
from __future__ import annotations

from fractions import Fraction

from services.rules.blackjack.refs import ref
from services.rules.blackjack.rules import BjRules, rules_for
from services.rules.blackjack.sidebets import PERFECT_PAIRS, perfect_pairs_kind
from services.rules.blackjack.simulate import simulate
from services.rules.core.cards import SUITS, Card
from services.rules.core.profiles import Profile
from services.rules.registry import EdgeRow

GAME = "blackjack"


def edge_rows(profile: Profile, hands: int, seed: int = 2024) -> list[EdgeRow]:
    rules = rules_for(profile)
    rows = [*_main_rows(rules, hands, seed)]
    if profile.id == "BO":
        rows += _main_rows(rules_for(profile, "challenge21"), hands, seed)
    if profile.id in ("BO", "CL-ARICA"):
        rows.append(_perfect_pairs_row(rules))
    rows.append(_insurance_row(rules))
    if rules.even_money:
        rows.append(_even_money_row(rules))
    if rules.promotions:
        rows.append(_insurance_ten_row(rules))
    return rows


def _main_rows(rules: BjRules, hands: int, seed: int) -> list[EdgeRow]:
    sim = simulate(rules, hands, seed)
    pid = rules.profile.id
    per = " per bet (three dealer hands)" if rules.challenge21 else ""
    method = (f"simulation, basic strategy, {sim.hands:,} rounds{per}, "
              f"95% CI ±{sim.ci95 * 100:.3f}%")
    note = (f"{rules.decks} decks dealt from a freshly shuffled shoe each round; "
            f"{_rules_text(rules)}")
    variant = rules.variant
    if not rules.promotions:
        return [EdgeRow(GAME, variant, "main", sim.edge, method, ref(pid, "win"), note)]
    method_main = method.replace(f"±{sim.ci95 * 100:.3f}%", f"±{sim.ci95_main * 100:.3f}%")
    return [
        EdgeRow(GAME, variant, "main with promotions", sim.edge, method, ref(pid, "promotions"),
                note + "; prizes of seed 004 III §1.8.1-§1.8.4 paid on the hand's stake (A-12)"),
        EdgeRow(GAME, variant, "main without promotions", sim.edge_main, method_main,
                ref(pid, "win"), note),
    ]


def _rules_text(rules: BjRules) -> str:
    parts = [
        "dealer hits soft 17" if rules.dealer_hits_soft17 else "dealer stands on soft 17",
        "hole card, peek on an ace" if rules.hole_card else
        "no hole card (a dealer blackjack takes doubles and splits)",
        {"9_11": "double on 9-11", "9_11_soft": "double on 9-11 soft included",
         "any": "double on any two cards"}[rules.double],
        "double after split" if rules.double_after_split else "no double after split",
        f"up to {rules.max_splits} split(s)",
        "split aces one card" if rules.split_aces_one_card else "split aces played on",
        {"none": "no surrender", "not_vs_ace": "surrender except against an ace",
         "vs_ace_only": "surrender against an ace only", "any": "surrender"}[rules.surrender],
        f"blackjack paid at once: {rules.immediate_pay}",
    ]
    return ", ".join(parts)


def perfect_pairs_edge(decks: int) -> Fraction:
    """Exact: the box's first two cards off a full shoe of `decks` decks."""
    cards = [Card(rank, suit) for suit in SUITS for rank in range(1, 14)]
    n = 52 * decks
    ev = Fraction(0)
    for first in cards:
        for second in cards:
            ways = decks * (decks - 1 if first == second else decks)
            kind = perfect_pairs_kind(first, second)
            ev += Fraction(ways, n * (n - 1)) * (PERFECT_PAIRS[kind][0] if kind else -1)
    return -ev


def insurance_edge(decks: int) -> Fraction:
    """Exact, given the dealer's ace: wins 2:1 when his next card is one of the 16·decks
    tens among the 52·decks − 1 unseen cards (averaged over the players' hands, which by
    symmetry removes nothing else)."""
    p = Fraction(16 * decks, 52 * decks - 1)
    return -(2 * p - (1 - p))


def even_money_edge(decks: int) -> Fraction:
    """Cost of taking 1:1 now instead of waiting, for a blackjack (ace and ten removed) against
    a dealer ace: waiting pays 3:2 unless the dealer's next card is a ten (push)."""
    p_ten = Fraction(16 * decks - 1, 52 * decks - 3)
    return Fraction(3, 2) * (1 - p_ten) - 1


def insurance_ten_edge(decks: int) -> Fraction:
    """CL promotion seed 004 III §1.8.5: pays 5:1 when the dealer's 10 or figure is followed
    by an ace (4·decks aces among 52·decks − 1 unseen cards)."""
    p = Fraction(4 * decks, 52 * decks - 1)
    return -(5 * p - (1 - p))


def _perfect_pairs_row(rules: BjRules) -> EdgeRow:
    return EdgeRow(GAME, "perfect_pairs", "perfect pairs", perfect_pairs_edge(rules.decks),
                   f"exact enumeration of the first two cards of a {rules.decks}-deck shoe",
                   ref(rules.profile.id, "perfect_pairs"), "pays 25:1 / 15:1 / 5:1")


def _insurance_row(rules: BjRules) -> EdgeRow:
    return EdgeRow(GAME, "classic", "insurance", insurance_edge(rules.decks),
                   f"exact, {rules.decks} decks, only the dealer's ace removed",
                   ref(rules.profile.id, "insurance_pay"), "pays 2:1")


def _even_money_row(rules: BjRules) -> EdgeRow:
    return EdgeRow(GAME, "classic", "even money (instead of waiting)",
                   even_money_edge(rules.decks),
                   f"exact, {rules.decks} decks, player's ace and ten and dealer's ace removed",
                   ref(rules.profile.id, "even_money"),
                   "a decision, not a bet: the player's expected loss per unit bet of taking 1:1")


def _insurance_ten_row(rules: BjRules) -> EdgeRow:
    return EdgeRow(GAME, "classic", "insurance against a 10 (promotion)",
                   insurance_ten_edge(rules.decks),
                   f"exact, {rules.decks} decks, only the dealer's 10 removed",
                   ref(rules.profile.id, "promo_insurance_ten"), "pays 5:1")
