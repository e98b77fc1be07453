"""Reading the card sequence as it left the shoe, with the irregularities of domain.md §2.8.

Burned cards (face up, stuck, the dealer's extra card, cards after the round) go to the
discard and count for nothing (seed 002 §2.1.7.1, seed 004 III §1.7). A card picked up from
the floor or seen when lifted stays in play. LIVE-GG has no such events: nobody may remove,
add or alter a card (seed 003 BJ §4.1), so any marked card is an error there.
"""
from __future__ import annotations

from collections.abc import Callable

from services.rules.blackjack.request import TAIL_BURNS, ShoeCard
from services.rules.core.errors import RulesError

_WHY = {
    "face_up": "came out of the shoe face up: burned, the round continues",
    "stuck": "stuck card chosen by the player to be burned",
    "dealer_extra": "dealt by mistake to the dealer who stands: burned",
    "after_round": "drawn after the round ended: burned",
    "refused": "exposed in a dispute and refused by the player: burned",
    "floor": "fell to the floor, shown on both faces, stays in play",
    "seen": "seen when lifted by the dealer, stays in play",
}


class ShoeExhausted(Exception):
    """The sequence ended while the round still needed a card."""

    def __init__(self, needed_for: str) -> None:
        super().__init__(needed_for)
        self.needed_for = needed_for


class Cursor:
    def __init__(self, cards: tuple[ShoeCard, ...], irregularities_allowed: bool,
                 log: Callable[[str], None], irregular_ref: str) -> None:
        self.cards = cards
        self.pos = 0
        self.burned: list[tuple[ShoeCard, str]] = []
        self._log = log
        self._ref = irregular_ref
        if not irregularities_allowed:
            for c in cards:
                if c.irregularity:
                    raise RulesError(f"{c.field}.irregularity", "no card may be removed, added "
                                     "or altered at a live table (seed 003 BJ §4.1)")

    def draw(self, needed_for: str) -> ShoeCard:
        """The next card in play, burning marked cards on the way."""
        while self.pos < len(self.cards):
            entry = self.cards[self.pos]
            if entry.irregularity in TAIL_BURNS:
                raise RulesError(f"{entry.field}.irregularity", f"marked {entry.irregularity} "
                                 f"but the round still needs a card here ({needed_for})")
            self.pos += 1
            if entry.burned:
                self.burn(entry, entry.irregularity or "")
                continue
            if entry.irregularity:
                self._log(f"  {entry.field} {entry.card}: {_WHY[entry.irregularity]} ({self._ref})")
            return entry
        raise ShoeExhausted(needed_for)

    def burn(self, entry: ShoeCard, why: str) -> None:
        self.burned.append((entry, why))
        self._log(f"  {entry.field} {entry.card}: {_WHY[why]} ({self._ref})")

    def has_card_in_play(self) -> bool:
        """Whether a further unmarked card follows (burns before it are skipped)."""
        for entry in self.cards[self.pos:]:
            if entry.irregularity in TAIL_BURNS:
                return False
            if not entry.burned:
                return True
        return False

    def peek(self) -> ShoeCard | None:
        return self.cards[self.pos] if self.pos < len(self.cards) else None

    def take(self) -> ShoeCard:
        entry = self.cards[self.pos]
        self.pos += 1
        return entry

