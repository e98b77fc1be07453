"""Blackjack: classic, Perfect Pairs and Challenge 21 under the BO, CL-ARICA and LIVE-GG
profiles — a pure round model (boxes, decisions, the card sequence as dealt) settled with a
RuleRef per bet, plus the house edge of every bet. See README.md."""
from services.rules.blackjack import shoe
from services.rules.blackjack.game import BlackjackGame
from services.rules.blackjack.play import play_round
from services.rules.blackjack.request import parse_request
from services.rules.blackjack.rules import BjRules, rules_for
from services.rules.registry import register

GAME = register(BlackjackGame())

__all__ = ["GAME", "BlackjackGame", "BjRules", "rules_for", "parse_request", "play_round",
           "shoe"]
