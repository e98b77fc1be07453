"""Properties over random rounds and bets: payouts never negative, stake conservation, the
order of bets does not matter. Rounds are built from the seed transcription (seed_tables.py)."""
from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

import services.rules.baccarat  # noqa: F401
from services.rules.api import settle_request
from tests.rules.baccarat import seed_tables as seed

BO_SWITCHES = {"baccarat_commission": "5%", "baccarat_tie_pays": "8:1",
               "baccarat_player_pays": "1:1"}
TABLES = [("LIVE-GG", "live", {}), ("CL-ARICA", "mini", {}), ("CL-ARICA", "punto_banca", {}),
          ("BO", "punto_banca", BO_SWITCHES), ("BO", "midi", BO_SWITCHES),
          ("BO", "mini", {**BO_SWITCHES, "baccarat_commission": "10%"})]
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
VALUE = {r: (i + 1 if i < 9 else 0) for i, r in enumerate(RANKS)}

cards6 = st.lists(st.tuples(st.sampled_from(RANKS), st.sampled_from("SHDC")), min_size=6,
                  max_size=6)


def round_cards(raw: list[tuple[str, str]]) -> list[str]:
    v = [VALUE[r] for r, _ in raw]
    need = seed.cards_needed((v[0] + v[2]) % 10, (v[1] + v[3]) % 10, v[4])
    return [r + s for r, s in raw[:need]]


bets_st = st.lists(st.fixed_dictionaries({
    "kind": st.sampled_from(["player", "banker", "tie"]),
    "amount": st.integers(1, 10 ** 9),
    "seat": st.integers(1, 6)}), min_size=1, max_size=8)


def with_backing(bets: list[dict]) -> list[dict]:
    """BO/CL: a tie bet needs a main bet by the same player — add one where missing."""
    backed = {b["seat"] for b in bets if b["kind"] != "tie"}
    extra = [{"kind": "banker", "amount": 1, "seat": b["seat"]} for b in bets
             if b["kind"] == "tie" and b["seat"] not in backed]
    return bets + list({e["seat"]: e for e in extra}.values())


def unique_areas(bets: list[dict]) -> list[dict]:
    """LIVE-GG: one stake per area per player (A-30)."""
    return list({(b["seat"], b["kind"]): b for b in bets}.values())


def request(table, bets, cards):
    profile, variant, switches = table
    bets = unique_areas(bets) if profile == "LIVE-GG" else with_backing(bets)
    return {"game": "baccarat", "profile": profile, "variant": variant, "switches": switches,
            "bets": bets, "cards": cards}


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(TABLES), bets_st, cards6)
def test_payouts_never_negative_and_stakes_conserved(table, bets, raw):
    res = settle_request(request(table, bets, round_cards(raw)))
    assert res["ok"], res
    winner = res["round"]["winner"]
    for bet in res["bets"]:
        stake, paid = bet["stake"], bet["paid"]
        assert paid >= 0 and bet["net"] == paid - stake
        if bet["outcome"] == "lose":
            assert paid == 0 and bet["kind"] != winner
        elif bet["outcome"] == "push":
            assert paid == stake and winner == "tie" and bet["kind"] != "tie"
        else:
            assert bet["outcome"] == "win" and bet["kind"] == winner
            # winnings + commission is the full even-money (or 8:1) win: nothing created or lost
            ratio = 8 if bet["kind"] == "tie" else 1
            assert paid - stake + bet.get("commission", 0) == ratio * stake
            assert 0 <= bet.get("commission", 0) <= stake // 10 + 1
    totals = res["totals"]
    assert totals["staked"] == sum(b["stake"] for b in res["bets"])
    assert totals["paid"] == sum(b["paid"] for b in res["bets"])
    assert totals["house_win"] == totals["staked"] - totals["paid"]


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(TABLES), bets_st, cards6, st.randoms(use_true_random=False))
def test_order_of_bets_does_not_matter(table, bets, raw, rnd):
    req = request(table, bets, round_cards(raw))
    shuffled = dict(req, bets=rnd.sample(req["bets"], len(req["bets"])))
    a, b = settle_request(req), settle_request(shuffled)
    assert a["ok"] and b["ok"]
    key = lambda r: tuple(sorted(r.items()))  # noqa: E731
    assert Counter(map(key, a["bets"])) == Counter(map(key, b["bets"]))
    assert a["totals"] == b["totals"] and a["round"] == b["round"]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(1, 5000), min_size=1, max_size=5), st.integers(0, 3000), cards6,
       st.sampled_from(["draw", "stand"]))
def test_chemin_de_fer_money_is_conserved(punto_stakes, associated, raw, decision):
    """What the players and the bank get back plus the house deduction equals what they put up."""
    v = [VALUE[r] for r, _ in raw]
    p, b = (v[0] + v[2]) % 10, (v[1] + v[3]) % 10
    at_5 = p == 5 and b < 8
    cards = [r + s for r, s in raw[:seed.cards_needed(p, b, v[4], decision == "draw")]]
    bets = [{"kind": "player", "amount": a, "seat": i + 4} for i, a in enumerate(punto_stakes)]
    associated = min(associated, sum(punto_stakes))
    if associated:
        bets.append({"kind": "banker", "amount": associated, "seat": 2})
    req = {"game": "baccarat", "profile": "BO", "switches": BO_SWITCHES,
           "variant": "chemin_de_fer", "table_minimum": 1000,
           "bank": {"seat": 1, "amount": 25000}, "bets": bets, "cards": cards}
    if at_5:
        top = max(punto_stakes)
        req["punto_choice"] = {"seat": punto_stakes.index(top) + 4, "decision": decision}
    res = settle_request(req)
    assert res["ok"], res
    commission = sum(b.get("commission", 0) for b in res["bets"])
    assert res["totals"]["house_win"] == commission
    assert all(b["paid"] >= 0 for b in res["bets"])
    assert res["bank"]["after_round"] >= 25000 - sum(punto_stakes)
