"""Banked poker: hand evaluators (5-, 7- and 3-card, plain and numpy), the BO and CL-ARICA
banked games, progressive side-bet prizes and house edges. See README.md.

Importing the package registers the Game "poker" (services/rules/registry.py).
"""
from services.rules.poker.game import PokerGame
from services.rules.poker.hands import HandClass, ThreeCardClass
from services.rules.poker.progressive import (
                                              Award,
                                              PoolSplit,
                                              Winner,
                                              progressive_award,
                                              qualifying,
                                              split_pool,
)
from services.rules.registry import register

GAME = register(PokerGame())

__all__ = ["GAME", "HandClass", "ThreeCardClass", "Award", "PoolSplit", "Winner",
           "progressive_award", "qualifying", "split_pool"]
