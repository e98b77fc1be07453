"""Per-profile roulette switches (services.rules.core.profiles.declare_switch)."""
from __future__ import annotations

from services.rules.core.profiles import declare_switch

ZERO_EVEN = declare_switch(
    "roulette_zero_even_chance", ("half_back", "prison", "lose"),
    {"BO": "half_back", "AR-RUL": "lose", "CL-ARICA": "lose", "LIVE-GG": "lose"},
    "Even chance when zero (or 00) comes out. BO seed 000 §4.1.4.2 item 11 offers the player "
    "half back or «prisión»; the switch is the default when no choice is recorded on the bet "
    "(bet field zero_option records it) — half_back is our default because it settles at once. "
    "AR seed 001: «pierden todas las chances sin excepción» (A-34). CL seed 004 II §1.7: the "
    "player loses the whole bet. LIVE-GG: seed 003 is silent [gap]; lose is our documented "
    "default (a single-zero table without la partage).",
)

CALLED_BETS = declare_switch(
    "roulette_called_bets", ("allowed", "not_allowed"),
    {"BO": "allowed", "AR-RUL": "allowed", "CL-ARICA": "not_allowed", "LIVE-GG": "not_allowed"},
    "Called (announced) sector bets: voisins du zéro, tiers, orphelins, neighbours. BO seed 000 "
    "§4.1.4.2 names «vecinos de cero, huérfanos, tercio» (composition not printed: standard "
    "French compositions are an implementation decision). AR seed 001 accepts announced bets "
    "backed by chips before «no va más». CL seed 004 II §1.5 lets players call any bet but "
    "names no sector bets, on a double-zero wheel; LIVE-GG seed 003 names none.",
)
