"""Every request example in services/rules/README.md settles: the documentation cannot drift."""
import json

import pytest

from services.rules.api import settle_request
from tests.rules.readme import blocks, readme

README = readme()


def examples() -> list[dict]:
    found = []
    for block in blocks(README, "json"):
        for text in (block, *block.strip().splitlines()):  # one object, or JSON Lines
            try:
                obj = json.loads(text)
            except json.JSONDecodeError:
                continue
            if isinstance(obj, dict) and "game" in obj and "ok" not in obj:
                found.append(obj)
    return found


def test_the_readme_shows_every_game():
    games = {e["game"] for e in examples()}
    assert {"roulette", "craps", "baccarat", "blackjack", "poker", "trente_quarante"} <= games


@pytest.mark.parametrize("request_", examples(), ids=lambda r: f"{r['game']}-{r.get('profile')}")
def test_readme_example_settles_with_rule_references(request_):
    out = settle_request(request_)
    assert out["ok"], out.get("errors")
    assert json.dumps(out).count("seed 0") >= 1


WRONG_SHAPES = [{}, [], None, 7, {"a": 1}, ["banker"]]


def _with_first_bet_kind(request_: dict, value: object) -> dict | None:
    bets = request_.get("bets")
    if not (isinstance(bets, list) and bets and isinstance(bets[0], dict) and "kind" in bets[0]):
        return None
    return {**request_, "bets": [{**bets[0], "kind": value}, *bets[1:]]}


@pytest.mark.parametrize("value", WRONG_SHAPES, ids=repr)
@pytest.mark.parametrize("request_", examples(), ids=lambda r: f"{r['game']}-{r.get('profile')}")
def test_a_kind_or_variant_of_the_wrong_type_is_an_error_not_a_crash(request_, value):
    # a JSON object or list as `kind`/`variant` is unhashable: it once raised TypeError out of
    # settle_request (found by fuzzing the README examples)
    for bad in (_with_first_bet_kind(request_, value),
                {**request_, "variant": value} if "variant" in request_ else None):
        if bad is None:
            continue
        out = settle_request(bad)
        assert out["ok"] is False and out["errors"][0]["field"].endswith(("kind", "variant"))
