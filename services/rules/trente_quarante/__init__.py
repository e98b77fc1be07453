"""Treinta y Cuarenta (trente et quarante), BO seed 000 §2.4: rows, bets, the 31 tie and its
prison and insurance, house edges. See README.md."""
from services.rules.registry import register
from services.rules.trente_quarante import switches  # noqa: F401  (declares tq_color_card)
from services.rules.trente_quarante.game import TrenteQuaranteGame

GAME = register(TrenteQuaranteGame())
