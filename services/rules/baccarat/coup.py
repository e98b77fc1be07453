"""One round (pase / coup) played from the cards as dealt, checked against the drawing table.

Order of dealing (seed 002 §2.2.5.1, seed 004 III §2.5, seed 003 Bac §3.4.3): the 1st and 3rd
cards are Punto's, the 2nd and 4th Banca's; then Punto's third card if Punto draws, then
Banca's. A sequence that does not fit the table (a third card where the table says stand, or a
missing one) is impossible and rejected, naming the card's position.
"""
from __future__ import annotations

from dataclasses import dataclass

from services.rules.baccarat import tableau
from services.rules.baccarat.variants import Variant
from services.rules.core.cards import Card
from services.rules.core.errors import RulesError

PLAYER, BANKER, TIE = "player", "banker", "tie"
HAND_NAME = {PLAYER: "Punto", BANKER: "Banca"}


@dataclass(frozen=True)
class Coup:
    punto: tuple[Card, ...]
    banca: tuple[Card, ...]
    punto_total: int
    banca_total: int
    natural: bool
    winner: str                  # PLAYER, BANKER or TIE
    steps: tuple[str, ...]       # what happened, card by card, for explain()

    @property
    def cards_used(self) -> int:
        return len(self.punto) + len(self.banca)


def _describe(card: Card) -> str:
    return f"{card} (value {tableau.point(card)})"


def _initial_steps(cards: list[Card], p: int, b: int) -> list[str]:
    return [
        f"cards[0] {_describe(cards[0])} -> Punto, cards[1] {_describe(cards[1])} -> Banca, "
        f"cards[2] {_describe(cards[2])} -> Punto, cards[3] {_describe(cards[3])} -> Banca "
        "(1st and 3rd to Punto, 2nd and 4th to Banca)",
        f"two-card totals: Punto {p}, Banca {b} (units digit only)",
    ]


def _punto_decision(p: int, variant: Variant, choice: bool | None) -> tuple[bool, str]:
    """Whether Punto draws and the row of the table that says so."""
    at_choice = variant.choice_at_5 and p == 5
    if at_choice and choice is None:
        raise RulesError("punto_choice", "Punto has 5 in Baccarat (chemin de fer): the player "
                         "with the largest Punto bet decides to draw or stand (seed 002 "
                         "§2.2.5.1 «Pedida de cartas»); give punto_choice")
    if choice is not None and not at_choice:
        raise RulesError("punto_choice", f"not applicable: Punto has {p}; only a 5 in chemin "
                         "de fer is left to a player's choice")
    draws = tableau.punto_draws(p, choice if at_choice else None)
    if at_choice:
        row = f"Punto 5 in chemin de fer: the decider chose to {'draw' if draws else 'stand'}"
    elif draws:
        row = f"Punto table row '{'0-4' if p <= 4 else '5'}': Punto {p} must draw"
    else:
        row = f"Punto table row '6-7': Punto {p} stands"
    return draws, row


def _take(cards: list[Card], index: int, who: str, why: str) -> Card:
    if index >= len(cards):
        raise RulesError("cards", f"{who} must draw a third card ({why}) but only "
                         f"{len(cards)} cards were given")
    return cards[index]


def play(cards: list[Card], variant: Variant, choice: bool | None = None) -> Coup:
    """Play the round `cards` describes; `choice` is the chemin-de-fer decision at Punto 5."""
    if len(cards) < 4:
        raise RulesError("cards", "a round needs at least 4 cards (two per hand); "
                                  f"got {len(cards)}")
    punto, banca = [cards[0], cards[2]], [cards[1], cards[3]]
    p = tableau.total([tableau.point(c) for c in punto])
    b = tableau.total([tableau.point(c) for c in banca])
    steps = _initial_steps(cards, p, b)
    natural = tableau.is_natural(p, b)
    if natural:
        if choice is not None:
            raise RulesError("punto_choice", "not applicable: the round ended on a natural")
        who = " and ".join(f"{name} {t}" for name, t in (("Punto", p), ("Banca", b))
                           if t in tableau.NATURALS)
        steps.append(f"natural ({who}): both hands stand, no third card («Natural. El punto "
                     "y la banca se plantan. Juego finalizado.»)")
        return _finish(cards, 4, punto, banca, p, b, True, steps)
    used = 4
    draws, row = _punto_decision(p, variant, choice)
    steps.append(row)
    punto_third: int | None = None
    if draws:
        card = _take(cards, used, "Punto", row)
        punto.append(card)
        punto_third = tableau.point(card)
        p = tableau.total([tableau.point(c) for c in punto])
        steps.append(f"cards[{used}] {_describe(card)} -> Punto's third card; Punto now {p}")
        used += 1
    banca_row = tableau.banca_row_text(b, punto_third)
    steps.append(banca_row)
    if tableau.banca_draws(b, punto_third):
        card = _take(cards, used, "Banca", banca_row)
        banca.append(card)
        b = tableau.total([tableau.point(c) for c in banca])
        steps.append(f"cards[{used}] {_describe(card)} -> Banca's third card; Banca now {b}")
        used += 1
    return _finish(cards, used, punto, banca, p, b, False, steps)


def _finish(cards: list[Card], used: int, punto: list[Card], banca: list[Card], p: int, b: int,
            natural: bool, steps: list[str]) -> Coup:
    if len(cards) > used:
        raise RulesError(f"cards[{used}]", f"impossible sequence: {cards[used]} was given but the "
                         f"drawing table ends the round after {used} cards "
                         f"(Punto {p}, Banca {b}; {steps[-1]})")
    winner = PLAYER if p > b else BANKER if b > p else TIE
    verdict = (f"tie {p} a {b}" if winner == TIE else
               f"gana {'punto' if winner == PLAYER else 'banca'} {max(p, b)} a {min(p, b)}")
    steps.append(f"result: {verdict} (the hand nearer to 9 wins)")
    return Coup(tuple(punto), tuple(banca), p, b, natural, winner, tuple(steps))
