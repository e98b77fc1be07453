"""Pay tables per profile: the ratio paid ("to 1") for each bet kind and the rule behind it.

BO and LIVE-GG print no roulette pay table (seed 000 §4.1.6.2 is missing, seed 003 prints the
heading «PROBABILIDADES DE PAGO DE LAS APUESTAS» only; domain.md §0.4). Their payouts are the
standard single-zero ones, recorded as an implementation decision in each RuleRef's note;
AR-RUL (seed 001) and CL-ARICA (seed 004 II §1.7) print theirs.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from fractions import Fraction

from services.rules.core.errors import RulesError
from services.rules.core.profiles import Profile
from services.rules.core.refs import RuleRef

STANDARD: Mapping[str, Fraction] = {
    "straight": Fraction(35), "split": Fraction(17), "street": Fraction(11),
    "corner": Fraction(8), "five_number": Fraction(6), "six_line": Fraction(5),
    "dozen": Fraction(2), "column": Fraction(2),
    "two_dozens": Fraction(1, 2), "two_columns": Fraction(1, 2),
    **{k: Fraction(1) for k in ("red", "black", "odd", "even", "low", "high")},
}
EVEN_KINDS = ("red", "black", "odd", "even", "low", "high")


@dataclass(frozen=True)
class Pay:
    ratio: Fraction  # winnings per unit staked, the stake itself is returned on top
    rule: RuleRef


def _bo() -> dict[str, Pay]:
    items = {"straight": 1, "split": 2, "street": 3, "corner": 4, "six_line": 5, "column": 6,
             "dozen": 7, "two_columns": 8, "two_dozens": 9, **{k: 10 for k in EVEN_KINDS}}
    return {kind: Pay(STANDARD[kind], RuleRef(
        "000", f"§4.1.4.2 item {item}",
        note=f"the French pay table (seed 000 §4.1.6.2) is missing from the seed (domain.md "
             f"§0.4 [gap]); the standard payout {_ratio(STANDARD[kind])} is an implementation "
             f"decision")) for kind, item in items.items()}


def _ar() -> dict[str, Pay]:
    quotes = {
        "straight": "se paga treinta y cinco (35) veces la apuesta",
        "split": "ganan diecisiete (17) veces su valor",
        "street": "ganan once (11) veces su valor",
        "corner": "gana ocho (8) veces su valor",
        "six_line": "ganan cinco (5) veces su valor",
        "dozen": "cada apuesta gana el doble de su valor",
        "column": "cada apuesta gana el doble de su valor",
        "two_dozens": "va jugando en cada casillero, la mitad de la misma",
        "two_columns": "va jugando en cada casillero, la mitad de la misma",
        **{k: "cada apuesta gana una vez su valor" for k in EVEN_KINDS},
    }
    half = "half the stake plays on each of the two chances at 2:1, i.e. 1:2 on the whole"
    return {kind: Pay(STANDARD[kind], RuleRef("001", quote=q, note=half if "two" in kind else None))
            for kind, q in quotes.items()}


def _cl() -> dict[str, Pay]:
    lines = {"straight": "35 veces su postura", "split": "17 veces su postura",
             "street": "11 veces su postura", "corner": "8 veces su postura",
             "six_line": "5 veces su postura", "five_number": "6 veces su postura",
             "dozen": "2 veces su postura", "column": "2 veces su postura",
             **{k: "1 vez la postura" for k in EVEN_KINDS}}
    return {kind: Pay(STANDARD[kind], RuleRef("004", "II §1.7", quote=q))
            for kind, q in lines.items()}


def _live() -> dict[str, Pay]:
    kinds = ("straight", "split", "street", "corner", "six_line", "dozen", "column", *EVEN_KINDS)
    return {kind: Pay(STANDARD[kind], RuleRef(
        "003", "Rul §2.1.3",
        note=f"seed 003 prints the pay table heading only (domain.md §0.4 [gap]); the standard "
             f"single-zero payout {_ratio(STANDARD[kind])} is an implementation decision"))
        for kind in kinds}


def _ratio(r: Fraction) -> str:
    return f"{r.numerator}:{r.denominator}"


PAY_TABLES: Mapping[str, Mapping[str, Pay]] = {
    "BO": _bo(), "AR-RUL": _ar(), "CL-ARICA": _cl(), "LIVE-GG": _live(),
}

# Which wheels each profile plays (domain.md §5.1); the first is the default. CL-ARICA: seed
# 004 II §1.5 lays out «la ruleta americana con un cero o ... con doble cero»; II §1.7 announces
# both pay tables but prints only the double-zero one (the default wheel).
PROFILE_WHEELS: Mapping[str, tuple[str, ...]] = {
    "BO": ("european",), "AR-RUL": ("european",), "CL-ARICA": ("american", "american_single"),
    "LIVE-GG": ("european",),
}
# The single-zero American table takes the printed per-bet pays (implementation decision).
_CL_SINGLE_NOTE = ("seed 004 II §1.7 announces a single-zero pay table («según se trate de la "
                   "ruleta americana con un cero o con doble cero») but prints only the "
                   "double-zero one; its per-bet pay is applied to the single-zero table "
                   "(implementation decision)")

# Even chance on zero, per zero rule (switch roulette_zero_even_chance).
ZERO_RULES: Mapping[str, RuleRef] = {
    "BO": RuleRef("000", "§4.1.4.2 item 11"),
    "AR-RUL": RuleRef("001", quote="pierden todas las chances sin excepción"),
    "CL-ARICA": RuleRef("004", "II §1.7", quote="El jugador pierde la totalidad de su apuesta"),
    "LIVE-GG": RuleRef("003", "Rul §3.3.2", note="seed 003 states no zero rule (domain.md §5.4 "
                       "[gap]); even chances lose, switch roulette_zero_even_chance"),
}


def pay_for(profile: Profile, kind: str, wheel: str | None = None) -> Pay:
    """The pay of `kind`; `wheel` matters only where a wheel's table is not printed."""
    table = PAY_TABLES.get(profile.id)
    if table is None:
        raise RulesError("profile", f"profile {profile.id} does not define roulette")
    if kind not in table:
        raise RulesError("kind", f"profile {profile.id} offers no {kind} bet; its bets: "
                         f"{', '.join(table)}")
    pay = table[kind]
    if profile.id == "CL-ARICA" and wheel == "american_single":
        return Pay(pay.ratio, replace(pay.rule, note=_CL_SINGLE_NOTE))
    return pay


def check_wheel(profile: Profile, wheel: str) -> None:
    allowed = PROFILE_WHEELS.get(profile.id, ())
    if wheel not in allowed:
        raise RulesError("wheel", f"profile {profile.id} plays the {', '.join(allowed)} wheel, "
                         f"not {wheel!r}")
