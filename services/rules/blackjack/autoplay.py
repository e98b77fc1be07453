"""Play a round from a shoe with a policy and return the request that records it.

Used to generate consistent rounds (property tests, the benchmark, the cross-check of the
simulator against the settlement engine, a floor simulator). The engine itself deals and
checks every decision the policy takes, so a generated request is valid by construction.
"""
from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from services.rules.blackjack.hand import total, value
from services.rules.blackjack.play import PlayerHand, play_round
from services.rules.blackjack.request import Action, BoxInput, parse_request
from services.rules.blackjack.rules import BjRules
from services.rules.blackjack.strategy import DOUBLE, HIT, SURRENDER, Strategy
from services.rules.core.cards import Card

# (hand, dealer up card, legal decisions) -> decision
Policy = Callable[[PlayerHand, Card, tuple[str, ...]], str]


class PolicyDecider:
    """A Decider that asks a policy and records each decision per box."""

    def __init__(self, policy: Policy) -> None:
        self.policy = policy
        self.recorded: dict[int, list[str]] = {}

    def decide(self, box: BoxInput, hand: PlayerHand, legal: tuple[str, ...],
               up: Card) -> Action | None:
        kind = self.policy(hand, up, legal)
        taken = self.recorded.setdefault(box.index, [])
        taken.append(kind)
        return Action(kind, f"boxes[{box.index}].actions[{len(taken) - 1}]")

    def leftover(self, box: BoxInput) -> Action | None:
        return None


def basic_strategy_policy(strategy: Strategy) -> Policy:
    """The simulator's basic strategy; raises if it asks for a decision the engine forbids
    (so the two implementations of the rules are checked against each other)."""
    def decide(hand: PlayerHand, up: Card, legal: tuple[str, ...]) -> str:
        cards, u = hand.cards, value(up)
        ctx = 2 if len(cards) > 2 else (1 if hand.from_split else 0)
        if "split" in legal and strategy.split[ctx, value(cards[0]), u]:
            return "split"
        t = total(cards)
        table = strategy.soft if t.soft else strategy.hard
        code = int(table[ctx, t.best, u])
        kind = {HIT: "hit", DOUBLE: "double", SURRENDER: "surrender"}.get(code, "stand")
        if kind not in legal:
            raise AssertionError(f"strategy wants {kind} with {cards} vs {up}; legal {legal}")
        return kind
    return decide


def random_policy(rng: random.Random, allow: Sequence[str] = ("hit", "stand", "double",
                                                               "split", "surrender")) -> Policy:
    def decide(hand: PlayerHand, up: Card, legal: tuple[str, ...]) -> str:
        return rng.choice([k for k in legal if k in allow] or ["stand"])
    return decide


Offers = Callable[[Mapping[str, Any], Card, bool], Mapping[str, Any]]


def no_offers(box: Mapping[str, Any], up: Card, natural: bool) -> Mapping[str, Any]:
    return {}


def autoplay(base: Mapping[str, Any], shoe: Sequence[Card], rules: BjRules, policy: Policy,
             offers: Offers = no_offers) -> dict[str, Any]:
    """`base`: a request without "cards" and "actions" (boxes with seat and bets). The round
    is dealt from `shoe`; `offers(box, up, natural)` may add insurance / even money fields
    once the first cards are known. Returns the complete request, cards cut to those used."""
    request = {**base, "cards": [str(c) for c in shoe]}
    first = play_round(parse_request(request, rules), rules, PolicyDecider(_stand), True)
    up = first.dealer_hands[0][0]
    naturals = {h.box.seat: h.natural for h in first.hands if h.number == 1}
    boxes = [{**b, **offers(b, up, naturals.get(b["seat"], False))} for b in base["boxes"]]
    request = {**request, "boxes": boxes}
    decider = PolicyDecider(policy)
    played = play_round(parse_request(request, rules), rules, decider, True)
    for i, b in enumerate(boxes):
        b["actions"] = decider.recorded.get(i, [])
    return {**request, "cards": request["cards"][:played.cards_used]}


def _stand(hand: PlayerHand, up: Card, legal: tuple[str, ...]) -> str:
    return "stand"
