"""Parse and check a baccarat settlement request (one JSON object) into a `Round`.

Every error names the request field and the reason (RulesError). Checks that need only the
request live here; checks that need the dealt cards live in coup.py, the chemin-de-fer bank's
in chemin.py.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from services.rules.baccarat.variants import Variant, get_variant
from services.rules.core.cards import Card, parse_cards
from services.rules.core.errors import RulesError
from services.rules.core.limits import TableLimits
from services.rules.core.money import parse_amount
from services.rules.core.profiles import Profile

KINDS = {"player": "Punto", "banker": "Banca", "tie": "Empate"}
COMMON_FIELDS = {"id", "game", "profile", "switches"}
FIELDS = {"variant", "bets", "cards", "limits", "shoe", "punto_choice", "bank", "table_minimum"}
CHEMIN_ONLY = {"punto_choice", "bank", "table_minimum"}


@dataclass(frozen=True)
class Bet:
    index: int          # position in the request's "bets" list
    kind: str           # "player" (Punto), "banker" (Banca) or "tie" (Empate)
    amount: int         # minor units
    seat: int | None    # seat number (online: player number); None = the request's one player

    @property
    def field(self) -> str:
        return f"bets[{self.index}]"


@dataclass(frozen=True)
class Bank:
    """The chemin-de-fer bank (banco) held by the player at `seat` before this round."""

    seat: int
    amount: int
    winnings: int   # the banker's winnings still in the bank (for the voluntary garage)
    garage: int     # voluntary garage the banker asks to take out after this round


@dataclass(frozen=True)
class PuntoChoice:
    seat: int
    draw: bool


@dataclass(frozen=True)
class Round:
    variant: Variant
    bets: tuple[Bet, ...]
    cards: tuple[Card, ...]
    previous_cards: tuple[Card, ...]   # already drawn from this shoe (burned cards included)
    limits: TableLimits | None
    choice: PuntoChoice | None = None
    bank: Bank | None = None
    table_minimum: int | None = None


def parse_round(request: Mapping[str, Any], profile: Profile) -> Round:
    unknown = sorted(set(request) - COMMON_FIELDS - FIELDS)
    if unknown:
        raise RulesError(unknown[0], f"unknown field; a baccarat request has "
                         f"{', '.join(sorted(FIELDS))}")
    variant = get_variant(profile, request.get("variant"))
    chemin = variant.id == "chemin_de_fer"
    if not chemin:
        for name in sorted(CHEMIN_ONLY & set(request)):
            raise RulesError(name, f"only for the chemin_de_fer modality, not {variant.id}")
    bets = _bets(request.get("bets"), variant, profile)
    previous = _previous_cards(request.get("shoe"))
    cards = tuple(parse_cards(request.get("cards"), "cards"))
    _check_counts(previous, cards, variant.decks)
    if chemin:
        if "limits" in request:
            raise RulesError("limits", "chemin de fer uses table_minimum and the bank, whose "
                             "amount is the maximum bet (seed 002 §2.2.5.1)")
        return Round(variant, bets, cards, previous, None,
                     _choice(request.get("punto_choice"), variant),
                     _bank(request.get("bank"), variant), _amount(request, "table_minimum"))
    return Round(variant, bets, cards, previous, _limits(request.get("limits")))


def _amount(obj: Mapping[str, Any], key: str, prefix: str = "", *, required: bool = True,
            allow_zero: bool = False) -> int:
    field = f"{prefix}{key}"
    if key not in obj:
        if required:
            raise RulesError(field, "required")
        return 0
    return parse_amount(obj[key], field, allow_zero=allow_zero)


def _seat(value: object, field: str, variant: Variant) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise RulesError(field, f"must be a seat number >= 1, got {value!r}")
    if variant.seats is not None and value > variant.seats:
        raise RulesError(field, f"seat {value} does not exist: {variant.title} has at most "
                         f"{variant.seats} seats ({variant.rule})")
    return value


def _bet(raw: object, index: int, variant: Variant) -> Bet:
    field = f"bets[{index}]"
    if not isinstance(raw, Mapping):
        raise RulesError(field,
                         "must be an object such as {\"kind\": \"banker\", \"amount\": 1000}")
    extra = sorted(set(raw) - {"kind", "amount", "seat"})
    if extra:
        raise RulesError(f"{field}.{extra[0]}", "unknown field; a bet has kind, amount, seat")
    kind = raw.get("kind")
    if not isinstance(kind, str) or kind not in KINDS:  # a {} is unhashable
        raise RulesError(f"{field}.kind", f"{kind!r} is not a bet; use player (Punto), "
                         "banker (Banca) or tie (Empate)")
    if kind == "tie" and not variant.tie_bet:
        raise RulesError(f"{field}.kind", "there is no tie bet in Baccarat (chemin de fer): a "
                         "tie voids the round (seed 002 §2.2.4.1, §2.2.5.1)")
    seat = _seat(raw["seat"], f"{field}.seat", variant) if "seat" in raw else None
    if seat is None and variant.choice_at_5:
        raise RulesError(f"{field}.seat", "required in chemin de fer (the bank, the Punto "
                         "decider and the bet limits depend on who bets)")
    return Bet(index, kind, _amount(raw, "amount", f"{field}."), seat)


def _bets(raw: object, variant: Variant, profile: Profile) -> tuple[Bet, ...]:
    if not isinstance(raw, list):
        raise RulesError("bets", "required: a list of bets such as "
                         "[{\"kind\": \"banker\", \"amount\": 1000}]")
    bets = tuple(_bet(b, i, variant) for i, b in enumerate(raw))
    if profile.switch("baccarat_bets_per_area") == "one":
        seen: set[tuple[int | None, str]] = set()
        for bet in bets:
            if (bet.seat, bet.kind) in seen:
                raise RulesError(bet.field, f"a second {bet.kind} bet by the same player: one "
                                 "stake per area (seed 003 Bac §2.1.1, domain.md A-30)")
            seen.add((bet.seat, bet.kind))
    if profile.switch("baccarat_tie_needs_main_bet") == "required":
        backed = {b.seat for b in bets if b.kind != "tie"}
        for bet in bets:
            if bet.kind == "tie" and bet.seat not in backed:
                raise RulesError(bet.field, "a tie bet needs a Banca or Punto bet by the same "
                                 f"player (seed {variant.draw_rule.seed} "
                                 f"{variant.draw_rule.section}: "
                                 "«es necesario que se haya efectuado, al menos, una apuesta "
                                 "a la Banca o al Punto»)")
    return bets


def _previous_cards(raw: object) -> tuple[Card, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, Mapping) or set(raw) - {"previous_cards"}:
        raise RulesError("shoe", "must be an object {\"previous_cards\": [cards already drawn "
                         "from this shoe, burned cards included]}")
    return tuple(parse_cards(raw.get("previous_cards", []), "shoe.previous_cards"))


def _check_counts(previous: tuple[Card, ...], cards: tuple[Card, ...], decks: int) -> None:
    """No card can come out of the shoe more often than there are decks in it."""
    seen: Counter[Card] = Counter()
    labelled = [("shoe.previous_cards", c) for c in previous] + [("cards", c) for c in cards]
    for position, (field, card) in enumerate(labelled):
        seen[card] += 1
        if seen[card] > decks:
            index = position if field == "shoe.previous_cards" else position - len(previous)
            raise RulesError(f"{field}[{index}]", f"impossible sequence: {card} appears "
                             f"{seen[card]} times but a {decks}-deck shoe holds only {decks}")


def _limits(raw: object) -> TableLimits | None:
    if raw is None:
        return None
    if not isinstance(raw, Mapping):
        raise RulesError("limits", "must be an object {\"minimum\": ..., \"maximum\": ...}")
    return TableLimits(_amount(raw, "minimum", "limits.", allow_zero=True),
                       _amount(raw, "maximum", "limits."))


def _choice(raw: object, variant: Variant) -> PuntoChoice | None:
    if raw is None:
        return None
    if not isinstance(raw, Mapping) or raw.get("decision") not in ("draw", "stand"):
        raise RulesError("punto_choice",
                         "must be {\"seat\": n, \"decision\": \"draw\" | \"stand\"}")
    return PuntoChoice(_seat(raw.get("seat"), "punto_choice.seat", variant),
                       raw["decision"] == "draw")


def _bank(raw: object, variant: Variant) -> Bank:
    if not isinstance(raw, Mapping):
        raise RulesError("bank", "required in chemin de fer: {\"seat\": n, \"amount\": ..., "
                         "\"winnings\": ..., \"garage\": ...}")
    bank = Bank(_seat(raw.get("seat"), "bank.seat", variant), _amount(raw, "amount", "bank."),
                _amount(raw, "winnings", "bank.", required=False, allow_zero=True),
                _amount(raw, "garage", "bank.", required=False, allow_zero=True))
    if bank.winnings > bank.amount:
        raise RulesError("bank.winnings", f"{bank.winnings} exceeds the bank {bank.amount}")
    return bank
