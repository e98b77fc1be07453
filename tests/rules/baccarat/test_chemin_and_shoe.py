"""BO Baccarat (chemin de fer): bank limits, «hace banco», the decider at 5, garage; and the
cut card / last hand of every profile's shoe."""
from __future__ import annotations

import pytest

import services.rules.baccarat  # noqa: F401
from services.rules.api import explain_request, settle_request

SWITCHES = {"baccarat_commission": "5%", "baccarat_tie_pays": "8:1", "baccarat_player_pays": "1:1"}
MIN = 1000
BANCA_WINS = ["AH", "KS", "AC", "5D", "8S"]   # Punto 2 +8 -> 0; Banca 5 stands on an 8
PUNTO_WINS = ["9H", "KS", "KC", "5D"]
TIE_ROUND = ["9H", "9S", "KC", "KD"]


def chemin(bets, cards=BANCA_WINS, bank=None, **extra):
    return {"game": "baccarat", "profile": "BO", "switches": SWITCHES,
            "variant": "chemin_de_fer", "table_minimum": MIN,
            "bank": bank or {"seat": 3, "amount": 20000}, "bets": bets, "cards": cards, **extra}


def punto(seat, amount):
    return {"kind": "player", "seat": seat, "amount": amount}


def settle(request):
    return settle_request(request)


def errors(request):
    res = settle(request)
    assert not res["ok"], res
    return res["errors"][0]


def test_banca_wins_bank_grows_by_the_faded_stakes_less_the_deduction():
    res = settle(chemin([punto(5, 8000), punto(6, 2000)]))
    assert res["ok"], res
    bank = res["bank"]
    assert bank["at_risk"] == 10000 and bank["after_round"] == 20000 + 9500
    assert not bank["passes"] and bank["max_bet_next_round"] == 29500
    position = res["bets"][-1]
    assert position["kind"] == "bank" and position["commission"] == 500
    assert res["totals"]["house_win"] == 500  # the house only takes the deduction


def test_banca_loses_the_bank_pays_and_passes():
    res = settle(chemin([punto(5, 8000)], cards=PUNTO_WINS))
    assert res["bank"]["passes"] and res["bank"]["remaining"] == 12000
    assert res["bets"][0]["paid"] == 16000 and res["totals"]["house_win"] == 0


def test_tie_voids_the_round_and_there_is_no_tie_bet():
    res = settle(chemin([punto(5, 8000)], cards=TIE_ROUND))
    assert [b["outcome"] for b in res["bets"]] == ["void", "void"]
    assert res["totals"]["house_win"] == 0 and res["bank"]["after_round"] == 20000
    assert "considerada nula" in res["bets"][0]["rule"]
    err = errors(chemin([punto(5, 100), {"kind": "tie", "seat": 5, "amount": 100}]))
    assert err["field"] == "bets[1].kind" and "no tie bet" in err["reason"]


def test_bank_limits_are_minimum_to_100_times_minimum():
    assert errors(chemin([punto(5, 500)], bank={"seat": 3, "amount": 999}))["field"] == \
        "bank.amount"
    assert errors(chemin([punto(5, 500)], bank={"seat": 3, "amount": 100 * MIN + 1}))["field"] == \
        "bank.amount"
    assert settle(chemin([punto(5, 500)], bank={"seat": 3, "amount": 100 * MIN}))["ok"]


def test_a_players_maximum_is_the_bank_hace_banco():
    assert settle(chemin([punto(5, 20000)]))["ok"]             # «hace banco»
    err = errors(chemin([punto(5, 20001)]))
    assert err["field"] == "bets[0].amount" and "hace banco" in err["reason"]
    err = errors(chemin([punto(5, 15000), punto(6, 15000)]))
    assert err["field"] == "bets" and "cover" in err["reason"]


def test_banker_bets_on_banca_only_and_associates_are_paid_from_punto():
    err = errors(chemin([punto(3, 1000)]))
    assert err["field"] == "bets[0]" and "always bets on Banca" in err["reason"]
    res = settle(chemin([punto(5, 8000), {"kind": "banker", "seat": 7, "amount": 3000}]))
    assoc, bank = res["bets"][1], res["bank"]
    assert assoc["paid"] == 3000 + 2850 and bank["at_risk"] == 5000
    assert res["totals"]["house_win"] == 150 + 250
    err = errors(chemin([punto(5, 1000), {"kind": "banker", "seat": 7, "amount": 3000}]))
    assert err["field"] == "bets" and "exceed the Punto" in err["reason"]


