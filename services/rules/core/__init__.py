"""Shared core of the rules engine: money, rule references, errors, profiles, limits, cards.

Everything here is pure (no I/O, no Kafka). Game modules build on it.
"""
from services.rules.core.errors import RulesError, FieldError
from services.rules.core.money import Rounding, parse_amount, pay_ratio, apply_fraction
from services.rules.core.refs import RuleRef
from services.rules.core.profiles import Profile, PROFILES, get_profile, declare_switch, SWITCHES
from services.rules.core.limits import TableLimits, LimitOutcome, apply_limits
from services.rules.core.results import BetResult, Outcome
from services.rules.core.cards import Card, parse_card, parse_cards, check_shoe_counts

__all__ = [
    "RulesError", "FieldError", "Rounding", "parse_amount", "pay_ratio", "apply_fraction",
    "RuleRef", "Profile", "PROFILES", "get_profile", "declare_switch", "SWITCHES",
    "TableLimits", "LimitOutcome", "apply_limits", "BetResult", "Outcome",
    "Card", "parse_card", "parse_cards", "check_shoe_counts",
]
