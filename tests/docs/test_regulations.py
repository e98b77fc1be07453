"""docs/regulations.md names every seed section the code cites, under its seed, so a reader of a
clone (which has no ../shared/seeds) can follow every `rule` reference. The citations are found
in the text of services/ and contracts/ ("seed 002 §1.3", "seed 004 RG §6", RuleRef("003",
"Bac §2.1.1")) and in the RuleRef objects the rules engine builds when its modules load."""
from __future__ import annotations

import dataclasses
import importlib
import inspect
import pkgutil
import re
from collections.abc import Iterable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "regulations.md"
SOURCES = ("services", "contracts")

# A qualifier belongs to one seed (domain.md §0.2): RG/II/III/IV to 004, Bac/BJ/Rul to 003,
# Anexo to 002; an unqualified number belongs to the seed written before it.
QUALIFIER_SEED = {"RG": "004", "II": "004", "III": "004", "IV": "004", "Bac": "003",
                  "BJ": "003", "Rul": "003", "Anexo I": "002", "Anexo II": "002",
                  "Anexo III": "002"}
PROFILE_SEED = {"AR-RUL": "001", "CL-ARICA": "004", "LIVE-GG": "003"}
QUALIFIER = r"(?:Anexo I{1,3}|RG|III|II|IV|Bac|BJ|Rul)"
SECTION = rf"(?:{QUALIFIER} )?§\d+(?:\.\d+)*"
CHAIN = rf"{SECTION}(?:\s*(?:-|–|/|,)\s*{SECTION})*"
TEXT_CITATION = re.compile(rf"(?:seed (?P<seed>00[0-4])|(?P<profile>AR-RUL|CL-ARICA|LIVE-GG)) "
                           rf"(?P<chain>{CHAIN})")
CODE_CITATION = re.compile(rf"RuleRef\(\s*\"(?P<seed>00[0-4])\",\s*f?\"(?P<chain>{CHAIN})")
# A qualified section on its own in a string ("III §2.4.1"): the qualifier names the seed.
QUALIFIED_LITERAL = re.compile(rf"\"(?P<chain>{QUALIFIER} §\d+(?:\.\d+)*)\"")
ONE = re.compile(rf"(?:(?P<qualifier>{QUALIFIER}) )?§(?P<number>\d+(?:\.\d+)*)")

Citation = tuple[str, str]   # (seed, "III §1.5.1")


def split_chain(seed: str, chain: str) -> Iterator[Citation]:
    """"III §1.8.1-§1.8.4" -> III §1.8.1, III §1.8.4: a bare number keeps the qualifier before
    it in the chain."""
    qualifier = None
    for m in ONE.finditer(chain):
        qualifier = m["qualifier"] or qualifier
        owner = QUALIFIER_SEED[qualifier] if qualifier else seed
        yield owner, f"{qualifier} §{m['number']}" if qualifier else f"§{m['number']}"


def text_citations(text: str) -> Iterator[Citation]:
    for pattern in (TEXT_CITATION, CODE_CITATION):
        for m in pattern.finditer(text):
            seed = m["seed"] if m["seed"] else PROFILE_SEED[m["profile"]]
            yield from split_chain(seed, m["chain"])
    for m in QUALIFIED_LITERAL.finditer(text):
        yield from split_chain("", m["chain"])


def source_files() -> Iterator[Path]:
    for folder in SOURCES:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix in (".py", ".md") and path.is_file():
                yield path


def built_refs() -> list:
    """The RuleRefs reachable from the rules engine's modules once imported (tables built with
    helpers, which the text search cannot read). Only what import builds, not what earlier
    tests happened to build, so the answer does not depend on the order tests run in."""
    import services.rules as rules
    from services.rules.core.refs import RuleRef
    found: dict[int, RuleRef] = {}
    seen: set[int] = set()
    pending: list[object] = []
    for info in pkgutil.walk_packages(rules.__path__, "services.rules."):
        module = importlib.import_module(info.name)
        pending.extend(v for v in vars(module).values() if not _is_code(v))
    while pending:
        obj = pending.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        if isinstance(obj, RuleRef):
            found[id(obj)] = obj
        elif isinstance(obj, dict):
            pending.extend(obj.values())
        elif isinstance(obj, (list, tuple, set, frozenset)):
            pending.extend(obj)
        elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
            pending.extend(getattr(obj, f.name) for f in dataclasses.fields(obj))
    return list(found.values())


