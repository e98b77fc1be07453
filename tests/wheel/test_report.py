"""`casino report devices` rows and text, from rebuilt devices: statistics, void causes, open
alerts and who acknowledged the others."""
from __future__ import annotations

from contracts.devices import AcknowledgeData, AcknowledgeWheelAlert
from contracts.envelope import Actor
from contracts.permissions import may
from services.cli.devices import dice_row, render, wheel_row
from tests.dice.unit import ready as ready_dice
from tests.dice.unit import roll
from tests.wheel.unit import cmd, handle, ready, spin

SURVEILLANCE = Actor(employee_id="CCTV1", role="surveillance")


def test_a_wheel_row_has_its_statistics_and_its_alerts() -> None:
    wheel = ready()
    rotors = ["clockwise", "counterclockwise"]
    handle(wheel, *[spin(str(i % 37), rotor=rotors[i % 2],
                         revolutions=2 if i in (3, 5, 7, 9) else 6) for i in range(50)])
    [first] = list(wheel.alerts)
    handle(wheel, cmd(AcknowledgeWheelAlert, AcknowledgeData(alert_id=first, comment="ok"),
                      actor=SURVEILLANCE))
    handle(wheel, *[spin(str(i % 37), rotor=rotors[i % 2], revolutions=1)
                    for i in range(50, 54)])
    row = wheel_row(wheel)
    assert (row["spins"], row["valid"], row["voided"]) == (54, 46, 8)
    assert row["void_causes"] == {"too_few_revolutions": 8}
    assert row["revolutions"]["2"] == 4 and row["revolutions"]["1"] == 4
    assert row["short_spins"] == 8
    assert [a["acknowledged_by"] for a in row["acknowledged_alerts"]] == ["CCTV1"]
    assert [a["test"] for a in row["open_alerts"]] == ["revolutions"]
    text = render([row])
    assert "OPEN ALERT" in text and "acknowledged by CCTV1" in text and ": ok" in text


def test_a_dice_row_has_faces_and_totals() -> None:
    dice = ready_dice()
    handle_rolls = [roll(6, 5), roll(1, 1, void="dice_slid"), roll(3, 4)]
    for r in handle_rolls:
        dice.handle(r)
        dice.collect()
    row = dice_row(dice)
    assert (row["valid"], row["voided"]) == (2, 1)
    assert row["faces"]["6"] == 1 and row["faces"]["1"] == 0 and row["totals"]["7"] == 1
    assert row["reserve"] == ["D3", "D4", "D5"]
    assert "dice set DS-0001" in render([row])


def test_the_device_role_may_only_forward_results() -> None:
    assert may("device", "RecordSpin") and may("device", "RecordRoll")
    assert not may("device", "OpenRound") and not may("device", "AcknowledgeWheelAlert")
    assert not may("dealer", "AcknowledgeWheelAlert") and may("surveillance",
                                                               "AcknowledgeDiceAlert")
