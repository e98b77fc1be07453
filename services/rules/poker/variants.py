"""The banked poker variants of the seeds: pay tables as printed, qualifiers, card counts.

BO (seed 000 §2.3.7.1.1–.5): Draw, Caribbean, Go, Poker Tres Cartas. CL-ARICA (seed 004 III §3):
Póker ARICA and Póker ARICA Plus (the "Póker Progresivo" variant is ARICA with the progressive
side bet, which any seat may add). Pay ratios are "to 1" (winnings, the stake comes back too).
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from services.rules.core.errors import RulesError
from services.rules.core.refs import RuleRef
from services.rules.poker.hands import CLASS_SHIFT, THREE_SHIFT, HandClass, ThreeCardClass, pack

H, T = HandClass, ThreeCardClass


@dataclass(frozen=True)
class Threshold:
    """A minimum hand: the dealer's qualifier («abre juego») or Go Poker's «Par de 10»."""

    value: int
    text: str


@dataclass(frozen=True)
class VariantSpec:
    name: str
    title: str
    profile: str
    cards: int                       # 5, or 3 for Poker Tres Cartas
    rule: RuleRef                    # the settlement section
    table: Mapping[int, int]         # hand class -> pays "to 1" on the BET (Go: on every stake)
    qualifier: Threshold | None      # dealer must hold at least this to open
    max_discards: int = 0            # Draw: change cards; ARICA Plus: buy one card
    # may carry the progressive side bet (seed 000 §2.5.3, 004 III §6.3)
    progressive: bool = False

    @property
    def three_card(self) -> bool:
        return self.cards == 3

    def hand_class(self, value: int) -> HandClass | ThreeCardClass:
        if self.three_card:
            return ThreeCardClass(value >> THREE_SHIFT)
        return HandClass(value >> CLASS_SHIFT)

    def class_name(self, value: int) -> str:
        return self.hand_class(value).name.lower()

    def class_label(self, value: int) -> str:
        cls = self.hand_class(value)
        return f"{cls.spanish} ({cls.name.lower().replace('_', ' ')})"


def _table(rows: dict) -> Mapping[int, int]:
    return MappingProxyType({int(k): v for k, v in rows.items()})


AK = Threshold(pack(H.HIGH_CARD, [14, 13, 4, 3, 2]), "As-Rey o mayor (ace-king or better)")

VARIANTS: dict[str, VariantSpec] = {v.name: v for v in (
    VariantSpec(
        "draw", "Draw Poker (póker a cinco cartas con descarte)", "BO", 5,
        RuleRef("000", "§2.3.7.1.1"),
        _table({H.PAIR: 1, H.TWO_PAIR: 1, H.THREE_OF_A_KIND: 2, H.STRAIGHT: 3, H.FLUSH: 5,
                H.FULL_HOUSE: 7, H.FOUR_OF_A_KIND: 20, H.STRAIGHT_FLUSH: 50, H.ROYAL_FLUSH: 100}),
        Threshold(pack(H.PAIR, [8, 4, 3, 2]), "un par de ochos o mayor (pair of eights or better)"),
        max_discards=5, progressive=True),
    VariantSpec(
        "caribbean", "Caribbean Poker (póker caribeño, sin descarte)", "BO", 5,
        RuleRef("000", "§2.3.7.1.2"),
        _table({H.HIGH_CARD: 1, H.PAIR: 1, H.TWO_PAIR: 2, H.THREE_OF_A_KIND: 3, H.STRAIGHT: 4,
                H.FLUSH: 5, H.FULL_HOUSE: 7, H.FOUR_OF_A_KIND: 20, H.STRAIGHT_FLUSH: 50,
                H.ROYAL_FLUSH: 100}),
        AK, progressive=True),
    VariantSpec(
        "go", "Go Poker", "BO", 5, RuleRef("000", "§2.3.7.1.4"),
        _table({H.PAIR: 1, H.TWO_PAIR: 2, H.THREE_OF_A_KIND: 3, H.STRAIGHT: 5, H.FLUSH: 8,
                H.FULL_HOUSE: 11, H.FOUR_OF_A_KIND: 50, H.STRAIGHT_FLUSH: 100,
                H.ROYAL_FLUSH: 200}),
        None, progressive=True),
    VariantSpec(
        "three_card", "Poker Tres Cartas (three-card poker)", "BO", 3,
        RuleRef("000", "§2.3.7.1.5"),
        _table({T.PAIR: 1, T.FLUSH: 4, T.STRAIGHT: 6, T.THREE_OF_A_KIND: 25, T.STRAIGHT_FLUSH: 40}),
        Threshold(pack(T.HIGH_CARD, [12, 3, 2], THREE_SHIFT),
                  "Reina o mayor (queen-high or better)")),
    VariantSpec(
        "arica", "Póker ARICA (and Póker Progresivo with the side bet)", "CL-ARICA", 5,
        RuleRef("004", "III §3.5.1"),
        _table({H.HIGH_CARD: 1, H.PAIR: 1, H.TWO_PAIR: 2, H.THREE_OF_A_KIND: 3, H.STRAIGHT: 4,
                H.FLUSH: 5, H.FULL_HOUSE: 7, H.FOUR_OF_A_KIND: 20, H.STRAIGHT_FLUSH: 50,
                H.ROYAL_FLUSH: 100}),
        AK, progressive=True),
)}
VARIANTS["arica_plus"] = VariantSpec(
    "arica_plus", "Póker ARICA Plus (compra de una carta)", "CL-ARICA", 5,
    RuleRef("004", "III §3.5.1"), VARIANTS["arica"].table, AK, max_discards=1, progressive=True)

# Go Poker: «Todas las apuestas menores a Par de 10 son declaradas perdedoras» (seed 000 §2.3.7.1.4)
GO_MINIMUM = Threshold(pack(H.PAIR, [10, 4, 3, 2]), "Par de 10 o mayor (pair of tens or better)")


def get_variant(name: object, profile_id: str) -> VariantSpec:
    mine = sorted(n for n, v in VARIANTS.items() if v.profile == profile_id)
    if not isinstance(name, str) or name not in VARIANTS:
        raise RulesError("variant", f"unknown poker variant {name!r}; profile {profile_id} "
                         f"defines: {', '.join(mine)}")
    spec = VARIANTS[name]
    if spec.profile != profile_id:
        raise RulesError("variant", f"{name!r} is not a banked poker game of profile "
                         f"{profile_id} (it is {spec.profile}'s); {profile_id} defines: "
                         f"{', '.join(mine)}")
    return spec
