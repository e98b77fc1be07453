"""`casino keys` and `casino send --key` on a real broker: the root key, registering,
listing and revoking keys, and a script's commands signed with a key."""
from __future__ import annotations

import json
from typing import Any

import pytest

from contracts import decode
from contracts.envelope import Command
from contracts.identity import KeyRing
from tests.cli.tools import json_lines, run
from tests.e2e.floor import read_topic


@pytest.fixture
def var(tmp_path, monkeypatch, bootstrap):
    monkeypatch.setenv("CASINO_VAR_DIR", str(tmp_path))
    monkeypatch.setenv("KAFKA_BOOTSTRAP_SERVERS", bootstrap)
    return tmp_path


def test_init_register_list_and_revoke(var):
    first = json.loads(run("keys", "init", "--json").stdout)
    assert first["created"] and (var / "identity" / "root.pub").exists()
    assert json.loads(run("keys", "init", "--json").stdout) == {**first, "created": False}
    made = json.loads(run("keys", "generate", str(var / "jm1.key"), "--json").stdout)
    assert run("keys", "generate", str(var / "jm1.key")).exit_code == 1  # never overwritten

    done = run("keys", "register", str(var / "jm1.pub"), "--role", "table_supervisor",
               "--principal", "JM1", "--json")
    assert done.exit_code == 0, done.output
    again = run("keys", "register", str(var / "jm1.key"), "--role", "pit_manager",
                "--principal", "JM1")
    assert again.exit_code == 1 and "already registered to JM1 as table_supervisor" in \
        again.output
    bad_role = run("keys", "register", str(var / "jm1.pub"), "--role", "boss", "--principal", "x")
    assert bad_role.exit_code == 2

    listed = json.loads(run("keys", "list", "--json").stdout)["keys"]
    assert {(k["key_id"], k["role"], k["principal_id"], k["status"]) for k in listed} == {
        (first["key_id"], "admin", "root", "active"),
        (made["key_id"], "table_supervisor", "JM1", "active")}

    revoked = run("keys", "revoke", made["key_id"], "--reason", "badge lost")
    assert revoked.exit_code == 0, revoked.output
    assert run("keys", "revoke", made["key_id"], "--reason", "twice").exit_code == 1
    assert run("keys", "revoke", first["key_id"], "--reason", "x").exit_code == 1
    row = next(k for k in json.loads(run("keys", "list", "--json").stdout)["keys"]
               if k["key_id"] == made["key_id"])
    assert (row["status"], row["revoke_reason"]) == ("revoked", "badge lost")


def test_register_without_a_root_key_says_how_to_make_one(var):
    run("keys", "generate", str(var / "d.key"))
    out = run("keys", "register", str(var / "d.pub"), "--role", "dealer", "--principal", "D1")
    assert out.exit_code == 1 and "casino keys init" in out.output


def test_send_with_a_key_signs_every_command(var, bootstrap):
    made = json.loads(run("keys", "generate", str(var / "d7.key"), "--json").stdout)
    script = '{"command_type":"OpenRound","target_id":"KEY-01"}\n' \
             '{"command_type":"CloseBets","target_id":"KEY-01"}\n'
    sent = run("send", "-", "--key", str(var / "d7.key"), "--json", stdin=script)
    assert sent.exit_code == 0, sent.output
    ids = {a["command_id"] for a in json_lines(sent.stdout)}
    commands: list[Any] = [decode(r.value) for r in read_topic(bootstrap,
                                                               "floor.table.commands")]
    mine = [c for c in commands if c.command_id in ids]
    assert len(mine) == 2 and all(c.key_id == made["key_id"] and c.signature for c in mine)
    # verifiable with the key's public half: a ring that knows it authenticates them
    from services.runtime.identity import load_public, registration

    run("keys", "init")
    from services.runtime.identity import load_private
    ring = KeyRing(load_public(var / "identity" / "root.pub"))
    event = registration(load_private(var / "identity" / "root.key"),
                         load_public(var / "d7.pub"), "dealer", "D7")
    ring.apply(json.loads(event.model_dump_json()), event)
    raw = {c.command_id: r.value for r in read_topic(bootstrap, "floor.table.commands")
           if isinstance(c := decode(r.value), Command)}
    for c in mine:
        auth = ring.authenticate(json.loads(raw[c.command_id]), c)
        assert auth.ok and auth.actor is not None and auth.actor.employee_id == "D7"
    assert run("send", "-", "--key", str(var / "d7.pub"), stdin=script).exit_code == 2
