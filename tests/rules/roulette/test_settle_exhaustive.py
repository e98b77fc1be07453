"""Every valid instance of every bet kind against every pocket of every wheel, per profile,
checked against the independent oracle (coverage sets and pay tables written in the test)."""
from __future__ import annotations

from fractions import Fraction

import pytest

from services.rules.core.profiles import get_profile
from services.rules.core.results import Outcome
from services.rules.roulette import RouletteBet, settle_bets
from tests.rules.roulette import oracle

STAKE = 1000  # every payout is whole at this stake, so rounding cannot hide an error


def all_bets(profile_id: str, wheel: str | None = None) -> list[tuple[RouletteBet, set[str]]]:
    wheel = wheel or oracle.WHEEL[profile_id]
    out = []
    for kind in oracle.PAYS[profile_id]:
        if kind in ("straight", "split", "street", "corner", "six_line", "five_number"):
            for g in oracle.groups(wheel, kind):
                out.append((RouletteBet(kind, STAKE, tuple(sorted(g))), set(g)))
        elif kind in oracle.EVEN:
            out.append((RouletteBet(kind, STAKE), oracle.outside(kind, None)))
        else:
            for i in ((1, 2) if "two" in kind else (1, 2, 3)):
                out.append((RouletteBet(kind, STAKE, (), i), oracle.outside(kind, i)))
    return out


def expected(profile_id: str, kind: str, covered: set[str], pocket: str) -> tuple[int, Outcome]:
    if pocket in covered:
        return STAKE + int(STAKE * Fraction(oracle.PAYS[profile_id][kind])), Outcome.WIN
    if pocket in ("0", "00") and kind in oracle.EVEN and profile_id == "BO":
        return STAKE // 2, Outcome.HALF_BACK  # seed 000 §4.1.4.2 item 11 a), BO default
    return 0, Outcome.LOSE


@pytest.mark.parametrize("profile_id,wheel", oracle.PROFILE_WHEELS)
def test_every_bet_on_every_pocket(profile_id, wheel):
    profile = get_profile(profile_id)
    bets = all_bets(profile_id, wheel)
    counts = {k: sum(b.kind == k for b, _ in bets) for k in oracle.PAYS[profile_id]}
    if wheel != "american":  # every single-zero layout
        assert (counts["straight"], counts["split"], counts["street"], counts["corner"],
                counts["six_line"]) == (37, 60, 14, 23, 11)
    checked = 0
    for pocket in oracle.pockets(wheel):
        results = settle_bets(profile, wheel, [b for b, _ in bets], pocket)
        for (bet, covered), result in zip(bets, results):
            assert (result.paid, result.outcome) == expected(profile_id, bet.kind, covered,
                                                             pocket), (bet, pocket)
            assert result.stake == STAKE and result.rule.seed in profile.seeds
            checked += 1
    assert checked == len(bets) * len(oracle.pockets(wheel))
