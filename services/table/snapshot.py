"""A table session's state as JSON-able values and back, for the runtime's snapshots.

Only str/int/bool/None/list/dict; pydantic models as `model_dump(mode="json")`. Ordered maps
(rounds, bets, prisoners) are lists, since their order decides the order of later events, and
seat maps are [seat, value] pairs, since JSON object keys are strings. The aggregate's version
and handled-message ids are the base class's to snapshot.

The functions take the session as the `SessionState` it is, so this module does not import the
domain that imports it.
"""
from __future__ import annotations

from typing import Any, Protocol, TypeVar

from pydantic import BaseModel

from contracts.payouts import BetCorrectionData, PayoutsHeld
from contracts.table import BetPlacedData, BetSettledData, TableOpenedData
from services.table.rounds import Round, RoundState

M = TypeVar("M", bound=BaseModel)


class SessionState(Protocol):
    """The state of a TableSession (services/table/domain.py) that a snapshot holds."""
    config: TableOpenedData | None
    closed: bool
    round: Round | None
    rounds: dict[str, Round]
    rounds_played: int
    prisoners: dict[str, BetPlacedData]
    seated: dict[int, str]
    idle: dict[int, int]


def _models(items: Any) -> list[dict[str, Any]]:
    return [m.model_dump(mode="json") for m in items]


def _load(model: type[M], items: list[dict[str, Any]]) -> list[M]:
    return [model.model_validate(i) for i in items]


def dump_round(rnd: Round) -> dict[str, Any]:
    return {
        "round_id": rnd.round_id, "number": rnd.number, "state": rnd.state.value,
        "bets": _models(rnd.bets.values()), "pocket": rnd.pocket,
        "settled": _models(rnd.settled.values()), "jailed": _models(rnd.jailed.values()),
        "corrections": _models(rnd.corrections.values()),
        "hold": rnd.hold.model_dump(mode="json") if rnd.hold is not None else None,
        "hold_open": rnd.hold_open, "resolved": rnd.resolved, "not_held": rnd.not_held,
    }


def load_round(state: dict[str, Any]) -> Round:
    return Round(
        round_id=state["round_id"], number=state["number"], state=RoundState(state["state"]),
        bets={b.bet_id: b for b in _load(BetPlacedData, state["bets"])},
        pocket=state["pocket"],
        settled={s.bet_id: s for s in _load(BetSettledData, state["settled"])},
        jailed={b.bet_id: b for b in _load(BetPlacedData, state["jailed"])},
        corrections={c.bet_id: c for c in _load(BetCorrectionData, state["corrections"])},
        hold=PayoutsHeld.model_validate(state["hold"]) if state["hold"] is not None else None,
        hold_open=state["hold_open"], resolved=state["resolved"],
        not_held=state.get("not_held", False),
    )


def dump(table: SessionState) -> dict[str, Any]:
    current = table.round
    return {
        "config": table.config.model_dump(mode="json") if table.config is not None else None,
        "closed": table.closed,
        "rounds": [dump_round(r) for r in table.rounds.values()],
        "current": None if current is None else (
            current.round_id if current.round_id in table.rounds else dump_round(current)),
        "rounds_played": table.rounds_played,
        "prisoners": _models(table.prisoners.values()),
        "seated": [[seat, player] for seat, player in table.seated.items()],
        "idle": [[seat, n] for seat, n in table.idle.items()],
    }


def load(table: SessionState, state: dict[str, Any]) -> None:
    config = state["config"]
    table.config = TableOpenedData.model_validate(config) if config is not None else None
    table.closed = state["closed"]
    table.rounds = {r.round_id: r for r in map(load_round, state["rounds"])}
    current = state["current"]
    table.round = (None if current is None else table.rounds[current]
                   if isinstance(current, str) else load_round(current))
    table.rounds_played = state["rounds_played"]
    table.prisoners = {b.bet_id: b for b in _load(BetPlacedData, state["prisoners"])}
    table.seated = {seat: player for seat, player in state["seated"]}
    table.idle = {seat: n for seat, n in state["idle"]}
