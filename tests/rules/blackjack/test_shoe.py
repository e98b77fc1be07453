"""Cut-card window and burn cards per profile (C-9, C-10, A-7)."""
from __future__ import annotations

import pytest

from services.rules.blackjack.rules import rules_for
from services.rules.blackjack.shoe import (
    burns_at_start,
    check_csm_discard,
    check_cut_card,
    cut_card_window,
)
from services.rules.core.errors import RulesError
from services.rules.core.profiles import get_profile


@pytest.mark.parametrize("profile,window", [("BO", (52, 104)), ("CL-ARICA", (52, 160)),
                                            ("LIVE-GG", (208, 208))])
def test_cut_card_window_per_profile(profile, window):
    rules = rules_for(get_profile(profile))
    assert cut_card_window(rules) == window
    check_cut_card(window[1], rules)
    with pytest.raises(RulesError) as err:
        check_cut_card(window[1] + 1, rules, "shoe.cut_card")
    assert err.value.field == "shoe.cut_card"


def test_cl_three_decks_reading_of_a7():
    rules = rules_for(get_profile("CL-ARICA", {"bj_cut_card_max": "156"}))
    with pytest.raises(RulesError):
        check_cut_card(160, rules)


def test_burn_cards():
    bo, cl, live = (rules_for(get_profile(p)) for p in ("BO", "CL-ARICA", "LIVE-GG"))
    assert (burns_at_start(bo), burns_at_start(cl), burns_at_start(live)) == (1, 5, 0)
    assert (burns_at_start(cl, dealer_relief=True), burns_at_start(bo, True)) == (3, 0)
    check_csm_discard(104, bo)
    with pytest.raises(RulesError):
        check_csm_discard(105, bo)
