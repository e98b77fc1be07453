"""Synthetic CCTV frames: shared nuisances, dice scenes, labelled-set writer."""
