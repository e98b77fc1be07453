"""Parse a blackjack request (one JSON object) into typed inputs; errors name the field.

Shape checks only (types, ranges, known words). Whether a decision is allowed by the cards
is decided while playing the round (play.py); stake limits in stakes.py.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from services.rules.blackjack.rules import BjRules
from services.rules.core.cards import Card, check_shoe_counts, parse_card
from services.rules.core.errors import RulesError
from services.rules.core.limits import TableLimits
from services.rules.core.money import parse_amount

ACTIONS = ("hit", "stand", "double", "split", "surrender", "refuse")
# Card irregularities of domain.md §2.8 (seed 002 §2.1.7.1, seed 004 III §1.7).
BURNS = ("face_up", "stuck", "dealer_extra", "after_round")
IN_PLAY_NOTES = ("floor", "seen")
IRREGULARITIES = BURNS + IN_PLAY_NOTES
TAIL_BURNS = ("dealer_extra", "after_round")


@dataclass(frozen=True)
class Action:
    kind: str
    field: str
    amount: int | None = None   # a LIVE double for less than the original stake


@dataclass(frozen=True)
class ShoeCard:
    card: Card
    field: str
    irregularity: str | None = None

    @property
    def burned(self) -> bool:
        return self.irregularity in BURNS


@dataclass(frozen=True)
class BoxInput:
    index: int                    # position in request["boxes"]: error fields use it
    seat: int
    player: str
    stakes: tuple[int, ...]       # one per round: 1 (classic) or 2-3 (Challenge 21)
    perfect_pairs: int
    insurance: tuple[int, ...]    # per round, 0 = not insured
    insurance_ten: int            # CL promotion seed 004 III §1.8.5
    even_money: bool
    actions: tuple[Action, ...]
    dealt: bool

    @property
    def field(self) -> str:
        return f"boxes[{self.index}]"


@dataclass(frozen=True)
class RoundInput:
    boxes: tuple[BoxInput, ...]   # sorted by seat: the dealing order
    cards: tuple[ShoeCard, ...]
    limits: TableLimits | None
    incomplete: bool              # CL: cut card never inserted, round could not finish
    void_malfunction: bool        # LIVE: system malfunction


def parse_request(request: Mapping[str, Any], rules: BjRules) -> RoundInput:
    _no_unknown(request, {"id", "game", "profile", "switches", "variant", "limits", "boxes",
                          "cards", "incomplete", "void"}, "")
    boxes_raw = request.get("boxes")
    if not isinstance(boxes_raw, list) or not boxes_raw:
        raise RulesError("boxes", "must be a non-empty list of boxes")
    boxes = tuple(sorted((_box(b, i, rules) for i, b in enumerate(boxes_raw)),
                         key=lambda b: b.seat))
    _distinct_seats(boxes)
    cards = _cards(request.get("cards"), rules)
    return RoundInput(boxes, cards, _limits(request.get("limits")),
                      _flag(request, "incomplete", "cut_card_missing"),
                      _flag(request, "void", "malfunction"))


def _no_unknown(obj: Mapping[str, Any], known: set[str], prefix: str) -> None:
    for key in obj:
        if key not in known:
            where = f"{prefix}.{key}" if prefix else str(key)
            raise RulesError(where, f"unknown field; known: {', '.join(sorted(known))}")


def _flag(request: Mapping[str, Any], name: str, word: str) -> bool:
    value = request.get(name)
    if value is None:
        return False
    if value != word:
        raise RulesError(name, f"must be {word!r} when present")
    return True


def _limits(raw: object) -> TableLimits | None:
    if raw is None:
        return None
    if not isinstance(raw, Mapping):
        raise RulesError("limits", "must be an object {minimum, maximum}")
    _no_unknown(raw, {"minimum", "maximum"}, "limits")
    return TableLimits(parse_amount(raw.get("minimum"), "limits.minimum", allow_zero=True),
                       parse_amount(raw.get("maximum"), "limits.maximum"))


def _box(raw: object, index: int, rules: BjRules) -> BoxInput:
    field = f"boxes[{index}]"
    if not isinstance(raw, Mapping):
        raise RulesError(field, "must be an object")
    _no_unknown(raw, {"seat", "player", "bet", "bets", "perfect_pairs", "insurance",
                      "insurance_ten", "even_money", "actions", "dealt"}, field)
    seat = raw.get("seat")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= rules.seats:
        raise RulesError(f"{field}.seat", f"must be a seat number 1-{rules.seats} "
                         f"(the {rules.profile.id} layout has {rules.seats} boxes)")
    player = raw.get("player", f"seat {seat}")
    if not isinstance(player, str) or not player:
        raise RulesError(f"{field}.player", "must be a non-empty string")
    stakes = _stakes(raw, field, rules)
    return BoxInput(
        index=index, seat=seat, player=player, stakes=stakes,
        perfect_pairs=_optional_amount(raw, "perfect_pairs", field),
        insurance=_insurance(raw.get("insurance"), f"{field}.insurance", len(stakes), rules),
        insurance_ten=_optional_amount(raw, "insurance_ten", field),
        even_money=_bool(raw, "even_money", field, False),
        actions=_actions(raw.get("actions", []), f"{field}.actions"),
        dealt=_bool(raw, "dealt", field, True),
    )


def _stakes(raw: Mapping[str, Any], field: str, rules: BjRules) -> tuple[int, ...]:
    if rules.challenge21:
        if "bet" in raw:
            raise RulesError(f"{field}.bet", "Challenge 21 takes 'bets': two or three stakes, "
                             "one per dealer hand (seed 002 §2.1.3.2)")
        bets = raw.get("bets")
        if not isinstance(bets, list) or not 2 <= len(bets) <= 3:
            raise RulesError(f"{field}.bets", "Challenge 21 needs two or three bets «en ningún "
                             "caso menos de dos» (seed 002 §2.1.3.2)")
        return tuple(parse_amount(b, f"{field}.bets[{i}]") for i, b in enumerate(bets))
    if "bets" in raw:
        raise RulesError(f"{field}.bets", "only Challenge 21 takes several bets; use 'bet'")
    return (parse_amount(raw.get("bet"), f"{field}.bet"),)


def _optional_amount(raw: Mapping[str, Any], name: str, field: str) -> int:
    return parse_amount(raw[name], f"{field}.{name}", allow_zero=True) if name in raw else 0


def _bool(raw: Mapping[str, Any], name: str, field: str, default: bool) -> bool:
    value = raw.get(name, default)
    if not isinstance(value, bool):
        raise RulesError(f"{field}.{name}", "must be true or false")
    return value


def _insurance(raw: object, field: str, rounds: int, rules: BjRules) -> tuple[int, ...]:
    if raw is None:
        return (0,) * rounds
    if rules.challenge21:
        # seed 002 §2.1.5.3 c: «debe elegir la o las manos del croupier contra las cuales se
        # asegura»
        if not isinstance(raw, list) or len(raw) != rounds:
            raise RulesError(field, f"Challenge 21 insurance is a list with one amount per "
                             f"dealer hand ({rounds}), 0 where not insured")
        return tuple(parse_amount(a, f"{field}[{i}]", allow_zero=True) for i, a in enumerate(raw))
    return (parse_amount(raw, field, allow_zero=True),)


def _actions(raw: object, field: str) -> tuple[Action, ...]:
    if not isinstance(raw, list):
        raise RulesError(field, f"must be a list of decisions ({', '.join(ACTIONS)})")
    return tuple(_action(a, f"{field}[{i}]") for i, a in enumerate(raw))


def _action(raw: object, field: str) -> Action:
    if isinstance(raw, Mapping) and set(raw) == {"double"}:
        return Action("double", field, parse_amount(raw["double"], f"{field}.double"))
    if not isinstance(raw, str) or raw.lower() not in ACTIONS:
        raise RulesError(field, f"unknown decision {raw!r}; one of {', '.join(ACTIONS)} "
                         "(or {\"double\": amount} to double for less where allowed)")
    return Action(raw.lower(), field)


def _cards(raw: object, rules: BjRules) -> tuple[ShoeCard, ...]:
    if not isinstance(raw, list):
        raise RulesError("cards", "must be the list of cards as they left the shoe, e.g. "
                         "['10H', 'AS', {'card': '5D', 'irregularity': 'face_up'}]")
    cards = tuple(_shoe_card(c, f"cards[{i}]") for i, c in enumerate(raw))
    check_shoe_counts((c.card for c in cards), rules.decks, "cards")
    return cards


def _shoe_card(raw: object, field: str) -> ShoeCard:
    if isinstance(raw, Mapping):
        _no_unknown(raw, {"card", "irregularity"}, field)
        kind = raw.get("irregularity")
        if kind not in IRREGULARITIES:
            raise RulesError(f"{field}.irregularity",
                             f"must be one of {', '.join(IRREGULARITIES)}")
        return ShoeCard(parse_card(raw.get("card"), f"{field}.card"), field, kind)
    return ShoeCard(parse_card(raw, field), field)


def _distinct_seats(boxes: tuple[BoxInput, ...]) -> None:
    seen: dict[int, BoxInput] = {}
    for box in boxes:
        if box.seat in seen:
            first, second = sorted((seen[box.seat].index, box.index))
            raise RulesError(f"boxes[{second}].seat",
                             f"seat {box.seat} is already taken by boxes[{first}]")
        seen[box.seat] = box
