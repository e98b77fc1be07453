"""Frame sources: folder, MJPG video, corrupt file, empty frame, a failing stream URL."""
import threading

import cv2
import numpy as np

from services.vision import frames as F


def _write_images(folder, n=3):
    for i in range(n):
        cv2.imwrite(str(folder / f"f{i}.png"), np.full((48, 64, 3), 40 * i, np.uint8))


def test_folder_yields_sorted_images_and_reports_a_corrupt_file(tmp_path):
    _write_images(tmp_path)
    (tmp_path / "broken.jpg").write_bytes(b"\xff\xd8 not really a jpeg")
    events: list[F.CameraEvent] = []
    got = list(F.open_source(str(tmp_path), events.append))
    assert [f.file.rsplit("/", 1)[1] for f in got] == ["f0.png", "f1.png", "f2.png"]
    assert [e.kind for e in events] == ["corrupt_frame"] and "broken.jpg" in events[0].detail


def test_missing_file_is_reported_not_raised(tmp_path):
    events: list[F.CameraEvent] = []
    assert list(F.open_source(str(tmp_path / "nope.png"), events.append)) == []
    assert events[0].kind == "unreadable"


def test_mjpg_video_written_with_videowriter(tmp_path):
    path = str(tmp_path / "clip.avi")
    writer = cv2.VideoWriter(path, cv2.VideoWriter.fourcc(*"MJPG"), 10, (64, 48))
    for i in range(5):
        writer.write(np.full((48, 64, 3), 50 * i, np.uint8))
    writer.release()
    events: list[F.CameraEvent] = []
    got = list(F.open_source(path, events.append))
    assert [f.index for f in got] == [0, 1, 2, 3, 4]
    assert abs(int(got[3].image.mean()) - 150) < 6  # the frames' content survives
    assert [e.kind for e in events] == ["opened", "ended"]


class _FakeCapture:
    """Stands in for a camera that serves frames, one of them empty, then drops."""

    def __init__(self, frames):
        self.frames = list(frames)

    def isOpened(self):
        return True

    def read(self):
        return (True, self.frames.pop(0)) if self.frames else (False, None)

    def release(self):
        pass


def test_empty_frame_reported_and_stream_reconnects_after_a_drop():
    served = iter([[np.zeros((4, 4, 3), np.uint8), np.zeros((0, 0, 3), np.uint8)],
                   [np.ones((4, 4, 3), np.uint8)]])
    events: list[F.CameraEvent] = []
    slept: list[float] = []
    stream = F.Stream("rtsp://camera", events.append, F.Backoff(0.01, 2, 1, 2),
                      opener=lambda _: _FakeCapture(next(served, [])), sleep=slept.append,
                      max_frames=2)
    got = list(stream)
    assert [int(f.image.max()) for f in got] == [0, 1]
    assert [e.kind for e in events] == ["opened", "empty_frame", "disconnected", "retrying",
                                        "opened"]
    assert slept == [0.01]


def test_failing_url_retries_with_backoff_then_gives_up():
    events: list[F.CameraEvent] = []
    # Nothing listens on port 9 of this machine: the real OpenCV capture fails at once.
    stream = F.open_source("http://127.0.0.1:9/cam.mjpg", events.append,
                           F.Backoff(0.001, 2.0, 0.004, 4))
    assert list(stream) == []
    kinds = [e.kind for e in events]
    assert kinds == ["retrying"] * 4 + ["gave_up"]
    assert [e.delay_s for e in events[:4]] == [0.001, 0.002, 0.004, 0.004]


def test_stop_ends_a_stream():
    stop = threading.Event()
    stop.set()
    assert list(F.Stream("rtsp://x", stop=stop, opener=lambda _: _FakeCapture([]))) == []


def test_kind_of():
    assert F.kind_of("rtsp://a/b") == "stream" and F.kind_of("x.MP4") == "video"
    assert F.kind_of("frames/") == "images"
