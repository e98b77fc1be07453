"""`casino rules ...`: settle, edges, explain — the engine on the command line for audits."""
from __future__ import annotations

import importlib
import json
import sys
from collections.abc import Iterable
from fractions import Fraction
from typing import Any, TextIO

import click

from services.rules.api import explain_request, settle_request
from services.rules.core.errors import RulesError
from services.rules.core.profiles import PROFILES, get_profile
from services.rules.registry import GAME_PACKAGES, EdgeRow, Game, get_game

FLAG = "CHECK PAY TABLE"


@click.group()
def rules() -> None:
    """Settle rounds independently, list house edges, explain a decision."""


def _failure(field: str, reason: str) -> dict[str, Any]:
    return {"ok": False, "errors": [{"field": field, "reason": reason}]}


def _settle_line(line: str) -> dict[str, Any]:
    """One JSON line in, one result out; never raises (a bad line must not stop the batch)."""
    try:
        request = json.loads(line)
    except json.JSONDecodeError as err:
        return _failure("line", f"invalid JSON: {err.msg} at column {err.colno}")
    game = request.get("game") if isinstance(request, dict) else None
    try:
        missing = _unavailable(game) if game in GAME_PACKAGES else None
        if missing:
            return {**_head(request), **_failure("game", f"{game}: {missing}")}
        return settle_request(request)
    except Exception as err:  # a bug in one game must not stop an audit batch
        return {**_head(request), **_failure("request",
                                             f"internal error {type(err).__name__}: {err}")}


def _head(request: object) -> dict[str, Any]:
    if not isinstance(request, dict):
        return {}
    return {k: request[k] for k in ("id", "game", "profile") if k in request}


@rules.command()
@click.argument("file", type=click.File("r", encoding="utf-8-sig"), default="-")
def settle(file: TextIO) -> None:
    """Settle JSON Lines requests from FILE (default stdin), one JSON result line each.

    Every request is {"id", "game", "profile", "switches"?, ...game fields}; see
    services/rules/README.md. A bad line gives {"ok": false, "errors": [{field, reason}]}
    and the batch goes on; the exit code is 1 if any line failed.
    """
    failed = False
    for number, line in enumerate(file, 1):
        if not line.strip():
            continue
        result = {"line": number, **_settle_line(line)}
        failed |= not result["ok"]
        click.echo(json.dumps(result, ensure_ascii=False))
    sys.exit(1 if failed else 0)


def _parse_switches(values: Iterable[str]) -> dict[str, str]:
    out = {}
    for value in values:
        name, sep, choice = value.partition("=")
        if not sep or not name or not choice:
            raise click.BadParameter(f"{value!r}: use name=value", param_hint="--switch")
        out[name] = choice
    return out


def _unavailable(name: str) -> str | None:
    """Why a game cannot be used yet (its package is being written), or None if it can.
    Other import errors propagate: they are bugs to report, not work in progress."""
    package = GAME_PACKAGES[name]
    try:
        importlib.import_module(package)
    except ModuleNotFoundError as err:
        if err.name and package.startswith(err.name):
            return f"not yet available ({package} does not exist)"
        raise
    try:
        get_game(name)
    except KeyError:
        return f"not yet available ({package} registers no game yet)"
    return None


def _load_games(profile_id: str, only: tuple[str, ...]) -> tuple[list[Game], bool]:
    """The games the profile defines; games still being written are reported, not fatal."""
    games, ok = [], True
    for name in only or tuple(GAME_PACKAGES):
        try:
            missing = _unavailable(name)
        except Exception as err:
            click.echo(f"{name}: cannot be loaded: {type(err).__name__}: {err}", err=True)
            ok = False
            continue
        if missing:
            click.echo(f"{name}: {missing}", err=True)
            continue
        game = get_game(name)
        if profile_id in game.profiles:
            games.append(game)
    return games, ok


def _exact(edge: Fraction | float) -> str:
    """The exact fraction when it is short enough to read; --json always carries it whole."""
    if not isinstance(edge, Fraction):
        return "-"
    text = str(edge)
    return text if len(text) <= 24 else "exact (see --json)"


def _percent(edge: Fraction | float) -> str:
    return f"{float(edge) * 100:+.4f} %"


