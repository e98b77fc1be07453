"""Craps and Mini Craps (seed 000 §3.1, seed 004 IV §1): bets, pay tables, the table
aggregate across rolls, exact house edges. See README.md."""
from services.rules.craps import switches  # noqa: F401  (declares the craps switches)
from services.rules.craps.game import CrapsGame
from services.rules.registry import register

GAME = register(CrapsGame())
