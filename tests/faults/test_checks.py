"""The fault suite's checks catch what they claim to: a command with no answer is lost, a
forked sequence or a second settlement is "applied twice", an identical redelivery is not, and
a dead letter answers its command. Synthetic logs, from a real table session."""
from __future__ import annotations

from types import SimpleNamespace

from contracts.deadletter import DeadLetter
from contracts.envelope import Command, Event
from contracts.table import (
    BetSettled,
    CloseBets,
    OpenRound,
    OpenTable,
    RecordSpin,
    RecordSpinData,
    TableOpenedData,
)
from contracts.topics import TABLE_COMMANDS_TOPIC, TABLE_EVENTS_TOPIC
from services.table.domain import TableSession
from tests.faults.checks import Log, applied_twice, expected_figures, lost_commands
from tests.table.unit import T, bet, cmd

CONFIG = TableOpenedData(game="roulette", variant="european", seating="open", profile="BO",
                         currency="BOB", min_bet=100, max_bet=50_000)


def one_round() -> tuple[list[Command], list[Event]]:
    session = TableSession(T)
    commands = [cmd(OpenTable, payload=CONFIG), cmd(OpenRound), bet(amount=1000), cmd(CloseBets),
                cmd(RecordSpin, payload=RecordSpinData(pocket="17"))]
    for c in commands:
        session.handle(c)
    return commands, session.collect()


def log_of(commands: list[Command], events: list[Event],
           letters: list[DeadLetter] = ()) -> Log:   # type: ignore[assignment]
    def rec(i: int) -> SimpleNamespace:
        return SimpleNamespace(partition=0, offset=i)
    return Log([(rec(i), c) for i, c in enumerate(commands)],
               [(rec(i), e) for i, e in enumerate(events)], list(letters))


def test_a_complete_log_has_nothing_lost_or_twice_and_its_figures():
    commands, events = one_round()
    log = log_of(commands, events)
    assert lost_commands(log) == [] and applied_twice(log) == []
    [figures] = expected_figures(log).values()
    assert (figures["rounds"], figures["wagered"], figures["paid"]) == (1, 1000, 36_000)


def test_a_command_without_events_is_lost_unless_dead_lettered():
    commands, events = one_round()
    spin = commands[-1]
    log = log_of(commands, [e for e in events if e.causation_id != spin.command_id])
    assert lost_commands(log) == [f"{TABLE_COMMANDS_TOPIC.name}[0]@4: RecordSpin "
                                  f"{spin.command_id}"]
    letter = DeadLetter.keeping(b"x", service="t", source_topic=TABLE_COMMANDS_TOPIC.name,
                                partition=0, offset=4, code="poison", reason="r")
    assert lost_commands(log_of(commands, log.applied_events(), [letter])) == []


def test_an_identical_redelivery_is_not_twice_but_a_fork_and_a_second_settlement_are():
    commands, events = one_round()
    assert applied_twice(log_of(commands, events + events)) == []
    settled = next(e for e in events if isinstance(e, BetSettled))
    fork = settled.model_copy(update={"event_id": "another"})
    assert applied_twice(log_of(commands, events + [fork])) == [
        f"{T}: sequences [{settled.sequence}] carried by two events", "bet settled 2 times: b1"]
    later = settled.model_copy(update={"event_id": "again", "sequence": len(events) + 1})
    assert applied_twice(log_of(commands, events + [later])) == ["bet settled 2 times: b1"]


def test_a_dead_lettered_event_is_not_applied():
    commands, events = one_round()
    letter = DeadLetter.keeping(b"x", service="projector", source_topic=TABLE_EVENTS_TOPIC.name,
                                partition=0, offset=len(events) - 1, code="poison", reason="r")
    log = log_of(commands, events, [letter])
    assert log.applied_events() == events[:-1]
