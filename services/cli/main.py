"""The `casino` command: one entry point, one subcommand group per area.

Subcommands are imported lazily (only the one you run is loaded), so `casino --help`
stays fast and a heavy dependency such as OpenCV is only imported by `casino vision`.
To add a subcommand, add one line to SUBCOMMANDS: "name": ("module.path:click_object", "help").
"""
from __future__ import annotations

import importlib

import click

SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "broker": ("deploy.local.cli:broker", "Start, stop and check the embedded Kafka broker."),
    "contracts": ("services.cli.contracts:contracts",
                  "Export JSON Schema and AsyncAPI of the events."),
    "rules": ("services.rules.cli:rules", "Settle, list house edges, explain (rules engine)."),
    "vision": ("services.cli.vision:vision", "Read dice and roulette results from CCTV frames."),
    "service": ("services.cli.service:service", "Run one floor service in the foreground."),
    "simulate": ("services.simulator.cli:simulate", "Play rounds at N simulated game tables."),
    "report": ("services.cli.report:report", "Reports: tables, holds, devices."),
    "surveillance": ("services.vision.service.cli:surveillance",
                     "Uphold or correct a round under CCTV verification."),
    "run": ("services.cli.run:run", "Start the whole floor: broker, services, simulator."),
    "send": ("services.cli.send:send", "Publish commands from JSON Lines, each one validated."),
    "events": ("services.cli.events:events", "Dump or follow a topic, decoded and validated."),
    "audit": ("services.cli.audit:audit", "Verify the log's hash chains; resolve a forked stream."),
    "keys": ("services.cli.keys:keys", "Keys that sign commands: init, register, revoke, list."),
}


class LazyGroup(click.Group):
    """A click group whose subcommands are imported on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(super().list_commands(ctx)) | set(SUBCOMMANDS))

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in SUBCOMMANDS:
            module_name, attr = SUBCOMMANDS[name][0].split(":")
            return getattr(importlib.import_module(module_name), attr)
        return super().get_command(ctx, name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # Listing uses the short help above, so `casino --help` imports nothing heavy.
        rows = [(name, SUBCOMMANDS[name][1]) for name in sorted(SUBCOMMANDS)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
def casino() -> None:
    """Casino table-games floor platform: services, broker, rules, vision and reports."""


def main() -> None:
    casino()


if __name__ == "__main__":
    main()