def test_decider_at_5_must_hold_the_largest_punto_bet():
    cards = ["2H", "KS", "3C", "5D", "7S"]   # Punto 5, Banca 5
    err = errors(chemin([punto(5, 8000), punto(6, 2000)], cards=cards))
    assert err["field"] == "punto_choice"
    err = errors(chemin([punto(5, 8000), punto(6, 2000)], cards=cards,
                        punto_choice={"seat": 6, "decision": "stand"}))
    assert err["field"] == "punto_choice.seat" and "largest" in err["reason"]
    res = settle(chemin([punto(5, 8000), punto(6, 2000)], cards=cards,
                        punto_choice={"seat": 5, "decision": "stand"}))
    # Punto stands on 5, Banca 5 follows Punto's table and draws the 7S: 2, Punto wins
    assert res["round"]["winner"] == "player" and res["round"]["banca"]["total"] == 2
    drawn = settle(chemin([punto(5, 8000)], cards=cards + ["KH"],
                          punto_choice={"seat": 5, "decision": "draw"}))
    # Punto draws 7S -> 2; Banca 5 draws on a 7 (row 5: 4-5-6-7) the KH -> 5
    assert drawn["round"]["punto"]["total"] == 2 and drawn["round"]["banca"]["total"] == 5
    tied = settle(chemin([punto(5, 4000), punto(6, 4000)], cards=cards,
                         punto_choice={"seat": 6, "decision": "stand"}))
    assert tied["ok"] and "not verified" in tied["notes"][0]


def test_garage_mandatory_above_100_times_minimum():
    res = settle(chemin([punto(5, 20000)], bank={"seat": 3, "amount": 90000, "winnings": 80000}))
    bank = res["bank"]
    assert bank["after_round"] == 90000 + 19000
    assert bank["garage_mandatory"] == 9000 and bank["remaining"] == 100 * MIN


def test_garage_voluntary_winnings_less_50_times_minimum():
    bank = {"seat": 3, "amount": 60000, "winnings": 40000}
    # after the win: winnings 40000 + 9500 = 49500 <= 50 × 1000: nothing may be garaged
    err = errors(chemin([punto(5, 10000)], bank={**bank, "garage": 1}))
    assert err["field"] == "bank.garage"
    res = settle(chemin([punto(5, 20000)], bank={**bank, "garage": 9000}))
    assert res["ok"], res  # winnings 59000 - 50000 = 9000 allowed
    assert res["bank"]["remaining"] == 60000 + 19000 - 9000
    assert errors(chemin([punto(5, 20000)], bank={**bank, "garage": 9001}))["field"] == \
        "bank.garage"
    assert errors(chemin([punto(5, 100)], cards=PUNTO_WINS,
                         bank={**bank, "garage": 1}))["field"] == "bank.garage"


def test_chemin_fields_required_and_seats_required():
    req = chemin([punto(5, 100)])
    del req["table_minimum"]
    assert errors(req)["field"] == "table_minimum"
    req = chemin([{"kind": "player", "amount": 100}])
    assert errors(req)["field"] == "bets[0].seat"
    req = chemin([punto(5, 100)])
    req["bank"] = None
    assert errors(req)["field"] == "bank"


def test_explain_chemin_mentions_bank_and_choice():
    text = "\n".join(explain_request(chemin([punto(5, 8000)], cards=["2H", "KS", "3C", "5D", "7S"],
                                            punto_choice={"seat": 5, "decision": "stand"})))
    assert "the decider chose to stand" in text and "Banca follows Punto's table" in text
    assert "the bank passes" in text


# --- cut card and last hand -------------------------------------------------------------

def _filler(n: int, decks: int, round_cards: list[str]) -> list[str]:
    """The first n cards of a full shoe from which one copy of each round card is kept back,
    so the round's cards can still come out of it."""
    shoe = [f"{r}{s}" for _ in range(decks) for s in "SHDC"
            for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")]
    for card in round_cards:
        shoe.remove(card)
    return shoe[:n]


@pytest.mark.parametrize("profile, variant, decks, depth, switches", [
    ("LIVE-GG", "live", 8, 7, {}),          # seed 003 Bac §3.3.4
    ("BO", "punto_banca", 8, 6, SWITCHES),  # seed 002 §2.2.5.1
    ("CL-ARICA", "mini", 6, 10, {}),        # seed 004 III §2.5
])
def test_cut_card_last_hand(profile, variant, decks, depth, switches):
    limit = decks * 52 - depth

    def round_at(n: int, cards: list[str]) -> dict:
        return settle({"game": "baccarat", "profile": profile, "variant": variant,
                       "switches": switches, "bets": [{"kind": "player", "amount": 100}],
                       "cards": cards, "shoe": {"previous_cards": _filler(n, decks, cards)}})

    before = round_at(limit - 5, BANCA_WINS)
    assert before["ok"] and not before["shoe"]["last_hand"]      # ends right at the cut card
    assert before["shoe"]["dealt_after"] == limit
    exact = round_at(limit, PUNTO_WINS)
    assert exact["ok"] and exact["shoe"]["last_hand"]            # starts with the cut card out
    crossing = round_at(limit - 2, PUNTO_WINS)
    assert crossing["ok"] and crossing["shoe"]["last_hand"]      # cut card comes out mid-round
    late = round_at(limit + 1, PUNTO_WINS)
    assert not late["ok"] and late["errors"][0]["field"] == "shoe.previous_cards"
    assert "A-13" in late["errors"][0]["reason"]
