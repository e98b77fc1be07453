"""Registering keys from a program (`casino run`, the simulator, tests): the key events it
publishes, signed by an administrator key (services/runtime/identity.py makes and checks them)."""
from __future__ import annotations

from collections.abc import Iterable

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from contracts.identity import key_id_of
from services.runtime.bus import Bus
from services.runtime.identity import PRODUCER, read_ring, registration
from services.runtime.settings import Settings


async def ensure_registered(settings: Settings, admin: Ed25519PrivateKey,
                            wanted: Iterable[tuple[Ed25519PublicKey, str, str]]) -> list[str]:
    """Register each (public key, role, principal) the log does not have yet, signed by
    `admin`; the ids of the keys registered now."""
    ring = await read_ring(settings)
    events = [registration(admin, pub, role, who) for pub, role, who in wanted
              if key_id_of(pub) not in ring.keys]
    if events:
        bus = Bus(settings, PRODUCER)
        await bus.broker.connect()
        try:
            await bus.publish(events)
        finally:
            await bus.broker.stop()
    return [e.payload.key_id for e in events]
