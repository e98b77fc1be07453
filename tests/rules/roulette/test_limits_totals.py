"""An over-maximum even-chance bet that goes to prison: the excess is handed back now, the
maximum stays imprisoned, and the totals account for exactly the money that moved."""
from services.rules.api import settle_request


def test_prison_with_excess_returned_is_in_the_totals():
    out = settle_request({"game": "roulette", "profile": "BO", "wheel": "european",
                          "bets": [{"kind": "red", "amount": 1000, "zero_option": "prison"}],
                          "outcome": {"pocket": "0"}, "limits": {"minimum": 100, "maximum": 600}})
    assert out["ok"], out
    [bet] = out["bets"]
    assert bet["outcome"] == "prison" and bet["excess_returned"] == 400 and bet["paid"] == 400
    assert out["totals"] == {"staked": 400, "paid": 400, "house_win": 0}
