"""Per-profile blackjack switches: every rule on which the seeds differ (domain.md §3.1, §10).

Each switch names the seed text behind each profile's default. Where a seed is silent and the
rule cannot be inferred, the profile has no default and a request that needs the rule must set
it (`"switches": {...}`): reading it raises a RulesError naming the profile and the switch.
"""
from __future__ import annotations

from services.rules.core.profiles import declare_switch

BO, CL, LIVE = "BO", "CL-ARICA", "LIVE-GG"

declare_switch(
    "bj_dealer_soft17", ("stand", "hit"), {BO: "stand", CL: "hit", LIVE: "stand"},
    "Dealer on soft 17 (C-7). BO seed 002 §2.1.5.3 a: the ace counts 11 when that reaches 17 "
    "→ stands on all 17. CL seed 004 III §1.4.1/§1.5.1 a: «La banca pide con 16 y 17 suave, se "
    "planta con 17» (draws to hard 17). LIVE seed 003 BJ §4.4: stops on a hard or soft 17.",
)
declare_switch(
    "bj_hole_card", ("none", "peek_ace"), {BO: "none", CL: "none", LIVE: "peek_ace"},
    "Dealer's second card (C-8). BO seed 002 §2.1.5.3 and CL seed 004 III §1.5.1: no hole card, "
    "the dealer takes one card after the players' first card and completes his hand after the "
    "players; all cards face up. LIVE seed 003 BJ: second dealer card face down after the "
    "players' second cards; peeked only when the up card is an ace («a menos que la carta boca "
    "arriba del dealer sea un as»); with a 10 up a dealer blackjack shows at the end.",
)
declare_switch(
    "bj_immediate_pay", ("not_ace", "not_ace_or_ten", "at_settlement"),
    {BO: "not_ace_or_ten", CL: "not_ace_or_ten", LIVE: "at_settlement"},
    "When a player blackjack is paid at once, before the dealer's hand (A-3, C-15). BO seed 002 "
    "§2.1.5.3 says when the dealer's first card «no es un as»; §2.1.7.2 says «diferente a un as, "
    "10 ó figura» — the safe reading (a 10 can still become a dealer blackjack) is the BO "
    "default; 'not_ace' is the literal §2.1.5.3 reading, under which a blackjack paid against a "
    "10 stays paid. CL seed 004 III §1.5.1 «Pago de apuestas»: A, 10 or figure wait. LIVE seed "
    "003 BJ §2.1.4: everything is settled after the last card.",
)
declare_switch(
    "bj_double", ("9_11", "9_11_soft", "any"), {BO: "9_11", CL: "9_11_soft", LIVE: "any"},
    "Which two-card hands may double (C-18, A-9). BO seed 002 §2.1.5.3 e: «9,10 u 11 puntos con "
    "las dos primeras cartas» (the hand's total, so soft hands such as A+8 = 19 may not). CL "
    "seed 004 III §1.5.1 e adds «con cualquier combinación»: A-9 reads soft combinations whose "
    "hard count is 9-11 (A+8, A+9) as allowed too. LIVE seed 003 BJ: «en las dos primeras "
    "cartas», any total, extra stake not above the original.",
)
declare_switch(
    "bj_double_after_split", ("yes", "no"), {BO: "yes", CL: "yes", LIVE: "no"},
    "Doubling a split hand. BO seed 002 §2.1.5.3 e «autorizada para todas las manos incluyendo "
    "los pares»; CL seed 004 III §1.5.1 e the same, «sin efecto para la apertura de Ases» (split "
    "aces never double anywhere: they take one card). LIVE seed 003 BJ allows doubling «en las dos "
    "primeras cartas repartidas al jugador» only — read as the original hand.",
)
declare_switch(
    "bj_max_splits", ("1", "3"), {BO: "3", CL: "3", LIVE: "1"},
    "Splits per box (C-17). BO seed 002 §2.1.5.3 d and CL seed 004 III §1.5.1 d: «hasta un "
    "máximo de 3 veces, es decir ... un máximo de 4 manos». LIVE seed 003 BJ: «Un jugador no "
    "puede dividir parejas, incluidas las parejas de ases, más de una vez».",
)
declare_switch(
    "bj_resplit_aces", ("yes", "no"), {BO: "no", CL: "yes", LIVE: "no"},
    "Re-splitting aces (C-17). BO seed 002 §2.1.5.3 d: «si se forma un nuevo par, no se podrá "
    "separar nuevamente». CL seed 004 III §1.5.1 d repeats «hasta un máximo de 3 veces» for "
    "aces. LIVE: one split in all.",
)
declare_switch(
    "bj_split_aces", ("one_card", "normal"), {BO: "one_card", CL: "one_card", LIVE: "one_card"},
    "Split aces receive one card each. BO seed 002 §2.1.5.3 d and CL seed 004 III §1.5.1 d: «no "
    "se le permite pedir más que una sola carta por cada as». LIVE seed 003 BJ leaves it to the "
    "casino («A discreción del casino ... sólo una carta para cada as»); [impl] one card is our "
    "documented default for LIVE-GG, switchable per table.",
)
declare_switch(
    "bj_split_deal", ("sequential", "both_at_once"),
    {BO: "sequential", CL: "sequential", LIVE: "both_at_once"},
    "Order of the second cards of split hands in the card sequence. LIVE seed 003 BJ: «el dealer "
    "debe repartir las dos segundas cartas a cada mano» (both at the split). Seeds 002/004 are "
    "silent; [impl] BO/CL default to the usual practice: the first split hand gets its card and "
    "is played out, then the next hand gets its card.",
)
declare_switch(
    "bj_surrender", ("not_vs_ace", "vs_ace_only", "any", "none"),
    {BO: "not_vs_ace", CL: "not_vs_ace", LIVE: "none"},
    "Surrender («retiro»), half the bet returned (C-16, A-8). BO seed 002 §2.1.5.3 f: «El retiro "
    "no procede cuando la primera carta descubierta del croupier es un as». CL seed 004 III "
    "§1.5.1 f prints «El retiro procede cuando ... es un as»: A-8 is unresolved; the CL default "
    "reads a dropped «no» (the paragraph is otherwise seed 002's word for word) and every CL "
    "surrender carries that note; 'vs_ace_only' / 'any' are the literal readings pending a "
    "ruling. LIVE seed 003: no surrender.",
)
declare_switch(
    "bj_insurance", ("up_to_half", "exactly_half"),
    {BO: "up_to_half", CL: "up_to_half", LIVE: "exactly_half"},
    "Insurance stake (C-19). BO seed 002 §2.1.5.3 c / CL seed 004 III §1.5.1 c: «como máximo "
    "igual al 50% del monto de su apuesta original». LIVE seed 003 BJ §2.5.1: «una apuesta de la "
    "mitad de la cantidad apostada» (exactly half, rounded by the profile's rounding).",
)
declare_switch(
    "bj_even_money", ("offered", "not_offered"),
    {BO: "offered", CL: "offered", LIVE: "not_offered"},
    "Even money for a player blackjack against a dealer ace. BO seed 002 §2.1.5.3 a, CL seed 004 "
    "III §1.5.1 a (CL: taking it excludes insurance). LIVE seed 003 lists double, split, stand, "
    "hit and insurance only.",
)
declare_switch(
    "bj_moot_draw", ("must_stop", "may_stop"), {BO: "may_stop", CL: "must_stop", LIVE: "must_stop"},
    "Dealer draws that cannot change any outcome (A-10). CL seed 004 III §1.5.1 «Casos "
    "Especiales»: the dealer takes no card when he can neither win nor tie (only blackjacks "
    "left, or only insured busts). LIVE seed 003 BJ §4.4: no card «si ... el recuento de puntos de "
    "la mano del dealer no tendrá ningún efecto en el resultado». BO seed 002 is silent: the "
    "dealer may stop or complete his hand; either sequence is accepted (outcomes are equal).",
)
declare_switch(
    "bj_refused_card", ("burn", "burn_and_stand"), {BO: "burn", CL: "burn_and_stand"},
    "A disputed hit card already exposed and refused by the player. BO seed 002 §2.1.7.1: "
    "burned. CL seed 004 III §1.7: burned «y dicho jugador perderá su derecho a solicitar cartas "
    "adicionales en esa mano». LIVE seed 003 has no such dispute (software requests); silent.",
)
declare_switch(
    "bj_irregular_cards", ("burn", "forbidden"), {BO: "burn", CL: "burn", LIVE: "forbidden"},
    "Card irregularities marked in the sequence (domain.md §2.8). BO seed 002 §2.1.7.1 and CL "
    "seed 004 III §1.7: a card out face up, a stuck card the player rejects, the dealer's extra "
    "card on 17 and cards drawn after the round are burned; a card from the floor or seen when "
    "lifted stays in play. LIVE seed 003 BJ §4.1: «Ningún casino ni ninguna otra persona podrá "
    "retirar, añadir o alterar ninguna carta» — a marked card is an error there.",
)
declare_switch(
    "bj_decks", tuple(str(n) for n in range(1, 9)), {BO: "6", CL: "6", LIVE: "8"},
    "Decks in the blackjack shoe (C-4). BO seed 002 §2.1.4.1: 6 (Challenge 21 always 8). CL "
    "seed 004 III §1.4.1: 6. LIVE seed 003 is silent; its cut card «a 4 barajas del fondo» "
    "implies more than 4; [impl] 8 is our documented default, set it per table.",
)
declare_switch(
    "bj_seats", ("6", "7"), {BO: "7", CL: "6", LIVE: "7"},
    "Player boxes on the layout (C-5). BO seed 002 §2.1.4.1: 7 (Challenge 21: 6). CL seed 004 "
    "III §1.4.1: 6. LIVE seed 003 BJ §1.2.1: 7.",
)
declare_switch(
    "bj_max_boxes", ("1", "2", "4", "seats"), {BO: "2", CL: "4", LIVE: "seats"},
    "Boxes one player may play in a round (C-6, A-5). BO seed 002 §2.1.3.1 «hasta un máximo de "
    "dos manos por pase» (§2.1.4.2's «más de una mano» read within that maximum). CL seed 004 "
    "III §1.3.1/§1.4.2: four, consecutive. LIVE seed 003 is silent: [impl] limited by free seats.",
)
declare_switch(
    "bj_multibox_stakes", ("total", "per_box", "off"), {BO: "off", CL: "total", LIVE: "off"},
    "CL stake formula for a player on several boxes (seed 004 III §1.4.2, A-11): «1 apuesta | "
    "3 apuestas | 7 apuestas | Máximo de la mesa» with a $2.000 minimum → $2.000/$6.000/$14.000. "
    "'total': the player's stakes together reach 1, 3, 7 table minimums for 1, 2, 3 boxes and "
    "the table maximum for 4 (1, 3, 7 = 1, 1+2, 1+2+4: each extra box doubles). 'per_box': the "
    "k-th box alone carries that amount. BO and LIVE have no formula.",
)
declare_switch(
    "bj_pp_limits", ("as_printed", "of_main_bet", "none"), {BO: "as_printed", CL: "as_printed"},
    "Perfect Pairs limits (A-4): «mínima equivalente al 10% del mínimo establecido para la mesa "
    "y máxima de hasta el 80% de la apuesta mínima establecida para el Black Jack en la mesa» "
    "(seed 002 §2.1.5.3 b, seed 004 III §1.5.1 b). 'as_printed' applies both to the table "
    "minimum; 'of_main_bet' reads the maximum as 80 % of the player's main bet. LIVE: no PP.",
)
declare_switch(
    "bj_promotions", ("on", "off"), {BO: "off", CL: "on", LIVE: "off"},
    "CL promotional prizes (seed 004 III §1.8.1-§1.8.5), paid «Además de los pagos normales» on "
    "the hand's stake (A-12): seven cards without busting 1:1, blackjack with the jack of spades "
    "4:1, three suited 7s 7:1, suited 6-7-8 5:1, insurance against a dealer 10/figure 5:1. The "
    "concessionaire may withdraw them with 7 days' notice: switch off then.",
)
declare_switch(
    "bj_incomplete_round", ("pay_blackjacks_void_rest",), {CL: "pay_blackjacks_void_rest"},
    "A round that cannot be finished because the cut card was never inserted. CL seed 004 III "
    "§1.7: «sólo se pagarán las manos que hayan obtenido 21 puntos con las dos cartas "
    "iniciales, declarándose nulas las demás apuestas». BO and LIVE are silent.",
)
declare_switch(
    "bj_undealt_box", ("void",), {CL: "void"},
    "A box with a bet that received no card. CL seed 004 III §1.7: «la mano del jugador se "
    "considerará inválida para ese pase» (bet returned). BO and LIVE are silent.",
)
declare_switch(
    "bj_malfunction", ("void_all",), {LIVE: "void_all"},
    "System malfunction. LIVE seed 003 BJ §2.1.5: «Un mal funcionamiento del sistema dará lugar "
    "a la anulación de todos los pagos o jugadas». BO and CL are silent.",
)
