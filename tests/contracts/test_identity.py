"""The key ring and command signatures (contracts/identity.py): which key events count, and
what a signed command authenticates as."""
from __future__ import annotations

import json
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from contracts import decode, encode
from contracts.envelope import Actor
from contracts.identity import (
    KeyRing,
    canonical,
    key_id_of,
    sign_command,
)
from contracts.permissions import authorize
from contracts.table import CloseTable
from services.runtime.identity import registration, revocation

PIT = Actor(employee_id="PM9", role="pit_manager")


def wire(message) -> tuple[dict, Any]:
    """What a consumer has: the JSON object of the bytes, and the decoded model."""
    data = encode(message)
    return json.loads(data), decode(data)


def fold(ring: KeyRing, *events) -> list[str | None]:
    return [ring.apply(*wire(e)) for e in events]


@pytest.fixture
def keys():
    return {name: Ed25519PrivateKey.generate() for name in ("root", "sup", "dealer", "admin2",
                                                          "mallory")}


@pytest.fixture
def ring(keys) -> KeyRing:
    ring = KeyRing(keys["root"].public_key())
    assert fold(ring, registration(keys["root"], keys["sup"].public_key(), "table_supervisor",
                                   "JM1"),
                registration(keys["root"], keys["dealer"].public_key(), "dealer", "D1")) == \
        [None, None]
    return ring


def close(**kw) -> CloseTable:
    return CloseTable(target_id="T1", issued_by="test", actor=PIT, **kw)


def test_a_signed_command_authenticates_as_its_registered_principal_and_role(keys, ring):
    auth = ring.authenticate(*wire(sign_command(close(), keys["dealer"])))
    assert auth.ok and auth.actor == Actor(employee_id="D1", role="dealer")
    assert auth.key_id == key_id_of(keys["dealer"].public_key())


def test_the_canonical_form_ignores_key_order_and_the_signature_only():
    assert canonical({"b": 1, "a": "ñ", "signature": "x"}) == '{"a":"ñ","b":1}'.encode()


@pytest.mark.parametrize("change,cause", [
    (lambda c, k: c, "unsigned"),
    (lambda c, k: sign_command(c, k["mallory"]), "unknown key"),
    (lambda c, k: sign_command(c, k["sup"]).model_copy(update={"target_id": "T2"}), "forged"),
    (lambda c, k: sign_command(c, k["sup"]).model_copy(
        update={"key_id": key_id_of(k["dealer"].public_key())}), "forged"),
    (lambda c, k: sign_command(c, k["root"]), "administrator key"),
])
def test_unsigned_unknown_forged_and_admin_signed_commands_are_not_authenticated(
        keys, ring, change, cause):
    auth = ring.authenticate(*wire(change(close(), keys)))
    assert not auth.ok and auth.actor is None and cause in (auth.problem or "")


def test_a_revoked_key_authenticates_nothing_from_its_revocation_on(keys, ring):
    signed = sign_command(close(), keys["sup"])
    assert ring.authenticate(*wire(signed)).ok
    kid = key_id_of(keys["sup"].public_key())
    assert fold(ring, revocation(keys["root"], kid, "badge lost")) == [None]
    auth = ring.authenticate(*wire(signed))
    assert not auth.ok and "revoked by root: badge lost" in (auth.problem or "")


def test_only_an_active_administrator_key_registers_or_revokes(keys, ring):
    mallory = keys["mallory"]
    sup_id = key_id_of(keys["sup"].public_key())
    # a supervisor key, or a key nobody registered, cannot register or revoke
    problems = fold(ring, registration(keys["sup"], mallory.public_key(), "pit_manager", "X"),
                    registration(mallory, mallory.public_key(), "pit_manager", "X"),
                    revocation(mallory, sup_id, "nope"))
    assert all(p and "not an active administrator key" in p for p in problems)
    assert key_id_of(mallory.public_key()) not in ring.keys and ring.keys[sup_id].active
    # a second administrator, registered by root, may; once revoked, no longer
    admin2 = keys["admin2"]
    assert fold(ring, registration(keys["root"], admin2.public_key(), "admin", "ADM2"),
                registration(admin2, mallory.public_key(), "cashier", "C1")) == [None, None]
    assert fold(ring, revocation(keys["root"], key_id_of(admin2.public_key()), "left"),
                revocation(admin2, sup_id, "too late"))[1] is not None
    assert ring.keys[sup_id].active


def test_a_key_event_altered_after_signing_or_rebinding_a_key_is_ignored(keys, ring):
    event = registration(keys["root"], keys["mallory"].public_key(), "cashier", "C1")
    obj, model = wire(event)
    obj["payload"]["role"] = "pit_manager"  # promoted by whoever could write the topic
    assert "does not match" in (ring.apply(obj, decode(json.dumps(obj).encode())) or "")
    again = registration(keys["root"], keys["dealer"].public_key(), "pit_manager", "D1")
    assert "already registered" in (fold(ring, again)[0] or "")
    assert ring.keys[key_id_of(keys["dealer"].public_key())].role == "dealer"
    root_id = key_id_of(keys["root"].public_key())
    assert "root key" in (fold(ring, revocation(keys["root"], root_id, "x"))[0] or "")


def test_authorize_refuses_with_the_cause_and_checks_the_registered_role(keys, ring):
    signed = sign_command(close(), keys["dealer"])
    obj, model = wire(signed)
    auth = ring.authenticate(obj, model)
    checked = model.model_copy(update={"actor": auth.actor})
    checked._authentication = auth
    field, reason = authorize(checked) or ("", "")
    assert field == "actor.role" and "role dealer may not issue CloseTable" in reason
    forged = model.model_copy(update={"actor": None})
    forged._authentication = ring.authenticate(obj | {"target_id": "T9"}, model)
    assert authorize(forged) == ("signature", "not authenticated: " +
                                 (forged._authentication.problem or ""))
    # a command no runtime checked (a handler's unit test) keeps its written actor
    assert authorize(close()) is None
