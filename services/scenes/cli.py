"""`casino vision synth | eval`: render a labelled synthetic CCTV set, score the readers on one.

They work on the scene generators' labelled sets, so they live here and not with the readers
(services/vision/cli.py: read, calibrate), which never import services.scenes;
services/cli/vision.py puts the four commands in the one `casino vision` group.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import click
import numpy as np

from services.vision.cli import KINDS, VARIANTS, set_reader

# ---------------------------------------------------------------- synth


@click.command()
@click.argument("out_dir", type=click.Path(file_okay=False))
@click.option("--kind", type=KINDS, required=True)
@click.option("-n", "n", type=click.IntRange(min=0), default=100, show_default=True)
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--nuisances", default="all", show_default=True,
              help="'all', 'none' or a comma list; each frame draws about half of them.")
@click.option("--no-decision-rate", type=click.FloatRange(0, 1), default=0.2,
              show_default=True, help="Share of frames built as no-decision cases.")
@click.option("--variant", type=VARIANTS, default="european", show_default=True)
@click.option("--heldout", is_flag=True,
              help="Write the fixed held-out evaluation set (ignores -n, --seed, --nuisances).")
def synth(out_dir: str, kind: str, n: int, seed: int, nuisances: str, no_decision_rate: float,
          variant: str, heldout: bool) -> None:
    """Render a labelled synthetic CCTV set into OUT_DIR (PNG frames + manifest.json)."""
    from services.scenes import dataset as D
    from services.scenes import nuisances as nz
    if heldout:
        spec = D.HELDOUT[kind]
    else:
        if seed in D.RESERVED_SEEDS:
            raise click.BadParameter(f"{seed} is reserved for the held-out set; use --heldout",
                                     param_hint="--seed")
        try:
            spec = D.SetSpec(kind, n, seed, tuple(nz.parse(nuisances)), no_decision_rate,
                             variant)
        except ValueError as exc:
            raise click.BadParameter(str(exc)) from None
    with click.progressbar(length=spec.n, label=f"rendering {kind}", file=sys.stderr) as bar:
        path = D.write_set(out_dir, spec, bar.update)
    click.echo(str(path))


# ---------------------------------------------------------------- eval

@click.command(name="eval")
@click.argument("set_dir", type=click.Path(exists=True, file_okay=False))
@click.option("--contact-sheet", "sheet", type=click.Path(dir_okay=False),
              help="PNG of the mistakes (default: SET_DIR/mistakes.png).")
@click.option("--max-mistakes", type=int, default=24, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def eval_(set_dir: str, sheet: str | None, max_mistakes: int, as_json: bool) -> None:
    """Score the readers on a labelled set made by `casino vision synth`."""
    from services.scenes import dataset as D
    from services.vision import evaluate as E
    try:
        manifest = D.load_set(set_dir)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="SET_DIR") from None
    root, reader = Path(set_dir), set_reader(manifest["kind"])
    items = ((str(root / f["file"]), _load(root / f["file"]), f) for f in manifest["frames"])
    with click.progressbar(length=len(manifest["frames"]), label="reading",
                           file=sys.stderr) as bar:
        outcomes = list(E.run(items, reader, bar.update))
    report = E.score(outcomes)
    mistakes = E.worst_first(outcomes)[:max_mistakes]
    out = E.contact_sheet([(_load(Path(o.file)), E.caption(o)) for o in mistakes],
                          sheet or root / "mistakes.png")
    click.echo(json.dumps(report.to_json()) if as_json else E.markdown(report))
    click.echo(f"contact sheet: {out}" if out else "no mistakes", err=True)


def _load(path: Path) -> np.ndarray:
    import cv2
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None:
        raise click.ClickException(f"{path}: missing or not an image")
    return image
