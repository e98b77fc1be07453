"""Baccarat / Punto y Banca rules engine: every modality the profiles define.

BO (seed 002 §2.2): Punto y Banca, Baccarat (chemin de fer), Midi, Mini. CL-ARICA (seed 004
III §2): Punto y Banca, Mini. LIVE-GG (seed 003 Bac): live dealer baccarat. See README.md.
"""
from services.rules.baccarat.game import GAME, BaccaratGame, settle_round
from services.rules.registry import register

register(GAME)

__all__ = ["GAME", "BaccaratGame", "settle_round"]
