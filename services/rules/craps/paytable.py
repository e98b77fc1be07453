"""The craps pay tables as printed: seed 000 §3.1.7.2 (BO) and seed 004 IV §1.7 (CL-ARICA).

`PayTable(profile).pay(kind, number, total)` gives the ratio a winning bet is paid and the rule
that says so. Lines the seeds leave open are read from the profile's switches only when such a
bet is actually met, so an unused gap never blocks a request.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from services.rules.core.errors import RulesError
from services.rules.core.profiles import Profile
from services.rules.core.refs import RuleRef

# Where each profile prints its pay table and its rules text.
PAY_SECTION = {"BO": RuleRef("000", "§3.1.7.2"), "CL-ARICA": RuleRef("004", "IV §1.7")}
RULE_SECTION = {"BO": RuleRef("000", "§3.1.5"), "CL-ARICA": RuleRef("004", "IV §1.5")}
MODALITY_SECTION = {"BO": RuleRef("000", "§3.1.3"), "CL-ARICA": RuleRef("004", "IV §1.3")}
PROFILES = frozenset(PAY_SECTION)

EVEN = (1, 1)
FLAT = {"pass_line": EVEN, "dont_pass": EVEN, "come": EVEN, "dont_come": EVEN,
        "big_6": EVEN, "big_8": EVEN, "under_7": EVEN, "over_7": EVEN,
        "eleven": (15, 1), "horn": (4, 1), "any_craps": (7, 1)}
PLACE = {4: (9, 5), 10: (9, 5), 5: (7, 5), 9: (7, 5), 6: (7, 6), 8: (7, 6)}
PLACE_TO_LOSE = {4: (5, 11), 10: (5, 11), 5: (5, 8), 9: (5, 8), 6: (4, 5), 8: (4, 5)}
# True odds: «los pagos son las proporciones matemáticas exactas» (seed 000 §3.1.5); printed
# as such in seed 004 IV §1.7 («"4 y 10" = 2: 1 "5 y 9" = 3: 2 "6 y 8" = 6: 5», and inverse).
TRUE_ODDS = {4: (2, 1), 10: (2, 1), 5: (3, 2), 9: (3, 2), 6: (6, 5), 8: (6, 5)}
DONT_ODDS = {n: (per, to) for n, (to, per) in TRUE_ODDS.items()}
# The lines where BO and CL differ (domain.md C-24, C-25), as printed.
ANY_SEVEN = {"BO": (5, 1), "CL-ARICA": (4, 1)}
HARDWAY = {"BO": {6: (10, 1), 8: (10, 1), 4: (8, 1), 10: (8, 1)},
           "CL-ARICA": {6: (9, 1), 8: (9, 1), 4: (7, 1), 10: (7, 1)}}
SINGLE_CRAPS = {"craps_2": (30, 1), "craps_3": (15, 1), "craps_12": (30, 1)}
COMMISSION_RATE = Fraction(5, 100)


@dataclass(frozen=True)
class Pay:
    """A bet paid `to`:`per` (winnings, the stake comes back besides)."""

    to: int
    per: int
    rule: RuleRef

    @property
    def ratio(self) -> Fraction:
        return Fraction(self.to, self.per)

    def __str__(self) -> str:
        return f"{self.to}:{self.per}"


def _on(kind: str, number: int | None) -> int:
    """The number of a bet that is on one (bets.py refuses such a bet without its number)."""
    if number is None:
        raise RulesError("number", f"required for a {kind} bet")
    return number


class PayTable:
    def __init__(self, profile: Profile) -> None:
        if profile.id not in PAY_SECTION:
            raise RulesError("profile", f"profile {profile.id} does not define craps")
        self.profile = profile
        self.section = PAY_SECTION[profile.id]

    def _ref(self, note: str | None = None) -> RuleRef:
        return RuleRef(self.section.seed, self.section.section, note=note)

    def pay(self, kind: str, number: int | None = None, total: int | None = None) -> Pay:
        """The pay of a winning `kind` bet on `number`; `total` matters only for the Field."""
        if kind == "field":
            return Pay(*((2, 1) if total in (2, 12) else EVEN), self._ref())
        if kind in FLAT:
            note = None
            if kind == "horn":
                note = "A-32: Horn paid a flat 4:1 on 2, 3, 11 or 12, as printed"
            return Pay(*FLAT[kind], self._ref(note))
        if kind == "any_seven":
            return self._quoted(ANY_SEVEN[self.profile.id])
        if kind == "hardway":
            return self._quoted(HARDWAY[self.profile.id][_on(kind, number)])
        if kind in SINGLE_CRAPS:
            return self._single_craps(kind)
        if kind in ("place", "place_to_lose"):
            places = PLACE if kind == "place" else PLACE_TO_LOSE
            return Pay(*places[_on(kind, number)], self._ref())
        if kind in ("odds", "dont_odds"):
            return self._odds(kind, number)
        if kind in ("buy", "lay"):
            self.commission(kind, number)  # not offered -> error before anything is paid
            return Pay(*(TRUE_ODDS if kind == "buy" else DONT_ODDS)[_on(kind, number)], RuleRef(
                self.section.seed, "§3.1.4.1" if self.section.seed == "000" else "IV §1.4.1",
                note="true odds less the commission of switch craps_buy_lay_commission "
                     "(the seeds give no rate: domain.md §0.4 [gap])"))
        raise RulesError("kind", f"unknown craps bet kind {kind!r}")

    def _quoted(self, printed: tuple[int, int]) -> Pay:
        """Any seven and the hardways, read per domain.md A-27."""
        reading = self.profile.switch("craps_quote_reading")
        to, per = printed
        if reading == "for_one":
            to -= per
        words = reading.replace("_", " ")
        return Pay(to, per, self._ref(f"A-27: printed {printed[0]}:{printed[1]} read "
                                      f"'{words}' (switch craps_quote_reading)"))

    def _single_craps(self, kind: str) -> Pay:
        choice = self.profile.switch("craps_single_craps_pays")
        if choice == "not_offered":
            raise RulesError("kind", f"{kind} is not offered (switch craps_single_craps_pays)")
        if self.profile.id == "BO":
            return Pay(*SINGLE_CRAPS[kind], self._ref())
        return Pay(*SINGLE_CRAPS[kind], RuleRef("000", "§3.1.7.2", note=(
            "seed 004 IV §1.7 prints no pay for this bet (domain.md C-26); the BO table is "
            "applied by switch craps_single_craps_pays=15_30")))

    def _odds(self, kind: str, number: int | None) -> Pay:
        table = TRUE_ODDS if kind == "odds" else DONT_ODDS
        if self.profile.id == "CL-ARICA":
            return Pay(*table[_on(kind, number)], self._ref())
        return Pay(*table[_on(kind, number)], RuleRef(
            "000", "§3.1.5", quote="los pagos son las proporciones matemáticas exactas",
            note="§3.1.7.2 prints no odds row (domain.md C-27): true odds, as the text says"))

    def commission(self, kind: str, number: int | None) -> tuple[str, Fraction] | None:
        """(timing, fraction of the bet amount) for Buy and Lay; None for every other bet."""
        if kind not in ("buy", "lay"):
            return None
        choice = self.profile.switch("craps_buy_lay_commission")
        if choice == "not_offered":
            raise RulesError("kind", f"{kind} bets are not offered "
                             "(switch craps_buy_lay_commission)")
        base = Fraction(1) if kind == "buy" else Fraction(*DONT_ODDS[_on(kind, number)])
        return ("upfront" if choice == "5pct_upfront" else "on_win"), COMMISSION_RATE * base
