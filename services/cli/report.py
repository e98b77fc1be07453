"""`casino report`: the projection reports (services/projections/cli.py) and the devices'."""
from __future__ import annotations

from services.cli.devices import devices
from services.projections.cli import report

report.add_command(devices)

__all__ = ["report"]
