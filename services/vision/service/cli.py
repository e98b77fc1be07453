"""`casino surveillance resolve`: the surveillance room's decision on a round under CCTV
verification, sent as a ResolveVerification command to the vision service."""
from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TYPE_CHECKING

import click
from pydantic import ValidationError

if TYPE_CHECKING:
    from contracts.vision import Outcome

PUBLISH_TIMEOUT_SECONDS = 15.0  # an unreachable broker must fail the command, not hang it


@click.group()
def surveillance() -> None:
    """The surveillance room: resolve rounds under CCTV verification."""


@surveillance.command()
@click.argument("round_check_id")
@click.option("--upheld", is_flag=True, help="The CCTV shows the dealer's result: it stands.")
@click.option("--corrected", metavar="RESULT",
              help='The CCTV shows another result: "17", "00" or dice "3-5".')
@click.option("--by", "by", default=None, metavar="NAME",
              help="Employee id of the surveillance officer (with --key: the key's registered "
                   "principal is the one that counts).")
@click.option("--key", "key_file", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              envvar="CASINO_KEY", default=None,
              help="Sign the command with the officer's private key file (or CASINO_KEY); a "
                   "floor that requires signatures refuses an unsigned one.")
@click.option("--note", default="", help="What was seen, for the audit trail.")
@click.option("--bootstrap", envvar="KAFKA_BOOTSTRAP_SERVERS", default=None, metavar="HOST:PORT",
              help="Kafka bootstrap servers (or KAFKA_BOOTSTRAP_SERVERS; default 127.0.0.1:9092).")
@click.option("--wait", "wait_s", type=click.FloatRange(0), default=15.0, show_default=True,
              metavar="SECONDS", help="How long to wait for the vision service's answer "
              "(0: send and exit).")
def resolve(round_check_id: str, upheld: bool, corrected: str | None, by: str | None,
            key_file: Path | None, note: str, bootstrap: str | None, wait_s: float) -> None:
    """Uphold or correct the dealer's result of ROUND_CHECK_ID (the round's correlation id, as
    `casino report holds --json` shows it), then show the vision service's answer: resolved,
    or refused / rejected with the reason (exit status 1). With no answer in time the command
    stays sent and is decided when the vision service runs (see the dashboard)."""
    if upheld == (corrected is not None):
        raise click.UsageError("give exactly one of --upheld or --corrected RESULT")
    if by is None and key_file is None:
        raise click.UsageError("give --by NAME, --key FILE, or both")
    command = _command(round_check_id, "UPHELD" if upheld else "CORRECTED", corrected, by, note)
    if key_file is not None:
        from services.runtime.identity import Signer
        try:
            command = Signer.from_file(key_file).sign(command)
        except ValueError as err:
            raise click.BadParameter(str(err), param_hint="--key") from None
    from services.runtime.settings import Settings

    settings = Settings.from_env(bootstrap)
    try:
        answers = _answers(settings.bootstrap) if wait_s else None
        asyncio.run(asyncio.wait_for(_publish(settings, command), PUBLISH_TIMEOUT_SECONDS))
    except Exception as err:  # broker unreachable or refusing: say so, exit non-zero
        raise click.ClickException(f"could not send to Kafka at {settings.bootstrap}: "
                                   f"{type(err).__name__}: {err}") from None
    click.echo(f"sent ResolveVerification {command.command_id}: round check {round_check_id} "
               f"{command.payload.outcome} {command.payload.result or ''}".rstrip())
    if answers is not None:
        _show(answers.wait(command.command_id, wait_s), wait_s)


def _answers(bootstrap: str):
    from services.vision.service.answers import Answers
    return Answers(bootstrap)


def _show(answer, waited: float) -> None:
    """Print the answer; a refusal or a rejection fails the command (exit status 1)."""
    from contracts.vision import ResolutionRefused, VerificationResolved

    if answer is None:
        click.echo(f"no answer from the vision service within {waited:g} s: the command is "
                   "sent and will be decided when it runs (see the dashboard)", err=True)
    elif isinstance(answer, VerificationResolved):
        p = answer.payload
        hold = "within the hold" if p.within_hold else "AFTER the hold ended"
        click.echo(f"resolved: {p.outcome} {p.result} (dealer entered {p.dealer_result}), "
                   f"{hold}, by {p.resolved_by}")
    elif isinstance(answer, ResolutionRefused):
        raise click.ClickException(f"refused: {answer.payload.field}: {answer.payload.reason}")
    else:  # the command itself, dead-lettered
        raise click.ClickException(f"rejected ({answer.code}): {answer.reason}")


def _command(check_id: str, outcome: Outcome, result: str | None, by: str | None, note: str):
    from contracts.codec import describe
    from contracts.envelope import Actor
    from contracts.vision import ResolveVerification, ResolveVerificationData

    def valid(param: str, build):
        try:
            return build()
        except ValidationError as err:
            raise click.BadParameter(describe(err), param_hint=param) from None

    actor = None if by is None else valid("--by", lambda: Actor(employee_id=by,
                                                                role="surveillance"))
    payload = valid("--corrected", lambda: ResolveVerificationData(outcome=outcome, result=result,
                                                                   note=note))
    # correlation id = the round's, so the resolution joins the round's flow
    return valid("ROUND_CHECK_ID", lambda: ResolveVerification(
        target_id=check_id, correlation_id=check_id, issued_by="casino surveillance",
        actor=actor, payload=payload))


async def _publish(settings, command) -> None:
    from services.runtime.bus import Bus

    bus = Bus(settings, "surveillance-cli")
    try:
        await bus.broker.connect()
        await bus.publish([command])
    finally:
        await bus.stop()
