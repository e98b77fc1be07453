"""An event over its topic's size limit, produced by a handler, does not wedge the consumer: the
runtime's publish refuses it (naming the topic and the limit), and the command that caused it
is dead-lettered with that reason while the table's next commands are handled. The command is
published raw, past `casino send`'s own check, as a rogue producer would (Tansu does not
enforce max.message.bytes). Real broker, real table service."""
from __future__ import annotations

import asyncio

from kafka import KafkaProducer

import contracts
from contracts.deadletter import DeadLetter
from contracts.envelope import Actor
from contracts.table import (
    CloseTable,
    OpenTable,
    TableClosed,
    TableClosedData,
    TableOpened,
    TableOpenedData,
)
from contracts.topics import DEAD_LETTER_TOPIC, TABLE_COMMANDS_TOPIC, TABLE_EVENTS_TOPIC
from services.runtime.settings import Settings
from services.table import bootstrap as table_service
from tests.e2e.floor import read_topic, wait_for

PIT = Actor(employee_id="PM9", role="pit_manager")
CONFIG = TableOpenedData(game="roulette", variant="european", profile="BO", currency="BOB",
                         min_bet=100, max_bet=50_000)
T = "HUGE-01"
LIMIT = TABLE_EVENTS_TOPIC.max_message_bytes


def events(bootstrap: str) -> list:
    return [contracts.decode(r.value) for r in read_topic(bootstrap, TABLE_EVENTS_TOPIC.name)]


def test_a_handler_s_oversized_event_dead_letters_its_command_and_the_table_goes_on(
        floor: Settings) -> None:
    huge = CloseTable(target_id=T, issued_by="t", actor=PIT,
                      payload=TableClosedData(reason="x" * (LIMIT + 1)))
    producer = KafkaProducer(bootstrap_servers=floor.bootstrap, max_request_size=4 << 20)
    for command in (OpenTable(target_id=T, issued_by="t", actor=PIT, payload=CONFIG), huge,
                    CloseTable(target_id=T, issued_by="t", actor=PIT,
                               payload=TableClosedData(reason="end of session"))):
        producer.send(TABLE_COMMANDS_TOPIC.name, key=T.encode(), value=contracts.encode(command))
    producer.flush()
    producer.close()

    async def scenario() -> None:
        stop = asyncio.Event()
        task = asyncio.create_task(table_service.main(floor, stop=stop))
        try:
            await wait_for(lambda: any(isinstance(e, TableClosed) for e in events(
                floor.bootstrap)), 90, "the valid CloseTable after the oversized one")
        finally:
            stop.set()
            await task

    asyncio.run(scenario())
    assert [type(e) for e in events(floor.bootstrap)] == [TableOpened, TableClosed]
    letters = [d for d in map(contracts.decode, (r.value for r in read_topic(
        floor.bootstrap, DEAD_LETTER_TOPIC.name))) if isinstance(d, DeadLetter)]
    [letter] = [d for d in letters if d.key == T]
    assert letter.code == "poison" and letter.source_topic == TABLE_COMMANDS_TOPIC.name
    assert f"over the {LIMIT}-byte limit of floor.table.events" in letter.reason, letter.reason
    assert letter.truncated and letter.original_size == len(contracts.encode(huge))
    [closed] = [e for e in events(floor.bootstrap) if isinstance(e, TableClosed)]
    assert closed.payload.reason == "end of session"
