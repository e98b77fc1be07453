"""The runtime's check of command signatures (services/runtime/identity.py), as the bus runs it
before every handler, and what the table and vision aggregates then record."""
from __future__ import annotations

import dataclasses
import stat

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from contracts import encode
from contracts.envelope import Actor
from contracts.table import CloseTable, CommandRejected, OpenTable, TableClosed, TableOpenedData
from contracts.vision import ResolutionRefused, VerificationResolved
from services.runtime.identity import (
    Identity,
    Signer,
    generate_key,
    init_root,
    load_private,
    load_public,
    registration,
    revocation,
)
from services.runtime.settings import Settings
from services.table.domain import TableSession
from tests.table.unit import PIT, T, cmd, handle
from tests.vision_service.test_checks import _do, resolve, under_verification


@pytest.fixture
def settings(tmp_path) -> Settings:
    return Settings(bootstrap="127.0.0.1:1", var_dir=tmp_path, require_signatures=True)


@pytest.fixture
def identity(settings):
    """A service's identity whose key ring has a supervisor JM1, a dealer D1 and an officer
    SURV-1 registered by the root key (as the keys topic would deliver them)."""
    root = init_root(settings)
    made = {name: Signer(Ed25519PrivateKey.generate()) for name in ("sup", "dealer", "surv")}
    ident = Identity(settings, "test")
    for offset, (name, role, who) in enumerate([("sup", "table_supervisor", "JM1"),
                                                ("dealer", "dealer", "D1"),
                                                ("surv", "surveillance", "SURV-1")]):
        ident.take(offset, encode(registration(root, made[name].key.public_key(), role, who)))
    ident.signers = made  # type: ignore[attr-defined]
    ident.root = root     # type: ignore[attr-defined]
    return ident


def opened() -> TableSession:
    table = TableSession(T)
    handle(table, cmd(OpenTable, actor=PIT, payload=TableOpenedData(
        game="roulette", variant="european", profile="BO", currency="BOB", min_bet=100,
        max_bet=50_000)))
    return table


def checked(identity: Identity, command):
    return identity.authenticate(encode(command), command)


def close():
    return CloseTable(target_id=T, issued_by="test", actor=PIT)


def test_key_files_are_private_and_load_back(tmp_path):
    key = generate_key(tmp_path / "k.key")
    assert stat.S_IMODE((tmp_path / "k.key").stat().st_mode) == 0o600
    raw = load_private(tmp_path / "k.key").public_key().public_bytes_raw()
    assert raw == key.public_key().public_bytes_raw()
    assert load_public(tmp_path / "k.pub").public_bytes_raw() == raw
    with pytest.raises(FileExistsError):
        generate_key(tmp_path / "k.key")
    (tmp_path / "bad.key").write_text("nope")
    with pytest.raises(ValueError, match="bad.key"):
        load_private(tmp_path / "bad.key")


def test_the_registered_actor_replaces_the_written_one(identity):
    command = checked(identity, identity.signers["dealer"].sign(close()))
    assert command.actor == Actor(employee_id="D1", role="dealer")
    assert command._authentication.ok


def test_unsigned_commands_pass_as_written_only_where_signatures_are_not_required(identity,
                                                                                 settings):
    assert checked(identity, close()).actor is None  # required: refused later, no actor
    lenient = Identity(dataclasses.replace(settings, require_signatures=False), "test")
    command = close()
    assert checked(lenient, command) is command
    # ... but a signed one is still checked there: a forgery is not waved through
    forged = identity.signers["sup"].sign(close()).model_copy(update={"target_id": "X"})
    assert not checked(lenient, forged)._authentication.ok


