"""Roulette wheel reader and per-camera wheel calibration.

Public API (see README.md):
    read_wheel(frame, variant="european", calibration=None) -> WheelReading
    WheelTracker(variant, calibration, confirm_frames).update(frame) -> TrackerState
    calibrate_wheel(frame, variant) -> WheelCalibration; save(cal, path); load(path)
    annotate(frame, reading) -> image

The labelled wheel scenes that test and measure it are rendered by services/scenes/wheel/
(render_wheel_scene, render_wheel_sequence), which the reader never imports.
"""
from services.vision.wheel.annotate import annotate
from services.vision.wheel.calibration import WheelCalibration, calibrate_wheel, load, save
from services.vision.wheel.layout import LAYOUTS, WheelLayout, get_layout
from services.vision.wheel.reader import read_wheel
from services.vision.wheel.reading import WheelReading
from services.vision.wheel.tracker import TrackerState, WheelTracker

__all__ = ["annotate", "WheelCalibration", "calibrate_wheel", "load", "save", "LAYOUTS",
           "WheelLayout", "get_layout", "read_wheel", "WheelReading", "TrackerState",
           "WheelTracker"]
