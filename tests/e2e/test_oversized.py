"""A command with a 1 MB field (issue 12's probe): its dead letter once held a 1.33 MB base64
copy, over the producer's request size, so the batch was redelivered forever and newly opened
tables never got TableOpened. Now the dead letter keeps the original's size, SHA-256 and head,
and the next command on the partition is handled. Real broker, real table service."""
from __future__ import annotations

import asyncio
import hashlib
import json

from kafka import KafkaProducer

import contracts
from contracts.deadletter import HEAD, DeadLetter
from contracts.envelope import Actor
from contracts.table import OpenTable, TableOpened, TableOpenedData
from contracts.topics import DEAD_LETTER_TOPIC, TABLE_COMMANDS_TOPIC, TABLE_EVENTS_TOPIC
from services.runtime.settings import Settings
from services.table import bootstrap as table_service
from tests.e2e.floor import read_topic, wait_for

PIT = Actor(employee_id="PM9", role="pit_manager")
CONFIG = TableOpenedData(game="roulette", variant="european", profile="BO", currency="BOB",
                         min_bet=100, max_bet=50_000)


def opened(bootstrap: str) -> set[str]:
    return {e.aggregate_id for e in map(contracts.decode,
                                        (r.value for r in read_topic(bootstrap,
                                                                     TABLE_EVENTS_TOPIC.name)))
            if isinstance(e, TableOpened)}


def test_a_1_mb_command_is_dead_lettered_whole_in_size_and_hash_and_play_goes_on(
        floor: Settings) -> None:
    huge = json.loads(contracts.encode(OpenTable(target_id="BIG-01", issued_by="t", actor=PIT,
                                                 payload=CONFIG)))
    huge["actor"]["employee_id"] = "x" * 1_000_000       # far over the 64-character limit
    raw = json.dumps(huge).encode()
    producer = KafkaProducer(bootstrap_servers=floor.bootstrap, max_request_size=4 * 1024 * 1024)
    producer.send(TABLE_COMMANDS_TOPIC.name, key=b"BIG-01", value=raw)
    producer.send(TABLE_COMMANDS_TOPIC.name, key=b"BIG-01", value=contracts.encode(
        OpenTable(target_id="BIG-01", issued_by="t", actor=PIT, payload=CONFIG)))
    producer.flush()
    producer.close()

    async def scenario() -> None:
        stop = asyncio.Event()
        task = asyncio.create_task(table_service.main(floor, stop=stop))
        try:
            await wait_for(lambda: "BIG-01" in opened(floor.bootstrap), 90,
                           "the valid OpenTable after the oversized one")
        finally:
            stop.set()
            await task

    asyncio.run(scenario())
    letters = [d for d in map(contracts.decode, (r.value for r in read_topic(
        floor.bootstrap, DEAD_LETTER_TOPIC.name))) if isinstance(d, DeadLetter)]
    [letter] = [d for d in letters if d.key == "BIG-01"]
    assert letter.code == "invalid_payload" and "actor.employee_id" in letter.reason
    assert letter.truncated and letter.original_size == len(raw)
    assert letter.original_sha256 == hashlib.sha256(raw).hexdigest()
    assert letter.original() == raw[:HEAD]
    assert len(contracts.encode(letter)) < 64 * 1024