def _is_code(value: object) -> bool:
    return isinstance(value, type) or callable(value) or inspect.ismodule(value)


def built_citations() -> Iterator[Citation]:
    for ref in built_refs():
        if ref.section:
            yield from split_chain(ref.seed, ref.section)


# The quotation may be written as adjacent literals over several lines ("...entre un "
# "mínimo y un máximo"), which Python joins.
SEED_001_QUOTE = re.compile(r'RuleRef\(\s*"001",\s*quote=(?P<quote>"[^"]+"(?:\s*"[^"]+")*)')


def seed_001_quotes() -> set[str]:
    """Seed 001 has no section numbers: the code locates its rules by a quotation."""
    quotes = {"".join(re.findall(r'"([^"]+)"', m["quote"])) for path in source_files()
              for m in SEED_001_QUOTE.finditer(path.read_text(encoding="utf-8"))}
    return quotes | {ref.quote for ref in built_refs() if ref.seed == "001" and ref.quote}


def cited() -> dict[Citation, set[str]]:
    """Every cited section -> the files citing it (built ones: "(built)")."""
    found: dict[Citation, set[str]] = {}
    for path in source_files():
        for citation in text_citations(path.read_text(encoding="utf-8")):
            found.setdefault(citation, set()).add(str(path.relative_to(ROOT)))
    for citation in built_citations():
        found.setdefault(citation, set()).add("(built)")
    return found


def seed_parts(doc: str) -> dict[str, str]:
    """The text under each '## Seed 00N' heading, up to the next '## ' heading."""
    parts = re.split(r"^## ", doc, flags=re.M)
    return {m[1]: part for part in parts if (m := re.match(r"Seed (00[0-4])\b", part))}


# A bare "§1.5" must not be found inside "III §1.5" (nor "§1.5" inside "§1.5.1").
NOT_QUALIFIED = "(?<!I )(?<!RG )(?<!IV )(?<!Bac )(?<!BJ )(?<!Rul )"


def mentioned(part: str, section: str) -> bool:
    before = NOT_QUALIFIED if section.startswith("§") else r"(?<![\w.])"
    return re.search(rf"{before}{re.escape(section)}(?!\d|\.\d)", part) is not None


def missing(citations: Iterable[Citation], doc: str) -> list[Citation]:
    parts = seed_parts(doc)
    return sorted(c for c in citations if not mentioned(parts.get(c[0], ""), c[1]))


def test_the_extractor_reads_the_citation_forms_the_code_uses() -> None:
    text = ('rule = "seed 002 §1.3; seed 004 RG §6" '
            '(seed 004 III §1.8.1-§1.8.4, IV §1.5/§1.7) '
            'RuleRef("003", "Bac §2.1.1") LIVE-GG Rul §3.2 seed 000 §4.1.4.2 item 11 '
            'x = "III §2.4.1" if a else "§9.9"')
    assert sorted(set(text_citations(text))) == [
        ("000", "§4.1.4.2"), ("002", "§1.3"), ("003", "Bac §2.1.1"), ("003", "Rul §3.2"),
        ("004", "III §1.8.1"), ("004", "III §1.8.4"), ("004", "III §2.4.1"), ("004", "IV §1.5"),
        ("004", "IV §1.7"),
        ("004", "RG §6")]
    assert mentioned("- **III §1.5.1** Black Jack", "III §1.5.1")
    assert not mentioned("- **III §1.5.1** Black Jack", "III §1.5")
    assert not mentioned("- **III §1.5** x", "§1.5")  # unqualified must not match a qualified


def test_every_seed_section_cited_in_the_code_is_in_docs_regulations() -> None:
    found = cited()
    assert len(found) > 50          # the extractor sees the code's citations
    gaps = missing(found, DOC.read_text(encoding="utf-8"))
    assert not gaps, "cited in the code but not in docs/regulations.md: " + ", ".join(
        f"seed {seed} {section} ({', '.join(sorted(found[(seed, section)]))})"
        for seed, section in gaps)


def test_every_seed_001_quotation_in_the_code_is_in_docs_regulations() -> None:
    quotes = seed_001_quotes()
    assert quotes                   # the extractor sees the code's quotations
    part = seed_parts(DOC.read_text(encoding="utf-8")).get("001", "")
    assert sorted(q for q in quotes if f"«{q}»" not in part) == []
