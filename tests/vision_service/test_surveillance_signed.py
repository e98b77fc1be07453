"""`casino surveillance resolve --key`: the officer's command goes out signed by the key, and
the key's registration, not --by, names the officer (end to end: tests/e2e)."""
from __future__ import annotations

import json

from click.testing import CliRunner
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from contracts import encode
from contracts.identity import KeyRing
from services.cli.main import casino
from services.runtime.identity import generate_key, registration
from services.vision.service import cli


def run(*args: str):
    return CliRunner().invoke(casino, ["surveillance", "resolve", *args])


def test_the_command_is_signed_with_the_officers_key(tmp_path, monkeypatch):
    key = generate_key(tmp_path / "surv.key")
    sent = []

    async def publish(_settings, command) -> None:
        sent.append(command)
    monkeypatch.setattr(cli, "_publish", publish)
    res = run("c-1", "--upheld", "--key", str(tmp_path / "surv.key"), "--wait", "0")
    assert res.exit_code == 0, res.output
    [command] = sent
    assert command.actor is None and command.signature is not None
    root = Ed25519PrivateKey.generate()
    ring = KeyRing(root.public_key())
    event = registration(root, key.public_key(), "surveillance", "SURV-9")
    ring.apply(json.loads(encode(event)), event)
    auth = ring.authenticate(json.loads(encode(command)), command)
    assert auth.ok and auth.actor is not None and auth.actor.employee_id == "SURV-9"


def test_an_officer_is_named_by_by_or_key_and_a_bad_key_file_is_a_usage_error(tmp_path):
    assert "give --by NAME, --key FILE, or both" in run("c-1", "--upheld").output
    (tmp_path / "x.key").write_text("not a key")
    bad = run("c-1", "--upheld", "--key", str(tmp_path / "x.key"))
    assert bad.exit_code == 2 and "--key" in bad.output
