"""A Treinta y Cuarenta request (one decoded JSON line) parsed into domain objects.

{"game": "trente_quarante", "profile": "BO", "decks": 6,
 "dealt_before": ["KS", ...],           # optional: cards already out of this shoe
 "cards": ["KS", "9H", "7C", ...],      # this coup, in the order dealt: NEGRO row, then ROJO
 "bets": [{"id": "b1", "kind": "rojo", "amount": 1000},
          {"id": "b2", "kind": "negro", "amount": 500, "imprisoned": true, "insured": true},
          {"id": "b3", "kind": "color", "amount": 400, "imprisoned": true, "surrender": true}],
 "limits": {"minimum": 500, "maximum": 50000}}   # optional: the table's limits, every box
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from services.rules.core.cards import Card, check_shoe_counts, parse_cards
from services.rules.core.errors import FieldError, RulesError
from services.rules.core.fields import check_bet_object
from services.rules.core.limits import TableLimits, parse_table_limits
from services.rules.core.money import parse_amount
from services.rules.trente_quarante.coup import Coup, deal
from services.rules.trente_quarante.rules import KINDS

DECKS = (6, 7, 8)  # «Se usan de 6 a 8 barajas de 52 cartas» (seed 000 §2.4.3.1)
BET_FIELDS = ("id", "kind", "amount", "imprisoned", "insured", "surrender")


@dataclass(frozen=True)
class TQBet:
    id: str
    kind: str
    amount: int
    imprisoned: bool = False  # blocked by an earlier 31 tie, «en prisión»
    insured: bool = False     # the 1 % «seguro» is paid for this coup
    surrender: bool = False   # give up half now instead of waiting (option a)

    def to_state(self) -> dict[str, Any]:
        return {"id": self.id, "kind": self.kind, "amount": self.amount, "imprisoned": True}


@dataclass(frozen=True)
class TQRequest:
    decks: int
    coup: Coup | None   # None when every bet surrenders before any card
    cards: tuple[Card, ...]
    bets: tuple[TQBet, ...]
    limits: TableLimits | None = None


def _flag(raw: Mapping[str, Any], name: str) -> bool:
    value = raw.get(name, False)
    if not isinstance(value, bool):
        raise RulesError(name, "must be true or false")
    return value


def parse_bet(raw_bet: object, default_id: str) -> TQBet:
    raw = check_bet_object(raw_bet, BET_FIELDS)
    if not isinstance(raw.get("kind"), str) or raw.get("kind") not in KINDS:  # {} unhashable
        raise RulesError("kind", f"one of {', '.join(KINDS)}; got {raw.get('kind')!r}")
    bet_id = raw.get("id", default_id)
    if not isinstance(bet_id, str) or not bet_id:
        raise RulesError("id", "must be a non-empty string")
    imprisoned, insured, surrender = (_flag(raw, n) for n in ("imprisoned", "insured", "surrender"))
    if (insured or surrender) and not imprisoned:
        raise RulesError("insured" if insured else "surrender",
                         "only a bet in prison (blocked by a 31 tie) can be insured or surrendered")
    if insured and surrender:
        raise RulesError("insured", "a surrendered bet is settled before the coup: no insurance")
    return TQBet(bet_id, raw["kind"], parse_amount(raw.get("amount"), "amount"),
                 imprisoned, insured, surrender)


def _bets(raw: object) -> tuple[TQBet, ...]:
    if not isinstance(raw, list):
        raise RulesError("bets", "required: a list of bets")
    bets, errors = [], []
    for i, item in enumerate(raw):
        try:
            bets.append(parse_bet(item, f"b{i}"))
        except RulesError as err:
            errors += err.prefixed(f"bets[{i}]").errors
    ids = [b.id for b in bets]
    errors += [FieldError(f"bets[{i}].id", f"duplicate bet id {b.id!r}")
               for i, b in enumerate(bets) if ids.index(b.id) != i]
    if errors:
        raise RulesError(errors=errors)
    return tuple(bets)


def _decks(request: Mapping[str, Any]) -> int:
    decks = request.get("decks")
    if isinstance(decks, bool) or decks not in DECKS:
        raise RulesError("decks", "required: the number of decks in the shoe, 6 to 8 (seed 000 "
                         f"§2.4.3.1 «Se usan de 6 a 8 barajas»); got {decks!r}")
    return decks


def _coup(request: Mapping[str, Any], decks: int, needed: bool
          ) -> tuple[Coup | None, tuple[Card, ...]]:
    raw = request.get("cards")
    if raw is None and not needed:
        return None, ()
    cards = parse_cards(raw, "cards")
    before = parse_cards(request.get("dealt_before", []), "dealt_before")
    paths = [f"dealt_before[{i}]" for i in range(len(before))]
    paths += [f"cards[{i}]" for i in range(len(cards))]
    check_shoe_counts(before + cards, decks, "cards", paths)
    return deal(cards, "cards"), tuple(cards)


def parse_request(request: Mapping[str, Any]) -> TQRequest:
    errors: list[FieldError] = []
    decks: int | None = None
    bets: tuple[TQBet, ...] = ()
    try:
        decks = _decks(request)
    except RulesError as err:
        errors += err.errors
    try:
        bets = _bets(request.get("bets"))
    except RulesError as err:
        errors += err.errors
    limits = None
    try:
        if request.get("limits") is not None:
            limits = parse_table_limits(request["limits"], "limits")
    except RulesError as err:
        errors += err.errors
    if errors or decks is None:
        raise RulesError(errors=errors)
    needed = not bets or any(not b.surrender for b in bets)
    coup, cards = _coup(request, decks, needed)
    return TQRequest(decks, coup, cards, bets, limits)
