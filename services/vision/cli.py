"""`casino vision ...`: read, calibrate (the readers' commands).

`synth` and `eval` work on labelled synthetic sets and live with the scene generators
(services/scenes/cli.py); services/cli/vision.py puts the four in the one `casino vision` group.

`read` prints one JSON line per frame (with --json) on stdout; camera events (a corrupt file,
a dropped stream and its retries) go to stderr as JSON lines. Exit status 1 when any input
failed or nothing was read, 2 on bad usage.
"""
from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click
import numpy as np

from services.vision.memory import keep_frame_buffers

KINDS = click.Choice(["dice", "wheel"])
VARIANTS = click.Choice(["european", "american"])
FAILURES = {"corrupt_frame", "empty_frame", "unreadable", "gave_up"}


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def vision() -> None:
    """Read dice and roulette results from CCTV frames."""


# ---------------------------------------------------------------- read

@vision.command()
@click.argument("inputs", nargs=-1, required=True)
@click.option("--kind", type=KINDS, required=True, help="What the camera looks at.")
@click.option("--variant", type=VARIANTS, default="european", show_default=True,
              help="Wheel variant (wheel only).")
@click.option("--calibration", type=click.Path(dir_okay=False),
              help="Calibration JSON from `casino vision calibrate` (default: none; the "
                   "readers find the dice or the wheel at any scale, a calibration makes them "
                   "stricter: landing area, die size, wheel geometry).")
@click.option("--json", "as_json", is_flag=True, help="One JSON line per frame.")
@click.option("--retries", type=int, default=10, show_default=True,
              help="Reconnection attempts for a stream before giving up.")
@click.option("--max-frames", type=int, help="Stop a stream after this many frames.")
def read(inputs: tuple[str, ...], kind: str, variant: str, calibration: str | None,
         as_json: bool, retries: int, max_frames: int | None) -> None:
    """Read FRAME_OR_DIR... (image files, folders, videos, rtsp:// or http:// streams)."""
    from services.vision import frames as F
    from services.vision.reading import result_json
    reader = _reader(kind, variant, calibration)
    failed: list[str] = []

    def on_event(event: F.CameraEvent) -> None:
        if event.kind in FAILURES:
            failed.append(event.kind)
        _echo_event(event)

    count = 0
    backoff = F.Backoff(max_attempts=retries)
    for spec in inputs:
        options = {"max_frames": max_frames} if F.kind_of(spec) == "stream" else {}
        for frame in F.open_source(spec, on_event, backoff, **options):
            start = time.perf_counter()
            result = result_json(reader(frame.image))
            ms = (time.perf_counter() - start) * 1000
            row: dict[str, Any] = {"file": frame.file}
            if F.kind_of(spec) != "images":
                row["frame"] = frame.index
            row.update(result, ms=round(ms, 2))
            click.echo(json.dumps(row) if as_json else _human(row))
            count += 1
    if failed or not count:
        raise SystemExit(1)


def _echo_event(event: Any) -> None:
    """A camera event (services.vision.frames.CameraEvent) as a JSON line on stderr."""
    click.echo(json.dumps({"event": event.kind, "source": event.source,
                           "detail": event.detail, "attempt": event.attempt}), err=True)


def _human(row: dict[str, Any]) -> str:
    what = (f"no decision ({row['reason']})" if row.get("no_decision") else
            f"values {row['values']}" if "values" in row else f"pocket {row['pocket']}")
    where = row["file"] + (f" #{row['frame']}" if "frame" in row else "")
    return f"{where}: {what}, confidence {row['confidence']}, {row['ms']} ms"


def _reader(kind: str, variant: str, calibration: str | None) -> Callable[[np.ndarray], Any]:
    keep_frame_buffers()
    if kind == "dice":
        from services.vision.dice import calibration as cal
        from services.vision.dice.reader import read_dice
        try:
            dice_cal = cal.load(calibration) if calibration else None
        except cal.CalibrationError as exc:
            raise click.BadParameter(str(exc), param_hint="--calibration") from None
        return lambda image: read_dice(image, dice_cal)
    from services.vision.wheel.reader import read_wheel
    wheel_cal = _wheel_calibration(calibration) if calibration else None
    return lambda image: read_wheel(image, variant=variant, calibration=wheel_cal)


def _wheel_calibration(path: str) -> Any:
    from services.vision.wheel import calibration as wcal
    try:
        return wcal.load(path)
    except (OSError, ValueError) as exc:
        raise click.BadParameter(str(exc), param_hint="--calibration") from None


# ---------------------------------------------------------------- calibrate

@vision.command()
@click.argument("frame")
@click.option("--kind", type=KINDS, required=True)
@click.option("--out", "out", type=click.Path(dir_okay=False), required=True,
              help="Where to write the calibration JSON.")
@click.option("--corners", help="Dice: landing-area corners x1,y1,...,x4,y4 (TL, TR, BR, BL) "
                                "in pixels; default: find the printed outline in FRAME.")
@click.option("--area-mm", default="200,140", show_default=True,
              help="Dice: landing-area width,height in millimetres.")
