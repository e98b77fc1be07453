"""Camera health: a camera whose readers abstain far more than usual raises an alert.

A reader that abstains sends its round to a payout hold (checks.py). One camera abstaining on
most frames is not a run of hard rounds but a camera that moved, lost focus, has a dirty dome
or a new lamp: every round it watches goes to a person. `CameraHealth` (one aggregate per
camera, id `health:<camera id>`, its events on floor.vision.frames keyed by the camera) keeps
the last `WINDOW` readings and the camera's usual abstention rate (a slow running mean, frozen
while an alert is up, so a broken camera never becomes "usual"), and raises
`CameraAlertRaised` when the window's rate is at least `ALERT_RATE`, `FACTOR` times the usual
rate and `GAP` above it, with advice from the reasons (a lost wheel or dice: recalibrate;
unreadable faces, moving balls: refocus or clean the dome; glare: the lighting).
`CameraAlertCleared` follows when the rate is back within `CLEAR_GAP` of the usual rate.

The alert state is rebuilt from the log (the two events); the window and the usual rate are
kept in memory and refill after a restart (`MIN_FRAMES` frames before any alert).
"""
from __future__ import annotations

from collections import Counter, deque
from dataclasses import dataclass, field

from contracts.envelope import Event
from contracts.vision import (
    CameraAdvice,
    CameraAlertCleared,
    CameraAlertClearedData,
    CameraAlertData,
    CameraAlertRaised,
    FrameCaptured,
    ResultReadData,
)
from services.runtime.aggregate import Aggregate
from services.runtime.store import AggregateStore

WINDOW = 50          # readings measured
MIN_FRAMES = 30      # readings before a camera can alert
ALERT_RATE = 0.5     # at least half the frames without a decision ...
FACTOR = 3.0         # ... three times the usual rate ...
GAP = 0.3            # ... and 30 points above it
CLEAR_GAP = 0.1      # cleared within 10 points of the usual rate
USUAL_PRIOR = 0.1    # the usual rate of a camera not yet measured (tables' no-decision share)
USUAL_WEIGHT = 0.01  # the running mean's weight of a new reading (about 100 readings)

# reader reason -> what a person should do about the camera
ADVICE: dict[str, tuple[CameraAdvice, ...]] = {
    "no_dice": ("recalibrate",), "single_die": ("recalibrate",),
    "out_of_area": ("recalibrate",), "no_wheel": ("recalibrate",),
    "rotor_unreadable": ("recalibrate", "refocus"),
    "unreadable": ("refocus", "clean_dome"), "ball_moving": ("refocus", "clean_dome"),
    "occluded": ("clean_dome",), "glare": ("check_lighting", "clean_dome"),
}
DEFAULT_ADVICE: tuple[CameraAdvice, ...] = ("recalibrate", "refocus", "clean_dome")


def health_id(camera_id: str) -> str:
    return f"health:{camera_id}"


@dataclass
class Tally:
    """A camera's recent readings and usual rate (in memory: refilled after a restart)."""
    window: deque[str | None] = field(default_factory=lambda: deque(maxlen=WINDOW))
    usual: float = USUAL_PRIOR
    learn: deque[bool] = field(default_factory=lambda: deque(maxlen=WINDOW))  # not alerting
    seen: deque[str] = field(default_factory=lambda: deque(maxlen=4 * WINDOW))  # frame ids

    @property
    def rate(self) -> float:
        return sum(r is not None for r in self.window) / max(len(self.window), 1)


@dataclass
class HealthBook:
    """The service's camera health: the aggregates (alert state, rebuilt from the log) and
    each camera's tally."""
    store: AggregateStore[CameraHealth]
    tallies: dict[str, Tally] = field(default_factory=dict)


class CameraHealth(Aggregate):
    PRODUCER = "vision-service"

    def __init__(self, aggregate_id: str) -> None:
        super().__init__(aggregate_id)
        self.alerting = False

    def mutate(self, event: Event) -> None:
        if isinstance(event, CameraAlertRaised):
            self.alerting = True
        elif isinstance(event, CameraAlertCleared):
            self.alerting = False
        # other camera events on the topic (frames, status) do not change the health

    def note(self, data: ResultReadData, cause: FrameCaptured, tally: Tally) -> None:
        """One reading of this camera's frame: alert or clear when the rate says so. A
        redelivered frame counts once."""
        if cause.event_id in tally.seen or self.has_handled(cause):
            return
        tally.seen.append(cause.event_id)
        reading = data.reading
        if len(tally.window) == WINDOW and tally.learn[0]:
            # The usual rate learns from the readings leaving the window, so the window is
            # always compared with the camera's past, never with itself; not from readings
            # taken while an alert was up (a broken camera never becomes "usual").
            tally.usual += USUAL_WEIGHT * (float(tally.window[0] is not None) - tally.usual)
        tally.window.append((reading.reason or "no_decision") if reading.no_decision else None)
        tally.learn.append(not self.alerting)
        self.partition_key = data.camera_id
        if len(tally.window) < MIN_FRAMES:
            return
        rate, usual = tally.rate, tally.usual
        if not self.alerting and rate >= max(ALERT_RATE, FACTOR * usual, usual + GAP):
            self.trigger(CameraAlertRaised, _alert(data, tally), cause)
            tally.learn = deque([False] * len(tally.learn), maxlen=WINDOW)  # the failure's
        elif self.alerting and rate <= usual + CLEAR_GAP:
            self.trigger(CameraAlertCleared, CameraAlertClearedData(
                camera_id=data.camera_id, table_id=data.table_id, kind=reading.kind,
                frames=len(tally.window), abstention_rate=round(rate, 4)), cause)


def _alert(data: ResultReadData, tally: Tally) -> CameraAlertData:
    reasons = Counter(r for r in tally.window if r is not None)
    advice: list[CameraAdvice] = []
    for reason, _ in reasons.most_common(2):
        advice += [a for a in ADVICE.get(reason, DEFAULT_ADVICE) if a not in advice]
    abstained = sum(reasons.values())
    return CameraAlertData(
        camera_id=data.camera_id, table_id=data.table_id, kind=data.reading.kind,
        frames=len(tally.window), abstained=abstained,
        abstention_rate=round(tally.rate, 4), usual_rate=round(tally.usual, 4),
        reasons=dict(reasons), advice=tuple(advice) or DEFAULT_ADVICE,
        detail=f"{abstained} of the last {len(tally.window)} frames gave no decision "
               f"(usually {tally.usual:.0%}); rounds on this camera go to a payout hold")
