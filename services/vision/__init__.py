"""Vision: read dice and roulette results from CCTV frames with OpenCV."""
