"""Who may do what: one table, role → the commands that role may issue (issue 11 §3).

The roles are those of `Actor.role` (contracts/envelope.py). Where a seed names the role its
duties are cited (domain.md §7.3). A command without an actor, or from a role not listed for
it, is refused: the table service answers CommandRejected with code FORBIDDEN, and the vision
service refuses a ResolveVerification the same way through `authorize`.

The actor checked is an authenticated one (issue 12): the shared runtime verifies a signed
command's Ed25519 signature against the keys registered on `floor.identity.keys`
(contracts/identity.py, services/runtime/identity.py) before any handler sees it, replaces its
`actor` with the key's registered principal and role, and records the outcome on the command.
An unsigned (where signatures are required), forged, unknown-key or revoked-key command is
refused here with that reason (field `signature`). A command no runtime checked (a handler's
unit test) is judged by its `actor` as written.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from contracts.envelope import Command, type_of


@dataclass(frozen=True)
class Role:
    commands: frozenset[str]
    source: str  # the seed and section naming the role's duties, where a seed does


# The croupier «runs the game … announces start, end of betting and results» (seed 002 §1.1 h;
# seed 004 RG §3.2): rounds, bets placed for a player, «no más apuestas», the result, seats.
# At craps the payers «colocan las apuestas de los jugadores» and the tallador calls the roll
# (seed 000 §3.1.4.2, seed 004 IV §1.5): the roll, bets taken down or changed, the dice passed.
DEALER_COMMANDS = frozenset({"OpenRound", "PlaceBet", "CloseBets", "RecordSpin", "SeatPlayer",
                             "LeaveSeat", "RecordRoll", "ChangeBet", "RemoveBet", "PassDice"})
# The jefe de mesa / supervisor directs the game and «controls changes», and tells the croupier
# when the table closes (seed 002 §2.1.5.3 «Cierre del juego: Cuando el jefe de mesa le
# instruya al croupier»); the jefe de sala / pit boss manages the section and authorises limit
# corrections (seed 002 §1.1 m, §1.2.1.1). Both may also do what a dealer does.
SUPERVISOR_COMMANDS = DEALER_COMMANDS | {"OpenTable", "CloseTable", "ChangeLimits"}
# Resolving a forked or broken event stream (contracts/audit.py) restores a table's figures:
# the floor's supervisors and the surveillance room, who control the game's records.
RESOLVE_FORK = "ResolveStreamFork"

# Devices (issue 13): the croupier records each spin and roll, checks the dice (domain.md
# §4.2), records the shooter's choice of dice and a die that left the table, and announces the
# last three spins when instructed (seed 000 §4.1.4.4); the jefe de mesa inspects, opens and
# seals wheels and issues and changes dice (domain.md §4.3 items 2, 10; LIVE-GG Rul §3.2.1);
# an outcome alert is cleared by the floor's supervisors or the surveillance room.
DEVICE_DEALER_COMMANDS = frozenset({"RecordWheelSpin", "RecordDiceRoll", "ChooseDice",
                                    "ReportDieIncident", "ReportDieFound", "AnnounceLastSpins",
                                    "InspectDice"})
ALERT_COMMANDS = frozenset({"AcknowledgeWheelAlert", "AcknowledgeDiceAlert"})
DEVICE_SUPERVISOR_COMMANDS = DEVICE_DEALER_COMMANDS | ALERT_COMMANDS | {
    "RegisterWheel", "AssignWheel", "OpenWheel", "InspectWheel", "CloseWheel", "IssueDiceSet",
    "WithdrawDiceSet"}

PERMISSIONS: Mapping[str, Role] = {
    "dealer": Role(DEALER_COMMANDS | DEVICE_DEALER_COMMANDS, "seed 002 §1.1 h; seed 004 RG §3.2"),
    "table_supervisor": Role(SUPERVISOR_COMMANDS | DEVICE_SUPERVISOR_COMMANDS | {RESOLVE_FORK},
                             "jefe de mesa: seed 000 §4.1.3.2, seed 002 §2.1.7.1; "
                             "supervisor (CL): seed 004 RG §3.2"),
    "pit_manager": Role(SUPERVISOR_COMMANDS | DEVICE_SUPERVISOR_COMMANDS | {RESOLVE_FORK},
                        "jefe de sala / pit boss: seed 002 §1.1 m, §1.2.1.1; seed 004 RG §3.2 "
                        "(«Pitboos»)"),
    # The CCTV room checks a result and may hold its payouts up to 30 minutes (seed 002 §1.3;
    # seed 004 RG §6); it resolves the verification, it does not run the table.
    "surveillance": Role(frozenset({"ResolveVerification", RESOLVE_FORK}) | ALERT_COMMANDS,
                         "seed 002 §1.3; seed 004 RG §6"),
    # Cage, count room and finance: no table commands yet (cage commands come later).
    "cashier": Role(frozenset(), "caja: seed 002 Anexo I §1.1, §2"),
    "count_team": Role(frozenset(), "sala de conteo: seed 002 Anexo I §2"),
    "finance": Role(frozenset(), ""),
    # The wheel and dice services record a valid spin or roll of their device at its table
    # (a voided one never reaches the table): the result commands, and nothing else.
    "device": Role(frozenset({"RecordSpin", "RecordRoll"}), "seed 000 §3.1.5, §4.1.4.3"),
    # Services acting on their own (timers, the vision service) emit events, not commands.
    "system": Role(frozenset(), ""),
    # Key administration: registering and revoking keys (signed KeyRegistered / KeyRevoked
    # on floor.identity.keys); an administrator runs no table.
    "admin": Role(frozenset({"RegisterKey", "RevokeKey"}), "deployment: key administration"),
}


def may(role: str, command_type: str) -> bool:
    found = PERMISSIONS.get(role)
    return found is not None and command_type in found.commands


def authorize(command: Command) -> tuple[str, str] | None:
    """(field, reason) when the command's actor may not issue it, else None."""
    checked = command._authentication
    if checked is not None and checked.problem is not None:
        return "signature", f"not authenticated: {checked.problem}"
    if command.actor is None:
        return "actor", "actor: a command must name the employee and role"
    role, name = command.actor.role, type_of(command)
    if not may(role, name):
        allowed = sorted(r for r in PERMISSIONS if may(r, name)) or ["no role"]
        signed = "" if checked is None else f", registered to key {checked.key_id}"
        return "actor.role", (f"role {role} may not issue {name} (employee "
                              f"{command.actor.employee_id}{signed}); {name} is for "
                              f"{', '.join(allowed)}")
    return None
