"""Synthetic overhead CCTV frames of roulette wheels, with labels."""
from services.vision.wheel.synth.scene import CASES, WheelLabel, render_wheel_scene

__all__ = ["CASES", "WheelLabel", "render_wheel_scene"]
