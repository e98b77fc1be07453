"""A dice set's life (domain.md §4.3) and void rolls (domain.md §4.4)."""
from __future__ import annotations

import pytest
from pydantic import ValidationError

from contracts.devices import (
    ChooseDice,
    DiceChoiceData,
    DiceChosen,
    DiceCommandRejected,
    DiceSetWithdrawn,
    DieFound,
    DieFoundData,
    DieIncidentData,
    ReportDieFound,
    ReportDieIncident,
    RollAccepted,
    RollVoided,
    WithdrawData,
    WithdrawDiceSet,
)
from services.dice.domain import DiceSet
from services.dice.validity import CAUSES
from tests.dice.unit import DEALER, SET, cmd, handle, ready, roll, setup


def test_the_shooter_chooses_two_and_the_rest_are_the_reserve() -> None:
    dice = DiceSet(SET)
    events = handle(dice, *setup())
    chosen = events[-1]
    assert isinstance(chosen, DiceChosen)
    assert chosen.payload.in_play == ("D1", "D2")
    assert chosen.payload.reserve == ("D3", "D4", "D5")


def test_a_valid_roll_is_accepted() -> None:
    [event] = handle(ready(), roll(3, 4))
    assert isinstance(event, RollAccepted) and event.payload.dice == (3, 4)


@pytest.mark.parametrize("cause", sorted(CAUSES))
def test_every_void_cause_of_domain_md_4_4_voids_the_roll(cause: str) -> None:
    dice = ready()
    [event] = handle(dice, roll(6, 6, void=cause))
    assert isinstance(event, RollVoided) and event.payload.cause == cause
    assert event.payload.kind == CAUSES[cause][0]
    assert "§" in event.payload.rule
    assert dice.stats.valid == 0 and dice.stats.voided == 1


def test_the_void_causes_are_exactly_those_of_domain_md() -> None:
    nula = {c for c, (k, _) in CAUSES.items() if k == "tirada_nula"}
    assert nula == {"die_broke", "dice_overlap", "die_on_chip", "die_off_table", "die_on_rail",
                    "die_in_reserve_basket", "incorrect_throw"}
    assert set(CAUSES) - nula == {"far_wall_not_touched", "die_resting_on_object",
                                  "dice_handled_improperly", "dice_slid"}


def test_a_void_roll_lets_the_same_round_be_rolled_again_but_not_a_second_result() -> None:
    dice = ready()
    events = handle(dice, roll(2, 2, void="dice_slid", round_id="C1.5"),
                    roll(3, 3, round_id="C1.5"), roll(5, 5, round_id="C1.5"))
    assert [type(e) for e in events] == [RollVoided, RollAccepted, DiceCommandRejected]
    assert events[2].payload.field == "payload.round_id"  # type: ignore[attr-defined]


def test_a_roll_from_another_table_is_refused() -> None:
    [event] = handle(ready(), roll(1, 2, table="C9"))
    assert isinstance(event, DiceCommandRejected) and event.payload.field == "payload.table_id"


def test_a_die_value_of_seven_is_refused_by_the_contract() -> None:
    with pytest.raises(ValidationError, match="dice"):
        roll(7, 1)


def test_a_die_off_the_table_found_or_not() -> None:
    dice = ready()
    handle(dice, cmd(ReportDieIncident, DieIncidentData(die="D1", incident="off_table"),
                     actor=DEALER))
    [refused] = handle(dice, roll(1, 1))
    assert isinstance(refused, DiceCommandRejected)   # the shooter must choose again
    [chosen] = handle(dice, cmd(ChooseDice, DiceChoiceData(in_play=("D2", "D3")), actor=DEALER))
    assert isinstance(chosen, DiceChosen) and "D1" not in chosen.payload.reserve
    [ok] = handle(dice, roll(1, 1))
    assert isinstance(ok, RollAccepted)
    found, withdrawn = handle(dice, cmd(ReportDieFound, DieFoundData(die="D1", found=False),
                                        actor=DEALER))
    assert isinstance(found, DieFound)
    assert isinstance(withdrawn, DiceSetWithdrawn)
    assert withdrawn.payload.reason == "die_not_found" and "§4.3 item 7" in withdrawn.payload.rule
    [refused] = handle(dice, roll(1, 2))
    assert isinstance(refused, DiceCommandRejected) and "withdrawn" in refused.payload.reason


def test_a_damaged_die_withdraws_the_set() -> None:
    dice = ready()
    events = handle(dice, cmd(ReportDieIncident, DieIncidentData(die="D2", incident="damaged"),
                              actor=DEALER))
    assert isinstance(events[-1], DiceSetWithdrawn)
    assert events[-1].payload.reason == "die_damaged"


def test_dice_are_changed_after_the_set_number_of_rolls_or_at_the_supervisors_call() -> None:
    dice = ready(change_after=3)
    events = handle(dice, roll(1, 2), roll(3, 4), roll(5, 6))
    assert isinstance(events[-1], DiceSetWithdrawn)
    assert events[-1].payload.reason == "rolls_limit"
    other = ready()
    [refused] = handle(other, cmd(WithdrawDiceSet, WithdrawData(), actor=DEALER))
    assert isinstance(refused, DiceCommandRejected) and refused.payload.code == "FORBIDDEN"
    [withdrawn] = handle(other, cmd(WithdrawDiceSet, WithdrawData()))
    assert isinstance(withdrawn, DiceSetWithdrawn) and withdrawn.payload.reason == "supervisor"


def test_rebuilt_from_its_events_the_set_is_the_same() -> None:
    dice = DiceSet(SET)
    log = handle(dice, *setup(), roll(1, 2), roll(6, 6, void="die_on_rail"), roll(3, 3))
    again = DiceSet.rebuild(SET, log)
    assert again.stats == dice.stats and again.in_play == dice.in_play
    assert again.rounds_rolled == dice.rounds_rolled
