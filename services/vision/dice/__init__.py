"""The dice reader: landing-area calibration, segmentation, faces (services/vision/README.md)."""
