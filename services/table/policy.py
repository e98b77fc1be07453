"""Which seed rule a table decision rests on, per profile: limits and late bets.

Bets outside the limits are refused at the table before the spin, so they never play
(seed 002 §1.2.1.1: «En ningún momento el monto de las apuestas podrá ser superior al máximo o
inferior al mínimo autorizado»). Bets after «no más apuestas» are void and the chips go back.
"""
from __future__ import annotations

LIMIT_RULE = {
    "BO": "seed 002 §1.2.1.1",
    "CL-ARICA": "seed 004 RG §4.2",
    "AR-RUL": "seed 001 «oscilarán entre un mínimo y un máximo que la Repartición fijará»",
    "LIVE-GG": "seed 003 Rul §2.1.5",
}

LATE_BET_RULE = {
    "BO": "seed 000 §4.1.4.3",
    "CL-ARICA": "seed 004 II §1.5",
    "AR-RUL": "seed 001 «no va más»",
    "LIVE-GG": "seed 003 Rul §2.1.1",
}

# A stake over the maximum noticed when it is placed: the profile's `over_max` switch (rules
# engine, services/rules/core/limits.py) says whether the maximum plays and the excess goes
# back to the player, or the bet is refused before the spin (LIVE-GG). AR's cascade is for an
# excess noticed only after the number won; noticed before, AR returns it too (seed 001).
EXCESS_RULE = {
    "BO": "seed 002 §1.2.1.1",
    "CL-ARICA": "seed 004 RG §4.2",
    "AR-RUL": "seed 001 «se procederá, una vez advertida la irregularidad, a devolverle el "
              "excedente»",
    "LIVE-GG": "seed 003 Rul §2.1.5",
}
