"""A second scene renderer, written apart from services/scenes/dice and services/scenes/wheel.

It shares no drawing code and no camera model with the first generator (only the rules'
wheel layouts, which are facts about roulette): a pinhole camera with radial lens distortion
at a height and tilt over the table plane (camera.py), dice drawn as cubes seen in
perspective (dice.py), wheels drawn in polar coordinates (wheel.py), its own finishing
(overlays, noise, compression: finish.py). `sets.py` defines the *tuning* region of its
parameters and the *foreign* evaluation set, which also draws from regions never used while
tuning (listed there).
"""
