"""Every (Punto total, Banca total, Punto third card) case against the seeds' drawing tables.

The expected behaviour comes from tests/rules/baccarat/seed_tables.py (the seed text
transcribed and parsed), never from the engine's tableau.py.
"""
from __future__ import annotations

import pytest

import services.rules.baccarat  # noqa: F401  (declares the baccarat switches)
from services.rules.baccarat.coup import BANKER, PLAYER, TIE, play
from services.rules.baccarat.variants import variants_for
from services.rules.core.cards import parse_cards
from services.rules.core.errors import RulesError
from services.rules.core.profiles import get_profile
from tests.rules.baccarat import seed_tables as seed

LIVE = variants_for(get_profile("LIVE-GG"))["live"]
CL_PYB = variants_for(get_profile("CL-ARICA"))["punto_banca"]
BO_MINI = variants_for(get_profile("BO"))["mini"]
BO_CHEMIN = variants_for(get_profile("BO"))["chemin_de_fer"]
TOTALS = range(10)
THIRDS = range(10)


def two_cards(total: int) -> tuple[str, str]:
    """Two cards worth `total`: a king (0) and the total's card; 0 = K + Q."""
    return ("KS", "QH") if total == 0 else ("KD", "AC" if total == 1 else f"{total}C")


def card_of(value: int, suit: str = "H") -> str:
    return f"10{suit}" if value == 0 else ("A" if value == 1 else str(value)) + suit


def sequence(punto: int, banca: int, third: int, banca_third: int = 4) -> list[str]:
    p1, p2 = two_cards(punto)
    b1, b2 = two_cards(banca)
    return [p1, b1, p2, b2, card_of(third, "S"), card_of(banca_third, "D"), "2C"]


def test_transcriptions_agree_between_seeds():
    t002 = seed.parse_banca_table(seed.SEED_002_BANCA)
    t004 = seed.parse_banca_table(seed.SEED_004_BANCA)
    assert t002 == t004
    assert sorted(t002) == list(range(8))
    for total, (draws, stands) in t002.items():
        assert draws | stands == set(range(10)) and not draws & stands, total
        assert draws == {int(x) for x in seed.SEED_003_BANCA_DRAWS[total].split("-") if x}


@pytest.mark.parametrize("variant", [LIVE, CL_PYB, BO_MINI], ids=lambda v: v.id)
@pytest.mark.parametrize("punto", TOTALS)
@pytest.mark.parametrize("banca", TOTALS)
def test_every_case_uses_exactly_the_cards_the_table_says(variant, punto, banca):
    for third in THIRDS:
        full = parse_cards(sequence(punto, banca, third), "cards")
        need = seed.cards_needed(punto, banca, third)
        coup = play(full[:need], variant)
        assert coup.cards_used == need
        assert coup.natural == (punto >= 8 or banca >= 8)
        assert len(coup.punto) == (3 if need >= 5 and punto <= 5 else 2)
        # one card more than the table allows is impossible, and named by position
        with pytest.raises(RulesError) as err:
            play(full[:need + 1], variant)
        assert err.value.field == f"cards[{need}]"
        # one card fewer than the table requires is rejected too
        if need > 4:
            with pytest.raises(RulesError) as short:
                play(full[:need - 1], variant)
            assert short.value.field == "cards"
            assert "must draw a third card" in short.value.reason


@pytest.mark.parametrize("punto", range(8))
@pytest.mark.parametrize("banca", range(8))
def test_banca_decision_and_final_totals(punto, banca):
    """Final totals follow the transcription: Punto's third then Banca's by the row."""
    for third in THIRDS:
        cards = sequence(punto, banca, third, banca_third=7)
        coup = play(parse_cards(cards[:seed.cards_needed(punto, banca, third)], "cards"), LIVE)
        expect_p = (punto + third) % 10 if punto <= 5 else punto
        p_third = third if punto <= 5 else None
        banca_draws = seed.banca_draws(banca, p_third)
        expect_b = (banca + (third if punto > 5 else 7)) % 10 if banca_draws else banca
        assert (coup.punto_total, coup.banca_total) == (expect_p, expect_b)
        expected = PLAYER if expect_p > expect_b else BANKER if expect_b > expect_p else TIE
        assert coup.winner == expected


@pytest.mark.parametrize("banca", range(8))
def test_chemin_de_fer_choice_at_5(banca):
    """BO Baccarat: at Punto 5 the decider chooses; if he stands Banca follows Punto's table."""
    for third in THIRDS:
        cards = parse_cards(sequence(5, banca, third), "cards")
        drawn = play(cards[:seed.cards_needed(5, banca, third, draw_at_5=True)], BO_CHEMIN, True)
        assert len(drawn.punto) == 3
        stood_need = seed.cards_needed(5, banca, third, draw_at_5=False)
        stood = play(cards[:stood_need], BO_CHEMIN, False)
        assert len(stood.punto) == 2 and stood_need == 4 + (banca <= 5)
        assert len(stood.banca) == (3 if banca <= 5 else 2)
    with pytest.raises(RulesError) as err:
        play(parse_cards(sequence(5, banca, 0), "cards")[:5], BO_CHEMIN, None)
    assert err.value.field == "punto_choice"


def test_choice_given_where_the_table_decides_is_rejected():
    cards = parse_cards(sequence(6, 7, 0)[:4], "cards")
    with pytest.raises(RulesError) as err:
        play(cards, BO_CHEMIN, True)
    assert err.value.field == "punto_choice" and "not applicable" in err.value.reason
    with pytest.raises(RulesError):
        play(parse_cards(sequence(5, 2, 0), "cards")[:6], LIVE, True)


def test_card_values_and_units_digit():
    # seed 002 §2.2.5.1 examples: 7 + 5 -> 2, 9 + 8 -> 7, 6 + 4 -> 0; 10 and figures are 0
    for a, b, total in (("7H", "5S", 2), ("9H", "8S", 7), ("6H", "4S", 0), ("10H", "JS", 0),
                        ("AH", "KS", 1), ("QH", "9S", 9)):
        cards = [a, "KC", b, "KD", "KH", "KS"][:seed.cards_needed(total, 0, 0)]
        assert play(parse_cards(cards, "cards"), LIVE).punto_total == total


def test_fewer_than_four_cards():
    with pytest.raises(RulesError) as err:
        play(parse_cards(["9H", "KS", "3C"], "cards"), LIVE)
    assert err.value.field == "cards"
