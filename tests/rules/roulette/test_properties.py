"""Property tests: payouts never negative, money conserved, order does not matter."""
from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from services.rules.core.limits import TableLimits
from services.rules.core.profiles import get_profile
from services.rules.core.results import Outcome
from services.rules.roulette import RouletteBet, settle_bets
from tests.rules.roulette import oracle

PROFILES = ["BO", "AR-RUL", "CL-ARICA", "LIVE-GG"]


@st.composite
def bets(draw, profile_id: str):
    wheel = oracle.WHEEL[profile_id]
    kind = draw(st.sampled_from(sorted(oracle.PAYS[profile_id])))
    amount = draw(st.integers(1, 10**9))
    if kind in oracle.EVEN:
        return RouletteBet(kind, amount)
    if kind in ("dozen", "column", "two_dozens", "two_columns"):
        return RouletteBet(kind, amount, (), draw(st.sampled_from(
            (1, 2) if "two" in kind else (1, 2, 3))))
    group = draw(st.sampled_from(sorted(sorted(g) for g in oracle.groups(wheel, kind))))
    return RouletteBet(kind, amount, tuple(group))


@st.composite
def rounds(draw):
    profile_id = draw(st.sampled_from(PROFILES))
    wheel = oracle.WHEEL[profile_id]
    layout = draw(st.lists(bets(profile_id), min_size=1, max_size=12))
    pocket = draw(st.sampled_from(oracle.pockets(wheel)))
    limits = None
    if profile_id != "LIVE-GG" and draw(st.booleans()):
        limits = TableLimits(1, draw(st.integers(1, 10**9)))
    return get_profile(profile_id), wheel, layout, pocket, limits


@settings(max_examples=150, deadline=None)
@given(rounds())
def test_payouts_are_never_negative_nor_above_the_best_return(round_):
    profile, wheel, layout, pocket, limits = round_
    for bet, r in zip(layout, settle_bets(profile, wheel, layout, pocket, limits)):
        assert 0 <= r.paid <= bet.amount * 36 + r.excess_returned
        assert r.excess_returned <= r.paid


@settings(max_examples=150, deadline=None)
@given(rounds())
def test_money_is_conserved(round_):
    """Without limits every unit staked is either returned with its winnings or kept by the
    house: paid == stake * (1 + ratio) on a win, 0 on a loss, half (rounded) on half back."""
    profile, wheel, layout, pocket, _ = round_
    for bet, r in zip(layout, settle_bets(profile, wheel, layout, pocket)):
        ratio = Fraction(oracle.PAYS[profile.id][bet.kind])
        expected = {Outcome.WIN: bet.amount * (1 + ratio), Outcome.LOSE: 0,
                    Outcome.HALF_BACK: Fraction(bet.amount, 2)}[r.outcome]
        assert r.paid == int(expected) and r.stake == bet.amount
        assert r.net == r.paid - r.stake


@settings(max_examples=120, deadline=None)
@given(rounds(), st.randoms(use_true_random=False))
def test_settlement_does_not_depend_on_bet_order(round_, rnd):
    profile, wheel, layout, pocket, limits = round_
    order = list(range(len(layout)))
    rnd.shuffle(order)
    straight = settle_bets(profile, wheel, layout, pocket, limits)
    shuffled = settle_bets(profile, wheel, [layout[i] for i in order], pocket, limits)
    assert [straight[i] for i in order] == shuffled