def test_the_table_refuses_a_dealer_key_and_a_forgery_as_forbidden_once(identity):
    table = opened()
    dealer_close = checked(identity, identity.signers["dealer"].sign(close()))
    [refused] = handle(table, dealer_close)
    assert isinstance(refused, CommandRejected) and refused.payload.code == "FORBIDDEN"
    assert "role dealer may not issue CloseTable (employee D1" in refused.payload.reason
    assert handle(table, dealer_close) == []  # redelivered: nothing recorded twice
    forged = identity.signers["sup"].sign(close()).model_copy(update={"issued_by": "x"})
    [refused] = handle(table, checked(identity, forged))
    assert (refused.payload.code, refused.payload.field) == ("FORBIDDEN", "signature")
    assert "forged" in refused.payload.reason and refused.actor is None
    [closed] = handle(table, checked(identity, identity.signers["sup"].sign(close())))
    assert isinstance(closed, TableClosed)
    assert closed.actor == Actor(employee_id="JM1", role="table_supervisor")


def test_the_vision_service_refuses_a_revoked_officer_key_the_same_way(identity):
    surv = identity.signers["surv"]
    ok = checked(identity, surv.sign(resolve("UPHELD", actor=None)))
    identity.take(3, encode(revocation(identity.root, surv.key_id, "left the company")))
    late = checked(identity, surv.sign(resolve("UPHELD", actor=None)))
    check = under_verification("17", camera="18")
    [refused] = _do(check.resolve, late)
    assert isinstance(refused, ResolutionRefused) and refused.payload.field == "signature"
    assert "revoked by root: left the company" in refused.payload.reason
    [resolved] = _do(check.resolve, ok)
    assert isinstance(resolved, VerificationResolved) and resolved.payload.resolved_by == "SURV-1"


def test_a_key_event_folded_twice_counts_once_and_a_bad_one_is_ignored(identity):
    before = len(identity.ring.keys)
    identity.take(0, b"not json")           # a redelivered offset: skipped
    identity.take(4, b"not json")
    assert len(identity.ring.keys) == before and identity.next_offset == 5
    assert identity.status()["key_events_ignored"] == 1


def test_a_spin_redelivered_after_its_key_was_revoked_changes_nothing(identity):
    from contracts.table import CloseBets, OpenRound, RecordSpin, RecordSpinData

    table, dealer = opened(), identity.signers["dealer"]
    for kind in (OpenRound, CloseBets):
        handle(table, checked(identity, dealer.sign(kind(target_id=T, issued_by="t"))))
    spin = dealer.sign(RecordSpin(target_id=T, issued_by="t",
                                  payload=RecordSpinData(pocket="17")))
    first = handle(table, checked(identity, spin))
    assert [e.event_type for e in first][:1] == ["SpinResulted"]
    identity.take(3, encode(revocation(identity.root, dealer.key_id, "shift over")))
    assert handle(table, checked(identity, spin)) == []


def test_the_bus_checks_the_signature_before_the_handler_and_logs_the_refusal(settings,
                                                                             caplog):
    """The one place: Bus._handle authenticates every command before its handler runs."""
    import asyncio
    import logging
    from types import SimpleNamespace

    from contracts.topics import TABLE_COMMANDS_TOPIC
    from services.runtime.bus import Bus, Handlers
    from services.runtime.store import BatchContext

    init_root(settings)
    bus, seen = Bus(settings, "test-service"), []
    handlers: Handlers = {CloseTable: lambda command, ctx: seen.append(command)}
    bus.consume([TABLE_COMMANDS_TOPIC], "g", handlers)
    assert bus.identity is not None and bus.identity.required
    record = SimpleNamespace(topic=TABLE_COMMANDS_TOPIC.name, partition=0, offset=7, key=b"T",
                             value=encode(close()))
    with caplog.at_level(logging.WARNING, logger="services.runtime.bus"):
        asyncio.run(bus._handle(record, set(TABLE_COMMANDS_TOPIC.type_names), handlers,
                                BatchContext()))
    [command] = seen
    assert command.actor is None and "unsigned" in command._authentication.problem
    assert bus.stats["commands.forbidden"] == 1
    [logged] = [r for r in caplog.records if r.getMessage() == "command refused: forbidden"]
    assert logged.field == "signature" and "unsigned" in logged.reason
    assert bus.status()["identity"]["commands_not_authenticated"] == {"unsigned": 1}
