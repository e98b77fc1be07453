"""Shared core of the rules engine: money, rule references, errors, profiles, limits, cards.

Everything here is pure (no I/O, no Kafka). Game modules build on it.
"""
from services.rules.core.cards import Card, check_shoe_counts, parse_card, parse_cards
from services.rules.core.errors import FieldError, RulesError
from services.rules.core.limits import LimitOutcome, TableLimits, apply_limits
from services.rules.core.money import Rounding, apply_fraction, parse_amount, pay_ratio
from services.rules.core.profiles import PROFILES, SWITCHES, Profile, declare_switch, get_profile
from services.rules.core.refs import RuleRef
from services.rules.core.results import BetResult, Outcome

__all__ = [
    "RulesError", "FieldError", "Rounding", "parse_amount", "pay_ratio", "apply_fraction",
    "RuleRef", "Profile", "PROFILES", "get_profile", "declare_switch", "SWITCHES",
    "TableLimits", "LimitOutcome", "apply_limits", "BetResult", "Outcome",
    "Card", "parse_card", "parse_cards", "check_shoe_counts",
]