def _table(rows: list[EdgeRow]) -> str:
    head = ("game", "variant", "bet", "house edge", "exact", "method", "rule", "")
    body = [(r.game, r.variant, r.bet, _percent(r.edge),
             _exact(r.edge), r.method, str(r.rule),
             f"<-- {FLAG}" if r.flagged else "") for r in rows]
    widths = [max(len(row[i]) for row in (head, *body)) for i in range(len(head))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip()
             for row in (head, *body)]
    lines.insert(1, "  ".join("-" * w for w in widths).rstrip())
    return "\n".join(lines)


def _not_computed(game: str, err: RulesError) -> str:
    """Why a game has no rows. A switch the profile is silent on (the seeds leave that rule
    out) is not a bug: say which switches to set, so the operator can state the rule."""
    silent = [e.reason for e in err.errors if "is silent on" in e.reason]
    if silent and len(silent) == len(err.errors):
        return (f"{game}: not computed: " + "; ".join(silent)
                + " — the seeds leave this rule out: rerun with --switch NAME=VALUE for each")
    return f"{game}: edges failed: {err}"


def _summary(rows: list[EdgeRow]) -> str:
    """The count, then why each flagged bet is flagged: the operator has to know which pay
    table line to check and, where the seed is ambiguous, the switch for the other reading."""
    flagged = [r for r in rows if r.flagged]
    if not flagged:
        return f"\n{len(rows)} bets, none flagged"
    lines = [f"\n{len(rows)} bets, {len(flagged)} flagged {FLAG}:"]
    lines += [f"  {r.game} {r.bet} ({r.variant}): {_percent(r.edge)}, {r.rule}"
              + (f" — {r.note}" if r.note else "") for r in flagged]
    return "\n".join(lines)


@rules.command()
@click.option("--profile", "profile_id", required=True,
              type=click.Choice(sorted(PROFILES)), help="Rule profile.")
@click.option("--switch", "switch_values", multiple=True, metavar="NAME=VALUE",
              help="Override a profile switch (repeatable).")
@click.option("--game", "only", multiple=True, type=click.Choice(sorted(GAME_PACKAGES)),
              help="Only this game (repeatable); default: every game.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per row.")
def edges(profile_id: str, switch_values: tuple[str, ...], only: tuple[str, ...],
          as_json: bool) -> None:
    """House edge of every bet of every game PROFILE defines (percent of the stake).

    A zero or negative edge (fair or player-favoured bet) is marked CHECK PAY TABLE.
    """
    overrides = _parse_switches(switch_values)
    games, ok = _load_games(profile_id, only)  # games declare their switches when imported
    try:
        profile = get_profile(profile_id, overrides)
    except RulesError as err:
        raise click.UsageError(str(err)) from None
    rows: list[EdgeRow] = []
    skipped: list[str] = []
    for game in games:
        try:
            rows.extend(game.edges(profile))
        except RulesError as err:  # e.g. BO baccarat: its pay table is in no seed
            skipped.append(_not_computed(game.name, err))
            click.echo(skipped[-1], err=True)
            ok = False
        except Exception as err:
            click.echo(f"{game.name}: edges failed: {type(err).__name__}: {err}", err=True)
            ok = False
    if as_json:
        for row in rows:
            click.echo(json.dumps({**row.to_dict(), "edge_percent": _percent(row.edge)},
                                  ensure_ascii=False))
    elif rows:
        click.echo(_table(rows))
        click.echo(_summary(rows))
    if skipped and not as_json:  # said on stdout too: a reader of the table must not miss it
        click.echo("\n" + "\n".join(skipped))
    sys.exit(0 if ok else 1)


@rules.command()
@click.argument("file", type=click.File("r", encoding="utf-8-sig"), default="-")
def explain(file: TextIO) -> None:
    """Explain, step by step, how one request (a JSON object in FILE or stdin) is settled."""
    text = file.read()
    try:
        request = json.loads(text)
    except json.JSONDecodeError as err:
        click.echo(f"line: invalid JSON: {err.msg} (line {err.lineno}, column {err.colno})",
                   err=True)
        sys.exit(1)
    try:
        lines = explain_request(request)
    except RulesError as err:
        for e in err.errors:
            click.echo(f"{e.field}: {e.reason}", err=True)
        sys.exit(1)
    except ModuleNotFoundError as err:
        click.echo(f"game: game package not yet available ({err.name})", err=True)
        sys.exit(1)
    click.echo("\n".join(lines))
