"""Called (announced) bets — apuestas llamadas — expanded into the chips the croupier places.

Seed 000 §4.1.4.2 names «vecinos de cero, huérfanos, tercio» but prints no composition
(domain.md §5.2 [gap]); the standard French compositions below are an implementation decision.
Each is a number of equal units (the amount must divide evenly); each component is then an
ordinary inside bet, validated and settled like any other.
"""
from __future__ import annotations

from services.rules.core.errors import RulesError
from services.rules.core.refs import RuleRef
from services.rules.roulette.bets import RouletteBet
from services.rules.roulette.layout import Wheel

# (kind, numbers, units): numbers as ints in the compositions, as the pocket strings of the
# wheel for neighbours; expand() makes them strings.
Component = tuple[str, tuple[int | str, ...], int]
COMPOSITIONS: dict[str, tuple[Component, ...]] = {
    # voisins du zéro, 9 units: 0-2-3 street ×2, five splits, 25-26-28-29 corner ×2
    "voisins": (("street", (0, 2, 3), 2), ("split", (4, 7), 1), ("split", (12, 15), 1),
                ("split", (18, 21), 1), ("split", (19, 22), 1), ("split", (32, 35), 1),
                ("corner", (25, 26, 28, 29), 2)),
    # tiers du cylindre, 6 splits
    "tiers": tuple(("split", s, 1) for s in ((5, 8), (10, 11), (13, 16), (23, 24), (27, 30),
                                             (33, 36))),
    # orphelins, 5 units: 1 straight, four splits
    "orphelins": (("straight", (1,), 1), ("split", (6, 9), 1), ("split", (14, 17), 1),
                  ("split", (17, 20), 1), ("split", (31, 34), 1)),
}
SPANISH = {"voisins": "vecinos de cero", "tiers": "tercio", "orphelins": "huérfanos",
           "neighbours": "vecinos de un número"}
MAX_NEIGHBOURS = 9


def called_rule(profile_id: str, kind: str) -> RuleRef:
    note = (f"{kind} ({SPANISH[kind]}): the seed prints no composition; the standard French "
            f"composition is an implementation decision")
    if profile_id == "AR-RUL":
        return RuleRef("001", quote="apuestas anunciadas", note=note)
    return RuleRef("000", "§4.1.4.2", quote="vecinos de cero, huérfanos, tercio", note=note)


def _neighbours(bet: RouletteBet, wheel: Wheel) -> tuple[Component, ...]:
    side = 2 if bet.index is None else bet.index
    if isinstance(side, bool) or not isinstance(side, int) or not 1 <= side <= MAX_NEIGHBOURS:
        raise RulesError("index", f"neighbours on each side must be 1..{MAX_NEIGHBOURS}, "
                         f"got {bet.index!r}")
    if len(bet.numbers) != 1 or bet.numbers[0] not in wheel.order:
        raise RulesError("numbers", f"neighbours need one centre pocket of the {wheel.name} "
                         f"wheel, got {list(bet.numbers)}")
    at = wheel.order.index(bet.numbers[0])
    size = len(wheel.order)
    return tuple(("straight", (wheel.order[(at + k) % size],), 1) for k in range(-side, side + 1))


def components(bet: RouletteBet, wheel: Wheel) -> tuple[Component, ...]:
    if bet.kind == "neighbours":
        return _neighbours(bet, wheel)
    if bet.numbers or bet.index is not None:
        raise RulesError("numbers" if bet.numbers else "index",
                         f"{bet.kind} is a called bet: give neither numbers nor index")
    return COMPOSITIONS[bet.kind]


def expand(bet: RouletteBet, amount: int, wheel: Wheel) -> list[RouletteBet]:
    """The component bets, each staking its units of amount / total units."""
    if wheel.name != "european":
        raise RulesError("kind", f"called bets are defined on the single-zero wheel only, not "
                         f"{wheel.name}")
    parts = components(bet, wheel)
    units = sum(u for _, _, u in parts)
    if amount % units:
        raise RulesError("amount", f"{bet.kind} is {units} equal units: {amount} is not a "
                         f"multiple of {units}")
    unit = amount // units
    return [RouletteBet(kind, unit * u, tuple(str(n) for n in numbers))
            for kind, numbers, u in parts]
