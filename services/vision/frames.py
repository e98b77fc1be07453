"""Frame sources: image files and folders, video files, camera streams — one interface.

Every source yields `Frame`s and reports trouble as `CameraEvent`s to a callback instead of
raising: a corrupt or empty frame is reported and skipped, a stream that drops is reopened
with exponential backoff (each try reported), and a camera that never comes back ends with a
`gave_up` event. The Kafka service later turns these events into messages; here they are
plain values (BO seed 002 Anexo I §2.1 wants «grabación ininterrumpida»: an outage must be
visible, not silent).
"""
from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol, TypeGuard

import cv2
import numpy as np

IMAGE_EXT = {".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp"}
VIDEO_EXT = {".mp4", ".avi", ".mjpeg", ".mjpg", ".mkv", ".mov", ".m4v"}
STREAM_SCHEMES = ("rtsp://", "rtsps://", "http://", "https://")

EVENT_KINDS = ("opened", "disconnected", "retrying", "gave_up", "corrupt_frame",
               "empty_frame", "unreadable", "ended")


@dataclass(frozen=True)
class Frame:
    source: str          # the input as given (file, folder, video or URL)
    file: str            # the image file, or the source for video and streams
    index: int           # position within the source (0-based)
    image: np.ndarray    # BGR uint8


@dataclass(frozen=True)
class CameraEvent:
    source: str
    kind: str            # one of EVENT_KINDS
    detail: str = ""
    attempt: int = 0     # reconnection attempt (retrying / gave_up)
    delay_s: float = 0.0  # wait before that attempt
    at: float = field(default_factory=time.time)

    def __post_init__(self) -> None:
        if self.kind not in EVENT_KINDS:
            raise ValueError(f"kind: {self.kind!r} not one of {EVENT_KINDS}")


EventSink = Callable[[CameraEvent], None]


def ignore(_: CameraEvent) -> None:
    """The default sink: drop events."""


@dataclass(frozen=True)
class Backoff:
    """Reconnection delays: initial_s, then x factor each try, capped; max_attempts None = ∞."""
    initial_s: float = 0.5
    factor: float = 2.0
    max_s: float = 30.0
    max_attempts: int | None = 10

    def delays(self) -> Iterator[float]:
        delay, n = self.initial_s, 0
        while self.max_attempts is None or n < self.max_attempts:
            yield min(delay, self.max_s)
            delay, n = delay * self.factor, n + 1


class FrameSource(Protocol):
    source: str

    def __iter__(self) -> Iterator[Frame]: ...


def _usable(image: np.ndarray | None) -> TypeGuard[np.ndarray]:
    return image is not None and image.size > 0 and image.ndim in (2, 3)


class ImageFiles:
    """One image file, or every image in a folder (sorted by name)."""

    def __init__(self, source: str, on_event: EventSink = ignore) -> None:
        self.source, self.on_event = source, on_event
        path = Path(source)
        self.paths = sorted(p for p in path.iterdir() if p.suffix.lower() in IMAGE_EXT) \
            if path.is_dir() else [path]

    def __iter__(self) -> Iterator[Frame]:
        for i, path in enumerate(self.paths):
            image = cv2.imread(str(path), cv2.IMREAD_COLOR) if path.is_file() else None
            if not path.is_file():
                self.on_event(CameraEvent(self.source, "unreadable", f"{path}: no such file"))
            elif image is None:
                self.on_event(CameraEvent(self.source, "corrupt_frame", f"{path}: not an image"))
            elif not _usable(image):
                self.on_event(CameraEvent(self.source, "empty_frame", str(path)))
            else:
                yield Frame(self.source, str(path), i, image)


class Capture(Protocol):
    """What the sources use of an OpenCV capture (cv2.VideoCapture, or a test's stand-in)."""

    def isOpened(self) -> bool: ...

    def read(self) -> tuple[bool, np.ndarray | None]: ...

    def release(self) -> None: ...


Opener = Callable[[str], Capture]


def _open_capture(spec: str) -> cv2.VideoCapture:
    return cv2.VideoCapture(spec)


