"""`casino report devices`: every wheel and dice set with its outcome statistics and alerts,
folded from the device topics (floor.wheel.events, floor.dice.events) — the devices' own logs,
rebuilt the way their services rebuild them."""
from __future__ import annotations

import asyncio
import json
from typing import Any

import click

from contracts.topics import DICE_EVENTS_TOPIC, WHEEL_EVENTS_TOPIC
from services.dice.domain import DiceSet
from services.runtime.device import Alert
from services.runtime.store import AggregateStore
from services.wheel.domain import Wheel


def _alerts(alerts: dict[str, Alert]) -> dict[str, list[dict]]:
    rows = [vars(a).copy() for a in alerts.values()]
    return {"open_alerts": [r for r in rows if r["acknowledged_by"] is None],
            "acknowledged_alerts": [r for r in rows if r["acknowledged_by"] is not None]}


def wheel_row(wheel: Wheel) -> dict[str, Any]:
    return {"kind": "wheel", "serial": wheel.id, "variant": wheel.variant,
            "profile": wheel.profile, "table": wheel.table_id, "tables": wheel.tables,
            "open": wheel.in_session, "seal": wheel.seal, **wheel.stats.summary(),
            **_alerts(wheel.alerts)}


def dice_row(dice: DiceSet) -> dict[str, Any]:
    return {"kind": "dice_set", "serial": dice.id, "table": dice.table_id,
            "dice": list(dice.dice), "in_play": list(dice.in_play), "reserve": list(dice.reserve),
            "lost": sorted(dice.lost), "withdrawn": dice.withdrawn, **dice.stats.summary(),
            **_alerts(dice.alerts)}


async def devices_report(bootstrap: str) -> list[dict[str, Any]]:
    """Every device's row, rebuilt from its log."""
    wheels = AggregateStore(factory=Wheel, aggregate_type="wheel", events=WHEEL_EVENTS_TOPIC,
                            bootstrap=bootstrap)
    dice = AggregateStore(factory=DiceSet, aggregate_type="dice_set", events=DICE_EVENTS_TOPIC,
                          bootstrap=bootstrap)
    await wheels.own_all()
    await dice.own_all()
    return ([wheel_row(w) for _, w in sorted(wheels.aggregates.items()) if w.registered]
            + [dice_row(d) for _, d in sorted(dice.aggregates.items()) if d.issued])


def render(rows: list[dict[str, Any]]) -> str:
    lines = []
    for r in rows:
        if r["kind"] == "wheel":
            lines.append(
                f"wheel {r['serial']} ({r['variant']}, {r['profile']}) at {r['table']}"
                f"{' open' if r['open'] else ', sealed ' + str(r['seal'])}: {r['spins']} spins, "
                f"{r['valid']} valid, {r['voided']} void {r['void_causes'] or ''}".rstrip())
            lines.append(
                f"  pockets chi-square {r['pocket_chi_square']} (p {r['pocket_p_value']}), "
                f"sectors {r['sector_chi_square']} (p {r['sector_p_value']}), direction "
                f"repeats {r['direction_repeats']}, mean revolutions {r['revolutions_mean']}, "
                f"short spins {r['short_spins']}")
        else:
            lines.append(
                f"dice set {r['serial']} at {r['table']}"
                f"{', withdrawn (' + r['withdrawn'] + ')' if r['withdrawn'] else ''}: "
                f"in play {', '.join(r['in_play']) or '-'}, reserve {', '.join(r['reserve'])}; "
                f"{r['rolls']} rolls, {r['valid']} valid, {r['voided']} void "
                f"{r['void_causes'] or ''}".rstrip())
            lines.append(
                f"  faces chi-square {r['face_chi_square']} (p {r['face_p_value']}), totals "
                f"{r['total_chi_square']} (p {r['total_p_value']})")
        for a in r["open_alerts"]:
            lines.append(f"  OPEN ALERT {a['alert_id']} {a['test']} since {a['raised_at']}: "
                         f"{a['detail']}")
        for a in r["acknowledged_alerts"]:
            lines.append(f"  alert {a['alert_id']} {a['test']} acknowledged by "
                         f"{a['acknowledged_by']} at {a['acknowledged_at']}: {a['comment']}")
    return "\n".join(lines) if lines else "No wheels or dice sets yet."


@click.command()
@click.option("--bootstrap", envvar="KAFKA_BOOTSTRAP_SERVERS", required=True,
              help="Kafka bootstrap servers (or KAFKA_BOOTSTRAP_SERVERS).")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per device.")
def devices(bootstrap: str, as_json: bool) -> None:
    """Wheels and dice sets: spins and rolls, void causes, outcome statistics (chi-square),
    open alerts and who acknowledged the others."""
    try:
        rows = asyncio.run(devices_report(bootstrap))
    except Exception as err:  # the broker away: say so, exit non-zero
        raise click.ClickException(f"could not read the device topics at {bootstrap}: "
                                   f"{type(err).__name__}: {err}") from err
    if as_json:
        for row in rows:
            click.echo(json.dumps(row))
    else:
        click.echo(render(rows))
