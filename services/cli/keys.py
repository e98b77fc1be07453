"""`casino keys`: the keys that sign commands (issue 12, authenticated actors).

A command's actor is the principal its signing key is registered to. Keys are registered and
revoked by events on floor.identity.keys signed by an administrator key; the first
administrator is the deployment's root key, <var>/identity/root.key (`casino keys init`; every
service trusts <var>/identity/root.pub, or the file CASINO_ROOT_KEY names).
"""
from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

import click

from contracts.identity import KEY_ROLES

PUBLISH_TIMEOUT_SECONDS = 15.0


def _settings(bootstrap: str | None = None):
    from services.runtime.settings import Settings
    return Settings.from_env(bootstrap)


def _say(as_json: bool, data: dict[str, Any], text: str) -> None:
    click.echo(json.dumps(data) if as_json else text)


def _admin(path: Path | None):
    from services.runtime.identity import load_private
    settings = _settings()
    path = path or settings.identity_dir / "root.key"
    try:
        return load_private(path)
    except (OSError, ValueError) as err:
        raise click.ClickException(f"--admin-key: {err} (create the root key with `casino keys "
                                   "init`)") from None


def _publish(bootstrap: str | None, events: list) -> None:
    from services.runtime.bus import Bus

    settings = _settings(bootstrap)

    async def send() -> None:
        bus = Bus(settings, "casino-keys")
        await bus.broker.connect()
        try:
            await bus.publish(events)
        finally:
            await bus.stop()
    try:
        asyncio.run(asyncio.wait_for(send(), PUBLISH_TIMEOUT_SECONDS))
    except Exception as err:  # broker unreachable or refusing: say so, exit non-zero
        raise click.ClickException(f"could not publish to Kafka at {settings.bootstrap}: "
                                   f"{type(err).__name__}: {err}") from None


def _ring(bootstrap: str | None):
    from services.runtime.identity import read_ring

    settings = _settings(bootstrap)
    try:
        return asyncio.run(asyncio.wait_for(read_ring(settings), PUBLISH_TIMEOUT_SECONDS))
    except Exception as err:
        raise click.ClickException(f"could not read the keys at {settings.bootstrap}: "
                                   f"{type(err).__name__}: {err}") from None


bootstrap_option = click.option(
    "--bootstrap", envvar="KAFKA_BOOTSTRAP_SERVERS", default=None, metavar="HOST:PORT",
    help="Kafka bootstrap servers (or KAFKA_BOOTSTRAP_SERVERS; default 127.0.0.1:9092).")
json_option = click.option("--json", "as_json", is_flag=True, help="One JSON object on stdout.")
admin_option = click.option(
    "--admin-key", type=click.Path(path_type=Path, dir_okay=False), default=None,
    help="An administrator's private key file (default: the root key, <var>/identity/root.key).")


@click.group()
def keys() -> None:
    """Keys that sign commands: create, register, revoke, list."""


@keys.command()
@json_option
def init(as_json: bool) -> None:
    """Create the deployment's root administrator key (<var>/identity/root.key, and root.pub,
    which every service trusts) unless it exists; print its key id."""
    from contracts.identity import key_id_of
    from services.runtime.identity import init_root

    settings = _settings()
    path = settings.identity_dir / "root.key"
    existed = path.exists()
    key = init_root(settings)
    kid = key_id_of(key.public_key())
    _say(as_json, {"key_id": kid, "private_key": str(path), "public_key": str(
        settings.root_public_key), "created": not existed},
         f"root key {kid}: {path} ({'already there' if existed else 'created'}); services "
         f"trust {settings.root_public_key}")


@keys.command()
@click.argument("path", type=click.Path(path_type=Path, dir_okay=False))
@json_option
def generate(path: Path, as_json: bool) -> None:
    """Create a new Ed25519 key in PATH (mode 0600) and its public half in PATH.pub."""
    from contracts.identity import key_id_of
    from services.runtime.identity import generate_key, public_path

    try:
        key = generate_key(path)
    except FileExistsError as err:
        raise click.ClickException(str(err)) from None
    kid = key_id_of(key.public_key())
    _say(as_json, {"key_id": kid, "private_key": str(path), "public_key": str(public_path(path))},
         f"key {kid}: {path} (public half {public_path(path)})")


