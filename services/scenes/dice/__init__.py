"""Synthetic overhead CCTV frames of dice on the felt, with labels (scene.py)."""
