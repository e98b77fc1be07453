"""Errors that name the offending field and the reason, so a bad request line can be fixed."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class FieldError:
    field: str   # a path into the request, e.g. "bets[2].numbers"
    reason: str  # what is wrong, in words a supervisor understands

    def to_dict(self) -> dict[str, str]:
        return {"field": self.field, "reason": self.reason}


class RulesError(ValueError):
    """One or more problems with a request; carries every FieldError found."""

    def __init__(self, field: str | None = None, reason: str | None = None,
                 errors: list[FieldError] | None = None) -> None:
        self.errors: list[FieldError] = list(errors or [])
        if field is not None:
            self.errors.insert(0, FieldError(field, reason or "invalid"))
        super().__init__("; ".join(f"{e.field}: {e.reason}" for e in self.errors))

    @property
    def field(self) -> str:
        return self.errors[0].field

    @property
    def reason(self) -> str:
        return self.errors[0].reason

    def prefixed(self, prefix: str) -> RulesError:
        """The same errors with their field paths placed under `prefix` (e.g. "bets[3]")."""
        return RulesError(errors=[FieldError(f"{prefix}.{e.field}" if e.field else prefix, e.reason)
                                  for e in self.errors])
