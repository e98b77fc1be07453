"""Where each blackjack rule is written, per profile (domain.md §3.1 and §2.8).

`ref(profile_id, key)` returns the RuleRef that every settled bet and explanation line cites.
Seed 003's blackjack section numbers only some paragraphs; the others are located by a quote.
"""
from __future__ import annotations

from services.rules.core.refs import RuleRef

_BO, _CL, _LIVE = "BO", "CL-ARICA", "LIVE-GG"


def _live(section: str = "", quote: str | None = None) -> RuleRef:
    return RuleRef("003", f"BJ {section}".strip(), quote=quote)


_REFS: dict[str, dict[str, RuleRef]] = {
    "deal": {_BO: RuleRef("002", "§2.1.5.3"), _CL: RuleRef("004", "III §1.5.1"),
             _LIVE: _live(quote="Las cartas se pueden repartir")},
    "card_values": {_BO: RuleRef("002", "§2.1.5.3"), _CL: RuleRef("004", "III §1.5.1"),
                    _LIVE: _live(quote="Los valores de las cartas")},
    "hit": {_BO: RuleRef("002", "§2.1.5.3"), _CL: RuleRef("004", "III §1.5.1"),
            _LIVE: _live("§4.4")},
    "bust": {_BO: RuleRef("002", "§2.1.7.2"), _CL: RuleRef("004", "III §1.5.1"),
             _LIVE: _live("§2.1.5")},
    "dealer_rule": {_BO: RuleRef("002", "§2.1.5.3 a"), _CL: RuleRef("004", "III §1.5.1 a"),
                    _LIVE: _live("§4.4")},
    "moot": {_BO: RuleRef("002", "§2.1.5.3 a", note="seed silent: stopping is accepted (A-10)"),
             _CL: RuleRef("004", "III §1.5.1", quote="Casos Especiales"),
             _LIVE: _live("§4.4")},
    "peek": {_LIVE: _live(quote="a menos que la carta boca arriba del dealer sea un as")},
    "win": {_BO: RuleRef("002", "§2.1.7.2"), _CL: RuleRef("004", "III §1.5.1"),
            _LIVE: _live("§2.1.1")},
    "blackjack": {_BO: RuleRef("002", "§2.1.7.2"), _CL: RuleRef("004", "III §1.5.1"),
                  _LIVE: _live("§2.1.5")},
    "split_21": {_BO: RuleRef("002", "§2.1.5.3 d"), _CL: RuleRef("004", "III §1.5.1 d"),
                 _LIVE: _live(quote="contará cómo 21 y no como Black Jack")},
    "push": {_BO: RuleRef("002", "§2.1.7.2"), _CL: RuleRef("004", "III §1.5.1"),
             _LIVE: _live("§2.1.5")},
    "dealer_blackjack": {_BO: RuleRef("002", "§2.1.7.2"), _CL: RuleRef("004", "III §1.5.1"),
                         _LIVE: _live("§2.1.5")},
    "immediate_pay": {_BO: RuleRef("002", "§2.1.7.2", note="A-3"),
                      _CL: RuleRef("004", "III §1.5.1", quote="Pago de apuestas"),
                      _LIVE: _live("§2.1.4")},
    "insurance": {_BO: RuleRef("002", "§2.1.5.3 c"), _CL: RuleRef("004", "III §1.5.1 c"),
                  _LIVE: _live("§2.5.1")},
    "insurance_pay": {_BO: RuleRef("002", "§2.1.7.2"), _CL: RuleRef("004", "III §1.5.1"),
                      _LIVE: _live("§2.5.3")},
    "even_money": {_BO: RuleRef("002", "§2.1.5.3 a"), _CL: RuleRef("004", "III §1.5.1 a")},
    "split": {_BO: RuleRef("002", "§2.1.5.3 d"), _CL: RuleRef("004", "III §1.5.1 d"),
              _LIVE: _live(quote="Si las dos primeras cartas repartidas a un jugador son de "
                                 "idéntico valor")},
    "double": {_BO: RuleRef("002", "§2.1.5.3 e"), _CL: RuleRef("004", "III §1.5.1 e"),
               _LIVE: _live(quote="Un casino puede permitir a un jugador doblar su mano")},
    "surrender": {_BO: RuleRef("002", "§2.1.5.3 f"),
                  _CL: RuleRef("004", "III §1.5.1 f",
                               note="A-8: «El retiro procede cuando ... es un as»; "
                                    "read as a dropped «no» pending a ruling")},
    "perfect_pairs": {_BO: RuleRef("002", "§2.1.7.2"), _CL: RuleRef("004", "III §1.5.1")},
    "pp_limits": {_BO: RuleRef("002", "§2.1.5.3 b", note="A-4"),
                  _CL: RuleRef("004", "III §1.5.1 b", note="A-4")},
    "irregular": {_BO: RuleRef("002", "§2.1.7.1"), _CL: RuleRef("004", "III §1.7"),
                  _LIVE: _live("§4.1")},
    "multibox": {_BO: RuleRef("002", "§2.1.3.1", note="A-5"),
                 _CL: RuleRef("004", "III §1.4.2", note="A-11"), _LIVE: _live("§1.2.1")},
    "seats": {_BO: RuleRef("002", "§2.1.4.1"), _CL: RuleRef("004", "III §1.4.1"),
              _LIVE: _live("§1.2.1")},
    "c21": {_BO: RuleRef("002", "§2.1.5.3", quote="Challenge 21")},
    "c21_bets": {_BO: RuleRef("002", "§2.1.3.2")},
    "promotions": {_CL: RuleRef("004", "III §1.8", note="A-12")},
    "promo_seven": {_CL: RuleRef("004", "III §1.8.1", note="A-12")},
    "promo_jack_spades": {_CL: RuleRef("004", "III §1.8.2", note="A-12")},
    "promo_three_sevens": {_CL: RuleRef("004", "III §1.8.3", note="A-12")},
    "promo_678": {_CL: RuleRef("004", "III §1.8.4", note="A-12")},
    "promo_insurance_ten": {_CL: RuleRef("004", "III §1.8.5")},
    "incomplete_round": {_CL: RuleRef("004", "III §1.7")},
    "undealt_box": {_CL: RuleRef("004", "III §1.7")},
    "malfunction": {_LIVE: _live("§2.1.5")},
}


def ref(profile_id: str, key: str) -> RuleRef:
    """The citation of rule `key` for the profile; a rule a profile lacks falls back to the
    first profile that has it, marked as such (only reachable through explicit switches)."""
    table = _REFS[key]
    if profile_id in table:
        return table[profile_id]
    other_id, other = next(iter(table.items()))
    return RuleRef(other.seed, other.section, other.quote,
                   note=f"rule of {other_id} applied to {profile_id} by a request switch")
