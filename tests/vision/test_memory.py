"""The reader processes keep their freed frame buffers (services/vision/memory.py)."""
import platform

from services.vision.memory import keep_frame_buffers


def test_frame_buffers_are_kept_on_glibc() -> None:
    # CI's Python is linked against glibc: the setting must take effect, and stay so.
    assert platform.libc_ver()[0] == "glibc"
    assert keep_frame_buffers() is True
    assert keep_frame_buffers() is True