@click.option("--die-mm", type=float, default=19.05, show_default=True, help="Dice: die side.")
@click.option("--variant", type=VARIANTS, default="european", show_default=True)
@click.option("--from-play", is_flag=True,
              help="Learn from many frames of ordinary play (FRAME: a folder of images, a "
                   "video or a stream): dice size and where dice come to rest, or the wheel's "
                   "geometry from its best frame. Implied when FRAME is a folder.")
@click.option("--max-frames", type=click.IntRange(min=1), default=300, show_default=True,
              help="With --from-play: frames looked at, at most.")
@click.option("--json", "as_json", is_flag=True, help="Print the calibration and what it "
                                                      "was learnt from as one JSON line.")
def calibrate(frame: str, kind: str, out: str, corners: str | None, area_mm: str,
              die_mm: float, variant: str, from_play: bool, max_frames: int,
              as_json: bool) -> None:
    """Measure a camera from FRAME (an image of the empty table or the wheel, or a video file
    or stream URL, whose first usable frame is taken) and save its calibration. With
    --from-play (or a folder), learn it from frames of ordinary play instead."""
    if from_play or Path(frame).is_dir():
        _learn(frame, kind, out, die_mm, variant, max_frames)
        return
    image = _sample_frame(frame)
    if kind == "wheel":
        _calibrate_wheel(image, out, variant)
        return
    from services.vision.dice import calibration as cal
    try:
        quad = _floats(corners, 8, "--corners").reshape(4, 2) if corners else \
            cal.detect_landing_area(image)
        w, h = _floats(area_mm, 2, "--area-mm")
        result = cal.DiceCalibration(tuple(map(tuple, quad.tolist())), (w, h), die_mm)
    except cal.CalibrationError as exc:
        raise click.ClickException(str(exc)) from None
    cal.save(result, out)
    click.echo(json.dumps(result.to_json()))


def _learn(spec: str, kind: str, out: str, die_mm: float, variant: str,
           max_frames: int) -> None:
    from services.vision import frames as F
    from services.vision import learn
    keep_frame_buffers()
    if F.kind_of(spec) != "stream" and not Path(spec).exists():
        raise click.BadParameter(f"{spec}: no such file or folder", param_hint="FRAME")
    options = {"max_frames": max_frames} if F.kind_of(spec) == "stream" else {}
    source = F.open_source(spec, _echo_event, F.Backoff(max_attempts=3), **options)
    images = (f.image for _, f in zip(range(max_frames), source))
    try:
        learned = learn.learn_dice(images, die_mm) if kind == "dice" else \
            learn.learn_wheel(images, variant)
    except ValueError as exc:  # CalibrationError is one
        raise click.ClickException(str(exc)) from None
    if kind == "dice":
        from services.vision.dice import calibration as cal
        cal.save(learned.calibration, out)
    else:
        from services.vision.wheel import calibration as wcal
        wcal.save(learned.calibration, out)
    click.echo(json.dumps({**learned.calibration.to_json(), "learned_from": {
        "frames": learned.frames, "used": learned.used, **learned.detail}}))


def _sample_frame(spec: str) -> np.ndarray:
    """The frame to calibrate from: the image itself, or the first usable frame of a video
    or a stream (camera events go to stderr, as with `read`)."""
    from services.vision import frames as F
    kind = F.kind_of(spec)
    if kind != "stream" and not Path(spec).is_file():
        raise click.BadParameter(f"{spec}: no such file", param_hint="FRAME")
    options = {"max_frames": 1} if kind == "stream" else {}
    for frame in F.open_source(spec, _echo_event, F.Backoff(max_attempts=3), **options):
        return frame.image
    raise click.BadParameter(f"{spec} gave no readable frame", param_hint="FRAME")


def _floats(text: str, n: int, name: str) -> np.ndarray:
    try:
        values = np.array([float(v) for v in text.split(",")])
    except ValueError:
        raise click.BadParameter("must be comma-separated numbers", param_hint=name) from None
    if len(values) != n:
        raise click.BadParameter(f"needs {n} numbers, got {len(values)}", param_hint=name)
    return values


def _calibrate_wheel(image: np.ndarray, out: str, variant: str) -> None:
    from services.vision.wheel import calibration as wcal
    try:
        result = wcal.calibrate_wheel(image, variant=variant)
    except ValueError as exc:
        raise click.ClickException(str(exc)) from None
    wcal.save(result, out)
    click.echo(json.dumps(result.to_json()))


def set_reader(kind: str, calibrated: bool = True) -> Callable[[np.ndarray, dict[str, Any]], Any]:
    """(image, label) -> reading. `calibrated`: use the label's per-frame camera data when it
    has it (the synthetic generator's sets); otherwise read as a new camera is read, with no
    calibration at all."""
    keep_frame_buffers()
    if kind == "dice":
        from services.vision.dice import calibration as cal
        from services.vision.dice.reader import read_dice

        def dice(image: np.ndarray, label: dict[str, Any]) -> Any:
            if calibrated and label.get("calibration"):
                return read_dice(image, cal.DiceCalibration.from_json(label["calibration"]))
            return read_dice(image)
        return dice
    from services.vision.wheel.reader import read_wheel
    return lambda image, label: read_wheel(image, variant=label.get("variant", "european"))
