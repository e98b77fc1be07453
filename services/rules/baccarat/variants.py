"""The modalities each profile defines, their shoes and the per-profile switches.

BO defines four modalities (seed 002 §2.2.3): Punto y Banca, Baccarat (chemin de fer),
Midi and Mini. CL-ARICA defines Punto y Banca and Mini only (seed 004 III §2.3; no CL Midi,
domain.md A-42). LIVE-GG defines one live dealer game (seed 003 Bac). AR-RUL has no baccarat.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from types import MappingProxyType

from services.rules.core.errors import RulesError
from services.rules.core.profiles import Profile, declare_switch
from services.rules.core.refs import RuleRef

declare_switch(
    "baccarat_commission", ("0%", "1%", "2%", "2.5%", "3%", "4%", "5%", "10%"),
    {"CL-ARICA": "10%", "LIVE-GG": "5%"},
    "Commission deducted from a winning Banca bet's winnings. CL-ARICA: printed «1 a 1 deducido "
    "el porcentaje de comisión. 10%», rate set by the casino and approved by the Municipality "
    "(seed 004 III §2.7, domain.md A-15, C-14). LIVE-GG: 5 % «sobre la cantidad ganada» (seed "
    "003 Bac §2.1.8). BO: a deduction exists (seed 002 §2.2.4.2) but the rate is in §2.2.7, "
    "which is in no seed (domain.md §0.4) — no default, the operator must set it.",
)
declare_switch(
    "baccarat_tie_pays", ("8:1", "9:1"),
    {"CL-ARICA": "8:1", "LIVE-GG": "8:1"},
    "Tie (Empate) payout. CL-ARICA 8 a 1 (seed 004 III §2.7); LIVE-GG 8 a 1 (seed 003 Bac "
    "§2.1.8). BO: pay table §2.2.7 is in no seed (domain.md §0.4) — no default.",
)
declare_switch(
    "baccarat_player_pays", ("1:1",),
    {"CL-ARICA": "1:1", "LIVE-GG": "1:1"},
    "Punto (player) payout. CL-ARICA «1 a 1 (a la par)» (seed 004 III §2.7); LIVE-GG 1 a 1 "
    "(seed 003 Bac §2.1.8). BO: pay table §2.2.7 is in no seed — no default; the operator "
    "states it explicitly even though 1:1 is the only choice offered.",
)
declare_switch(
    "baccarat_cut_card", ("6", "7", "10"),
    {"BO": "6", "CL-ARICA": "10", "LIVE-GG": "7"},
    "Cards left behind the cut card (domain.md C-11): BO 6 (seed 002 §2.2.5.1 «Corte»), "
    "CL-ARICA 10 (seed 004 III §2.5 «Corte»), LIVE-GG 7 (seed 003 Bac §3.3.4).",
)
declare_switch(
    "baccarat_punto_banca_decks", ("6", "8"),
    {"BO": "8", "CL-ARICA": "6"},
    "Decks in the player-dealt Punto y Banca shoe. BO 8 (seed 002 §2.2.4.1). CL-ARICA: §2.4.1 "
    "names decks only for Mini, but the initial presentation shows «las 6 barajas que se "
    "utilizarán durante el juego según la modalidad de Punto y Banca de que se trate» and new "
    "cards are «6 nuevas barajas» (seed 004 III §2.5): our reading is 6 (the reshuffle "
    "paragraph's «8 o 6 barajas» is template residue, A-42). Switch to 8 on a ruling.",
)
declare_switch(
    "baccarat_tie_needs_main_bet", ("required", "not_required"),
    {"BO": "required", "CL-ARICA": "required", "LIVE-GG": "not_required"},
    "A Tie bet needs a Banca or Punto bet by the same player: BO «es necesario que se haya "
    "efectuado, al menos, una apuesta a la Banca o al Punto» (seed 002 §2.2.5.1), CL-ARICA the "
    "same (seed 004 III §2.5). LIVE-GG lists three independent areas (seed 003 Bac §2.1.1).",
)
declare_switch(
    "baccarat_bets_per_area", ("one", "any"),
    {"BO": "any", "CL-ARICA": "any", "LIVE-GG": "one"},
    "LIVE-GG «Se puede colocar un máximo de tres apuestas en cualquier área de juego, Jugador, "
    "Banca y Empate» (seed 003 Bac §2.1.1) read as one stake per area per player (domain.md "
    "A-30). BO/CL set no such limit.",
)


@dataclass(frozen=True)
class Variant:
    id: str
    title: str             # the seed's name for the modality
    decks: int
    seats: int | None      # highest seat number; None = online (no seats)
    tie_bet: bool          # chemin de fer has none: a tie voids the round
    choice_at_5: bool      # Punto's 5 is the largest Punto bettor's choice (chemin de fer)
    rule: RuleRef          # where the modality is defined
    decks_rule: RuleRef
    draw_rule: RuleRef     # where the drawing table is printed
    win_rule: RuleRef      # the hand nearer to 9 wins
    tie_rule: RuleRef      # what a tie does to Punto/Banca bets
    pay_rule: RuleRef      # where the pay table is printed (or the gap)


_BO_GAP = RuleRef("002", "§2.2.7", note="[gap] the BO pay table and commission (§2.2.7) are in "
                  "no seed (domain.md §0.4); the value comes from the operator's switch")
_BO_WIN = RuleRef("002", "§2.2.5.1", quote="Gana aquella mano cuya puntuación sea nueve o esté "
                  "más próxima a dicha cifra")


def _bo(variant: str, title: str, decks: int, seats: int, section: str) -> Variant:
    chemin = variant == "chemin_de_fer"
    tie = (RuleRef("002", "§2.2.5.1", quote="en caso de empate, la jugada es considerada nula")
           if chemin else RuleRef("002", "§2.2.5.1", quote="éstas se consideran nulas"))
    return Variant(variant, title, decks, seats, not chemin, chemin, RuleRef("002", section),
                   RuleRef("002", "§2.2.4.1"), RuleRef("002", "§2.2.5.1", quote="Pedida de cartas"),
                   _BO_WIN, tie, _BO_GAP)


def _cl(variant: str, title: str, decks: int, seats: int, section: str) -> Variant:
    return Variant(variant, title, decks, seats, True, False, RuleRef("004", section),
                   RuleRef("004", "III §2.5" if variant == "punto_banca" else "III §2.4.1"),
                   RuleRef("004", "III §2.5", quote="Pedida de cartas"),
                   RuleRef("004", "III §2.5", quote="Gana aquella mano cuya puntuación sea nueve"),
                   RuleRef("004", "III §2.7", quote="las apuestas a punto y banca quedan nulas"),
                   RuleRef("004", "III §2.7"))


_LIVE = Variant("live", "Baccarat (live dealer)", 8, None, True, False,
                RuleRef("003", "Bac §1.2.1"), RuleRef("003", "Bac §1.3.1"),
                RuleRef("003", "Bac §3.5.1"), RuleRef("003", "Bac §2.1.2-2.1.3"),
                RuleRef("003", "Bac §2.1.5"), RuleRef("003", "Bac §2.1.8"))


def variants_for(profile: Profile) -> Mapping[str, Variant]:
    """The modalities `profile` defines, built with the profile's switches (read-only)."""
    if profile.id in ("BO", "CL-ARICA"):
        return _table_variants(profile.id, int(profile.switch("baccarat_punto_banca_decks")))
    if profile.id == "LIVE-GG":
        return MappingProxyType({"live": _LIVE})
    return MappingProxyType({})


