"""Banked poker table limits: the ANTE's, the BET that follows it, the «ir» stakes, and the
progressive side bet's own.

    "limits": {"minimum": 1000, "maximum": 50000,             # the table's (the ANTE's)
               "bet": {...}, "go": {...},                      # optional, BO only
               "progressive": {"minimum": 1, "maximum": 5}}    # credits, its own sign

How a limit meets the ANTE/BET pair (the seeds are silent; an implementation decision):
- The table limits are the ANTE's: the ANTE buys the hand («apuesta obligatoria para recibir
  cartas», seed 004 III §3.5.1), and the BET is only the decision to go on with it.
- CL (`poker_bet_size=double_ante`): the BET is twice the ANTE by rule, so it has no limits of
  its own: it plays twice the ANTE's playing stake and returns twice the ANTE's excess, and an
  under-minimum ANTE flags its BET too. `limits.bet` is refused there.
- BO (`as_staked`): seed 000 sizes no BET, so the BET is a bet like any other under «el monto
  de las apuestas» (seed 002 §1.2.1.1): `limits.bet` when given, else the table limits. Go
  Poker's «ir» stakes likewise (`limits.go`, else the table limits).
- The progressive side bet has its own minimum and maximum («Letrero con mínimos y máximos de
  la apuesta al progresivo», seed 000 §2.5.4.1; seed 004 III §6.4.1), in credits, the unit the
  acceptor takes («expresadas en número de créditos»): only `limits.progressive` limits it.
- The ARICA Plus card costs «fichas ... equivalentes a la 1ª apuesta (ANTE)»: the ANTE that
  plays; the part of the price over it comes back with the ANTE's excess.
- A void hand did not play: every stake is returned whole, no limit applies.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from services.rules.core.errors import RulesError
from services.rules.core.limits import (
    LimitOutcome,
    TableLimits,
    apply_limits,
    check_no_cascade,
    parse_table_limits,
)
from services.rules.core.profiles import Profile
from services.rules.poker import switches as sw

KEYS = ("minimum", "maximum", "bet", "go", "progressive")


@dataclass(frozen=True)
class PokerLimits:
    table: TableLimits | None = None        # the ANTE's (and, in BO, the BET's and Go's)
    bet: TableLimits | None = None          # BO only
    go: TableLimits | None = None           # Go Poker only
    progressive: TableLimits | None = None  # in credits

    def describe(self) -> str:
        parts = [f"{name} {lim.minimum}–{lim.maximum}" for name, lim in (
            ("table (ANTE)", self.table), ("BET", self.bet), ("«ir»", self.go),
            ("progressive credits", self.progressive)) if lim is not None]
        return ", ".join(parts) or "none given"


def parse_poker_limits(raw: object, variant: str, profile: Profile) -> PokerLimits | None:
    if raw is None:
        return None
    if not isinstance(raw, Mapping):
        raise RulesError("limits", "must be an object: {minimum, maximum} and/or bet, go, "
                         "progressive")
    for key in raw:
        if key not in KEYS:
            raise RulesError(f"limits.{key}", f"unknown field; expected {', '.join(KEYS)}")
    check_no_cascade(profile, "poker")
    table = None
    if "minimum" in raw or "maximum" in raw:
        table = parse_table_limits({k: raw.get(k) for k in ("minimum", "maximum")}, "limits")
    if "bet" in raw and profile.switch(sw.BET_SIZE) == "double_ante":
        raise RulesError("limits.bet", "the BET is twice the ANTE (seed 004 III §3.5.1): it "
                         "follows the ANTE's limits and has none of its own")
    if "go" in raw and variant != "go":
        raise RulesError("limits.go", "only Go Poker has «ir» stakes")
    return PokerLimits(table, _optional(raw, "bet"), _optional(raw, "go"),
                       _optional(raw, "progressive"))


def _optional(raw: Mapping[str, Any], key: str) -> TableLimits | None:
    return parse_table_limits(raw[key], f"limits.{key}") if key in raw else None


def seat_limits(path: str, ante: int, bet: int | None, go: tuple[int, ...],
                limits: PokerLimits | None, profile: Profile) -> dict[str, LimitOutcome]:
    """kind -> LimitOutcome for every stake of a seat ("ante", "bet", "go_1", "go_2")."""
    lim = limits or PokerLimits()
    out = {"ante": apply_limits(ante, lim.table, profile, f"{path}.ante")}
    if bet is not None:
        if profile.switch(sw.BET_SIZE) == "double_ante":
            a = out["ante"]
            out["bet"] = replace(a, playing_stake=2 * a.playing_stake, excess=2 * a.excess)
        else:
            out["bet"] = apply_limits(bet, lim.bet or lim.table, profile, f"{path}.bet")
    for i, stake in enumerate(go):
        out[f"go_{i + 1}"] = apply_limits(stake, lim.go or lim.table, profile, f"{path}.go[{i}]")
    return out


def progressive_limits(path: str, units: int, limits: PokerLimits | None,
                       profile: Profile) -> LimitOutcome:
    table = limits.progressive if limits is not None else None
    return apply_limits(units, table, profile, f"{path}.progressive")
