"""Parse and validate a poker settlement request into plain domain objects.

Every problem is a RulesError naming the field ("seats[2].cards[4]") and the reason. Cards
are the cards as dealt from ONE 52-card deck (seed 000 §2.3.7.1 irregularities, seed 004 III
§3.4.1 «una baraja americana de 52 cartas»), so a card may appear once in the whole round,
including discarded and bought-out cards. See README.md for the JSON shape and examples.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from services.rules.core.cards import parse_card
from services.rules.core.errors import RulesError
from services.rules.core.money import parse_amount
from services.rules.core.profiles import Profile
from services.rules.poker import switches as sw
from services.rules.poker.evaluator import card_index
from services.rules.poker.limits import PokerLimits, parse_poker_limits
from services.rules.poker.variants import VariantSpec, get_variant

CL_SEATS = 6  # seed 004 III §3.4.1: «seis (6), jugadores sentados»
SEAT_KEYS = {"seat", "cards", "ante", "bet", "fold", "discarded", "go", "progressive", "void"}
ROUND_KEYS = {"id", "game", "profile", "switches", "variant", "dealer", "seats", "void_round",
              "progressive", "limits"}


@dataclass(frozen=True)
class SeatHand:
    seat: int
    cards: tuple[int, ...]          # the final hand, card ints (tables.py)
    discarded: tuple[int, ...]      # Draw: changed cards; ARICA Plus: the card sold back
    ante: int
    bet: int | None                 # None: «no voy» (fold)
    go: tuple[int, ...]             # Go Poker: the stakes of the two «ir» decisions
    progressive: int                # progressive side bet in units (credits), 0 = none
    void: str | None                # irregularity that annuls this hand (stakes returned)
    path: str = "seats[0]"          # where the seat is in the request, for error messages

    @property
    def folded(self) -> bool:
        return self.bet is None and len(self.go) < 2


@dataclass(frozen=True)
class ProgressiveInfo:
    pool: int                       # main pool balance before this round's prizes
    unit_value: int                 # value of one credit («seguro») in minor units


@dataclass(frozen=True)
class PokerRound:
    variant: VariantSpec
    dealer: tuple[int, ...]
    dealer_discarded: tuple[int, ...]
    seats: tuple[SeatHand, ...]
    void: str | None
    progressive: ProgressiveInfo | None
    limits: PokerLimits | None = None


def parse_round(request: Mapping[str, Any], profile: Profile) -> PokerRound:
    _no_unknown(request, ROUND_KEYS, "")
    variant = get_variant(request.get("variant"), profile.id)
    void = _optional_text(request.get("void_round"), "void_round")
    seen: dict[int, str] = {}
    dealer, dealer_out = _parse_dealer(request.get("dealer"), variant, profile, void, seen)
    seats = _parse_seats(request.get("seats"), variant, profile, seen)
    progressive = _parse_progressive(request.get("progressive"))
    limits = parse_poker_limits(request.get("limits"), variant.name, profile)
    return PokerRound(variant, dealer, dealer_out, seats, void, progressive, limits)


def dealer_needed(variant: VariantSpec, profile: Profile) -> bool:
    if variant.name == "go":
        return profile.switch(sw.GO_SETTLEMENT) == "vs_dealer"
    return True


def _parse_dealer(raw: object, variant: VariantSpec, profile: Profile, void: str | None,
                  seen: dict[int, str]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    if raw is None and (void or not dealer_needed(variant, profile)):
        return (), ()
    if not isinstance(raw, Mapping):
        raise RulesError("dealer", "must be an object with the croupier's 'cards'")
    _no_unknown(raw, {"cards", "discarded"}, "dealer.")
    cards = _cards(raw.get("cards"), "dealer.cards", seen, variant.cards if not void else None)
    allowed = variant.max_discards if variant.name == "draw" else 0
    out = _cards(raw.get("discarded", []), "dealer.discarded", seen, None, allowed)
    return cards, out


def _parse_seats(raw: object, variant: VariantSpec, profile: Profile,
                 seen: dict[int, str]) -> tuple[SeatHand, ...]:
    if not isinstance(raw, list) or not raw:
        raise RulesError("seats", "must be a non-empty list of player positions")
    numbers: set[int] = set()
    seats = []
    for i, item in enumerate(raw):
        seat = _parse_seat(item, f"seats[{i}]", variant, profile, seen)
        if seat.seat in numbers:
            raise RulesError(f"seats[{i}].seat", f"seat {seat.seat} appears twice; one hand per "
                             "player per round (seed 000 §2.3.6.3, seed 004 III §3.6.3)")
        numbers.add(seat.seat)
        seats.append(seat)
    return tuple(sorted(seats, key=lambda s: s.seat))


def _parse_seat(raw: object, path: str, variant: VariantSpec, profile: Profile,
                seen: dict[int, str]) -> SeatHand:
    if not isinstance(raw, Mapping):
        raise RulesError(path, "must be an object")
    _no_unknown(raw, SEAT_KEYS, f"{path}.")
    number = _seat_number(raw.get("seat"), f"{path}.seat", profile)
    void = _optional_text(raw.get("void"), f"{path}.void")
    cards = _cards(raw.get("cards"), f"{path}.cards", seen, None if void else variant.cards)
    ante = parse_amount(raw.get("ante"), f"{path}.ante")
    fold = _flag(raw.get("fold"), f"{path}.fold")
    bet, go = _decision(raw, path, variant, profile, ante, fold, void)
    limit = variant.max_discards if bet is not None or variant.name == "draw" else 0
    discarded = _cards(raw.get("discarded", []), f"{path}.discarded", seen, None, limit)
    progressive = _progressive_units(raw.get("progressive"), f"{path}.progressive", variant)
    return SeatHand(number, cards, discarded, ante, bet, go, progressive, void, path)


def _decision(raw: Mapping[str, Any], path: str, variant: VariantSpec, profile: Profile,
              ante: int, fold: bool, void: str | None) -> tuple[int | None, tuple[int, ...]]:
    """The «voy»/«no voy» decision: a BET, or (Go Poker) the two «ir» stakes, or a fold."""
    if variant.name == "go":
        if "bet" in raw:
            raise RulesError(f"{path}.bet", "Go Poker has no BET; give the stakes of the two "
                             "«ir» decisions in 'go'")
        go = raw.get("go", [])
        if not isinstance(go, list) or len(go) > 2:
            raise RulesError(f"{path}.go", "must be a list of at most two stakes (one per «ir»)")
        stakes = tuple(parse_amount(a, f"{path}.go[{j}]") for j, a in enumerate(go))
        if len(stakes) < 2 and not (fold or void):
            raise RulesError(f"{path}.go", "a hand is compared only if the player went both "
                             "times (seed 000 §2.3.7.1.4); give two stakes or set fold: true")
        if fold and len(stakes) == 2:
            raise RulesError(f"{path}.fold", "a player who went both times has not folded")
        return None, stakes
    if "go" in raw:
        raise RulesError(f"{path}.go", f"'go' stakes belong to Go Poker, not {variant.name}")
    if fold:
        if raw.get("bet") is not None:
            raise RulesError(f"{path}.bet", "a player who folds («no voy») places no BET")
        return None, ()
    if raw.get("bet") is None:
        if void:
            return None, ()
        raise RulesError(f"{path}.bet", "required: the BET of a player who goes («voy»), "
                         "or set fold: true («no voy»)")
    bet = parse_amount(raw.get("bet"), f"{path}.bet")
    if profile.switch(sw.BET_SIZE) == "double_ante" and bet != 2 * ante:
        raise RulesError(f"{path}.bet", f"the BET must be twice the ANTE ({2 * ante}), got {bet} "
                         "(seed 004 III §3.5.1 «una apuesta igual al doble de la 1ª apuesta»)")
    return bet, ()


def _cards(raw: object, path: str, seen: dict[int, str], count: int | None,
           max_count: int | None = None) -> tuple[int, ...]:
    if raw is None and count is None:
        return ()
    if not isinstance(raw, list):
        raise RulesError(path, "must be a list of cards such as ['AS', '10H', 'QD']")
    if count is not None and len(raw) != count:
        raise RulesError(path, f"a hand has exactly {count} cards, got {len(raw)} (a hand dealt "
                         "the wrong number is annulled: mark it with 'void' instead)")
    if max_count is not None and len(raw) > max_count:
        what = "no cards may be" if max_count == 0 else f"at most {max_count} cards may be"
        raise RulesError(path, f"{what} discarded or bought in this variant/decision")
    out = []
    for j, text in enumerate(raw):
        index = card_index(parse_card(text, f"{path}[{j}]"))
        if index in seen:
            raise RulesError(f"{path}[{j}]", f"duplicate card {text!r}: already dealt at "
                             f"{seen[index]}; one 52-card deck is in play")
        seen[index] = f"{path}[{j}]"
        out.append(index)
    return tuple(out)


def _seat_number(raw: object, path: str, profile: Profile) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int) or raw < 1:
        raise RulesError(path, "must be a seat number 1, 2, … (1 = the croupier's right hand)")
    if profile.id == "CL-ARICA" and raw > CL_SEATS:
        raise RulesError(path, f"the table has {CL_SEATS} seats (seed 004 III §3.4.1)")
    return raw


def _progressive_units(raw: object, path: str, variant: VariantSpec) -> int:
    if raw is None or raw == 0:
        return 0
    if isinstance(raw, bool) or not isinstance(raw, int) or raw < 0:
        raise RulesError(path, "must be a whole number of progressive credits (units)")
    if not variant.progressive:
        raise RulesError(path, f"{variant.title} does not carry the progressive side bet "
                         "(seed 000 §2.5.3, seed 004 III §6.3)")
    return raw


def _parse_progressive(raw: object) -> ProgressiveInfo | None:
    if raw is None:
        return None
    if not isinstance(raw, Mapping):
        raise RulesError("progressive", "must be an object {'pool': amount, 'unit_value': amount}")
    _no_unknown(raw, {"pool", "unit_value"}, "progressive.")
    return ProgressiveInfo(parse_amount(raw.get("pool"), "progressive.pool", allow_zero=True),
                           parse_amount(raw.get("unit_value"), "progressive.unit_value"))


def _flag(raw: object, path: str) -> bool:
    if raw is None:
        return False
    if not isinstance(raw, bool):
        raise RulesError(path, "must be true or false")
    return raw


def _optional_text(raw: object, path: str) -> str | None:
    if raw is None:
        return None
    if not isinstance(raw, str) or not raw.strip():
        raise RulesError(path, "must be a short text saying which irregularity annuls the hand")
    return raw.strip()


def _no_unknown(raw: Mapping[str, Any], allowed: set[str], prefix: str) -> None:
    for key in raw:
        if key not in allowed:
            raise RulesError(f"{prefix}{key}", f"unknown field; expected one of "
                             f"{', '.join(sorted(allowed))}")