@lru_cache(maxsize=8)
def _table_variants(profile_id: str, pyb_decks: int) -> Mapping[str, Variant]:
    if profile_id == "BO":
        return MappingProxyType({v.id: v for v in (
            _bo("punto_banca", "Punto y Banca", pyb_decks, 14, "§2.2.3.1"),
            _bo("chemin_de_fer", "Baccarat o Chemin de Fer o Ferrocarril", 8, 14, "§2.2.3.2"),
            _bo("midi", "Midi Punto y Banca", 6, 9, "§2.2.3.3"),
            _bo("mini", "Mini Punto y Banca", 6, 7, "§2.2.3.4"),
        )})
    return MappingProxyType({v.id: v for v in (
        _cl("punto_banca", "Punto y Banca", pyb_decks, 14, "III §2.3.1"),
        _cl("mini", "Mini Punto y Banca", 6, 6, "III §2.3.2"),
    )})


def get_variant(profile: Profile, name: object) -> Variant:
    known = variants_for(profile)
    if not isinstance(name, str) or name not in known:
        raise RulesError("variant", f"{name!r} is not a baccarat modality of profile {profile.id}; "
                         f"known: {', '.join(known) or 'none'}")
    return known[name]


def _ratio(text: str) -> Fraction:
    to, per = text.split(":")
    return Fraction(int(to), int(per))


# Each reads one switch only when a bet needs it, so a BO chemin-de-fer table (no tie bet)
# is never asked for a tie payout. A switch the profile is silent on raises a RulesError.
def player_ratio(profile: Profile) -> Fraction:
    return _ratio(profile.switch("baccarat_player_pays"))


def tie_ratio(profile: Profile) -> Fraction:
    return _ratio(profile.switch("baccarat_tie_pays"))


def commission(profile: Profile) -> Fraction:
    """The Banca commission as a fraction of the winnings (5 % -> 1/20)."""
    return Fraction(profile.switch("baccarat_commission").rstrip("%")) / 100


PAY_SWITCHES = ("baccarat_player_pays", "baccarat_commission", "baccarat_tie_pays")


def require_pay_table(profile: Profile) -> None:
    """One error listing every pay-table switch the profile is silent on (BO: §2.2.7 gap)."""
    errors = []
    for name in PAY_SWITCHES:
        try:
            profile.switch(name)
        except RulesError as err:
            errors.extend(err.errors)
    if errors:
        raise RulesError(errors=errors)


def cut_card_depth(profile: Profile) -> int:
    return int(profile.switch("baccarat_cut_card"))
