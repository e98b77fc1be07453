"""Called bets expand into the standard French sector chips (seed 000 §4.1.4.2)."""
from __future__ import annotations

import pytest

from services.rules.core.errors import RulesError
from services.rules.core.profiles import get_profile
from services.rules.core.results import Outcome
from services.rules.roulette import RouletteBet, settle_bets

BO = get_profile("BO")
# the three sectors of the single-zero wheel, read off the wheel independently
VOISINS = {22, 18, 29, 7, 28, 12, 35, 3, 26, 0, 32, 15, 19, 4, 21, 2, 25}
ORPHELINS = {17, 34, 6, 1, 20, 14, 31, 9}
TIERS = {27, 13, 36, 11, 30, 8, 23, 10, 5, 24, 16, 33}
UNITS = {"voisins": 9, "orphelins": 5, "tiers": 6}


def test_the_three_sectors_partition_the_wheel():
    assert set(range(37)) == VOISINS | ORPHELINS | TIERS
    assert len(VOISINS) + len(ORPHELINS) + len(TIERS) == 37


@pytest.mark.parametrize("kind,sector", [("voisins", VOISINS), ("orphelins", ORPHELINS),
                                         ("tiers", TIERS)])
def test_a_called_bet_wins_exactly_on_its_sector(kind, sector):
    bet = RouletteBet(kind, UNITS[kind] * 100)
    for pocket in range(37):
        r = settle_bets(BO, "european", [bet], str(pocket))[0]
        assert (r.outcome is Outcome.WIN) == (pocket in sector), pocket
        assert r.paid == sum(c["paid"] for c in r.extra["components"])


def test_known_payouts():
    # voisins on 0: the 0-2-3 street holds 2 units -> 2 * 12 units returned
    assert settle_bets(BO, "european", [RouletteBet("voisins", 900)], "0")[0].paid == 2400
    # orphelins on 17: two splits (14-17, 17-20) -> 2 * 18 units
    assert settle_bets(BO, "european", [RouletteBet("orphelins", 500)], "17")[0].paid == 3600


WHEEL = [0, 32, 15, 19, 4, 21, 2, 25, 17, 34, 6, 27, 13, 36, 11, 30, 8, 23, 10, 5, 24, 16,
         33, 1, 20, 14, 31, 9, 22, 18, 29, 7, 28, 12, 35, 3, 26]


def test_neighbours_of_every_centre_on_every_pocket():
    for at, centre in enumerate(WHEEL):
        sector = {WHEEL[(at + k) % 37] for k in range(-2, 3)}
        bet = RouletteBet("neighbours", 500, (str(centre),))
        for pocket in range(37):
            r = settle_bets(BO, "european", [bet], str(pocket))[0]
            assert r.paid == (3600 if pocket in sector else 0), (centre, pocket)
    one_side = RouletteBet("neighbours", 300, ("0",), 1)
    assert settle_bets(BO, "european", [one_side], "26")[0].paid == 3600
    assert settle_bets(BO, "european", [one_side], "15")[0].paid == 0


def test_called_bet_amount_must_split_into_equal_units():
    with pytest.raises(RulesError) as err:
        settle_bets(BO, "european", [RouletteBet("voisins", 1000)], "0")
    assert err.value.field == "bets[0].amount" and "9" in err.value.reason


def test_profiles_without_called_bets_reject_them():
    with pytest.raises(RulesError) as err:
        settle_bets(get_profile("LIVE-GG"), "european", [RouletteBet("tiers", 600)], "5")
    assert err.value.field == "bets[0].kind"
