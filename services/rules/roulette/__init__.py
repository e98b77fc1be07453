"""Roulette: French/European single zero (BO, AR-RUL, LIVE-GG) and American double zero
(CL-ARICA), every bet kind of the seeds, zero rules, limits, called bets. See README.md."""
from services.rules.roulette import switches as _switches  # noqa: F401  (declares switches)
from services.rules.roulette.bets import KINDS, RouletteBet
from services.rules.roulette.layout import WHEELS
from services.rules.roulette.settle import settle_bet, settle_bets

__all__ = ["RouletteBet", "settle_bets", "settle_bet", "WHEELS", "KINDS"]

from services.rules.roulette import game as _game  # noqa: E402,F401  (registers "roulette")