class VideoFile:
    """Frames of a video file (MP4, MJPEG, AVI...). Unreadable frames are reported."""

    def __init__(self, source: str, on_event: EventSink = ignore,
                 opener: Opener = _open_capture) -> None:
        self.source, self.on_event, self.opener = source, on_event, opener

    def __iter__(self) -> Iterator[Frame]:
        cap = self.opener(self.source)
        if not cap.isOpened():
            self.on_event(CameraEvent(self.source, "unreadable", "cannot open video"))
            return
        self.on_event(CameraEvent(self.source, "opened"))
        try:
            index = 0
            while True:
                ok, image = cap.read()
                if not ok:
                    self.on_event(CameraEvent(self.source, "ended", f"{index} frames"))
                    return
                if _usable(image):
                    yield Frame(self.source, self.source, index, image)
                else:
                    self.on_event(CameraEvent(self.source, "empty_frame", f"frame {index}"))
                index += 1
        finally:
            cap.release()


class Stream:
    """A live camera (RTSP/HTTP): reopened with backoff whenever it cannot be read.

    Ends when `stop` is set, after `max_frames`, or when the backoff's attempts run out in a
    row without a single frame (then a `gave_up` event).
    """

    def __init__(self, source: str, on_event: EventSink = ignore,
                 backoff: Backoff = Backoff(), opener: Opener = _open_capture,
                 sleep: Callable[[float], None] = time.sleep,
                 stop: threading.Event | None = None, max_frames: int | None = None) -> None:
        self.source, self.on_event, self.backoff = source, on_event, backoff
        self.opener, self.sleep = opener, sleep
        self.stop = stop or threading.Event()
        self.max_frames = max_frames

    def __iter__(self) -> Iterator[Frame]:
        index, delays = 0, self.backoff.delays()
        attempt = 0
        while not self.stop.is_set():
            cap = self.opener(self.source)
            if cap.isOpened():
                self.on_event(CameraEvent(self.source, "opened", attempt=attempt))
                got = 0
                for image in _read_until_failure(cap, self.stop):
                    if not _usable(image):
                        self.on_event(CameraEvent(self.source, "empty_frame", f"frame {index}"))
                        continue
                    yield Frame(self.source, self.source, index, image)
                    index, got = index + 1, got + 1
                    if self.max_frames is not None and index >= self.max_frames:
                        cap.release()
                        return
                if got:  # it worked for a while: start the backoff again from the beginning
                    delays, attempt = self.backoff.delays(), 0
                self.on_event(CameraEvent(self.source, "disconnected", f"after {got} frames"))
            cap.release()
            if self.stop.is_set():
                return
            delay = next(delays, None)
            attempt += 1
            if delay is None:
                self.on_event(CameraEvent(self.source, "gave_up", "no frames",
                                          attempt=attempt - 1))
                return
            self.on_event(CameraEvent(self.source, "retrying", f"in {delay:.2f} s",
                                      attempt=attempt, delay_s=delay))
            self.sleep(delay)


def _read_until_failure(cap: Capture, stop: threading.Event) -> Iterator[np.ndarray | None]:
    while not stop.is_set():
        ok, image = cap.read()
        if not ok:
            return
        yield image


def kind_of(spec: str) -> str:
    """'stream', 'video' or 'images' for an input as given on the command line."""
    if spec.lower().startswith(STREAM_SCHEMES):
        return "stream"
    return "video" if Path(spec).suffix.lower() in VIDEO_EXT else "images"


def open_source(spec: str, on_event: EventSink = ignore, backoff: Backoff = Backoff(),
                **stream_options) -> FrameSource:
    """The frame source for a file, a folder, a video file or a stream URL."""
    kind = kind_of(spec)
    if kind == "stream":
        return Stream(spec, on_event, backoff, **stream_options)
    if kind == "video":
        return VideoFile(spec, on_event)
    return ImageFiles(spec, on_event)


def frames(specs: Sequence[str], on_event: EventSink = ignore,
           backoff: Backoff = Backoff()) -> Iterator[Frame]:
    """Frames of every input in turn."""
    for spec in specs:
        yield from open_source(spec, on_event, backoff)
