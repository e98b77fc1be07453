"""Exact house edges of every craps bet, computed from the rules that settle real bets.

Each bet is followed from the roll it is made until it is decided, as an absorbing Markov
chain whose states are (table point, bet) and whose transitions are the 36 equally likely
dice outcomes fed through `rules.decide`. The expected net per unit staked solves
(I - Q) v = r exactly in Fractions. One-roll bets are the trivial one-step case. Nothing is
copied from a published table; the tests check the results against known values.
"""
from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction

from services.rules.core.errors import RulesError
from services.rules.core.profiles import Profile
from services.rules.craps.bets import FIXED_NUMBER, NUMBERS, ONE_ROLL, Bet
from services.rules.craps.dice import ALL_ROLLS, POINT_NUMBERS, next_point
from services.rules.craps.paytable import PayTable
from services.rules.craps.rules import Verdict, decide
from services.rules.registry import EdgeRow

State = tuple[int | None, Bet]
P_ROLL = Fraction(1, len(ALL_ROLLS))
MULTI = "exact: absorbing Markov chain over the 36 dice outcomes (Fractions)"
SINGLE = "exact enumeration of the 36 dice outcomes (Fractions)"
FAIR = {"odds", "dont_odds"}
QUOTED = {"any_seven", "hardway"}  # the lines switch craps_quote_reading reads
NO_ADVANTAGE = {"BO": "seed 000 §3.1.5 «ni el salón de juegos o casino ni el jugador tiene "
                      "alguna ventaja»",
                "CL-ARICA": "seed 004 IV §1.5 «ni el Casino ni el jugador tiene alguna ventaja»"}


def _net(verdict: Verdict, ratio: Fraction, fee_on_win: Fraction) -> Fraction:
    return {Verdict.WIN: ratio - fee_on_win, Verdict.LOSE: Fraction(-1),
            Verdict.PUSH: Fraction(0)}[verdict]


def _solve(matrix: list[list[Fraction]], rhs: list[Fraction]) -> list[Fraction]:
    """Gauss-Jordan elimination, exact (the systems have at most a few dozen unknowns)."""
    n = len(rhs)
    rows = [row[:] + [b] for row, b in zip(matrix, rhs)]
    for col in range(n):
        pivot = next(r for r in range(col, n) if rows[r][col] != 0)
        rows[col], rows[pivot] = rows[pivot], rows[col]
        lead = rows[col][col]
        rows[col] = [x / lead for x in rows[col]]
        for r in range(n):
            if r != col and rows[r][col] != 0:
                factor = rows[r][col]
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[col])]
    return [rows[i][n] for i in range(n)]


def expected_net(bet: Bet, point: int | None, table: PayTable) -> Fraction:
    """E[net] per unit of `bet` (amount 1) made with the table at `point`, left up until
    decided; a commission counts as a cost of the bet."""
    spec = table.commission(bet.kind, bet.number)
    upfront = spec[1] if spec and spec[0] == "upfront" else Fraction(0)
    on_win = spec[1] if spec and spec[0] == "on_win" else Fraction(0)
    index: dict[State, int] = {}
    edges: list[list[tuple[Fraction, State | None, Fraction]]] = []
    todo: list[State] = [(point, bet)]
    while todo:
        state = todo.pop()
        if state in index:
            continue
        index[state] = len(edges)
        out: list[tuple[Fraction, State | None, Fraction]] = []
        for roll in ALL_ROLLS:
            d = decide(state[1], state[0], roll, table)
            if d.decided:
                ratio = d.pay.ratio if d.pay else Fraction(0)
                out.append((P_ROLL, None, _net(d.verdict, ratio, on_win)))
            else:
                moved = Bet(bet.id, bet.kind, 1, d.number, bet.on, bet.working) \
                    if d.verdict is Verdict.TRAVEL else state[1]
                nxt = (next_point(state[0], roll), moved)
                out.append((P_ROLL, nxt, Fraction(0)))
                todo.append(nxt)
        edges.append(out)
    n = len(edges)
    matrix = [[Fraction(int(i == j)) for j in range(n)] for i in range(n)]
    rhs = [Fraction(0)] * n
    for i, out in enumerate(edges):
        for p, target, reward in out:
            if target is None:
                rhs[i] += p * reward
            else:
                matrix[i][index[target]] -= p
    return _solve(matrix, rhs)[0] - upfront


def _bets() -> Iterator[tuple[str, Bet, int | None]]:
    """(row label, bet of 1 unit, table point when it is made) for every bet instance."""
    yield "pass_line", Bet("e", "pass_line", 1), None
    yield "dont_pass", Bet("e", "dont_pass", 1), None
    yield "come", Bet("e", "come", 1), 6
    yield "dont_come", Bet("e", "dont_come", 1), 6
    for kind in ("odds", "dont_odds"):
        for n in POINT_NUMBERS:
            yield f"{kind} {n}", Bet("e", kind, 1, n, on="line"), n
    for kind in ONE_ROLL:
        yield kind, Bet("e", kind, 1), None
    for kind, number in FIXED_NUMBER.items():
        yield kind, Bet("e", kind, 1, number), None
    for kind in ("hardway", "place", "place_to_lose", "buy", "lay"):
        for n in NUMBERS[kind]:
            yield f"{kind} {n}", Bet("e", kind, 1, n), None


def _quoted_note(profile: Profile) -> str:
    """Why a literal any-seven/hardway quote is flagged, and the switch to the other reading:
    the operator must check the printed pay table (domain.md A-27, C-24, C-25)."""
    reading = profile.switch("craps_quote_reading")
    other = "for_one" if reading == "to_one" else "to_one"
    return (f"fair or player-favoured with the quote read '{reading.replace('_', ' ')}' "
            f"(switch craps_quote_reading={reading}): check the printed pay table; if it means "
            f"'x por 1', use --switch craps_quote_reading={other} (domain.md A-27)")


def _note(profile: Profile, kind: str, edge: Fraction) -> str:
    if kind in FAIR:
        return f"true odds, fair by design ({NO_ADVANTAGE[profile.id]})"
    if edge <= 0 and kind in QUOTED:
        return _quoted_note(profile)
    if edge <= 0:
        return "fair or player-favoured as printed: check the pay table"
    if kind in ("dont_pass", "dont_come"):
        return "per bet made; a 12 on its first roll is a standoff"
    if kind in ("buy", "lay"):
        return ("per unit bet, the 5 % commission counted as a cost "
                "(switch craps_buy_lay_commission)")
    return ""


def edges(profile: Profile) -> list[EdgeRow]:
    """Every bet the profile offers. Bets it does not offer, or whose pay rests on a switch
    the profile leaves unset (Buy/Lay everywhere, Craps 2/3/12 in CL), are left out."""
    table = PayTable(profile)
    rows = []
    for label, bet, point in _bets():
        try:
            edge = -expected_net(bet, point, table)
            rule = table.pay(bet.kind, bet.number, 2).rule
        except RulesError:
            continue
        one_roll = bet.kind in ONE_ROLL
        rows.append(EdgeRow("craps", "craps, mini_craps", label, edge,
                            SINGLE if one_roll else MULTI, rule, _note(profile, bet.kind, edge),
                            fair_by_design=bet.kind in FAIR))
    return rows

