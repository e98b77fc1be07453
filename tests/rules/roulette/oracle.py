"""An independent model of the roulette layout and pay tables, written from the seeds for the
tests (it shares no code with services.rules.roulette)."""
from __future__ import annotations

from fractions import Fraction
from itertools import combinations

RED = {1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36}


def pos(n: int) -> tuple[int, int]:
    """(row, column) of a number 1..36 on the layout."""
    return (n - 1) // 3, (n - 1) % 3


def adjacent(a: int, b: int) -> bool:
    (ra, ca), (rb, cb) = pos(a), pos(b)
    return abs(ra - rb) + abs(ca - cb) == 1


def is_block(nums: set[int]) -> bool:
    rows = {pos(n)[0] for n in nums}
    cols = {pos(n)[1] for n in nums}
    return len(nums) == 4 and len(rows) == 2 and len(cols) == 2 and max(rows) - min(rows) == 1 \
        and max(cols) - min(cols) == 1


def number_groups(kind: str) -> set[frozenset[str]]:
    """Inside groups among 1..36 only, from coordinates."""
    nums = range(1, 37)
    if kind == "split":
        return {frozenset(map(str, p)) for p in combinations(nums, 2) if adjacent(*p)}
    if kind == "street":
        return {frozenset(str(n) for n in nums if pos(n)[0] == r) for r in range(12)}
    if kind == "corner":
        return {frozenset(map(str, (n, n + 1, n + 3, n + 4))) for n in nums
                if n + 4 <= 36 and is_block({n, n + 1, n + 3, n + 4})}
    if kind == "six_line":
        return {frozenset(str(n) for n in nums if pos(n)[0] in (r, r + 1)) for r in range(11)}
    raise KeyError(kind)


# as printed in the seeds (seed 000 §4.1.4.2, seed 001, seed 004 II §1.5)
ZERO_GROUPS: dict[str, dict[str, list[tuple[str, ...]]]] = {
    "european": {"split": [("0", "1"), ("0", "2"), ("0", "3")],
                 "street": [("0", "1", "2"), ("0", "2", "3")], "corner": [("0", "1", "2", "3")],
                 "six_line": [], "five_number": []},
    "american": {"split": [("0", "1"), ("0", "2"), ("00", "2"), ("00", "3"), ("0", "00")],
                 "street": [("0", "1", "2"), ("0", "2", "3"), ("0", "00", "2")], "corner": [],
                 "six_line": [], "five_number": [("0", "00", "1", "2", "3")]},
    # seed 004 II §1.5 single zero: calles (0,1,2), (0,2,3); «Cuadro especial» 0-1-2-3
    "american_single": {"split": [("0", "1"), ("0", "2"), ("0", "3")],
                        "street": [("0", "1", "2"), ("0", "2", "3")],
                        "corner": [("0", "1", "2", "3")], "six_line": [], "five_number": []},
}


def pockets(wheel: str) -> list[str]:
    return (["0", "00"] if wheel == "american" else ["0"]) + [str(n) for n in range(1, 37)]


def groups(wheel: str, kind: str) -> set[frozenset[str]]:
    if kind == "straight":
        return {frozenset({p}) for p in pockets(wheel)}
    base: set[frozenset[str]] = set() if kind == "five_number" else number_groups(kind)
    return base | {frozenset(g) for g in ZERO_GROUPS[wheel][kind]}


def outside(kind: str, index: int | None) -> set[str]:
    n = range(1, 37)
    sets = {
        "red": {x for x in n if x in RED}, "black": {x for x in n if x not in RED},
        "odd": {x for x in n if x % 2}, "even": {x for x in n if not x % 2},
        "low": set(range(1, 19)), "high": set(range(19, 37)),
    }
    if kind in sets:
        return {str(x) for x in sets[kind]}
    if index is None:
        raise KeyError(f"{kind} needs an index")
    if kind == "dozen":
        return {str(x) for x in range(12 * index - 11, 12 * index + 1)}
    if kind == "column":
        return {str(x) for x in n if (x - 1) % 3 == index - 1}
    if kind == "two_dozens":
        return outside("dozen", index) | outside("dozen", index + 1)
    if kind == "two_columns":
        return outside("column", index) | outside("column", index + 1)
    raise KeyError(kind)


# Payouts "to one" per profile: AR seed 001, CL seed 004 II §1.7 as printed; BO and LIVE-GG
# the standard single-zero table (their seeds print none).
STANDARD: dict[str, int | Fraction] = {
    "straight": 35, "split": 17, "street": 11, "corner": 8, "six_line": 5, "dozen": 2,
    "column": 2, "two_dozens": Fraction(1, 2), "two_columns": Fraction(1, 2), "red": 1,
    "black": 1, "odd": 1, "even": 1, "low": 1, "high": 1}
EVEN = ("red", "black", "odd", "even", "low", "high")
PAYS = {
    "BO": STANDARD,
    "AR-RUL": STANDARD,
    "CL-ARICA": {k: v for k, v in {**STANDARD, "five_number": 6}.items() if "two" not in k},
    "LIVE-GG": {k: v for k, v in STANDARD.items() if "two" not in k},
}
WHEEL = {"BO": "european", "AR-RUL": "european", "CL-ARICA": "american",
         "LIVE-GG": "european"}
# Every wheel of every profile (CL-ARICA: seed 004 II §1.5, one zero or two).
PROFILE_WHEELS = [("BO", "european"), ("AR-RUL", "european"), ("CL-ARICA", "american"),
                  ("CL-ARICA", "american_single"), ("LIVE-GG", "european")]
