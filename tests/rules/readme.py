"""Reading the code blocks of a rules README, for tests that keep the documentation true."""
from __future__ import annotations

import re
from pathlib import Path

RULES = Path(__file__).resolve().parents[2] / "services" / "rules"


def readme(game: str | None = None) -> Path:
    """services/rules/README.md, or services/rules/<game>/README.md."""
    return (RULES / game if game else RULES) / "README.md"


def blocks(path: Path, lang: str) -> list[str]:
    """The bodies of the ```lang fenced blocks of `path`, in order."""
    return re.findall(rf"```{lang}\n(.*?)```", path.read_text(), re.S)