@keys.command()
@click.argument("key_file", type=click.Path(path_type=Path, exists=True, dir_okay=False))
@click.option("--role", type=click.Choice(KEY_ROLES), required=True,
              help="The role the key acts with (contracts/permissions.py).")
@click.option("--principal", required=True, metavar="ID",
              help="The employee, terminal or service holding the key.")
@click.option("--note", default="", help="Why, for the audit trail.")
@admin_option
@bootstrap_option
@json_option
def register(key_file: Path, role: str, principal: str, note: str, admin_key: Path | None,
             bootstrap: str | None, as_json: bool) -> None:
    """Bind the key in KEY_FILE (public or private) to PRINCIPAL and ROLE: a KeyRegistered
    event signed by the administrator key. Exit 1 when the key is already registered."""
    from pydantic import ValidationError

    from contracts.codec import describe
    from contracts.identity import key_id_of
    from services.runtime.identity import load_public, registration

    try:
        public = load_public(key_file)
    except (OSError, ValueError) as err:
        raise click.BadParameter(str(err), param_hint="KEY_FILE") from None
    admin = _admin(admin_key)
    try:
        event = registration(admin, public, role, principal, note)
    except ValidationError as err:
        raise click.BadParameter(describe(err), param_hint="--principal/--note") from None
    kid = key_id_of(public)
    known = _ring(bootstrap).keys.get(kid)
    if known is not None:
        raise click.ClickException(f"key {kid} is already registered to {known.principal_id} as "
                                   f"{known.role} ({'active' if known.active else 'revoked'})")
    _publish(bootstrap, [event])
    _say(as_json, {"key_id": kid, "role": role, "principal_id": principal,
                   "event_id": event.event_id},
         f"registered key {kid} to {principal} as {role}")


@keys.command()
@click.argument("key_id")
@click.option("--reason", required=True, help="Why (a lost badge, an employee who left).")
@admin_option
@bootstrap_option
@json_option
def revoke(key_id: str, reason: str, admin_key: Path | None, bootstrap: str | None,
           as_json: bool) -> None:
    """Revoke KEY_ID: from the KeyRevoked event on, every command it signs is refused
    (FORBIDDEN). Exit 1 when there is no such active key."""
    from services.runtime.identity import revocation

    known = _ring(bootstrap).keys.get(key_id)
    if known is None or not known.active:
        raise click.ClickException(f"no active key {key_id}" + ("" if known is None else
                                   f" (revoked: {known.revoke_reason})"))
    if known.principal_id == "root" and known.registered_at is None:
        raise click.ClickException("the root key is replaced in the deployment config "
                                   "(CASINO_ROOT_KEY), not revoked")
    event = revocation(_admin(admin_key), key_id, reason)
    _publish(bootstrap, [event])
    _say(as_json, {"key_id": key_id, "revoked": True, "event_id": event.event_id},
         f"revoked key {key_id} of {known.principal_id} ({known.role}): {reason}")


@keys.command(name="list")
@bootstrap_option
@json_option
def list_keys(bootstrap: str | None, as_json: bool) -> None:
    """Every key the log binds (and the root key): id, role, principal, status."""
    ring = _ring(bootstrap)
    rows = [k.describe() for k in ring.keys.values()]
    if as_json:
        click.echo(json.dumps({"keys": rows, "ignored_events": ring.ignored}))
        return
    for r in rows:
        click.echo(f"{r['key_id']}  {r['status']:<7}  {r['role']:<16}  {r['principal_id']}"
                   + (f"  (revoked: {r['revoke_reason']})" if r["revoke_reason"] else ""))
    for why in ring.ignored:
        click.echo(f"ignored key event: {why}", err=True)
    if not rows:
        click.echo("no keys (no root key: casino keys init)", err=True)
        sys.exit(1)
