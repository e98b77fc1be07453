"""`casino vision`: the readers' commands (services/vision/cli.py: read, calibrate) and the
scene tools' (services/scenes/cli.py: synth, eval) in one group.

Composed here, in the composition root, because the readers must not import the scene
generators (an import-linter contract in pyproject.toml).
"""
from __future__ import annotations

import click

from services.scenes.cli import eval_, synth
from services.vision.cli import vision as readers

vision = click.Group(name=readers.name, help=readers.help,
                     commands=[*readers.commands.values(), synth, eval_],
                     context_settings=readers.context_settings)
