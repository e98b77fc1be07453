"""Roulette wheel reader, wheel scene synthesis and per-camera wheel calibration."""
