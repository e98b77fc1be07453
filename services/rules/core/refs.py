"""Rule references: every payout names the seed and section that produced it."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class RuleRef:
    """A citation into ../shared/seeds, e.g. RuleRef("000", "§4.1.6") -> "seed 000 §4.1.6".

    `section` follows the digest's convention (domain.md §0.2): "§2.1.7.2" for the Bolivian
    Clasificador, "III §1.5.1" / "RG §4.2" for seed 004, "Bac §2.1.7" for seed 003; seed 001
    has no numbers, so `quote` (a few Spanish words from the seed) locates the rule there.
    `note` records an implementation decision (an ambiguity A-n of domain.md §10.2, a switch).
    """

    seed: str
    section: str = ""
    quote: str | None = None
    note: str | None = None

    def __str__(self) -> str:
        text = f"seed {self.seed}"
        if self.section:
            text += f" {self.section}"
        if self.quote:
            text += f" «{self.quote}»"
        return text

    def to_dict(self) -> dict[str, str]:
        out = {"seed": self.seed, "section": self.section, "text": str(self)}
        if self.quote:
            out["quote"] = self.quote
        if self.note:
            out["note"] = self.note
        return out
