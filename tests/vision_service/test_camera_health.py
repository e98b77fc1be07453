"""Camera health (services/vision/service/health.py): a camera that abstains far more than
usual raises one CameraAlertRaised with advice, clears it when it reads again, and is not
moved by redelivered frames; through the handler map on the in-memory bus, a camera whose
frames cannot be read alerts on floor.vision.frames, keyed by the camera."""
from __future__ import annotations

import asyncio
from pathlib import Path

from contracts.topics import VISION_CHECKS_TOPIC, VISION_FRAMES_TOPIC
from contracts.vision import CameraAlertCleared, CameraAlertRaised, FrameCaptured
from services.runtime.bus import bind
from services.runtime.evidence import EvidenceStore
from services.runtime.store import AggregateStore
from services.runtime.testing import MemoryBus
from services.vision.service import handlers
from services.vision.service import health as H
from services.vision.service.checks import RoundCheck
from tests.vision_service.test_checks import frame, read


def frames(n: int, start: int = 0) -> list[FrameCaptured]:
    base = frame()
    return [base.model_copy(update={"event_id": f"frame-{start + i}", "sequence": start + i + 1,
                                    "correlation_id": f"round-{start + i}"})
            for i in range(n)]


def feed(camera: H.CameraHealth, readings: list, causes: list[FrameCaptured],
         tally: H.Tally) -> list:
    out = []
    for data, cause in zip(readings, causes):
        camera.note(data, cause, tally)
        out += camera.collect()
    return out


def test_a_camera_that_stops_reading_alerts_once_and_clears_when_it_reads_again():
    camera, tally = H.CameraHealth(H.health_id("CAM-1")), H.Tally()
    good = [read() if i % 10 else read(None, 0.0, "ball_moving") for i in range(200)]
    assert feed(camera, good, frames(200), tally) == []     # 10 % abstentions: usual
    assert abs(tally.usual - 0.1) < 0.03
    bad = [read(None, 0.0, "no_wheel") for _ in range(40)]
    events = feed(camera, bad, frames(40, 200), tally)
    [alert] = events
    assert isinstance(alert, CameraAlertRaised) and alert.aggregate_id == "health:CAM-1"
    assert alert.key == "CAM-1" and alert.payload.advice[0] == "recalibrate"
    assert alert.payload.abstention_rate >= H.ALERT_RATE
    assert sum(alert.payload.reasons.values()) == alert.payload.abstained
    assert alert.payload.reasons["no_wheel"] == _first_alerting_frame() + 1
    # the boundary: the first frame at which the window's rate reaches ALERT_RATE alerts
    assert alert.causation_id == f"frame-{200 + _first_alerting_frame()}"
    usual_then = tally.usual
    events = feed(camera, [read() for _ in range(60)], frames(60, 240), tally)
    assert [type(e) for e in events] == [CameraAlertCleared]
    # the readings of the alert never teach the usual rate: a broken camera is not usual
    feed(camera, [read() for _ in range(H.WINDOW)], frames(H.WINDOW, 300), tally)
    assert tally.usual <= usual_then


def _first_alerting_frame() -> int:
    """Index (within the bad run) of the bad frame that makes >= ALERT_RATE of the window:
    before the run the window holds frames 150-199 of the good run (every tenth abstains)."""
    for k in range(1, H.WINDOW + 1):
        abstained = sum(i % 10 == 0 for i in range(150 + k, 200)) + k
        if abstained / H.WINDOW >= H.ALERT_RATE:
            return k - 1
    raise AssertionError


def test_redelivered_frames_count_once_and_a_new_camera_waits_for_enough_frames():
    camera, tally = H.CameraHealth(H.health_id("CAM-1")), H.Tally()
    bad = frames(1)[0]
    for _ in range(H.MIN_FRAMES + 5):
        camera.note(read(None, 0.0, "glare"), bad, tally)   # the same frame, redelivered
    assert len(tally.window) == 1 and camera.collect() == []
    events = feed(camera, [read(None, 0.0, "glare")] * H.MIN_FRAMES, frames(H.MIN_FRAMES, 1),
                  tally)
    [alert] = events
    assert alert.payload.frames == H.MIN_FRAMES  # not before MIN_FRAMES readings
    assert alert.payload.advice == ("check_lighting", "clean_dome")


def test_the_handler_raises_a_camera_alert_for_a_camera_whose_frames_cannot_be_read(
        tmp_path: Path):
    bus = MemoryBus()
    checks = AggregateStore(factory=lambda cid: RoundCheck(cid), aggregate_type="round_check",
                            events=VISION_CHECKS_TOPIC, bus=bus)
    cameras = AggregateStore(factory=H.CameraHealth, aggregate_type="camera_health",
                             events=VISION_FRAMES_TOPIC, bus=bus)
    deps = handlers.Deps(EvidenceStore(tmp_path / "evidence"), None, H.HealthBook(cameras))
    handle = bind(handlers.FRAME_HANDLERS, deps)[FrameCaptured]

    async def run() -> None:
        await checks.own_all()
        await cameras.own_all()
        for f in frames(H.MIN_FRAMES):          # their files do not exist: no decision
            async with checks.unit_of_work() as uow:
                done = handle(f, uow)
                assert done is not None
                await done
    asyncio.run(run())
    alerts = [m for m in bus.messages(VISION_FRAMES_TOPIC) if isinstance(m, CameraAlertRaised)]
    assert len(alerts) == 1 and alerts[0].payload.camera_id == "CAM-1"
    assert alerts[0].payload.abstained == H.MIN_FRAMES
    assert cameras.get("health:CAM-1").alerting  # type: ignore[union-attr]
