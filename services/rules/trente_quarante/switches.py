"""The Treinta y Cuarenta rule switches (domain.md A-17)."""
from __future__ import annotations

from services.rules.core.profiles import declare_switch

COLOR_CARD = declare_switch(
    "tq_color_card", ("winning_row", "first_row"),
    {"BO": "winning_row"},
    "Which card decides COLOR / INVERSO (domain.md A-17). winning_row (literal, default): "
    "seed 000 §2.4.2 «la primera carta de la columna ganadora», §2.4.3.3 «la primera carta de "
    "la fila ganadora»; first_row: the classical rule and one reading of §2.4.5.2 «la primera "
    "carta de la primera fila» — the first card of the NEGRO row, dealt first. Either way COLOR "
    "wins when that card has the colour of the winning row.",
)
