"""`casino vision synth | eval`: render a labelled synthetic CCTV set, score the readers on one.

They work on the scene generators' labelled sets, so they live here and not with the readers
(services/vision/cli.py: read, calibrate), which never import services.scenes;
services/cli/vision.py puts the four commands in the one `casino vision` group.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

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

# named_sets.NAMES (a test keeps them equal; named_sets is imported only when used: it
# costs the command line 0.2 s to start)
SETS = click.Choice(["foreign", "heldout", "tuning", "dev-tuning", "dev-first", "dev-wide",
                     "dev-leaning", "dev-solid", "dev-wheel", "dev-wheel-std"])


@click.command(name="eval")
@click.argument("set_dir", required=False, type=click.Path(exists=True, file_okay=False))
@click.option("--set", "named", type=SETS,
              help="Render and score a named set instead of SET_DIR: foreign (the second "
                   "renderer's evaluation set), heldout (the first generator's held-out set), "
                   "tuning (the second renderer's tuning region), dev-wheel and dev-wheel-std "
                   "(wheel only: development frames of the first generator, widened and "
                   "as labelled) or another dev-* (dice only: the face classifier's "
                   "validation frames).")
@click.option("--kind", type=click.Choice(["dice", "wheel", "both"]), default="both",
              show_default=True, help="With --set: which reader.")
@click.option("-n", "n", type=click.IntRange(min=1), help="With --set: frames per kind.")
@click.option("--calibrated", is_flag=True,
              help="Give the reader the label's camera calibration when the set has one "
                   "(default: none, as a new camera).")
@click.option("--jobs", type=click.IntRange(min=1), default=2, show_default=True,
              help="With --set: processes rendering frames.")
@click.option("--contact-sheet", "sheet", type=click.Path(dir_okay=False),
              help="PNG of the mistakes (default: SET_DIR/mistakes.png; with --set none "
                   "unless given, one per kind: NAME_dice.png, NAME_wheel.png).")
@click.option("--max-mistakes", type=int, default=24, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def eval_(set_dir: str | None, named: str | None, kind: str, n: int | None, calibrated: bool,
          jobs: int, sheet: str | None, max_mistakes: int, as_json: bool) -> None:
    """Score the readers on a labelled set: SET_DIR (made by `casino vision synth`) or a
    named set (--set). Reports read / no decision / wrong with the nuisance breakdown."""
    if (set_dir is None) == (named is None):
        raise click.UsageError("give SET_DIR or --set, not both")
    if named is not None:
        from services.scenes import named_sets
        has = named_sets.kinds(named)
        if kind != "both" and kind not in has:
            raise click.UsageError(f"--set {named} has {has[0]} frames only")
        kinds = list(has) if kind == "both" else [kind]
        reports = {k: _eval_named(named, k, n, calibrated, jobs, sheet, max_mistakes)
                   for k in kinds}
        _print(reports, as_json)
        return
    from services.scenes import dataset as D
    from services.vision import evaluate as E
    assert set_dir is not None
    try:
        manifest = D.load_set(set_dir)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="SET_DIR") from None
    root, reader = Path(set_dir), set_reader(manifest["kind"], calibrated)
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


def _eval_named(named: str, kind: str, n: int | None, calibrated: bool, jobs: int,
                sheet: str | None, max_mistakes: int) -> Any:
    from services.vision import evaluate as E
    reader = set_reader(kind, calibrated)
    from services.scenes import named_sets
    total = named_sets.size(named, kind, n)
    kept: dict[str, np.ndarray] = {}

    def remember(items: Any) -> Any:
        for file, image, label in items:
            kept[file] = image
            yield file, image, label

    with click.progressbar(length=total, label=f"{named} {kind}", file=sys.stderr) as bar:
        outcomes = list(E.run(remember(named_sets.frames(named, kind, n, jobs)), reader,
                              bar.update))
    if sheet:
        path = Path(sheet)
        path = path.with_name(f"{path.stem}_{kind}{path.suffix or '.png'}")
        mistakes = E.worst_first(outcomes)[:max_mistakes]
        out = E.contact_sheet([(kept[o.file], E.caption(o)) for o in mistakes], path)
        click.echo(f"contact sheet: {out}" if out else f"{kind}: no mistakes", err=True)
    return E.score(outcomes)


def _print(reports: dict[str, Any], as_json: bool) -> None:
    from services.vision import evaluate as E
    if as_json:
        click.echo(json.dumps({k: r.to_json() for k, r in reports.items()}))
        return
    for k, r in reports.items():
        click.echo(f"## {k}\n\n{E.markdown(r)}\n")


def _load(path: Path) -> np.ndarray:
    import cv2
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None:
        raise click.ClickException(f"{path}: missing or not an image")
    return image
