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
            await bus.stop()
    return [e.payload.key_id for e in events]


# The keys a floor needs besides its terminals' (the simulator registers those): file under
# <var>/identity -> (role, principal). The console keys are for people at the keyboard; the
# service keys sign what the wheel and dice services forward to the tables (role device).
FLOOR_KEYS = {"supervisor.key": ("table_supervisor", "JM-1"),
              "surveillance.key": ("surveillance", "SURV-1"),
              "services/wheel-service.key": ("device", "wheel-service"),
              "services/dice-service.key": ("device", "dice-service")}


async def setup_floor_keys(settings: Settings) -> dict[str, str]:
    """The root key (made when missing) and FLOOR_KEYS, made and registered when missing;
    key file -> key id."""
    from services.runtime.identity import generate_key, init_root, load_private

    root = init_root(settings)
    keys = {}
    for name in FLOOR_KEYS:
        path = settings.identity_dir / name
        keys[name] = load_private(path) if path.exists() else generate_key(path)
    await ensure_registered(settings, root, [
        (k.public_key(), *FLOOR_KEYS[name]) for name, k in keys.items()])
    return {str(settings.identity_dir / n): key_id_of(k.public_key()) for n, k in keys.items()}
