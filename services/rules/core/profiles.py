"""Rule profiles: one per jurisdiction/operator, never an average of them (domain.md §0.1).

A profile is an id plus a set of *switches*. Each game module declares the switches it reads
(`declare_switch`), with a default per profile and the citation that justifies it. Where a
profile is silent a switch has no default for it, and reading it is an error: we never copy
another profile's value silently. A request may override switches (`Profile.with_switches`),
which is how an operator tries the other reading of an ambiguous seed.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType

from services.rules.core.errors import RulesError
from services.rules.core.money import Rounding


@dataclass(frozen=True)
class SwitchSpec:
    name: str
    choices: tuple[str, ...]
    defaults: Mapping[str, str]  # profile id -> default choice
    doc: str                     # what it decides and the seed/ambiguity behind each default


SWITCHES: dict[str, SwitchSpec] = {}


def declare_switch(name: str, choices: tuple[str, ...], defaults: Mapping[str, str],
                   doc: str) -> SwitchSpec:
    """Register a switch (idempotent for an identical declaration, error on a clash)."""
    for profile_id, choice in defaults.items():
        if choice not in choices:
            raise ValueError(f"switch {name}: default {choice!r} for {profile_id} not in {choices}")
    spec = SwitchSpec(name, tuple(choices), MappingProxyType(dict(defaults)), doc)
    existing = SWITCHES.get(name)
    if existing is not None and existing != spec:
        raise ValueError(f"switch {name} declared twice with different settings")
    SWITCHES[name] = spec
    return spec


@dataclass(frozen=True)
class Profile:
    id: str
    name: str
    seeds: tuple[str, ...]
    currency: str
    minor_digits: int  # 2 = cents/centavos, 0 = the Chilean peso has no minor unit in use
    overrides: Mapping[str, str] = field(default_factory=dict)

    def switch(self, name: str) -> str:
        if name in self.overrides:
            return self.overrides[name]
        spec = SWITCHES.get(name)
        if spec is None:
            raise RulesError("switches", f"unknown switch {name!r}")
        if self.id not in spec.defaults:
            raise RulesError("profile", f"profile {self.id} is silent on {name!r}; "
                             f"set it explicitly (one of {', '.join(spec.choices)})")
        return spec.defaults[self.id]

    def with_switches(self, overrides: Mapping[str, object] | None) -> Profile:
        if not overrides:
            return self
        if not isinstance(overrides, Mapping):
            raise RulesError("switches", "must be an object of switch name -> choice")
        merged = dict(self.overrides)
        for name, choice in overrides.items():
            spec = SWITCHES.get(name)
            if spec is None:
                raise RulesError(f"switches.{name}", "unknown switch")
            if choice not in spec.choices:
                raise RulesError(f"switches.{name}",
                                 f"{choice!r} is not one of {', '.join(spec.choices)}")
            merged[name] = str(choice)
        return replace(self, overrides=MappingProxyType(merged))

    @property
    def rounding(self) -> Rounding:
        return Rounding(self.switch("rounding"))


PROFILES: dict[str, Profile] = {
    p.id: p for p in (
        Profile("BO", "Bolivia — Clasificador de Juegos Autorizados (AJ)", ("000", "002"), "BOB",
                2),
        Profile("AR-RUL", "Argentina — Reglamento de Ruleta (attributed)", ("001",), "ARS", 2),
        Profile("CL-ARICA", "Chile — Casino de Arica catalogue, Decreto 3159/2017", ("004",),
                "CLP", 0),
        Profile("LIVE-GG", "Live-dealer operator house rules", ("003",), "USD", 2),
    )
}

declare_switch(
    "rounding", tuple(r.value for r in Rounding),
    {"BO": "down", "AR-RUL": "down", "CL-ARICA": "down", "LIVE-GG": "down"},
    "How fractional minor units of a payout or commission are settled. LIVE-GG: seed 003 "
    "(«si gana $4.096, recibirá $4.09», truncation, domain.md A-37). BO, AR-RUL, CL-ARICA: the "
    "seeds are silent (domain.md §1.8 [gap]); truncation in the house's favour of the fraction "
    "is our documented default, switchable.",
)


def get_profile(profile_id: object, overrides: Mapping[str, object] | None = None) -> Profile:
    if not isinstance(profile_id, str) or profile_id not in PROFILES:
        raise RulesError("profile", f"unknown profile {profile_id!r}; "
                         f"known: {', '.join(sorted(PROFILES))}")
    return PROFILES[profile_id].with_switches(overrides)
