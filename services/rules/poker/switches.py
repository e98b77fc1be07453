"""The profile switches poker reads (domain.md §10: each ambiguity is a switch, never a guess).

Where the seed is silent and domain.md gives no best reading, the switch has *no default* for
that profile: a request must choose (`"switches": {...}`), otherwise the engine answers with an
error naming the switch. `edges()` then reports every reading side by side.
"""
from __future__ import annotations

from services.rules.core.profiles import declare_switch

BET_UNQUALIFIED = declare_switch(
    "poker_bet_when_dealer_unqualified", ("returned", "lost"),
    {"BO": "returned", "CL-ARICA": "returned"},
    "domain.md A-20: when the dealer does not open, seed 000 §2.3.7.1.1/.2/.5 pays «sólo en el "
    "espacio de la 1ª apuesta (ANTE)» and seed 004 III §3.5.1 «pagándose sólo la 1ª apuesta "
    "(ANTE) 1 a 1»; the BET is not mentioned. Best reading (default in both profiles): the BET "
    "is returned. 'lost' is the literal alternative, for an operator who rules otherwise.",
).name

THREE_CARD_ANTE_ON_WIN = declare_switch(
    "poker_three_card_ante_on_win", ("paid_1_to_1", "returned"), {},
    "domain.md A-21: seed 000 §2.3.7.1.5 pays a winning three-card hand «de acuerdo al esquema "
    "de pago» without the ANTE clause of Draw/Caribbean. Silent: no default; choose whether the "
    "ANTE of a winning hand is paid 1:1 or only returned.",
).name

THREE_CARD_HIGH_CARD_WIN = declare_switch(
    "poker_three_card_high_card_win", ("paid_1_to_1", "returned"), {},
    "Seed 000 §2.3.7.1.5: the dealer opens with «Reina o mayor», so a player can beat him with "
    "a high card, but the pay table starts at «Un Par 1 a 1». Silent (not yet listed in "
    "domain.md §10): no default; choose how the BET of a winning high-card hand is settled.",
).name

GO_SETTLEMENT = declare_switch(
    "poker_go_settlement", ("pay_table", "vs_dealer"), {},
    "domain.md A-22: seed 000 §2.3.7.1.4 «comparará cada mano … sólo con aquellos jugadores que "
    "hayan apostado por ir en ambas oportunidades»; no dealer qualifier; «Todas las apuestas "
    "menores a Par de 10 son declaradas perdedoras». Whether a hand must beat the croupier "
    "('vs_dealer') or is paid on the table alone ('pay_table') is unclear: no default.",
).name

BET_SIZE = declare_switch(
    "poker_bet_size", ("double_ante", "as_staked"),
    {"CL-ARICA": "double_ante", "BO": "as_staked"},
    "CL: seed 004 III §3.5.1 «una apuesta igual al doble de la 1ª apuesta (ANTE)» — a BET of "
    "another size is rejected. BO: seed 000 does not size the BET (domain.md C-42); the engine "
    "does not invent a ratio and settles the BET as staked ('as_staked').",
).name

PROGRESSIVE_REMAINDER = declare_switch(
    "progressive_remainder", ("nearest_seat_1", "one_each_from_seat_1"),
    {"BO": "nearest_seat_1", "CL-ARICA": "nearest_seat_1"},
    "domain.md A-24: a pool percentage shared by n winners leaves amount mod n indivisible units; "
    "seed 000 §2.5.6.2 rule 3 / seed 004 III §6.6 rule 3 give «el peso no divisible» to the "
    "winner nearest position 1. Default (literal): all remainder units to that winner; "
    "'one_each_from_seat_1' hands one unit each to the winners from seat 1 onwards.",
).name

PROGRESSIVE_ROYAL_BASE = declare_switch(
    "progressive_royal_base", ("remaining_after_paid", "ninety_percent"),
    {"BO": "remaining_after_paid", "CL-ARICA": "remaining_after_paid"},
    "domain.md A-25: with a straight flush capped at 5.000 × the bet (seed 000 §2.5.6.2) the "
    "royal's «90% del pozo acumulado principal original» (rule 4) and «100% del monto restante» "
    "disagree. Best reading (default): the royal takes 100 % of what remains after the straight "
    "flush payments actually made; 'ninety_percent' takes 90 % of the pool before them.",
).name

PROGRESSIVE_STRAIGHT = declare_switch(
    "progressive_straight", ("pays", "does_not_qualify"), {"CL-ARICA": "pays"},
    "domain.md A-26: seed 004 III §6.6 pays «Escalera Simple 20.000 por seguro apostado» though "
    "the qualifying-hand list of III §6.5.1 omits it. Best reading (CL default): it pays. BO's "
    "table (seed 000 §2.5.6.2) has no straight, so BO never reads this switch.",
).name
