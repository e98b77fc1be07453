"""The simulated floor's terminals sign what they send (issue 12, authenticated actors).

Each simulated employee (the pit manager who opens the tables, each table's dealer) has a key
in <var>/identity/terminals/<employee>.key, made on first use and registered with the role the
simulator gives that employee, signed by the deployment's root administrator key
(<var>/identity/root.key, `casino keys init`). Without a root key there is nothing to register
with, and the commands go unsigned (a floor that requires signatures then refuses them).
"""
from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TypeVar

from contracts.envelope import Actor, Command, Message
from services.runtime.identity import Signer, generate_key, load_private
from services.runtime.key_admin import ensure_registered
from services.runtime.settings import Settings

log = logging.getLogger(__name__)
M = TypeVar("M", bound=Message)


class Terminals:
    """Employee id -> the key its terminal signs with."""

    def __init__(self, signers: dict[str, Signer]) -> None:
        self.signers = signers

    def sign(self, messages: Sequence[M]) -> list[M]:
        return [self._sign(m) if isinstance(m, Command) else m for m in messages]

    def _sign(self, command: M) -> M:
        assert isinstance(command, Command)
        actor = command.actor
        signer = self.signers.get(actor.employee_id) if actor is not None else None
        return command if signer is None else signer.sign(command)  # type: ignore[return-value]


async def terminals(settings: Settings, actors: Sequence[Actor]) -> Terminals:
    """Keys for `actors`, registered with the root key when the log does not have them yet."""
    root = settings.identity_dir / "root.key"
    if not root.exists():
        log.warning("no root key: the simulator's commands go unsigned", extra={
            "path": str(root)})
        return Terminals({})
    signers: dict[str, Signer] = {}
    for actor in {a.employee_id: a for a in actors}.values():
        path = settings.identity_dir / "terminals" / f"{actor.employee_id}.key"
        signers[actor.employee_id] = Signer(load_private(path) if path.exists()
                                            else generate_key(path))
    roles = {a.employee_id: a.role for a in actors}
    added = await ensure_registered(settings, load_private(root), [
        (s.key.public_key(), roles[who], who) for who, s in signers.items()])
    if added:
        log.info("simulator terminal keys registered", extra={"keys": added})
    return Terminals(signers)
