"""The blackjack rules of one profile, read once from its switches into typed fields.

Switches on which some profile is silent (refused card, incomplete round, undealt box,
malfunction, Perfect Pairs limits) are read lazily through `profile.switch` where they are
needed, so a request that never needs them settles under any profile.
"""
from __future__ import annotations

from dataclasses import dataclass

from services.rules.blackjack import switches as _switches  # noqa: F401  (declares switches)
from services.rules.core.errors import RulesError
from services.rules.core.money import Rounding
from services.rules.core.profiles import Profile

VARIANTS = ("classic", "perfect_pairs", "challenge21")
BLACKJACK_PROFILES = frozenset({"BO", "CL-ARICA", "LIVE-GG"})
C21_DECKS = 8   # seed 002 §2.1.4.1: «para el Challenge 21, se utilizarán 8 barajas»
C21_SEATS = 6   # seed 002 §2.1.4.1: «hasta seis (6) jugadores ... Challenge 21»


@dataclass(frozen=True)
class BjRules:
    profile: Profile
    variant: str
    dealer_hits_soft17: bool
    hole_card: bool
    immediate_pay: str
    double: str
    double_after_split: bool
    max_splits: int
    resplit_aces: bool
    split_aces_one_card: bool
    split_deal_both: bool
    surrender: str
    insurance_exact: bool
    even_money: bool
    moot_must_stop: bool
    irregular_cards: bool
    decks: int
    seats: int
    max_boxes: int
    multibox: str
    promotions: bool
    rounding: Rounding

    @property
    def challenge21(self) -> bool:
        return self.variant == "challenge21"

    @property
    def perfect_pairs(self) -> bool:
        return self.variant == "perfect_pairs"

    def lazy(self, switch: str, field: str) -> str:
        """A switch some profile is silent on; the error names the request field that needs it."""
        try:
            return self.profile.switch(switch)
        except RulesError as err:
            raise RulesError(field, err.reason) from None


def rules_for(profile: Profile, variant: str = "classic") -> BjRules:
    if profile.id not in BLACKJACK_PROFILES:
        raise RulesError("profile", f"profile {profile.id} does not define blackjack")
    if variant not in VARIANTS:
        raise RulesError("variant", f"unknown variant {variant!r}; one of {', '.join(VARIANTS)}")
    if variant == "challenge21" and profile.id != "BO":
        raise RulesError("variant", "Challenge 21 is defined only by seed 002 §2.1.3.2 (BO)")
    if variant == "perfect_pairs" and profile.id == "LIVE-GG":
        raise RulesError("variant", "seed 003 (LIVE-GG) has no Perfect Pairs side bet")
    s = profile.switch
    c21 = variant == "challenge21"
    seats = int(s("bj_seats"))
    return BjRules(
        profile=profile, variant=variant,
        dealer_hits_soft17=s("bj_dealer_soft17") == "hit",
        hole_card=s("bj_hole_card") == "peek_ace",
        immediate_pay=s("bj_immediate_pay"),
        double=s("bj_double"),
        double_after_split=s("bj_double_after_split") == "yes",
        max_splits=int(s("bj_max_splits")),
        resplit_aces=s("bj_resplit_aces") == "yes",
        split_aces_one_card=s("bj_split_aces") == "one_card",
        split_deal_both=s("bj_split_deal") == "both_at_once",
        surrender=s("bj_surrender"),
        insurance_exact=s("bj_insurance") == "exactly_half",
        even_money=s("bj_even_money") == "offered",
        moot_must_stop=s("bj_moot_draw") == "must_stop",
        irregular_cards=s("bj_irregular_cards") == "burn",
        decks=C21_DECKS if c21 else int(s("bj_decks")),
        seats=C21_SEATS if c21 else seats,
        max_boxes=1 if c21 else _max_boxes(s("bj_max_boxes"), seats),
        multibox=s("bj_multibox_stakes"),
        promotions=s("bj_promotions") == "on",
        rounding=profile.rounding,
    )


def _max_boxes(value: str, seats: int) -> int:
    return seats if value == "seats" else int(value)
