"""The craps rule switches: every place where seeds 000 and 004 disagree, are ambiguous, or are
silent (domain.md §4, §10). Declared at import; a profile without a default must set it."""
from __future__ import annotations

from services.rules.core.profiles import declare_switch

QUOTE_READING = declare_switch(
    "craps_quote_reading", ("to_one", "for_one"),
    {"BO": "to_one", "CL-ARICA": "to_one"},
    "How to read the any-seven and hardway quotes (domain.md A-27, C-24, C-25). to_one (the "
    "literal reading, default): seed 000 §3.1.7.2 «Juego de 7 5 : 1», «\"3-3, 4-4\" = 10: 1 y "
    "\"2-2, 5-5\" = 8: 1» pay 5, 10 and 8 to one — which makes the three bets exactly fair; "
    "for_one: the BO quotes are 'x por 1' (x-1 to one: 4, 9 and 7 to one, seed 004 IV §1.7's "
    "values). The switch touches only these lines; seed 004's own quotes are to one.",
)

BUY_LAY_COMMISSION = declare_switch(
    "craps_buy_lay_commission", ("not_offered", "5pct_upfront", "5pct_on_win"),
    {},
    "Buy and Lay bets (true odds less a commission). Both seeds have the Buy and Lay markers "
    "(seed 000 §3.1.4.1 «luego del pago de la comisión correspondiente», seed 004 IV §1.4.1) "
    "but no rate and no pay table (domain.md §0.4 [gap]), so no profile has a default: "
    "not_offered rejects the bets; 5pct_upfront collects 5 % (of the stake for Buy, of the "
    "potential win for Lay) when the bet is placed, never refunded; 5pct_on_win deducts the "
    "same 5 % from a winning bet only.",
)

SINGLE_CRAPS = declare_switch(
    "craps_single_craps_pays", ("15_30", "not_offered"),
    {"BO": "15_30"},
    "Craps 2, Craps 3, Craps 12. BO: seed 000 §3.1.7.2 «\"3\" = 15: 1, \"2 y 12\" = 30: 1». "
    "CL-ARICA: seed 004 IV §1.5 defines the bets but IV §1.7 prints no pay (domain.md C-26 "
    "[gap]), so CL has no default: 15_30 adopts the BO table, not_offered rejects the bets.",
)

HARDWAYS_COME_OUT = declare_switch(
    "craps_hardways_on_come_out", ("working", "off_unless_called"),
    {"BO": "working", "CL-ARICA": "off_unless_called"},
    "Hardways while no point is set (domain.md C-29). CL: seed 004 IV §1.5 «no juegan hasta "
    "que se haya establecido el punto, a menos que el jugador solicite verbalmente» (a bet "
    "placed with \"working\": true is on). BO: seed 000 §3.1.5 defines the bet with no such "
    "exception, so it always works.",
)

DONT_REMOVABLE = declare_switch(
    "craps_dont_removable", ("yes", "no"),
    {"CL-ARICA": "yes"},
    "Whether a Don't Pass / Don't Come bet with its point set may be withdrawn or reduced "
    "(domain.md C-28). CL: seed 004 IV §1.5 «pero si pueden retirarse en cualquier momento de "
    "la partida». BO: seed 000 is silent, so BO has no default.",
)

PASS_INCREASE = declare_switch(
    "craps_pass_line_increase", ("allowed", "forbidden"),
    {"BO": "forbidden", "CL-ARICA": "allowed"},
    "Increasing a Pass Line / Come bet after its point is set (domain.md A-29). CL: seed 004 "
    "IV §1.5 «pero si se pueden aumentar», not contradicted by IV §1.7. BO: §3.1.5 allows it "
    "(«pero si se puede aumentar») but the §3.1.7.2 pay-table row says «no se pueden modificar "
    "hasta concluir la jugada»; until a ruling the stricter row applies (forbidden).",
)

FIELD_TIMING = declare_switch(
    "craps_field_timing", ("any_time", "after_point"),
    {"BO": "any_time", "CL-ARICA": "any_time"},
    "When a Field bet may be made (domain.md A-31): the rules text «Se juega en cualquier "
    "momento de la partida» (seed 000 §3.1.5, seed 004 IV §1.5) against the pay-table row "
    "«después de haber establecido el punto del tirador» (§3.1.7.2, IV §1.7). Best reading "
    "any_time; after_point rejects a Field bet while the point is OFF.",
)

SHOOTER_DIRECTION = declare_switch(
    "craps_shooter_direction", ("clockwise", "counter_clockwise"),
    {"BO": "clockwise", "CL-ARICA": "clockwise"},
    "Who shoots after a seven-out (domain.md A-28). Seed 000 §3.1.5 and seed 004 IV §1.5 offer "
    "the dice «comenzando … por aquel que se encuentre a la izquierda de los \"croupiers\" y "
    "después siguiendo el sentido de las agujas del reloj» (clockwise, the default: the "
    "order the text sets for the session), then say «Cuando el primer jugador pierde su "
    "apuesta, los dados deben ser entregados al jugador de su derecha» (counter_clockwise). "
    "A live table sets it in TableOpened.switches (services/table/games/craps.py); the "
    "rules engine itself never reads it: who shoots decides no bet.",
)
