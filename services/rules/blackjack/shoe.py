"""Shoe procedure checks for the table service: cut-card window and burn cards (domain.md §2.4,
§2.5; C-9, C-10, A-7). The round model itself starts from the cards as they left the shoe."""
from __future__ import annotations

from services.rules.blackjack.rules import BjRules
from services.rules.core.errors import RulesError
from services.rules.core.profiles import declare_switch

declare_switch(
    "bj_cut_card_max", ("104", "156", "160", "4_decks"),
    {"BO": "104", "CL-ARICA": "160", "LIVE-GG": "4_decks"},
    "Cards behind the cut card (C-9). BO seed 002 §2.1.5.1: at least 52 «y como máximo 104 "
    "cartas, equivalentes a dos barajas». CL seed 004 III §1.5.1: «como máximo 160 cartas, "
    "equivalentes a tres barajas» — three decks are 156 (A-7); 160 is the literal default "
    "until a ruling, 156 the other reading. LIVE seed 003 BJ §3.3: «a 4 barajas del fondo».",
)

# seed 002 §2.1.5.1: «debe quemar la primera carta»; seed 004 III §1.5.1: «las cinco primeras
# cartas» and «En los relevos de dealer ... quemaran tres cartas»; seed 003 says nothing.
START_BURN = {"BO": 1, "CL-ARICA": 5}
RELIEF_BURN = {"CL-ARICA": 3}
CSM_MAX_DISCARD_DECKS = 2   # «en el descartador no se acumulen más de 2 barajas» (BO and CL)


def cut_card_window(rules: BjRules) -> tuple[int, int]:
    """(fewest, most) cards allowed behind the cut card."""
    value = rules.profile.switch("bj_cut_card_max")
    if value == "4_decks":
        return 4 * 52, 4 * 52
    return 52, int(value)


def check_cut_card(cards_behind: int, rules: BjRules, field: str = "cut_card") -> None:
    low, high = cut_card_window(rules)
    if not low <= cards_behind <= high:
        raise RulesError(field, f"{cards_behind} cards behind the cut card; {rules.profile.id} "
                         f"allows {low}-{high} (switch bj_cut_card_max)")


def burns_at_start(rules: BjRules, dealer_relief: bool = False) -> int:
    """Cards burned after the cut (or by an incoming dealer, CL only)."""
    table = RELIEF_BURN if dealer_relief else START_BURN
    return table.get(rules.profile.id, 0)


def check_csm_discard(cards_in_discard: int, rules: BjRules, field: str = "discard") -> None:
    """With a continuous shuffler the discard may not hold more than two decks."""
    if cards_in_discard > CSM_MAX_DISCARD_DECKS * 52:
        raise RulesError(field, f"{cards_in_discard} cards in the discard: a continuous "
                         "shuffler must be fed before it holds more than 2 decks "
                         "(seed 002 §2.1.5.1, seed 004 III §1.5.1)")
