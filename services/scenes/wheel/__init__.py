"""Synthetic overhead CCTV frames of roulette wheels, with labels (scene.py, sequence.py)."""
